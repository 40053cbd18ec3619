import ContactCSV
import ContactModel
import Testing

/// A whole address written in one cell beside its parts (Google's `Address 1 - Formatted`, the `Home Address` of
/// Google's "Outlook CSV" export) is left out only when it says nothing the parts do not: a street typed into it
/// alone, or a note added to it, is kept rather than lost.
@Suite struct WholeAddressTests {
    static func read(_ text: String) -> ContactCSV.ReadResult { ContactCSV.read(Array(text.utf8)) }

    static func keptColumns(_ contact: Contact) -> [String] { contact.extensions.map { $0.parameters[0].values[0] } }

    static let googleHeader =
        "First Name,Last Name,E-mail 1 - Label,E-mail 1 - Value,Address 1 - Label,Address 1 - Formatted,"
        + "Address 1 - Street,Address 1 - City,Address 1 - Postal Code,Address 1 - Country\n"

    @Test func aGoogleWholeAddressOfItsPartsIsLeftOut() {
        let result = Self.read(
            Self.googleHeader + "Ann,Lee,Home,ann@example.com,Home,\"1 Industrial Pkwy\nChicago 60601\nUS\","
                + "1 Industrial Pkwy,Chicago,60601,US\n")
        #expect(result.layout == .google)
        let ann = result.contacts[0]
        #expect(ann.addresses.map(\.street) == ["1 Industrial Pkwy"])
        #expect(Self.keptColumns(ann).isEmpty)
    }

    @Test func aGoogleWholeAddressSayingMoreIsKept() {
        let result = Self.read(
            Self.googleHeader + "Ann,Lee,Home,ann@example.com,Home,\"Flat 3, 1 Mill Lane\nLeeds\",,Leeds,,\n")
        let ann = result.contacts[0]
        #expect(ann.addresses == [Address(street: "", locality: "Leeds", types: ["home"])])
        #expect(Self.keptColumns(ann) == ["Address 1 - Formatted"])
        // (Kept as vCard text, its comma and line break escaped.)
        #expect(ann.extensions[0].value == "Flat 3\\, 1 Mill Lane\\nLeeds")
    }

    @Test func severalAddressesInOneCellAreComparedEachWithItsParts() {
        let result = Self.read(
            Self.googleHeader
                + "Ann,Lee,Home,ann@example.com,Home ::: Work,\"1 Elm St\nLeeds ::: 9 Oak Rd\nYork\","
                + "1 Elm St ::: 9 Oak Rd,Leeds ::: York,,\n")
        let ann = result.contacts[0]
        #expect(ann.addresses.map(\.street) == ["1 Elm St", "9 Oak Rd"])
        #expect(Self.keptColumns(ann).isEmpty)
    }

    @Test func partsWithoutSpacesBetweenThemAreFoundInTheWholeAddress() {
        let result = Self.read(
            "Name,Given Name,Family Name,E-mail 1 - Type,E-mail 1 - Value,Address 1 - Type,Address 1 - Formatted,"
                + "Address 1 - Street,Address 1 - Region,Address 1 - Postal Code\n"
                + "山田太郎,太郎,山田,* Work,t@example.jp,Work,111-4561東京都そのへん123 東ビル11F,そのへん123 東ビル11F,"
                + "東京都,111-4561\n")
        #expect(result.layout == .googleLegacy)
        #expect(Self.keptColumns(result.contacts[0]).isEmpty)
    }

    @Test func anOutlookWholeAddressBesideItsPartsIsKeptWhenItSaysMore() {
        // Google's "Outlook CSV" export writes `Home Address`; a file edited by hand may hold the street only there.
        let header = "First Name,Last Name,E-mail Address,Home Address,Home City,Home Postal Code,Mobile Phone\n"
        let result = Self.read(
            header + "Ann,Lee,ann@example.com,\"12 Quay St, Leeds\",Leeds,LS1 4AP,+44 7700 900123\n"
                + "Bo,Kim,bo@example.com,\"Leeds LS1 4AP\",Leeds,LS1 4AP,+44 7700 900124\n")
        #expect(result.layout == .outlook)
        let (ann, bo) = (result.contacts[0], result.contacts[1])
        #expect(ann.addresses == [Address(locality: "Leeds", postalCode: "LS1 4AP", types: ["home"])])
        #expect(Self.keptColumns(ann) == ["Home Address"])
        #expect(ann.extensions[0].value == "12 Quay St\\, Leeds")
        #expect(Self.keptColumns(bo).isEmpty)
    }

    @Test func aWholeAddressAloneIsTheStreet() {
        let result = Self.read(
            "First Name,Last Name,E-mail Address,Home Address,Mobile Phone\nAnn,Lee,a@x.example,1 Elm St,1\n")
        #expect(result.contacts[0].addresses == [Address(street: "1 Elm St", types: ["home"])])
        #expect(Self.keptColumns(result.contacts[0]).isEmpty)
    }
}

/// Thunderbird's export is told from Outlook's, whose names it shares in part, and its birthday's three columns
/// make one date.
@Suite struct ThunderbirdLayoutTests {
    static let header =
        "First Name,Last Name,Display Name,Nickname,Primary Email,Secondary Email,Work Phone,Home Phone,"
        + "Mobile Number,Home Address,Home City,Job Title,Department,Organization,Birth Year,Birth Month,Birth Day,Notes\n"

    @Test func itsHeaderIsThunderbirdsNotOutlooks() {
        let result = ContactCSV.read(Array((Self.header + "Ann,Lee,Ann Lee,,ann@example.com,,,,,,,,,,,,,\n").utf8))
        #expect(result.layout == .thunderbird)
        #expect(result.contacts[0].emails == [LabeledValue("ann@example.com", pref: 1)])
    }

    @Test(arguments: [
        ("1980", "5", "17", "1980-05-17"), ("", "12", "3", "--12-03"), ("0987", "02", "28", "0987-02-28"),
        (" 2001 ", "1", "9", "2001-01-09"),
    ])
    func birthdays(_ year: String, _ month: String, _ day: String, _ date: String) {
        let row = "Ann,Lee,Ann Lee,,ann@example.com,,,,,,,,,,\(year),\(month),\(day),\n"
        let result = ContactCSV.read(Array((Self.header + row).utf8))
        #expect(result.contacts[0].birthday == date)
        #expect(result.problems.isEmpty)
        #expect(result.contacts[0].extensions.isEmpty)
    }

    @Test(arguments: [("1990", "", ""), ("", "13", "1"), ("abc", "1", "1"), ("", "5", ""), ("1980", "5", "32")])
    func partsThatMakeNoDateAreKeptWithAWarning(_ year: String, _ month: String, _ day: String) {
        let row = "Ann,Lee,Ann Lee,,ann@example.com,,,,,,,,,,\(year),\(month),\(day),\n"
        let result = ContactCSV.read(Array((Self.header + row).utf8))
        let ann = result.contacts[0]
        #expect(ann.birthday == nil)
        let kept = ann.extensions.map { $0.parameters[0].values[0] }
        let written = [("Birth Year", year), ("Birth Month", month), ("Birth Day", day)].filter { !$0.1.isEmpty }
        #expect(kept == written.map(\.0))
        #expect(ann.extensions.map(\.value) == written.map(\.1))
        #expect(result.problems.map(\.code) == [.invalidDate])
        #expect(result.problems.first?.line == 2)
    }
}
