import ContactCSV
import ContactModel
import Testing

/// What the Google layout does not carry, as `ContactCSV` documents it, for cards that did not come from CSV.
@Suite struct WriterLayoutTests {
    static func roundTrip(_ contact: Contact) -> Contact? {
        ContactCSV.read(ContactCSV.write([contact])).contacts.first
    }

    @Test func fieldsOutsideTheLayoutAreDroppedAndTheRestNormalised() {
        var card = Contact(
            uid: "urn:uuid:1", formattedName: "Bob", name: StructuredName(family: ["Smith"], given: ["Robert"]))
        card.role = "Lead"
        card.revision = "2024-01-01T00:00:00Z"
        card.instantMessaging = [LabeledValue("xmpp:bob@example.com")]
        card.emails = [LabeledValue("bob@example.com", types: ["internet", "work"], pref: 2, group: "item1")]
        card.phones = [
            LabeledValue("+1 555 0100", types: ["cell", "voice"], pref: 1),
            LabeledValue("+1 555 0101", types: ["work"], label: "Assistant"),
            LabeledValue("+1 555 0102", types: ["video"]),
        ]
        card.categories = ["starred", "Friends"]
        card.extensions = [Extension(name: "X-ABUID", value: "x")]
        let again = Self.roundTrip(card)
        #expect(again?.uid == nil && again?.role == nil && again?.revision == nil)
        // A messaging address comes back with its service named.
        #expect(
            again?.instantMessaging == [
                LabeledValue(
                    "xmpp:bob@example.com", parameters: [ExtraParameter(name: "X-SERVICE-TYPE", values: ["Jabber"])])
            ])
        #expect(again?.extensions == [])
        // The display name is derived from the name parts.
        #expect(again?.formattedName == "Robert Smith")
        #expect(again?.emails == [LabeledValue("bob@example.com", types: ["work"])])
        #expect(
            again?.phones == [
                LabeledValue("+1 555 0100", types: ["cell"], pref: 1),
                LabeledValue("+1 555 0101", label: "Assistant"),
                LabeledValue("+1 555 0102", label: "Video"),
            ])
        #expect(again?.categories == ["starred", "Friends"])
        let row = String(decoding: ContactCSV.write([card]), as: UTF8.self)
        #expect(row.contains(",* starred ::: Friends,"))
    }

    @Test func aCardKnownOnlyByItsDisplayNameKeepsItAsTheFirstName() {
        let card = Contact(formattedName: "The Plumber", phones: [LabeledValue("+1 555 0199")])
        let again = Self.roundTrip(card)
        #expect(again?.formattedName == "The Plumber")
        #expect(again?.name == StructuredName(given: ["The Plumber"]))
    }

    @Test func keptColumnsGoBackUnderTheirHeadersInEachContactsOrder() {
        func kept(_ header: String, _ value: String) -> Extension {
            Extension(
                name: "X-CSV-FIELD", parameters: [ExtraParameter(name: "X-COLUMN", values: [header])], value: value)
        }
        var first = Contact(formattedName: "a@example.com", emails: [LabeledValue("a@example.com")])
        first.extensions = [kept("Spouse", "Mary"), kept("Hobby", "chess\\, go")]
        var second = Contact(formattedName: "b@example.com", emails: [LabeledValue("b@example.com")])
        second.extensions = [
            kept("File As", "B"), kept("Gender", "Female"), kept("Hobby", "tennis"), kept("Hobby", "golf"),
        ]
        second.anniversary = "2001-02-03"
        var third = Contact(formattedName: "c@example.com", emails: [LabeledValue("c@example.com")])
        third.extensions = [
            kept("Event 1 - Label", "Graduation"), kept("Event 1 - Value", "1999-06-01"), kept("Gender", "Male"),
            kept("Spouse", "Sam"),
        ]
        let written = ContactCSV.write([first, second, third])
        let header = String(decoding: written, as: UTF8.self).split(separator: "\r\n").first.map(String.init) ?? ""
        // The anniversary goes in the first Event group above every kept Event column.
        #expect(header.contains(",Event 2 - Label,Event 2 - Value,"))
        #expect(header.hasSuffix(",Event 1 - Label,Event 1 - Value,Gender,Spouse,Hobby,Hobby"))
        #expect(ContactCSV.read(written).contacts == [first, second, third])
    }
}
