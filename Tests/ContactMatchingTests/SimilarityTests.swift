import ContactMatching
import ContactModel
import Testing

/// Jaro-Winkler, Soundex and address normalisation against published answers (Winkler 1990's examples, the
/// US National Archives' Soundex examples, USPS abbreviations).
@Suite struct SimilarityTests {
    @Test(
        arguments: [
            ("martha", "marhta", 0.961), ("dwayne", "duane", 0.840), ("dixon", "dicksonx", 0.813),
            ("jones", "johnson", 0.832), ("abc", "abc", 1.0), ("abc", "xyz", 0.0),
        ] as [(String, String, Double)])
    func jaroWinkler(_ a: String, _ b: String, _ expected: Double) {
        #expect(abs(Similarity.jaroWinkler(a, b) - expected) < 0.001, "\(a) \(b): \(Similarity.jaroWinkler(a, b))")
        #expect(Similarity.jaroWinkler(a, b) == Similarity.jaroWinkler(b, a))
    }

    @Test(arguments: [
        ("robert", "r163"), ("rupert", "r163"), ("tymczak", "t522"), ("pfister", "p236"), ("ashcraft", "a261"),
        ("lee", "l000"), ("de la cruz", "d426"), ("иванов", "ив"),
    ])
    func soundex(_ name: String, _ code: String) {
        #expect(Similarity.soundex(name) == code)
    }

    @Test func addressesAreNormalised() throws {
        let a = try #require(
            AddressKey(Address(street: "221 N. Oak Ave", locality: "SPRINGFIELD", region: "IL", postalCode: "62704")))
        let b = try #require(
            AddressKey(
                Address(
                    street: "221 North Oak Avenue", locality: "Springfield", region: "Illinois",
                    postalCode: "62704-1234", country: "USA")))
        #expect(a == b)
        #expect(a.number == "221" && a.street == "north oak avenue" && a.postalCode == "62704")
        #expect(AddressKey(Address(locality: "Springfield")) == nil)
    }
}
