import ContactMerge
import LabeledBook
import Testing
import VCardFormat

/// The merge on the seeded labelled generator at its default size (10,000 existing cards, 2,000 duplicates, 1,000
/// new people, 500 traps) plus 1,000 unlinked duplicates (no shared identifier; typos, missing fields, swapped
/// names, abbreviated addresses): no false merge, and at least 97% of all duplicates found.
@Suite struct LabeledBookTests {
    @Test func noFalseMergesAndMostDuplicatesFound() {
        let book = LabeledBook.generate(.init(seed: 7, unlinkedDuplicates: 1_000))
        let existing = VCardDocument.read(Array(book.existing.utf8)).cards.map(\.contact)
        let incoming = VCardDocument.read(Array(book.incoming.utf8)).cards.enumerated().map {
            IncomingCard(contact: $0.element.contact, file: "incoming", line: $0.offset)
        }
        let result = AddressBookMerge(countryCode: 1).merge(incoming, into: existing)
        var falseMerges = 0
        var found = 0
        for (i, entry) in result.entries.enumerated() where entry.outcome == .merged || entry.outcome == .unchanged {
            if let p = entry.existing, book.existingPeople[p] == book.incomingPeople[i] {
                found += 1
            } else {
                falseMerges += 1
            }
        }
        let duplicates = book.incomingKinds.filter { $0 == .duplicate || $0 == .unlinked }.count
        let recall = Double(found) / Double(duplicates)
        #expect(falseMerges == 0)
        #expect(recall >= 0.97, "found \(found) of \(duplicates)")
        print("labelled book: \(found) of \(duplicates) duplicates found (\(recall)), \(falseMerges) false merges")
    }
}
