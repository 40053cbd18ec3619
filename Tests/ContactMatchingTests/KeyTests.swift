import ContactMatching
import ContactModel
import Testing

/// Normalised keys: phones, emails, names, birthdays, with known answers.
@Suite struct KeyTests {
    @Test(arguments: [
        ("+1 (555) 010-1234", nil, "+15550101234", nil),
        ("555.010.1234", 1, "+15550101234", nil),
        ("1-555-010-1234", 1, "+15550101234", nil),
        ("555-010-1234", nil, "national:5550101234", nil),
        ("020 7946 0123", 44, "+442079460123", nil),
        ("0049 30 1234567", nil, "+49301234567", nil),
        ("011 44 20 7946 0123", 1, "+442079460123", nil),
        ("tel:+1-555-010-1234;ext=12", nil, "+15550101234", "12"),
        ("+1 555 010 1234 x 7", nil, "+15550101234", "7"),
        ("(555) 010-1234 ext. 42", 1, "+15550101234", "42"),
    ] as [(String, Int?, String, String?)])
    func phoneKeys(_ text: String, _ code: Int?, _ number: String, _ ext: String?) throws {
        let key = try #require(PhoneKey(text, countryCode: code))
        #expect(key.number == number)
        #expect(key.ext == ext)
    }

    @Test func shortAndLetteredNumbersAreNotKeys() {
        #expect(PhoneKey("911", countryCode: 1) == nil)
        #expect(PhoneKey("112", countryCode: 49) == nil)
        #expect(PhoneKey("1-800-FLOWERS", countryCode: 1) == nil)
        #expect(PhoneKey("+44 20 7946 0123", countryCode: nil)?.countryCode == 44)
        #expect(PhoneKey("+1 555 010 1234", countryCode: nil)?.countryCode == 1)
        #expect(PhoneKey("+49 30 1234567", countryCode: nil)?.countryCode == 49)
    }

    @Test func emailKeys() {
        #expect(EmailKey.key("  John.Smith@Example.COM ") == "john.smith@example.com")
        #expect(EmailKey.key("mailto:jane@example.org") == "jane@example.org")
        #expect(EmailKey.key("not an address") == nil)
        #expect(EmailKey.key("@example.org") == nil)
    }

    @Test func folding() {
        #expect(TextFolding.fold("  Núñez-García, José ") == "nunez garcia jose")
        #expect(TextFolding.fold("O'Brien") == "obrien")
        #expect(TextFolding.fold("Jürgen Strauß") == "jurgen strauss")
        #expect(TextFolding.fold("Søren") == "soren")
    }

    static func name(_ fn: String, n: StructuredName? = nil) -> PersonName? {
        PersonName(Contact(formattedName: fn, name: n))
    }

    @Test func namesFromFormattedText() throws {
        let a = try #require(Self.name("Smith, John A."))
        #expect((a.given, a.family, a.middleInitials) == ("john", "smith", ["a"]))
        let b = try #require(Self.name("Dr. John Smith Jr."))
        #expect((b.given, b.family, b.generation) == ("john", "smith", "jr"))
        let c = try #require(Self.name("John Smith, Jr."))
        #expect((c.given, c.family, c.generation) == ("john", "smith", "jr"))
        let e = try #require(Self.name("M. Kim"))
        #expect((e.given, e.family) == ("m", "kim"))
        let f = try #require(Self.name("M. Jean Dupont"))
        #expect((f.given, f.family) == ("jean", "dupont"))
        let d = try #require(Self.name("Ludwig van Beethoven"))
        #expect(d.family == "van beethoven")
        #expect(Self.name("Acme Inc.", n: nil).map { _ in true } == true)
        #expect(PersonName(Contact(formattedName: "Acme Inc.", organization: Organization(name: "Acme Inc."))) == nil)
    }

    @Test(arguments: [
        ("John Smith", "Smith, John", PersonName.Relation.identical),
        ("Bob Smith", "Robert Smith", .compatible),
        ("J. Smith", "John Smith", .compatible),
        ("M. Kim", "Michael Kim", .compatible),
        ("José Núñez", "Jose Nunez", .identical),
        ("John Smith", "Jane Smith", .conflicting),
        ("John Smith", "John Smith Jr.", .conflicting),
        ("John Smith Sr.", "John Smith Jr.", .conflicting),
        ("John A. Smith", "John B. Smith", .conflicting),
        ("John A. Smith", "John Smith", .compatible),
        ("John Smith", "John Smyth", .conflicting),
        ("Smith John", "John Smith", .compatible),
    ] as [(String, String, PersonName.Relation)])
    func nameRelations(_ a: String, _ b: String, _ expected: PersonName.Relation) throws {
        let x = try #require(Self.name(a)), y = try #require(Self.name(b))
        #expect(x.relation(to: y) == expected)
        #expect(y.relation(to: x) == expected)
    }

    @Test func birthdays() throws {
        let a = try #require(Birthday("1985-04-15")), b = try #require(Birthday("19850415"))
        #expect(a == b)
        let c = try #require(Birthday("--0415"))
        #expect(!a.conflicts(with: c))
        #expect(a.conflicts(with: try #require(Birthday("1986-04-15"))))
        #expect(a.conflicts(with: try #require(Birthday("1985-05-14"))))
        #expect(Birthday("April 15") == nil)
    }
}
