import ContactCSV
import ContactModel
import Foundation
import TestSupport
import Testing

/// The authored exports in `Fixtures/csv/` (real header rows of Google Contacts' current and older exports, of
/// Outlook's and of Thunderbird's) against their Contact JSON goldens, and field checks by hand so the goldens are not the only check.
@Suite struct FixtureTests {
    static let fixtures = ["google-contacts.csv", "google-legacy.csv", "outlook.csv", "thunderbird.csv"]

    static func read(_ file: String) throws -> ContactCSV.ReadResult {
        ContactCSV.read(try FixturePaths.bytes("csv/" + file))
    }

    @Test func everyFixtureIsPresentAndRead() throws {
        let files = try FixturePaths.files(in: "csv", withExtension: "csv")
        #expect(files == Self.fixtures.sorted())
    }

    @Test(arguments: fixtures)
    func goldens(_ file: String) throws {
        let result = try Self.read(file)
        #expect(!result.contacts.isEmpty)
        #expect(result.problems.filter { $0.severity == .error }.isEmpty)
        Golden.check(ContactJSON.encode(result.contacts), against: "csv/expected/\(file.dropLast(4)).json")
    }

    @Test func googleContactsFields() throws {
        let result = try Self.read("google-contacts.csv")
        #expect(result.layout == .google)
        #expect(result.problems.isEmpty)
        #expect(result.records.map(\.line) == [2, 11, 14, 15, 16])
        let contacts = result.contacts
        #expect(contacts.count == 5)

        let jane = contacts[0]
        #expect(jane.formattedName == "Dr. Jane Quinn Public PhD")
        #expect(
            jane.name
                == StructuredName(
                    family: ["Public"], given: ["Jane"], additional: ["Quinn"], prefixes: ["Dr."],
                    suffixes: ["PhD"]))
        #expect(jane.organization == Organization(name: "Acme Corp", units: ["Research"]))
        #expect(jane.title == "Chief Scientist")
        #expect(
            jane.emails == [
                LabeledValue("jane@acme.example", types: ["work"], pref: 1),
                LabeledValue("j.public@acme.example", types: ["work"]),
                LabeledValue("jane@home.example", types: ["home"]),
            ])
        #expect(jane.phones.map(\.types) == [["cell"], ["work", "fax"], ["pager"]])
        #expect(
            jane.note == "Met at the \"Future of Contacts\" conference, Berlin.\n"
                + "Likes: tea, chess; dislikes: spam\n=not a formula mid-note")
        #expect(jane.categories == ["Friends", "starred"])
        #expect(jane.addresses.count == 2)
        #expect(
            jane.addresses[0]
                == Address(
                    extended: "Apt 4", street: "12 Elm St", locality: "Springfield",
                    region: "IL", postalCode: "62704", country: "US", types: ["home"]))
        #expect(jane.addresses[1].poBox == "PO Box 7")
        #expect(jane.addresses[1].types == ["work"])
        #expect(jane.urls == [LabeledValue("https://jane.example/blog", label: "Blog")])
        #expect(jane.photo == Photo(uri: "https://lh3.googleusercontent.com/contacts/AKd8gB1xJane"))
        #expect(jane.birthday == "1985-04-15")
        #expect(jane.anniversary == "2010-06-12")
        #expect(
            jane.extensions == [
                Extension(
                    name: "X-CSV-FIELD",
                    parameters: [ExtraParameter(name: "X-COLUMN", values: ["Custom Field 1 - Label"])],
                    value: "Employee ID"),
                Extension(
                    name: "X-CSV-FIELD",
                    parameters: [ExtraParameter(name: "X-COLUMN", values: ["Custom Field 1 - Value"])],
                    value: "E-1234"),
            ])

        let jose = contacts[1]
        #expect(jose.formattedName == "José Núñez")
        #expect(jose.birthday == "--11-02")
        #expect(jose.emails == [LabeledValue("jose@example.es", pref: 1)])
        #expect(
            jose.phones == [
                LabeledValue("+34 600 123 456", types: ["cell"]),
                LabeledValue("+34 600 654 321", types: ["cell"]),
            ])
        #expect(jose.addresses.map(\.label) == ["Casa"])
        #expect(jose.addresses.map(\.types) == [[]])
        #expect(jose.categories == ["Familia"])
        // Event 2 is the anniversary; Event 1 (a graduation) has no field and is kept, like File As. The phonetic
        // names are the properties Apple Contacts and Android keep them in.
        #expect(jose.anniversary == "2012-09-08")
        let kept = jose.extensions.map { ($0.name, $0.parameters.first?.values.first ?? "", $0.value) }
        #expect(
            kept.map(\.0) == [
                "X-PHONETIC-FIRST-NAME", "X-PHONETIC-LAST-NAME", "X-CSV-FIELD", "X-CSV-FIELD", "X-CSV-FIELD",
            ])
        #expect(kept.map(\.1) == ["", "", "File As", "Event 1 - Label", "Event 1 - Value"])
        #expect(kept.map(\.2) == ["Ho-SEH", "NOON-yez", "Núñez\\, José", "Graduation", "2005-06-30"])

        // Family name first and without a space, as a Chinese name is written.
        #expect(contacts[2].formattedName == "李小龍")
        #expect(contacts[2].emails == [LabeledValue("bruce@example.hk", types: ["other"])])
        #expect(contacts[3].formattedName == "Acme Support Desk")
        #expect(contacts[3].name == nil)
        #expect(contacts[3].phones[0].types == ["main"])
        #expect(contacts[3].phones[1] == LabeledValue("+1 555 0142", label: "Google Voice"))
        #expect(contacts[4].formattedName == "anonymous@example.org")
        #expect(contacts[4].nicknames == ["Anon"])
        #expect(contacts[4].addresses == [Address(street: "Somewhere over the rainbow", types: ["other"])])
    }

    @Test func googleLegacyFields() throws {
        let result = try Self.read("google-legacy.csv")
        #expect(result.layout == .googleLegacy)
        #expect(result.problems.isEmpty)
        let contacts = result.contacts
        #expect(contacts.count == 3)
        let hans = contacts[0]
        #expect(hans.formattedName == "Dr. Hans Müller")
        #expect(hans.categories == ["Kollegen", "Starred"])
        #expect(hans.organization == Organization(name: "Firma GmbH", units: ["IT"]))
        #expect(hans.title == "Entwickler")
        #expect(hans.emails[0] == LabeledValue("hans.mueller@firma.example", types: ["work"], pref: 1))
        #expect(hans.urls == [LabeledValue("https://hans.example", label: "Profile")])
        #expect(hans.extensions.map(\.value) == ["H.M."])
        let keiko = contacts[1]
        #expect(keiko.formattedName == "佐藤 恵子")
        #expect(keiko.anniversary == "2015-04-01")
        #expect(keiko.phones.map(\.types) == [["work"], ["work", "fax"]])
        // The whole name's reading has no property of its own and is kept; its parts' readings are Apple's and
        // Android's phonetic names.
        #expect(
            keiko.extensions.map { "\($0.name) \($0.parameters.first?.values.first ?? "")" } == [
                "X-CSV-FIELD Yomi Name", "X-PHONETIC-FIRST-NAME ", "X-PHONETIC-LAST-NAME ",
            ])
        let pizzeria = contacts[2]
        #expect(pizzeria.formattedName == "Pizzeria Roma")
        #expect(pizzeria.emails == [LabeledValue("info@pizzeria-roma.example", types: ["other"], pref: 1)])
        #expect(pizzeria.categories.isEmpty)
    }

    @Test func thunderbirdFields() throws {
        let result = try Self.read("thunderbird.csv")
        #expect(result.layout == .thunderbird)
        // Amina's year of birth alone is no date: kept as written, with a warning at its cell.
        #expect(result.problems.map(\.code) == [.invalidDate])
        #expect(result.problems.map(\.line) == [6])
        #expect(result.problems.first?.message.hasPrefix("Birth Year does not make a date") == true)
        let contacts = result.contacts
        #expect(contacts.count == 5)

        let jane = contacts[0]
        #expect(jane.formattedName == "Jane Doe")
        #expect(jane.name == StructuredName(family: ["Doe"], given: ["Jane"]))
        #expect(jane.nicknames == ["JD"])
        #expect(jane.organization == Organization(name: "Acme, Inc.", units: ["R&D"]))
        #expect(jane.title == "Engineer")
        #expect(
            jane.emails == [LabeledValue("jane@example.com", pref: 1), LabeledValue("jd@work.example")])
        #expect(jane.phones.map(\.types) == [["work"], ["home"], ["fax"], ["pager"], ["cell"]])
        #expect(
            jane.phones.map(\.value) == ["+1 555 0100", "+1 555 0101", "+1 555 0103", "+1 555 0104", "+1 555 0102"])
        // Thunderbird's `Home Address` and `Home Address 2` are the street's two lines, not a whole address.
        #expect(
            jane.addresses == [
                Address(
                    street: "1 Main St\nApt 2", locality: "Springfield", region: "IL", postalCode: "62701",
                    country: "USA", types: ["home"]),
                Address(
                    street: "500 Industrial Pkwy\nSuite 300", locality: "Chicago", region: "IL", postalCode: "60601",
                    country: "USA", types: ["work"]),
            ])
        #expect(
            jane.urls == [
                LabeledValue("https://acme.example/jane", types: ["work"]),
                LabeledValue("https://jane.example", types: ["home"]),
            ])
        #expect(jane.birthday == "1980-05-17")
        #expect(jane.note == "Met at the \"Contacts\" conference.\nLikes tea, chess")
        #expect(jane.extensions.map { $0.parameters[0].values[0] } == ["Screen Name", "Custom 1"])

        // A birthday without a year, as vCard writes it.
        #expect(contacts[1].birthday == "--12-03")
        #expect(contacts[1].addresses == [Address(locality: "München", country: "Deutschland", types: ["home"])])
        // A collected address: the display name is the address.
        #expect(contacts[2].formattedName == "newsletter@shop.example")
        #expect(contacts[2].name == nil)
        #expect(contacts[3].birthday == nil)
        #expect(contacts[3].extensions.map { $0.parameters[0].values[0] } == ["Birth Year", "Custom 4"])
        #expect(contacts[4].organization == Organization(name: "Golden Harvest"))
        #expect(contacts[4].addresses.map(\.street) == ["九龍 彌敦道 1 號"])
    }

    @Test func outlookFields() throws {
        let result = try Self.read("outlook.csv")
        #expect(result.layout == .outlook)
        // Old Outlook writes the Windows code page; the first byte that is not UTF-8 is the curly quote in
        // John's note, on the second physical line of his record.
        #expect(result.problems.map(\.code) == [.invalidEncoding])
        #expect(result.problems.map(\.line) == [3])
        #expect(result.records.map(\.line) == [2, 4, 5, 6])
        let contacts = result.contacts
        #expect(contacts.count == 4)

        let john = contacts[0]
        #expect(john.formattedName == "Mr. John A. Smith Jr.")
        #expect(
            john.name
                == StructuredName(
                    family: ["Smith"], given: ["John"], additional: ["A."], prefixes: ["Mr."],
                    suffixes: ["Jr."]))
        #expect(john.organization == Organization(name: "Contoso Ltd.", units: ["Sales"]))
        #expect(john.title == "Account Manager")
        #expect(john.birthday == "1975-04-15")
        #expect(john.anniversary == nil)
        #expect(john.emails.map(\.value) == ["john.smith@contoso.example", "jsmith@home.example"])
        #expect(john.phones.map(\.types) == [["work", "fax"], ["work"], ["home"], ["cell"]])
        #expect(john.addresses.map(\.types) == [["work"], ["home"]])
        #expect(john.addresses[0].street == "One Microsoft Way\nBuilding 4")
        #expect(john.addresses[0].country == "United States of America")
        #expect(john.categories == ["Business", "VIP"])
        #expect(john.note == "Prefers calls after 2pm.\r\nLikes the “blue” plan, not the red one.")
        #expect(john.urls == [LabeledValue("http://www.contoso.example/jsmith", types: ["work"])])
        // Outlook's "not set" defaults (Priority Normal, Private False...) are dropped; real values are kept.
        let kept = john.extensions.map { $0.parameters[0].values[0] }
        #expect(
            kept == [
                "E-mail Type", "E-mail Display Name", "E-mail 2 Type", "E-mail 2 Display Name", "Gender",
                "Initials", "Spouse",
            ])

        let zoe = contacts[1]
        #expect(zoe.formattedName == "Zoë Ångström")
        #expect(zoe.birthday == nil)
        #expect(zoe.anniversary == "2010-06-01")
        #expect(!zoe.extensions.contains { $0.parameters[0].values[0] == "Gender" })

        let coffee = contacts[2]
        #expect(coffee.formattedName == "Fourth Coffee")
        #expect(
            coffee.phones == [
                LabeledValue("(800) 555-0142", types: ["work"]),
                LabeledValue("(800) 555-0100", label: "Company Main"),
                LabeledValue("(800) 555-0101", pref: 1),
            ])
        #expect(coffee.addresses == [Address(poBox: "42", locality: "Portland", region: "OR", types: ["work"])])
        #expect(coffee.categories == ["Suppliers", "Coffee"])

        let erika = contacts[3]
        #expect(erika.birthday == "1964-12-01")
        #expect(erika.emails.count == 3)
        #expect(erika.phones.map(\.types) == [["car"], ["other"], ["pager"]])
        #expect(
            erika.addresses == [
                Address(
                    street: "Musterweg 7", locality: "München", postalCode: "80331",
                    country: "Germany", types: ["other"])
            ])
    }
}
