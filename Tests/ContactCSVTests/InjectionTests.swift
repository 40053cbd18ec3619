import ContactCSV
import ContactModel
import Testing

/// The injection cases: the CSV formula guard, and values with line breaks that stay one value.
@Suite struct InjectionTests {
    /// The data row of a one-contact file, as written.
    static func dataRow(_ written: [UInt8]) -> String {
        let text = String(decoding: written, as: UTF8.self)
        let headerEnd = text.firstRange(of: "\r\n")!
        return String(text[headerEnd.upperBound...])
    }

    @Test func formulaGuardWritesALeadingQuoteAndReadingGivesTheExactOriginals() {
        var contact = Contact()
        contact.name = StructuredName(given: ["@SUM(1)"])
        contact.note = "=HYPERLINK(\"http://x\")"
        contact.phones = [LabeledValue("+1 555 0100", types: ["cell"])]
        contact.title = "'=already"
        contact.categories = ["-negative"]
        contact.formattedName = ContactCSV.derivedFormattedName(contact)
        let written = ContactCSV.write([contact])
        let row = Self.dataRow(written)

        #expect(row.hasPrefix("'@SUM(1),"))
        #expect(row.contains(",\"'=HYPERLINK(\"\"http://x\"\")\","))
        #expect(row.contains(",''=already,"))
        #expect(row.contains(",'-negative,"))
        #expect(row.contains(",Mobile,'+1 555 0100,"))
        // No field of the row starts with a bare trigger character.
        #expect(!row.contains(",=") && !row.contains(",+") && !row.contains(",@") && !row.contains(",-"))

        let again = ContactCSV.read(written).contacts
        #expect(again == [contact])
        #expect(again.first?.name?.given == ["@SUM(1)"])
        #expect(again.first?.note == "=HYPERLINK(\"http://x\")")
        #expect(again.first?.phones.first?.value == "+1 555 0100")
        #expect(again.first?.title == "'=already")
    }

    @Test(arguments: ["=1+1", "+1", "-1", "@x", "\tx", "\rx", "'=x", "''+x", "'", "''", "'tis", "a=b", "", "'\t"])
    func formulaGuardRoundTripsEveryShape(_ value: String) {
        var contact = Contact(note: value.isEmpty ? nil : value)
        contact.emails = [LabeledValue("a@example.com")]
        contact.formattedName = "a@example.com"
        let again = ContactCSV.read(ContactCSV.write([contact])).contacts
        #expect(again == [contact])
    }

    @Test func aNoteWithLineBreaksAndCommasStaysOneField() {
        var contact = Contact(note: "first line\r\nsecond, with a comma\nthird \"quoted\"\rfourth")
        contact.name = StructuredName(family: ["Doe"], given: ["Jane"])
        contact.formattedName = "Jane Doe"
        let written = ContactCSV.write([contact])
        #expect(
            Self.dataRow(written).contains(",\"first line\r\nsecond, with a comma\nthird \"\"quoted\"\"\rfourth\","))
        let table = CSVSyntax.parse(written)
        #expect(table.rows.count == 2)
        #expect(table.rows.map(\.fields.count) == [table.rows[0].fields.count, table.rows[0].fields.count])
        let result = ContactCSV.read(written)
        #expect(result.contacts == [contact])
        #expect(result.contacts.first?.note?.utf8.elementsEqual(contact.note!.utf8) == true)
    }

}

/// A NUL never reaches CSV output: spreadsheets and C readers end the text there (issue 18, item 14).
@Suite struct CSVNULTests {
    @Test func aNULIsWrittenAsTheReplacementCharacter() {
        var out: [UInt8] = []
        CSVSyntax.append(row: ["a\u{0}b", "plain", "\u{0}"], to: &out)
        #expect(!out.contains(0))
        #expect(String(decoding: out, as: UTF8.self) == "a\u{FFFD}b,plain,\u{FFFD}\r\n")
    }
}
