import ContactMerge
import ContactModel
import SyntheticBook
import Testing
import VCardFormat

/// `vcf dedupe` of the labelled book's existing and incoming cards together: no group holds two people, and a
/// second dedupe of the result merges nothing (the first run's result is a fixed point).
@Suite struct SyntheticBookDedupeTests {
    @Test func dedupeJoinsNoTwoPeopleAndASecondRunMergesNothing() {
        let book = SyntheticBook.generate(.init(seed: 7, unlinkedDuplicates: 1_000, unlinkedTraps: 500))
        let cards = VCardDocument.read(Array((book.existing + book.incoming).utf8)).cards.map(\.contact)
        let people = book.existingPeople + book.incomingPeople
        #expect(cards.count == people.count)
        let engine = AddressBookMerge(countryCode: 1)
        let first = engine.dedupe(ExistingCards(cards, countryCode: 1), file: "book", lines: Array(cards.indices))
        var falseMerges = 0
        for (i, entry) in first.entries.enumerated() where entry.outcome == .merged {
            if let into = entry.existing, people[into] != people[i] { falseMerges += 1 }
        }
        #expect(falseMerges == 0)
        #expect(!first.removed.isEmpty)
        var after: [Contact] = []
        for (i, card) in cards.enumerated() where !first.removed.contains(i) { after.append(first.replaced[i] ?? card) }
        let second = engine.dedupe(ExistingCards(after, countryCode: 1), file: "book", lines: Array(after.indices))
        #expect(second.removed.isEmpty, "a second dedupe merged \(second.removed.count) more")
        print("labelled dedupe: \(first.removed.count) merged into other cards, \(falseMerges) false merges")
    }
}
