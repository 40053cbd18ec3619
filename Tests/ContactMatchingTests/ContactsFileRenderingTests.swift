import ContactModel
import Foundation
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
        try file.writeRendered(replacing: replaced, removing: removed, adding: added) { pieces.append($0) }
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
        #expect(try file.rendered(replacing: replaced, removing: removed, adding: added) == expected)
    }

    /// Rewritten cards fill several batches of their own, and the added cards are written on another thread
    /// while the file is copied: the pieces still come in file order.
    @Test func rewrittenCardsOfSeveralBatchesKeepTheirPlaces() throws {
        let cardCount = 9_000
        let text = (0..<cardCount).map(Self.card).joined()
        let file = try ContactsFile(bytes: Array(text.utf8), name: "book.vcf")
        var replaced: [Int: Contact] = [:]
        for i in 0..<cardCount where i % 3 != 0 { replaced[i] = Self.contact("Replaced \(i)") }
        let removed = Set(stride(from: 0, to: cardCount, by: 9))
        let added = (0..<4_500).map { Self.contact("Added \($0)") }
        var expected: [UInt8] = []
        for i in 0..<cardCount where !removed.contains(i) {
            expected += replaced[i].map(Self.written) ?? Array(Self.card(i).utf8)
        }
        for contact in added { expected += Self.written(contact) }
        #expect(try file.rendered(replacing: replaced, removing: removed, adding: added) == expected)
    }

    /// A sink that fails stops the writing there: the error comes back, and nothing more is handed over.
    @Test func aFailingSinkStopsTheWriting() throws {
        struct Full: Error {}
        let text = (0..<3_000).map(Self.card).joined()
        let file = try ContactsFile(bytes: Array(text.utf8), name: "book.vcf")
        let added = (0..<20_000).map { Self.contact("Added \($0)") }
        var handed = 0
        #expect(throws: Full.self) {
            try file.writeRendered(replacing: [5: Self.contact("Replaced")], adding: added) { piece in
                handed += piece.count
                if handed > text.utf8.count + 100_000 { throw Full() }
            }
        }
        #expect(handed < text.utf8.count + 100_000 + 1_000)
    }

    @Test func aLineBreakGoesBeforeAddedCardsWhenTheFileEndsWithoutOne() throws {
        var text = Self.card(0) + Self.card(1)
        text.removeLast()  // "\r\n" is one Character
        let file = try ContactsFile(bytes: Array(text.utf8), name: "book.vcf")
        let added = [Self.contact("Added")]
        let expected = Array((text + "\r\n").utf8) + Self.written(added[0])
        #expect(try file.rendered(replacing: [:], adding: added) == expected)
        // Nothing added: the file as it was, to the last byte.
        #expect(try file.rendered(replacing: [:], adding: []) == Array(text.utf8))
    }
}

/// A contacts file is not held in memory: its bytes are read again, for a card a merge needs whole and for the
/// bytes copied around the rewritten ones. What is copied must be what was read, or nothing is written.
@Suite struct ContactsFileRereadTests {
    /// Bytes another program may change after they were read, counting the bytes read.
    final class ChangingBytes: ContactsFileBytes, @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8]
        private var failure: (any Error)?
        private(set) var largestRead = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        func change(_ body: (inout [UInt8]) -> Void) {
            lock.withLock { body(&bytes) }
        }

        func fail(with error: any Error) { lock.withLock { failure = error } }

        func read(_ range: Range<Int>) throws -> [UInt8] {
            try lock.withLock {
                if let failure { throw failure }
                largestRead = max(largestRead, range.count)
                return Array(bytes[min(range.lowerBound, bytes.count)..<min(range.upperBound, bytes.count)])
            }
        }
    }

    struct ReadFailed: Error {}

    static let text = (0..<200).map(ContactsFileRenderingTests.card).joined()

    @Test func anUnchangedFileIsWrittenFromItsBytesReadAgain() throws {
        let source = ChangingBytes(Self.text)
        let file = try ContactsFile(source: source, name: "book.vcf")
        #expect(file.cards.count == 200)
        #expect(file.byteCount == Self.text.utf8.count)
        #expect(file.contact(at: 7).formattedName == "Person 7")
        let replaced = [3: ContactsFileRenderingTests.contact("Three")]
        let expected = try ContactsFile(bytes: Array(Self.text.utf8), name: "book.vcf").rendered(
            replacing: replaced, removing: [5], adding: [])
        #expect(try file.rendered(replacing: replaced, removing: [5], adding: []) == expected)
        #expect(String(decoding: expected, as: UTF8.self).contains("FN:Three\r\n"))
    }

    /// Each change another program could make between the read and the write: a byte of a card kept, a byte of
    /// a card left out, the file cut short, a card appended.
    @Test(arguments: ["kept", "removed", "cut", "appended"])
    func aFileChangedSinceItWasReadIsNotWritten(change: String) throws {
        let source = ChangingBytes(Self.text)
        let file = try ContactsFile(source: source, name: "book.vcf")
        let removedRange = file.cards[5].byteRange
        source.change { bytes in
            switch change {
            case "kept": bytes[file.cards[150].byteRange.lowerBound + 30] = UInt8(ascii: "X")
            case "removed": bytes[removedRange.lowerBound + 30] = UInt8(ascii: "X")
            case "cut": bytes.removeLast(100)
            default: bytes += Array(ContactsFileRenderingTests.card(999).utf8)
            }
        }
        #expect(throws: ContactsFile.ChangedSinceRead.self) {
            try file.writeRendered(replacing: [:], removing: [5], adding: []) { _ in }
        }
    }

    @Test func aCardThatCannotBeReadAgainStopsTheWrite() throws {
        let source = ChangingBytes(Self.text)
        let file = try ContactsFile(source: source, name: "book.vcf")
        source.fail(with: ReadFailed())
        // The engine asks for the card without a way to fail; the write that would follow refuses.
        #expect(file.contact(at: 3).formattedName == nil)
        #expect(throws: ReadFailed.self) { try file.writeRendered(replacing: [:], adding: []) { _ in } }
        // A card whose bytes changed meanwhile is no card at all: the same.
        let other = ChangingBytes(Self.text)
        let changed = try ContactsFile(source: other, name: "book.vcf")
        other.change { $0.removeFirst(6) }
        _ = changed.contact(at: 0)
        #expect(throws: ContactsFile.ChangedSinceRead.self) {
            try changed.writeRendered(replacing: [:], adding: []) { _ in }
        }
    }

    /// The line ending of added cards is the file's first line's, wherever that line ends: past the start the
    /// charset survey reads, after a first line of 5 MB.
    @Test func addedCardsEndTheirLinesAsTheFilesFirstLineEvenFarIn() throws {
        let text = String(repeating: "x", count: 5 << 20) + "\n" + "BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEND:VCARD\n"
        let file = try ContactsFile(source: ChangingBytes(text), name: "book.vcf")
        #expect(file.lineEnding == [0x0A])
        let written = try file.rendered(replacing: [:], adding: [ContactsFileRenderingTests.contact("New")])
        #expect(!written.contains(0x0D))
        #expect(String(decoding: written.suffix(40), as: UTF8.self).hasSuffix("FN:New\nN:;;;;\nEND:VCARD\n"))
    }

    @Test func aLargeFileIsReadInPartsNotWhole() throws {
        // 10,000 cards of about 1 KB: more than twice the 4 MiB the charset survey reads of the start.
        let cards = 10_000
        let note = "NOTE:" + String(repeating: "A long note about this person. ", count: 32) + "\r\n"
        let text = (0..<cards).map {
            ContactsFileRenderingTests.card($0).replacingOccurrences(of: "END:", with: note + "END:")
        }
        .joined()
        let source = ChangingBytes(text)
        let file = try ContactsFile(source: source, name: "book.vcf")
        #expect(file.cards.count == cards)
        var written = 0
        try file.writeRendered(replacing: [:], adding: [ContactsFileRenderingTests.contact("New")]) {
            written += $0.count
        }
        #expect(written > text.utf8.count)
        // The largest read is the charset survey of the file's start, however large the file.
        #expect(source.largestRead < text.utf8.count / 2, "\(source.largestRead) of \(text.utf8.count) bytes")
    }
}
