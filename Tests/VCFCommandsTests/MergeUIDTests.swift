import CardIdentity
import ContactMerge
import ContactModel
import Foundation
import Testing

@testable import VCFCommands

/// The UIDs a merge gives the cards it adds: each card's own UID is made on every processor, and only telling
/// copies of one content apart is done in order. The result must be what giving UIDs one card after another
/// (`ContentUIDs.ensure`, as `lint --fix` and `convert --ensure-uid` do) gives.
@Suite struct MergeUIDTests {
    static func card(_ name: String, uid: String? = nil) -> Contact {
        var contact = Contact()
        contact.formattedName = name
        contact.uid = uid
        return contact
    }

    /// Enough cards for several chunks of the parallel step: copies of one content, cards with a UID (one of
    /// them only white space) between them.
    static let added: [Contact] = (0..<1_500).map { i in
        switch i % 7 {
        case 0: card("Ada \(i % 50)")
        case 1: card("Copy")
        case 2: card("Has \(i)", uid: "kept-\(i)")
        case 3: card("Blank \(i % 3)", uid: "  ")
        default: card("Person \(i)")
        }
    }

    static func oneAfterAnother(_ cards: [Contact], existing: Set<String>) -> [Contact] {
        var uids = ContentUIDs(existing: existing)
        return cards.map { contact in
            var copy = contact
            uids.ensure(&copy)
            return copy
        }
    }

    static func file(_ text: String) throws -> ContactsFile {
        try ContactsFile(bytes: Array(text.utf8), name: "book.vcf")
    }

    @Test func addedCardsGetTheUIDsGivenOneAfterAnother() throws {
        let empty = try Self.file("")
        let made = Merge.withUIDs(Self.added, in: empty, taken: { _ in false })
        #expect(made == Self.oneAfterAnother(Self.added, existing: []))
        #expect(made.allSatisfy { !ContentUIDs.needsUID($0) })
        #expect(Set(made.compactMap(\.uid)).count > 1_000)
    }

    /// When a UID made is already the file's (a card added by an earlier merge), every UID is made again around
    /// the file's UIDs, as giving them one after another around those UIDs does.
    @Test func aUIDTheFileHoldsIsMadeAgainAroundIt() throws {
        let first = Self.oneAfterAnother([Self.added[1]], existing: [])[0].uid!
        let key = String(first.dropFirst("urn:uuid:".count))
        let file = try Self.file("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Old\r\nUID:\(first)\r\nEND:VCARD\r\n")
        let made = Merge.withUIDs(Self.added, in: file, taken: { $0 == first || $0 == key })
        let expected = Self.oneAfterAnother(Self.added, existing: [key, "urn:uuid:" + key])
        #expect(made == expected)
        #expect(!made.contains { $0.uid == first })
    }

    @Test func cardsThatAllHaveUIDsAreLeftAsTheyAre() throws {
        let cards = [Self.card("A", uid: "a"), Self.card("B", uid: "b")]
        #expect(Merge.withUIDs(cards, in: try Self.file(""), taken: { _ in true }) == cards)
    }
}
