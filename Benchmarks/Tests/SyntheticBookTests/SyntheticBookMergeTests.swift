import ContactMerge
import SyntheticBook
import Testing
import VCardFormat

/// The merge on the seeded labelled generator at its default size (10,000 existing cards, 2,000 duplicates, 1,000
/// new people, 500 traps) plus 1,000 unlinked duplicates (no shared identifier; typos in names and birthdays,
/// missing fields, swapped names, abbreviated addresses, moved house, the street in the extended address) and 500
/// traps without identifiers (twins, parents and children, Jr. and Sr., colleagues): no false merge, and at least
/// 97% of all duplicates merged or suggested. The figures are printed for the record.
@Suite struct SyntheticBookMergeTests {
    @Test func noFalseMergesAndNearlyEveryDuplicateMergedOrSuggested() {
        let book = SyntheticBook.generate(.init(seed: 7, unlinkedDuplicates: 1_000, unlinkedTraps: 500))
        let existing = VCardDocument.read(Array(book.existing.utf8)).cards.map(\.contact)
        let incoming = VCardDocument.read(Array(book.incoming.utf8)).cards.enumerated().map {
            IncomingCard(contact: $0.element.contact, file: "incoming", line: $0.offset)
        }
        #expect(book.incomingKinds.contains(.twin))
        let result = AddressBookMerge(countryCode: 1).merge(incoming, into: existing)
        var position: [Int: Int] = [:]
        for (p, person) in book.existingPeople.enumerated() { position[person] = p }
        var falseMerges = 0
        var merged = 0
        for (i, entry) in result.entries.enumerated() where entry.outcome == .merged || entry.outcome == .unchanged {
            if let p = entry.existing, book.existingPeople[p] == book.incomingPeople[i] {
                merged += 1
            } else if entry.existing != nil {
                falseMerges += 1
            }
        }
        // Suggestions: each pair of an existing card and an incoming card's new card.
        var suggested = 0
        var rightSuggestions = 0
        let pairs = Set(result.suggestions.map { [$0.first, $0.second] })
        for s in result.suggestions where book.existingPeople[s.first] == book.incomingPeople[s.second] {
            rightSuggestions += 1
        }
        var bestRight = 0
        var best = 0
        for (i, entry) in result.entries.enumerated() {
            guard let truth = position[book.incomingPeople[i]] else {
                if entry.outcome == .possible { best += 1 }
                continue
            }
            if entry.outcome == .possible {
                best += 1
                if entry.existing == truth { bestRight += 1 }
            }
            if entry.outcome == .added || entry.outcome == .possible, pairs.contains([truth, i]) { suggested += 1 }
        }
        let duplicates = book.incomingKinds.filter { $0 == .duplicate || $0 == .unlinked }.count
        let found = Double(merged + suggested) / Double(duplicates)
        #expect(falseMerges == 0)
        #expect(found >= 0.97, "merged \(merged) and suggested \(suggested) of \(duplicates)")
        print(
            "labelled book: \(duplicates) true pairs; merged \(merged) (\(Self.percent(merged, duplicates))), "
                + "suggested \(suggested) more (together \(Self.percent(merged + suggested, duplicates))), "
                + "\(falseMerges) false merges; \(result.suggestions.count) suggestions, "
                + "\(Self.percent(rightSuggestions, result.suggestions.count)) right; each card's best suggestion "
                + "right \(Self.percent(bestRight, best)) of \(best)")
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "-" : "\((Double(part) * 1000 / Double(whole)).rounded() / 10)%"
    }
}
