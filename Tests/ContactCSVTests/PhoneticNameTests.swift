import ContactCSV
import ContactModel
import Testing

/// A name's reading (how 山田 is said: やまだ) goes between the clients that keep it: Google's `Phonetic ... Name`
/// columns, its older layout's `... Name Yomi`, Outlook's `Given Yomi` and `Surname Yomi`, and the
/// `X-PHONETIC-FIRST-NAME`, `-MIDDLE-NAME` and `-LAST-NAME` properties Apple Contacts and Android write and read.
/// Kept as `X-CSV-FIELD` columns, a CSV's readings reached no phone; an iPhone's readings were left out of CSV.
@Suite struct PhoneticNameTests {
    static func read(_ text: String) -> ContactCSV.ReadResult { ContactCSV.read(Array(text.utf8)) }

    static func phonetic(_ contact: Contact) -> [String] {
        contact.extensions.map { "\($0.name)=\($0.value)" }
    }

    @Test func eachLayoutsReadingColumnsBecomeThePhoneticProperties() {
        let google = Self.read(
            "First Name,Middle Name,Last Name,Phonetic First Name,Phonetic Middle Name,Phonetic Last Name\n"
                + "太郎,一,山田,たろう,はじめ,やまだ\n")
        #expect(google.layout == .google)
        #expect(
            Self.phonetic(google.contacts[0]) == [
                "X-PHONETIC-FIRST-NAME=たろう", "X-PHONETIC-MIDDLE-NAME=はじめ", "X-PHONETIC-LAST-NAME=やまだ",
            ])
        let legacy = Self.read(
            "Name,Given Name,Family Name,Given Name Yomi,Family Name Yomi,Group Membership\n"
                + "山田 太郎,太郎,山田,タロウ,ヤマダ,* My Contacts\n")
        #expect(legacy.layout == .googleLegacy)
        #expect(Self.phonetic(legacy.contacts[0]) == ["X-PHONETIC-FIRST-NAME=タロウ", "X-PHONETIC-LAST-NAME=ヤマダ"])
        let outlook = Self.read(
            "First Name,Last Name,Given Yomi,Surname Yomi,E-mail Address,Business Phone\n"
                + "太郎,山田,タロウ,ヤマダ,taro@example.jp,03-1234-5678\n")
        #expect(outlook.layout == .outlook)
        #expect(Self.phonetic(outlook.contacts[0]) == ["X-PHONETIC-FIRST-NAME=タロウ", "X-PHONETIC-LAST-NAME=ヤマダ"])
    }

    @Test func anAppleCardsReadingFillsGooglesColumnsAndComesBack() throws {
        var contact = Contact()
        contact.name = StructuredName(family: ["李"], given: ["小龙"])
        // Apple writes the names upper case; a hand-made card may not. A comma is escaped as vCard text.
        contact.extensions = [
            Extension(name: "X-PHONETIC-LAST-NAME", value: "Li"),
            Extension(name: "x-phonetic-first-name", value: "Xiao\\,long"),
            Extension(name: "X-PHONETIC-ORG", value: "Gongsi"),
        ]
        let written = String(decoding: ContactCSV.write([contact]), as: UTF8.self)
        let lines = written.split(whereSeparator: \.isNewline)
        #expect(lines.count == 2)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(header[3...5]) == ["Phonetic First Name", "Phonetic Middle Name", "Phonetic Last Name"])
        // (The three columns follow the first, middle and last name, none of which holds a comma here.)
        #expect(lines[1].hasPrefix("小龙,,李,\"Xiao,long\",,Li,"))
        // Google has no column for an organisation's reading: like any other property, it is not written.
        #expect(!written.contains("Gongsi"))
        let again = ContactCSV.read(Array(written.utf8)).contacts[0]
        #expect(Self.phonetic(again) == ["X-PHONETIC-FIRST-NAME=Xiao\\,long", "X-PHONETIC-LAST-NAME=Li"])
    }

    @Test func aSecondReadingOfOnePartIsKeptInAColumnOfItsOwn() {
        var contact = Contact()
        contact.name = StructuredName(family: ["Doe"], given: ["Jo"])
        contact.extensions = [
            Extension(name: "X-PHONETIC-FIRST-NAME", value: "Joe"),
            Extension(name: "X-PHONETIC-FIRST-NAME", value: "Jō"),
        ]
        let written = ContactCSV.write([contact])
        let header = String(decoding: written, as: UTF8.self).prefix { !$0.isNewline }
        #expect(header.components(separatedBy: "Phonetic First Name").count - 1 == 2)
        let again = ContactCSV.read(written).contacts[0]
        #expect(
            again.extensions.map { "\($0.name) \($0.parameters.first?.values.first ?? "")=\($0.value)" } == [
                "X-PHONETIC-FIRST-NAME =Joe", "X-CSV-FIELD Phonetic First Name=Jō",
            ])
    }
}
