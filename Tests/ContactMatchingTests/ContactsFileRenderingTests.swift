import ContactModel
import Testing
import VCardFormat

@testable import ContactMerge

/// The new file a merge writes comes out piece by piece, a batch of new cards at a time: joined, the pieces must be
/// the file with each rewritten card in its place, each removed card gone, every other byte as it was, and the
/// added cards after a line break, whatever the batches.
@Suite struct ContactsFileRenderingTests {
    static func card(_ i: Int) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nN:Family\(i);Person;;;\r\nEND:VCARD\r\n"
    }

    static func contact(_ name: String) -> Contact {
        var contact = Contact()
        contact.formattedName = name
        return contact
    }

    /// The bytes the writer gives `contact` alone.
    static func written(_ contact: Contact) -> [UInt8] {
        var out: [UInt8] = []
        VCardWriter(version: .v3_0).write(contact, into: &out)
        return out
    }

    @Test(arguments: [(10, 3), (9_000, 5_000)])
    func piecesJoinedAreTheFileWithItsChanges(cardCount: Int, addedCount: Int) throws {
        // A file whose last card has no line break after it, so one is written before the added cards.
        var text = (0..<cardCount).map(Self.card).joined()
        text.removeLast()  // "\r\n" is one Character
        let file = try ContactsFile(bytes: Array(text.utf8), name: "book.vcf")
        let replaced = [1: Self.contact("Replaced One"), cardCount - 1: Self.contact("Replaced Last")]
        let removed: Set<Int> = [0, 2, cardCount / 2]
        let added = (0..<addedCount).map { Self.contact("Added \($0)") }

        var pieces: [ArraySlice<UInt8>] = []
        file.writeRendered(replacing: replaced, removing: removed, adding: added) { pieces.append($0) }
        #expect(pieces.allSatisfy { !$0.isEmpty })

        var expected: [UInt8] = []
        for i in 0..<cardCount where !removed.contains(i) {
            if let contact = replaced[i] {
                expected += Self.written(contact)
            } else {
                expected += Array(Self.card(i).utf8)
            }
        }
        // The last card was rewritten, so the file's own last line break is the writer's.
        for contact in added { expected += Self.written(contact) }
        #expect(Array(pieces.joined()) == expected)
        #expect(file.rendered(replacing: replaced, removing: removed, adding: added) == expected)
    }

    @Test func aLineBreakGoesBeforeAddedCardsWhenTheFileEndsWithoutOne() throws {
        var text = Self.card(0) + Self.card(1)
        text.removeLast()  // "\r\n" is one Character
        let file = try ContactsFile(bytes: Array(text.utf8), name: "book.vcf")
        let added = [Self.contact("Added")]
        let expected = Array((text + "\r\n").utf8) + Self.written(added[0])
        #expect(file.rendered(replacing: [:], adding: added) == expected)
        // Nothing added: the file as it was, to the last byte.
        #expect(file.rendered(replacing: [:], adding: []) == Array(text.utf8))
    }
}
