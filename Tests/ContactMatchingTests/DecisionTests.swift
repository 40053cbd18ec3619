import ContactMatching
import ContactModel
import Testing

/// The decision rule on the known traps and on the signals that must merge.
@Suite struct DecisionTests {
    static func card(
        _ fn: String, n: StructuredName? = nil, uid: String? = nil, emails: [String] = [],
        phones: [(String, [String])] = [], org: String? = nil, bday: String? = nil
    ) -> Contact {
        Contact(
            uid: uid, formattedName: fn, name: n, organization: org.map { Organization(name: $0) },
            emails: emails.map { LabeledValue($0) }, phones: phones.map { LabeledValue($0.0, types: $0.1) },
            birthday: bday)
    }

    /// The decision for `incoming` against the last of `existing` (the others are there to make keys common).
    static func decide(_ incoming: Contact, _ existing: [Contact], code: Int? = 1) -> MatchDecision {
        let matcher = Matcher(index: ContactIndex(existing.map { MatchKeys($0, countryCode: code) }))
        return matcher.decide(MatchKeys(incoming, countryCode: code), matcher.index.keys[existing.count - 1])
    }

    @Test func sameUIDIsTheSameCardWhateverElseDiffers() {
        let d = Self.decide(
            Self.card("J. Doe", uid: "urn:uuid:0F0E0D0C-0000-4000-8000-000000000001"),
            [Self.card("Jane Doe", uid: "0f0e0d0c-0000-4000-8000-000000000001")])
        #expect(d.kind == .same && d.rule == "uid")
    }

    /// A UID an exporter wrote on every card (`UID:1`) says nothing: on more cards than the cap, rule 1 does not
    /// apply; up to it, the same UID is the same card as ever.
    @Test(arguments: [ContactIndex.identifierCap, ContactIndex.identifierCap + 1])
    func aUIDOnMoreCardsThanTheCapIsAPlaceholder(cards: Int) {
        let existing = (0..<cards).map { Self.card("Person \($0)", uid: "1", emails: ["p\($0)@example.com"]) }
        let d = Self.decide(Self.card("J. Doe", uid: "1"), existing)
        #expect((d.rule == "uid") == (cards <= ContactIndex.identifierCap), "\(d.rule)")
    }

    /// An email on two cards of one name is one person's, so it identifies him as on one card; on the cards of two
    /// people it is shared (a family's), and does not.
    @Test func copiesOfACardShareTheirEmailWithNobody() {
        let jane = Self.card("Jane Roe", emails: ["jane@example.com"])
        #expect(Self.decide(jane, [jane, jane]).rule == "identifier+name")
        let john = Self.card("John Roe", emails: ["jane@example.com"])
        #expect(Self.decide(jane, [john, jane]).rule != "identifier+name")
    }

    /// A card with more emails than a list is searched for (a person's card holding a mailing list's members)
    /// names the emails it shares in its own order, as with a few.
    @Test func aCardWithManyEmailsNamesTheSharedOnesInItsOrder() {
        let own = (0..<30).map { "jane\($0)@example.org" }
        let jane = Self.card(
            "Jane Roe", emails: own + ["jane@roe.example"] + own.map { "x" + $0 } + ["j.roe@work.example"])
        let other = Self.card("Jane Roe", emails: ["j.roe@work.example", "jane@roe.example"])
        let d = Self.decide(jane, [other])
        #expect(d.kind == .same && d.rule == "identifier+name")
        #expect(d.evidence.map(\.description).filter { $0.contains("@") }.count == 2)
        let shared = d.evidence.map(\.description).filter { $0.contains("@") }
        #expect(shared.first?.contains("jane@roe.example") == true, "\(shared)")
        let back = Self.decide(other, [jane]).evidence.map(\.description).filter { $0.contains("@") }
        #expect(back.first?.contains("j.roe@work.example") == true, "\(back)")
    }

    @Test func aSharedEmailWithANicknameMerges() {
        let d = Self.decide(
            Self.card("Bob Smith", emails: [" Robert.Smith@Example.com"]),
            [Self.card("Robert Smith", emails: ["robert.smith@example.com"])])
        #expect(d.kind == .same && d.rule == "identifier+name")
    }

    @Test func aSharedMobileInAnotherFormatMerges() {
        let d = Self.decide(
            Self.card("Smith, John", phones: [("555.010.1234", ["cell"])]),
            [Self.card("John Smith", phones: [("+1 (555) 010-1234", ["CELL"])])])
        #expect(d.kind == .same)
    }

    @Test func aSwitchboardSharedByColleaguesDoesNotMerge() {
        let d = Self.decide(
            Self.card("Ann Lee", phones: [("+1 555 010 2000", ["WORK"])], org: "Acme"),
            [Self.card("Tom Park", phones: [("555-010-2000", ["work", "voice"])], org: "Acme Inc.")])
        #expect(d.kind == .possible)
    }

    @Test func anUntypedNumberOnSeveralCardsIsNotEnough() {
        let switchboard = "+1 555 010 3000"
        let existing = [
            Self.card("Tom Park", phones: [(switchboard, [])]), Self.card("Ann Lee", phones: [(switchboard, [])]),
        ]
        let d = Self.decide(Self.card("Ann Lee", phones: [(switchboard, [])]), existing)
        #expect(d.kind == .possible)
    }

    @Test func aFamilyEmailSharedBySpousesDoesNotMerge() {
        let d = Self.decide(
            Self.card("Mary Jones", emails: ["thejoneses@example.net"]),
            [Self.card("Peter Jones", emails: ["thejoneses@example.net"])])
        #expect(d.kind == .possible)
    }

    @Test func twoJohnSmithsWithNothingInCommonStayApart() {
        let d = Self.decide(
            Self.card("John Smith", emails: ["js1@example.com"]),
            [Self.card("John Smith", emails: ["js2@example.org"])])
        #expect(d.kind == .possible && d.rule == "weak")
    }

    @Test func fatherAndSonSharingTheHomePhoneStayApart() {
        let home = [("+1 555 010 4000", ["HOME"])]
        #expect(
            Self.decide(Self.card("John Smith Jr.", phones: home), [Self.card("John Smith", phones: home)]).kind
                == .possible)
        #expect(
            Self.decide(Self.card("John Smith Sr.", phones: home), [Self.card("John Smith Jr.", phones: home)]).kind
                == .possible)
    }

    @Test func identicalNameAndOrganisationMergeUnlessSomethingConflicts() {
        let a = Self.card("Jane Roe", org: "Acme, Inc.")
        let b = Self.card("jane roe", org: "ACME Inc")
        #expect(Self.decide(a, [b]).kind == .same)
        #expect(
            Self.decide(
                Self.card("Jane Roe", org: "Acme", bday: "1980-01-02"),
                [Self.card("Jane Roe", org: "Acme", bday: "1981-01-02")]
            ).kind == .possible)
        #expect(
            Self.decide(
                Self.card("Jane Roe", emails: ["jroe@acme.example"], org: "Acme"),
                [Self.card("Jane Roe", emails: ["jane.roe@acme.example"], org: "Acme")]
            ).kind == .possible)
    }

    @Test func differentMiddleInitialsOrBirthdaysVetoASharedPhone() {
        let home = [("+1 555 010 5000", ["home"])]
        #expect(
            Self.decide(Self.card("John A. Smith", phones: home), [Self.card("John B. Smith", phones: home)]).kind
                == .possible)
        #expect(
            Self.decide(
                Self.card("John Smith", phones: home, bday: "1970-03-04"),
                [Self.card("John Smith", phones: home, bday: "1999-03-04")]
            ).kind == .possible)
    }

    @Test func nothingInCommonIsDifferent() {
        #expect(Self.decide(Self.card("Ann Lee"), [Self.card("Tom Park")]).kind == .different)
    }

    @Test func theCountryCodeIsTheFilesPrevailingOne() {
        #expect(
            Matcher.prevailingCountryCode([
                "+44 20 7946 0001", "+44 20 7946 0002", "+44 20 7946 0003",
                "+44 20 7946 0004", "+44 20 7946 0005", "+1 555 010 0000", "020 7946 0006",
            ]) == 44)
        #expect(Matcher.prevailingCountryCode(["+44 20 7946 0001"]) == nil)
    }

    /// Cards of many addresses (over `Scoring.addressPairsCompared` pairs) are compared through a set: an address
    /// the two share in full is their best pair wherever it is on each card, as comparing every pair finds it; a
    /// card's copy is found to hold all of its addresses.
    @Test func cardsOfManyAddressesFindTheOneTheyShare() {
        func keys(_ streets: [String]) -> MatchKeys {
            var card = Self.card("Ann Lee", n: StructuredName(family: ["Lee"], given: ["Ann"]))
            card.addresses = streets.map {
                Address(street: $0, locality: "Springfield", region: "IL", postalCode: "62704")
            }
            return MatchKeys(card, countryCode: 1)
        }
        let shared = "221 Oak Street"
        let a = keys((0..<100).map { "\($0 + 1000) Elm Street" } + [shared])
        let b = keys([shared] + (0..<90).map { "\($0 + 5000) Pine Road" })
        let one = Scoring.compare(keys([shared]), keys([shared]), complete: true)
        let many = Scoring.compare(a, b, complete: true)
        #expect(a.addresses.count * b.addresses.count > Scoring.addressPairsCompared)
        #expect(many.fields == one.fields)
        #expect(many.total == one.total)
        #expect(a.couldHold(a) && !a.couldHold(b) && keys([shared]).couldHold(keys([shared])))
    }
}
