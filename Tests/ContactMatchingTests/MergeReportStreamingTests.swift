import ContactModel
import Foundation
import SyntheticBook
import Testing
import VCardFormat

@testable import ContactMerge

/// `MergeReport.writeJSON`, which writes `--json` a batch of cards and pairs at a time, against the report built
/// whole and encoded by Foundation's `JSONEncoder`: the same bytes, whatever the batches and parts.
@Suite struct MergeReportStreamingTests {
    /// A generated book of many namesakes, a third of its cards without a UID (their sides get UIDs made from
    /// their content), and 70 cards of one formatted name alone (a key too common to compare by: `blocking`).
    static let book: [UInt8] = {
        let generated = SyntheticBook.generate(
            .init(
                seed: 31, existingPeople: 3_000, incomingDuplicates: 600, incomingNew: 300, traps: 300,
                unlinkedDuplicates: 300, unlinkedTraps: 600))
        var text = ""
        for (k, card) in (generated.existing + generated.incoming).components(separatedBy: "END:VCARD\r\n")
            .enumerated() where card.contains("BEGIN:VCARD")
        {
            let lines = card.components(separatedBy: "\r\n").filter { k % 3 != 0 || !$0.hasPrefix("UID:") }
            text += lines.joined(separator: "\r\n") + "END:VCARD\r\n"
        }
        for k in 0..<70 { text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Front Desk\r\nNOTE:\(k)\r\nEND:VCARD\r\n" }
        return Array(text.utf8)
    }()

    /// What `vcf dedupe --json` wrote before it streamed: the whole report, encoded at once.
    static func wholeReport(
        _ file: ContactsFile, _ entries: [MergeEntry], _ result: MergeResult, incoming: [IncomingCard],
        isDedupe: Bool
    ) -> [UInt8] {
        let pairs = MergeReport.pairs(result, file: file, incoming: incoming, isDedupe: isDedupe)
        let report = MergeReport(file: file, entries: entries, result: result, dryRun: true, suggestions: pairs)
        return Array(report.json().utf8)
    }

    static func streamed(
        _ file: ContactsFile, _ entries: [MergeEntry], _ result: MergeResult, incoming: [IncomingCard],
        isDedupe: Bool
    ) -> (bytes: [UInt8], parts: Int) {
        var out: [UInt8] = []
        var parts = 0
        MergeReport.writeJSON(
            file: file, entries: entries, result: result, dryRun: true, incoming: incoming, isDedupe: isDedupe
        ) {
            out += $0
            parts += 1
        }
        return (out, parts)
    }

    @Test func aDedupesStreamedReportIsItsWholeReport() throws {
        let file = try ContactsFile(bytes: Self.book, name: "book.vcf", countryCode: 1)
        let result = AddressBookMerge(countryCode: 1).dedupe(file.existingCards, file: file.name, lines: file.lines)
        let entries = result.entries.filter { $0.outcome == .merged }
        // More pairs than a batch, a report of several parts, and every member of the report present.
        #expect(result.suggestions.count > MergeReport.batch)
        #expect(result.suggestions.contains { s in file.cards[s.first].keys.uid == nil })
        #expect(result.capped.count > 0)
        #expect(!entries.isEmpty)
        let whole = Self.wholeReport(file, entries, result, incoming: [], isDedupe: true)
        let (streamed, parts) = Self.streamed(file, entries, result, incoming: [], isDedupe: true)
        #expect(whole.count > 2 * MergeReport.partBytes)
        #expect(parts > 2)
        #expect(streamed == whole)
    }

    @Test func aMergesStreamedReportIsItsWholeReport() throws {
        // The book's first half merged into its second: cards merged, added and possible, incoming cards without
        // a UID among them.
        let cards = VCardDocument.read(Self.book).cards
        let half = cards.count / 2
        var existing: [UInt8] = []
        for card in cards[half...] { VCardWriter(version: .v3_0).write(card.contact, into: &existing) }
        let file = try ContactsFile(bytes: existing, name: "contacts.vcf", countryCode: 1)
        let incoming = cards[..<half].map { IncomingCard(contact: $0.contact, file: "in.vcf", line: $0.raw.beginLine) }
        let result = AddressBookMerge(countryCode: 1).merge(incoming, into: file.existingCards)
        #expect(Set(result.entries.map(\.outcome)).isSuperset(of: [.merged, .added, .possible]))
        #expect(result.suggestions.contains { incoming[$0.second].contact.uid == nil })
        let whole = Self.wholeReport(file, result.entries, result, incoming: incoming, isDedupe: false)
        #expect(Self.streamed(file, result.entries, result, incoming: incoming, isDedupe: false).bytes == whole)
    }

    /// An empty file's report: no cards, no pairs, the empty list written as JSONEncoder writes it.
    @Test func anEmptyReportIsItsWholeReport() throws {
        let file = try ContactsFile(bytes: [], name: "empty.vcf", countryCode: nil)
        let result = AddressBookMerge().dedupe(file.existingCards, file: file.name, lines: file.lines)
        let whole = Self.wholeReport(file, [], result, incoming: [], isDedupe: true)
        #expect(Self.streamed(file, [], result, incoming: [], isDedupe: true).bytes == whole)
        #expect(String(decoding: whole, as: UTF8.self).contains("\"cards\" : [\n\n  ]"))
    }
}
