import ContactMatching
import ContactModel
import Testing

/// Middle names written out are compared in full: two people may share every initial of their names (Jean-Pierre
/// and Jean-Paul Dupont, John Adam and John Andrew Smith at one company, Min-jun and Min-ji Kim), and a card that
/// writes the middle name with one letter wrong, or as a nickname, is still the same person's.
@Suite struct MiddleNameTests {
    static func card(
        _ fn: String, given: String, additional: String = "", family: String, org: String? = "Renault",
        bday: String? = nil, email: String? = nil
    ) -> Contact {
        Contact(
            formattedName: fn,
            name: StructuredName(family: [family], given: [given], additional: additional.isEmpty ? [] : [additional]),
            organization: org.map { Organization(name: $0) }, emails: email.map { [LabeledValue($0)] } ?? [],
            birthday: bday)
    }

    static func decide(_ a: Contact, _ b: Contact) -> MatchDecision {
        let matcher = Matcher(index: ContactIndex([MatchKeys(b, countryCode: 1)]))
        return matcher.decide(MatchKeys(a, countryCode: 1), matcher.index.keys[0])
    }

    /// Compound given names and middle names that differ after the first letter: two people, however much else
    /// agrees (one organisation, one birthday, as twins have).
    @Test(arguments: [
        ("Jean-Pierre", "", "Jean-Paul", ""),
        ("Min-jun", "", "Min-ji", ""),
        ("John", "Adam", "John", "Andrew"),
        ("Hans Peter", "", "Hans-Paul", ""),
    ])
    func namesThatShareOnlyInitialsAreTwoPeople(_ a: String, _ am: String, _ b: String, _ bm: String) {
        let x = Self.card("\(a) \(am) Dupont", given: a, additional: am, family: "Dupont", bday: "1980-05-04")
        let y = Self.card("\(b) \(bm) Dupont", given: b, additional: bm, family: "Dupont", bday: "1980-05-04")
        let d = Self.decide(x, y)
        #expect(d.kind != .same, "\(d.rule) \(d.evidence)")
        #expect(
            Matcher.conflict(MatchKeys(x, countryCode: 1), MatchKeys(y, countryCode: 1)) == "different middle names")
        let names = (PersonName(x)!, PersonName(y)!)
        #expect(names.0.relation(to: names.1) == .conflicting)
    }

    /// The same compound name however it is written, with one letter wrong in its second part, with a nickname,
    /// or with an initial: the same person where the rest agrees.
    @Test(arguments: [
        ("Jean-Pierre", "", "Jean Pierre", "", PersonName.Relation.identical),
        ("Sara-Louise", "", "Sara-Kouise", "", .compatible),
        ("John", "Robert", "John", "Bob", .compatible),
        ("John", "Adam", "John", "A.", .identical),
        ("Jean-Pierre", "", "Jean", "P.", .identical),
    ])
    func theSameMiddleNameWrittenAnotherWayAgrees(
        _ a: String, _ am: String, _ b: String, _ bm: String, _ relation: PersonName.Relation
    ) {
        let x = Self.card("\(a) \(am) Chandler", given: a, additional: am, family: "Chandler", bday: "1990-01-02")
        let y = Self.card("\(b) \(bm) Chandler", given: b, additional: bm, family: "Chandler", bday: "1990-01-02")
        #expect(PersonName(x)!.relation(to: PersonName(y)!) == relation)
        #expect(Matcher.conflict(MatchKeys(x, countryCode: 1), MatchKeys(y, countryCode: 1)) == nil)
        #expect(Self.decide(x, y).kind == .same)
    }

    /// A middle name read from FN (no N) is compared as one read from N.
    @Test func aMiddleNameInTheFormattedNameCounts() {
        var x = Self.card("John Adam Smith", given: "", family: "")
        x.name = nil
        var y = Self.card("John Andrew Smith", given: "", family: "")
        y.name = nil
        #expect(PersonName(x)!.middleName == "adam")
        #expect(PersonName(x)!.relation(to: PersonName(y)!) == .conflicting)
        #expect(Self.decide(x, y).kind != .same)
    }
}
