import ContactCSV
import ContactModel
import Foundation
import TestSupport
import Testing

/// Our CSV of each fixture's contacts: the written golden, and re-import to the same cards.
@Suite struct FixtureRoundTripTests {
    /// What the Google layout carries (see `ContactCSV`): it has no display-name column, so a display name
    /// comes back as the derivation from the name parts, organisation or first email; and its phonetic name
    /// columns come before every kept column, so the phonetic names come back first among the extensions.
    /// Nothing else changes for contacts read from CSV.
    static func carried(_ contact: Contact) -> Contact {
        var contact = contact
        contact.formattedName = ContactCSV.derivedFormattedName(contact)
        let phonetic = ["X-PHONETIC-FIRST-NAME", "X-PHONETIC-MIDDLE-NAME", "X-PHONETIC-LAST-NAME"]
        contact.extensions =
            phonetic.flatMap { name in contact.extensions.filter { $0.name == name } }
            + contact.extensions.filter { !phonetic.contains($0.name) }
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
        // `Name` gives the family name first, with a space the derivation leaves out; and its `Yomi Name`, a
        // kept column, comes before the phonetic given and family names.
        #expect(changed == ["佐藤 恵子"])
    }
}
