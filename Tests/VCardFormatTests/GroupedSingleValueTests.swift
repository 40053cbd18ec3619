import ContactModel
import Foundation
import Testing
import VCardFormat

/// A labelled organisation or title, as Google Contacts and khard write it (`item1.ORG:Acme` beside
/// `item1.X-ABLabel:Work`), used to stay a raw property: CSV had no organisation, a preview no company, and
/// matching no employer. The value is now the model's, and the group is kept so the output writes it in that
/// group again, under the label beside it.
@Suite struct GroupedSingleValueTests {
    static func card(_ lines: String, version: String = "3.0") -> Contact {
        let text = "BEGIN:VCARD\r\nVERSION:\(version)\r\nFN:Sam Lee\r\n\(lines)END:VCARD\r\n"
        return VCardDocument.read(Array(text.utf8)).cards[0].contact
    }

    static func lines(_ contact: Contact, _ version: VCardVersion) -> [String] {
        String(decoding: VCardWriter(version: version).bytes([contact]), as: UTF8.self)
            .components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix("item") }
    }

    @Test func aLabelledOrganisationIsTheOrganisation() {
        let sam = Self.card("item1.ORG:Test Inc;R&D\r\nitem1.X-ABLabel:Work\r\n", version: "4.0")
        #expect(sam.organization == Organization(name: "Test Inc", units: ["R&D"]))
        #expect(sam.spelling.groups == ["ORG": "item1"])
        #expect(sam.extensions.map(\.name) == ["X-ABLabel"])
        for version in [VCardVersion.v3_0, .v4_0] {
            #expect(Self.lines(sam, version) == ["item1.ORG:Test Inc;R&D", "item1.X-ABLabel:Work"])
        }
    }

    @Test func eachSingleValueKeepsItsOwnGroup() {
        let sam = Self.card(
            "item1.ORG:Acme\r\nitem1.X-ABLabel:\r\nitem2.TITLE:Engineer\r\nitem2.X-ABLabel:\r\n"
                + "ITEM3.NOTE:Call after 5\r\nitem4.BDAY:1980-01-02\r\n")
        #expect(sam.organization?.name == "Acme")
        #expect(sam.title == "Engineer")
        #expect(sam.note == "Call after 5")
        #expect(sam.birthday == "1980-01-02")
        #expect(sam.spelling.groups == ["ORG": "item1", "TITLE": "item2", "NOTE": "ITEM3", "BDAY": "item4"])
        #expect(
            Self.lines(sam, .v3_0) == [
                "item1.ORG:Acme", "item2.TITLE:Engineer", "item4.BDAY:1980-01-02", "ITEM3.NOTE:Call after 5",
                "item1.X-ABLabel:", "item2.X-ABLabel:",
            ])
    }

    @Test func aNewLabelTakesAGroupNoValueHas() {
        var sam = Self.card("item1.ORG:Acme\r\nitem1.X-ABLabel:Work\r\n")
        sam.emails = [LabeledValue("sam@example.com", label: "School")]
        #expect(
            Self.lines(sam, .v3_0) == [
                "item1.ORG:Acme", "item2.EMAIL:sam@example.com", "item2.X-ABLabel:School", "item1.X-ABLabel:Work",
            ])
    }

    @Test func theGroupsTravelInContactJSON() throws {
        let sam = Self.card("item1.ORG:Acme\r\nitem1.X-ABLabel:Work\r\n")
        let again = try JSONDecoder().decode(Contact.self, from: JSONEncoder().encode(sam))
        #expect(again == sam)
        #expect(again.spelling.groups == ["ORG": "item1"])
    }

    @Test func aGroupedValueWithParametersTheModelCannotHoldStaysAsWritten() {
        let sam = Self.card("item1.NOTE;LANGUAGE=de:Hallo\r\nitem2.ORG;SORT-AS=Acme:ACME\r\n")
        #expect(sam.note == nil)
        #expect(sam.organization == nil)
        #expect(sam.spelling.groups.isEmpty)
        #expect(sam.extensions.map(\.name) == ["NOTE", "ORG"])
    }
}
