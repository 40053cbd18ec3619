import ContactCSV
import ContactModel
import Foundation
import TestSupport
import Testing

/// Our CSV of each fixture's contacts: the written golden, and re-import to the same cards.
@Suite struct FixtureRoundTripTests {
    /// What the Google layout carries (see `ContactCSV`): it has no display-name column, so a display name
    /// comes back as the derivation from the name parts, organisation or first email. Nothing else changes for
    /// contacts read from CSV.
    static func carried(_ contact: Contact) -> Contact {
        var contact = contact
        contact.formattedName = ContactCSV.derivedFormattedName(contact)
        return contact
    }

    @Test func googleContactsWrittenGolden() throws {
        let result = try FixtureTests.read("google-contacts.csv")
        Golden.check(ContactCSV.write(result.contacts), against: "csv/expected/google-contacts.written.csv")
    }

    @Test(arguments: FixtureTests.fixtures)
    func ourCSVReimportsToTheSameCards(_ file: String) throws {
        let cards = try FixtureTests.read(file).contacts
        let written = ContactCSV.write(cards)
        let again = ContactCSV.read(written)
        #expect(again.layout == .google)
        #expect(again.problems.isEmpty)
        #expect(again.contacts == cards.map(Self.carried))
        // Writing what we read back gives the same bytes.
        #expect(
            String(decoding: ContactCSV.write(again.contacts), as: UTF8.self)
                == String(decoding: written, as: UTF8.self))
    }

    @Test func theDisplayNameIsTheOnlyNormalisationAndOnlyTheOlderLayoutNeedsIt() throws {
        for file in ["google-contacts.csv", "outlook.csv"] {
            let cards = try FixtureTests.read(file).contacts
            #expect(cards.map(Self.carried) == cards, "\(file)")
        }
        let legacy = try FixtureTests.read("google-legacy.csv").contacts
        let changed = zip(legacy, legacy.map(Self.carried)).filter { $0 != $1 }.map(\.0.formattedName)
        // `Name` gives the family name first; the derivation puts the given name first.
        #expect(changed == ["佐藤 恵子"])
    }
}
