import ContactMerge
import ContactModel
import TestSupport
import Testing
import VCardFormat

/// What a merge keeps of a card's spelling: a card read again from a file decodes as the whole file did, and a
/// label taken from the incoming card keeps its form (Apple's token or the text as written).
@Suite struct MergeFidelityTests {
    /// A 2.1 book whose first card declares Windows-1255 and whose second card's Hebrew (`דן`, bytes E3 EF)
    /// declares nothing: read alone, those two bytes look Cyrillic to the detector (`гп`); read again from the
    /// file for a merge, the card must decode as the whole file did.
    @Test func aCardReadAgainDecodesAsTheWholeFile() throws {
        let bytes =
            Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=WINDOWS-1255:A\r\nEND:VCARD\r\n".utf8)
            + Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN:".utf8) + [0xE3, 0xEF] + Array("\r\nEND:VCARD\r\n".utf8)
        let whole = VCardDocument.read(bytes).cards.map(\.contact)
        #expect(whole[1].formattedName == "דן")
        let file = try ContactsFile(bytes: bytes, name: "book.vcf")
        #expect(file.cards.count == 2)
        // Alone, the card is read otherwise: the case this test is about.
        let alone = VCardDocument.read(Array(bytes[file.cards[1].byteRange])).cards[0].contact
        #expect(alone.formattedName != "דן", "\(alone.formattedName ?? "")")
        for position in file.cards.indices { #expect(file.contact(at: position) == whole[position]) }
        // The existing cards a merge sees are those.
        #expect(file.existingCards.card(1).formattedName == "דן")
    }

    /// REV compares as its digits whatever the spelling (extended or basic, a date alone, a time zone), so the
    /// newer card's single values win; digits of other scripts are not a date's.
    @Test func theNewerRevisionWinsWhateverItsSpelling() {
        func winner(existing: String?, incoming: String?) -> String? {
            var a = Contact(formattedName: "Existing")
            a.revision = existing
            var b = Contact(formattedName: "Incoming")
            b.revision = incoming
            return ContactMerger().merge(b, into: a).contact.formattedName
        }
        #expect(winner(existing: "2024-01-02T03:04:05Z", incoming: "20240102T030404Z") == "Existing")
        #expect(winner(existing: "20240102T030405Z", incoming: "2024-01-02T03:04:06Z") == "Incoming")
        #expect(winner(existing: "2024-01-02T03:04:05Z", incoming: "2024-01-02T03:04:05+00:00") == "Incoming")
        #expect(winner(existing: "2024-01-02", incoming: "20240101T235959Z") == "Existing")
        #expect(winner(existing: "2024-01-02T00:00:00Z", incoming: "2024-01-02") == "Incoming")
        #expect(winner(existing: "2024-01-02T00:00:01Z", incoming: "2024-01-02") == "Existing")
        #expect(winner(existing: "2024-01-02T00:00:00Z", incoming: "٢٠٢٥-01-02") == "Existing")
        #expect(winner(existing: nil, incoming: "2020") == "Incoming")
        #expect(winner(existing: "2020", incoming: nil) == "Existing")
    }

    /// A URL written with or without its scheme, `www.` or a closing slash is one URL, and a TYPE differing only
    /// in case is one type: the merge adds neither again.
    @Test func urlsAndTypesThatDifferInSpellingOnlyAreKeptOnce() {
        var existing = Contact(formattedName: "Ann")
        existing.urls = [LabeledValue("https://www.example.com/", types: ["WORK"])]
        existing.emails = [LabeledValue("ann@example.com", types: ["home"])]
        var incoming = Contact(formattedName: "Ann")
        incoming.urls = [
            LabeledValue(" HTTP://Example.com// ", types: ["work"]),
            LabeledValue("http://example.com/ann", types: []),
            LabeledValue("https://bücher.example/", types: []),
        ]
        incoming.emails = [LabeledValue("ANN@example.com", types: ["HOME", "Internet"])]
        let merged = ContactMerger(preference: .existing).merge(incoming, into: existing).contact
        #expect(
            merged.urls.map(\.value) == [
                "https://www.example.com/", "http://example.com/ann", "https://bücher.example/",
            ])
        #expect(merged.urls[0].types == ["WORK"])
        #expect(merged.emails.map(\.value) == ["ann@example.com"])
        #expect(merged.emails[0].types == ["home", "Internet"])
    }

    @Test func aLabelTakenFromTheIncomingCardKeepsItsForm() {
        let existing = Contact(
            formattedName: "Ann Lee", phones: [LabeledValue("+1 555 0100")], addresses: [Address(street: "1 Main St")])
        let google = Contact(
            formattedName: "Ann Lee", phones: [LabeledValue("+1 555 0100", label: "Other")],
            addresses: [Address(street: "1 Main St", label: "Cabin")])
        let apple = Contact(
            formattedName: "Ann Lee", phones: [LabeledValue("+1 555 0100", label: "Home", appleLabel: true)])
        let fromGoogle = ContactMerger().merge(google, into: existing).contact
        #expect(fromGoogle.phones[0].label == "Other" && !fromGoogle.phones[0].appleLabel)
        #expect(fromGoogle.addresses[0].label == "Cabin" && !fromGoogle.addresses[0].appleLabel)
        let fromApple = ContactMerger().merge(apple, into: existing).contact
        #expect(fromApple.phones[0].label == "Home" && fromApple.phones[0].appleLabel)
        // Written: Google's label as written, Apple's as Apple's token.
        let written = { (contact: Contact) in String(decoding: VCardWriter().bytes([contact]), as: UTF8.self) }
        #expect(written(fromGoogle).contains(".X-ABLabel:Other\r\n"))
        #expect(written(fromApple).contains(".X-ABLabel:_$!<Home>!$_\r\n"))
    }

    /// Emails are unioned by key whatever the number of values (a few searched in a list, many in a dictionary):
    /// each key once at its first place, new ones appended in order, a known one's new types added to it.
    @Test(arguments: [(4, 3), (12, 30)]) func valuesAreUnionedOnceByKeyInOrder(existing: Int, incoming: Int) {
        var a = Contact(formattedName: "A")
        a.emails = (0..<existing).map { LabeledValue("User\($0)@Example.com", types: ["home"]) }
        a.emails.append(LabeledValue("user0@example.com", types: ["other"]))  // the same key twice
        var b = Contact(formattedName: "A")
        b.emails = (existing / 2..<existing / 2 + incoming).map {
            LabeledValue("user\($0)@example.com", types: ["work"])
        }
        let (merged, changes) = ContactMerger().merge(b, into: a)
        let expected =
            (0..<existing).map { "User\($0)@Example.com" } + ["user0@example.com"]
            + (existing..<existing / 2 + incoming).map { "user\($0)@example.com" }
        #expect(merged.emails.map(\.value) == expected)
        for i in existing / 2..<existing { #expect(merged.emails[i].types == ["home", "work"]) }
        #expect(merged.emails[existing].types == ["other"])
        #expect(changes.filter { $0.action == .added }.count == existing / 2 + incoming - existing)
    }

    /// Addresses are unioned as one address written two ways (abbreviations, ZIP+4, a country on one side only)
    /// whatever their number (a few searched in a list, many through their exact keys): each at its first place,
    /// new ones appended in order, a known one's new types added to it; two countries make two addresses.
    @Test(arguments: [(4, 3), (12, 30)]) func addressesAreUnionedOnceInOrder(existing: Int, incoming: Int) {
        func address(_ street: String, country: String, types: [String]) -> Address {
            Address(
                street: street, locality: "Springfield", region: "IL", postalCode: "62704", country: country,
                types: types)
        }
        var a = Contact(formattedName: "A")
        a.addresses = (0..<existing).map {
            address("\($0) North Oak Avenue", country: $0 % 2 == 0 ? "USA" : "", types: ["home"])
        }
        a.addresses.append(address("0 North Oak Avenue", country: "Canada", types: ["home"]))
        var b = Contact(formattedName: "A")
        b.addresses = (existing / 2..<existing / 2 + incoming).map {
            var moved = address("\($0) N. Oak Ave", country: $0 % 3 == 0 ? "" : "USA", types: ["work"])
            moved.postalCode = "62704-1234"
            return moved
        }
        b.addresses.append(address("0 N Oak Ave", country: "canada", types: ["other"]))
        let (merged, changes) = ContactMerger().merge(b, into: a)
        let expected =
            (0..<existing).map { "\($0) North Oak Avenue" } + ["0 North Oak Avenue"]
            + (existing..<existing / 2 + incoming).map { "\($0) N. Oak Ave" }
        #expect(merged.addresses.map(\.street) == expected)
        for i in existing / 2..<existing { #expect(merged.addresses[i].types == ["home", "work"]) }
        #expect(merged.addresses[0].types == ["home"])
        #expect(merged.addresses[existing].types == ["home", "other"])
        #expect(changes.filter { $0.action == .added }.count == existing / 2 + incoming - existing)
    }

    /// One country written two ways (a code, a name in English or another language, a three-letter code) is one
    /// address, through the many-address path too; two countries are two addresses.
    @Test(arguments: [1, 20]) func oneCountryWrittenTwoWaysIsOneAddress(copies: Int) {
        let pairs: [(String, String, Bool)] = [
            ("USA", "US", true), ("United States", "Vereinigte Staaten", true), ("Deutschland", "DEU", true),
            ("日本", "Japan", true), ("United Kingdom", "uk", true), ("España", "Spain", true),
            ("US", "GB", false), ("Germany", "Austria", false), ("Atlantis", "atlantis", true),
            ("Atlantis", "US", false),
        ]
        for (first, second, same) in pairs {
            var a = Contact(formattedName: "A")
            a.addresses = (0..<copies).map { Address(street: "\($0) Main St", postalCode: "30303", country: first) }
            var b = Contact(formattedName: "A")
            b.addresses = (0..<copies).map { Address(street: "\($0) Main St", postalCode: "30303", country: second) }
            let merged = ContactMerger().merge(b, into: a).contact
            #expect(merged.addresses.count == (same ? copies : 2 * copies), "\(first) \(second)")
            #expect(merged.addresses.prefix(copies).allSatisfy { $0.country == first })
        }
    }

    /// One date written two ways (extended and basic, Apple's year-less form read as `--04-15` and another
    /// client's `--0415`) is no change; another date is.
    @Test func oneDateWrittenTwoWaysIsNoChange() {
        for (existing, incoming, changed) in [
            ("1985-04-15", "19850415", false), ("--04-15", "--0415", false), ("1985-04-15", "1985-04-16", true),
            ("--04-15", "1985-04-15", true), ("1985-04-15", "15 April 1985", true),
        ] {
            var a = Contact(formattedName: "A")
            a.birthday = existing
            a.anniversary = existing
            var b = Contact(formattedName: "A")
            b.birthday = incoming
            b.anniversary = incoming
            let (merged, changes) = ContactMerger().merge(b, into: a)
            #expect(changes.map(\.field) == (changed ? ["BDAY", "ANNIVERSARY"] : []), "\(existing) \(incoming)")
            #expect(merged.birthday == (changed ? incoming : existing))
        }
    }

    /// A value that says less of the same thing (parts, accents or a year left out, as a CSV export writes a
    /// name) never replaces the existing one, whichever card is newer; the report lists it as kept. A value
    /// that says something else, or more, replaces it as before.
    @Test func aValueThatSaysLessNeverReplacesOne() {
        func merged(_ existing: Contact, _ incoming: Contact) -> (Contact, [String]) {
            let (contact, changes) = ContactMerger(preference: .incoming).merge(incoming, into: existing)
            return (contact, changes.map { "\($0.field) \($0.action.rawValue)" })
        }
        for (existing, incoming, replaced) in [
            ("Dr. María García López", "María García López", false),
            ("María García López", "Maria Garcia Lopez", false),
            ("John Smith", "Smith", false), ("Maria Garcia", "María García", true), ("Robert Smith", "Bob Smith", true),
            ("Jon Smith", "John Smith", true), ("John Smith", "John Smith Jr.", true),
        ] {
            let (contact, changes) = merged(Contact(formattedName: existing), Contact(formattedName: incoming))
            #expect(contact.formattedName == (replaced ? incoming : existing), "\(existing) <- \(incoming)")
            #expect(changes == [replaced ? "FN replaced" : "FN kept"], "\(existing) <- \(incoming)")
        }
        let maria = StructuredName(family: ["García López"], given: ["María"], prefixes: ["Dr."])
        for (incoming, replaced) in [
            (StructuredName(family: ["García López"], given: ["María"]), false),
            (StructuredName(family: ["Garcia"], given: ["Maria"]), false),
            (StructuredName(family: ["García López"], given: ["María José"], prefixes: ["Dr."]), true),
            (StructuredName(family: ["García López"], given: ["María"], prefixes: ["Prof."]), true),
        ] {
            let (contact, _) = merged(Contact(name: maria), Contact(name: incoming))
            #expect(contact.name == (replaced ? incoming : maria), "\(incoming)")
        }
        for (existing, incoming, replaced) in [
            (Organization(name: "Acme S.L.", units: ["Ventas"]), Organization(name: "Acme S.L."), false),
            (Organization(name: "Acme Inc."), Organization(name: "ACME"), false),
            (Organization(name: "Acme"), Organization(name: "Acme", units: ["Sales"]), true),
            (Organization(name: "Acme", units: ["Sales"]), Organization(name: "Globex", units: ["Sales"]), true),
        ] {
            var a = Contact(formattedName: "A")
            a.organization = existing
            var b = Contact(formattedName: "A")
            b.organization = incoming
            #expect(merged(a, b).0.organization == (replaced ? incoming : existing), "\(existing) <- \(incoming)")
        }
        for (existing, incoming, replaced) in [
            ("1980-05-06", "--05-06", false), ("1980-05-06", "--0506", false), ("1980-05-06", "--05-07", true),
        ] {
            var a = Contact(formattedName: "A")
            a.birthday = existing
            var b = Contact(formattedName: "A")
            b.birthday = incoming
            let (contact, changes) = merged(a, b)
            #expect(contact.birthday == (replaced ? incoming : existing), "\(existing) <- \(incoming)")
            #expect(changes == [replaced ? "BDAY replaced" : "BDAY kept"])
        }
    }

    /// Without the book's country code, a number written without its country is read in the country of the two
    /// cards' international numbers when they are all of one: one line, not two. With numbers of two countries
    /// nothing is assumed.
    @Test func aNationalNumberIsReadInTheCountryOfTheCardsOtherNumbers() {
        func phones(_ existing: [String], _ incoming: [String]) -> [String] {
            var a = Contact(formattedName: "A")
            a.phones = existing.map { LabeledValue($0) }
            var b = Contact(formattedName: "A")
            b.phones = incoming.map { LabeledValue($0) }
            return ContactMerger().merge(b, into: a).contact.phones.map(\.value)
        }
        #expect(phones(["(555) 010-0100"], ["+1 555-010-0100"]) == ["(555) 010-0100"])
        #expect(phones(["+44 20 7946 0123"], ["020 7946 0123"]) == ["+44 20 7946 0123"])
        #expect(phones(["(555) 010-0100"], ["+1 555-010-0199"]) == ["(555) 010-0100", "+1 555-010-0199"])
        #expect(
            phones(["020 7946 0123", "+1 555 010 0100"], ["+44 20 7946 0123"])
                == ["020 7946 0123", "+1 555 010 0100", "+44 20 7946 0123"])
        // The book's code, when given, reads every national number.
        var a = Contact(formattedName: "A")
        a.phones = [LabeledValue("020 7946 0123"), LabeledValue("+1 555 010 0100")]
        var b = Contact(formattedName: "A")
        b.phones = [LabeledValue("+44 20 7946 0123")]
        #expect(ContactMerger(countryCode: 44).merge(b, into: a).contact.phones.count == 2)
    }

    /// Notes are compared trimmed of white space and line breaks of any script at either end (ideographic and
    /// no-break spaces included), whether the note is ASCII or not.
    @Test func notesAreComparedTrimmed() {
        func merged(_ existing: String?, _ incoming: String?) -> (String?, [FieldChange.Action]) {
            var a = Contact(formattedName: "A")
            a.note = existing
            var b = Contact(formattedName: "A")
            b.note = incoming
            let (card, changes) = ContactMerger().merge(b, into: a)
            return (card.note, changes.filter { $0.field == "NOTE" }.map(\.action))
        }
        #expect(merged("会議の後で連絡する\u{3000}", "会議の後で") == ("会議の後で連絡する\u{3000}", []))
        #expect(merged("会議の後で", "\u{A0}会議の後で連絡する\n") == ("\u{A0}会議の後で連絡する\n", [.replaced]))
        #expect(merged("Call back\u{2028}", " Call back ") == ("Call back\u{2028}", []))
        #expect(merged("\u{3000}\n", "Новая заметка") == ("Новая заметка", [.added]))
        #expect(
            merged("Allergic to peanuts!", "Owes me lunch 🍜") == ("Allergic to peanuts!\n\nOwes me lunch 🍜", [.joined]))
        #expect(merged("Owes me lunch 🍜", "\t\u{85}") == ("Owes me lunch 🍜", []))
    }
}
