import ContactCSV
import ContactModel
import Testing

/// A Chinese, Japanese or Korean name is shown family name first and without a space, as it is written; a CSV
/// export carries no FN, so the FN a card gets from its name parts must be that one.
@Suite struct EastAsianNameTests {
    @Test(arguments: [
        (["太郎"], ["山田"], "山田太郎"), (["민준"], ["김"], "김민준"), (["小龙"], ["李"], "李小龙"),
        (["さくら"], ["佐々木"], "佐々木さくら"), (["John"], ["Smith"], "John Smith"), (["John"], ["山田"], "John 山田"),
        (["太郎"], [], "太郎"), (["Ａｎｎａ"], ["李"], "Ａｎｎａ 李"),
    ])
    func displayNames(_ given: [String], _ family: [String], _ shown: String) {
        #expect(StructuredName(family: family, given: given).displayName == shown)
    }

    @Test func aGoogleExportsEastAsianNamesGetTheirFN() {
        let text =
            "First Name,Middle Name,Last Name,Organization Name,Labels,E-mail 1 - Label,E-mail 1 - Value\r\n"
            + "太郎,,山田,,* myContacts,Home,t@example.jp\r\n민준,,김,,,,\r\nJohn,,Smith,,,,\r\n"
        let contacts = ContactCSV.read(Array(text.utf8)).contacts
        #expect(contacts.map(\.formattedName) == ["山田太郎", "김민준", "John Smith"])
    }
}
