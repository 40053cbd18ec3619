import ContactCSV
import ContactModel
import Testing

/// Reading edge cases: problems with their lines, encodings, rows, dates, labels and content detection.
@Suite struct ReadingTests {
    static func read(_ text: String) -> ContactCSV.ReadResult { ContactCSV.read(Array(text.utf8)) }

    @Test func anUnterminatedQuoteIsAnErrorAtTheLineTheFieldBegan() {
        let text =
            "First Name,Last Name,Notes,Labels,E-mail 1 - Label,E-mail 1 - Value\r\n"
            + "Ann,Lee,\"two\r\nlines\",,,ann@example.com\r\n"
            + "Bob,\"Ray,never closed\r\n"
            + "Cy,Doe,,,,cy@example.com\r\n"
        let result = Self.read(text)
        #expect(result.contacts.map(\.formattedName) == ["Ann Lee"])
        #expect(result.contacts.first?.note == "two\r\nlines")
        #expect(result.problems.count == 1)
        let problem = result.problems[0]
        #expect(problem.severity == .error)
        #expect(problem.code == .unterminatedQuote)
        #expect(problem.line == 4)
        #expect(problem.column == 5)
        #expect(problem.description.hasPrefix("4:5: error: quoted field is never closed"))
    }

    @Test func windows1252BytesDecode() {
        let bytes: [UInt8] =
            Array("First Name,Last Name,Labels,E-mail 1 - Label,E-mail 1 - Value\r\n".utf8)
            + Array("Jos".utf8) + [0xE9] + Array(",Garc".utf8) + [0xED] + Array("a,,,jose@example.com\r\n".utf8)
            + [0x93] + Array("Ed".utf8) + [0x94] + Array(",Smith,,,\r\n".utf8)
        let result = ContactCSV.read(bytes)
        #expect(result.contacts.map(\.name?.given) == [["José"], ["“Ed”"]])
        #expect(result.contacts.first?.name?.family == ["García"])
        #expect(result.problems.map(\.code) == [.invalidEncoding])
        #expect(result.problems.first?.severity == .warning)
        #expect(result.problems.first?.line == 2)
        #expect(result.problems.first?.column == 4)
    }

    @Test func aByteOrderMarkLFRowsShortRowsAndDoubledQuotes() {
        let text =
            "First Name,Last Name,Organization Name,E-mail 1 - Label,E-mail 1 - Value\n"
            + "Al,\"O\"\"Neil\"\n\n,,\"Acme, Inc.\"\n"
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        let result = ContactCSV.read(bytes)
        #expect(result.layout == .google)
        #expect(result.problems.isEmpty)
        #expect(result.records.map(\.line) == [2, 4])
        #expect(result.contacts.map(\.formattedName) == ["Al O\"Neil", "Acme, Inc."])
    }

    @Test func extraFieldsAreKeptUnderTheirColumnNumber() {
        let result = Self.read(
            "First Name,Last Name,Labels,E-mail 1 - Label,E-mail 1 - Value\r\nA,B,,,a@example.com,,extra\r\n")
        #expect(result.problems.map(\.code) == [.extraFields])
        #expect(result.problems.map(\.line) == [2])
        #expect(
            result.contacts.first?.extensions == [
                Extension(
                    name: "X-CSV-FIELD", parameters: [ExtraParameter(name: "X-COLUMN", values: ["Column 7"])],
                    value: "extra")
            ])
    }

    /// A file cut down to a few columns has too few names peculiar to one layout to tell it, but is read: by
    /// its one peculiar name's layout, or Google's when it has none. It was refused as not a contacts CSV,
    /// which content detection had just said it was.
    @Test(arguments: [
        ("First Name,Last Name,E-mail 1 - Value,Phone 1 - Value\r\nAnn,Lee,ann@x.org,+1 555 0100\r\n", "google"),
        ("First Name,Last Name,E-mail Address,Notes\r\nAnn,Lee,ann@x.org,call\r\n", "outlook"),
        ("First Name,Last Name,Primary Email,Phone\r\nAnn,Lee,ann@x.org,+1 555 0100\r\n", "thunderbird"),
    ])
    func aHeaderCutDownToAFewColumnsIsRead(csv: String, layout: String) {
        let result = Self.read(csv)
        #expect(result.layout?.rawValue == layout)
        #expect(result.problems.isEmpty)
        let contact = result.contacts.first
        #expect(contact?.name?.given == ["Ann"] && contact?.name?.family == ["Lee"])
        #expect(contact?.emails.map(\.value) == ["ann@x.org"])
    }

    /// A row of empty fields only (a spreadsheet's emptied row: separators, quoted empties or spaces) is no
    /// card, as a blank line is not: it was read as an empty card, or one of spaces.
    @Test func aRowOfEmptyFieldsOnlyIsNoCard() {
        let header = "First Name,Last Name,Organization Name,E-mail 1 - Label,E-mail 1 - Value\r\n"
        let result = Self.read(
            header + "Ann,Lee,Acme,Work,a@x.com\r\n,,,,\r\n\"\",\"\",,,\"\"\r\n , ,\t, , \r\nBob,Roe,,,\r\n")
        #expect(result.contacts.map { $0.name?.given } == [["Ann"], ["Bob"]])
        #expect(result.records.map(\.line) == [2, 6])
    }

    /// Two names of a layout are not enough when nothing else is: a table with `Name` and `Title` columns is
    /// not taken for a contacts export.
    @Test func twoKnownNamesAloneAreNotAHeader() {
        #expect(Self.read("Name,Title,amount\r\nAnn,Dr,3\r\n").layout == nil)
    }

    @Test func anUnrecognisedHeaderIsAClearError() {
        let result = Self.read("id,when,amount\r\n1,today,3\r\n")
        #expect(result.layout == nil)
        #expect(result.contacts.isEmpty)
        #expect(result.problems.map(\.code) == [.unknownHeader])
        #expect(
            result.problems.first?.message
                == "expected a Google Contacts, Outlook or Thunderbird CSV header row, found \"id\", \"when\", \"amount\""
        )
        #expect(
            Self.read("").problems.first?.message
                == "expected a Google Contacts, Outlook or Thunderbird CSV header row, found an empty file")
    }

    @Test func outlookDatesAreNormalisedAndOthersKeptWithAWarning() {
        let result = Self.read(
            "First Name,Last Name,Company,Birthday,Anniversary,Job Title\r\n"
                + "A,B,,7/4/1976,1/1/4501,x\r\nC,D,,15.03.1980,1976-07-04,y\r\n")
        #expect(result.layout == .outlook)
        #expect(result.contacts.map(\.birthday) == ["1976-07-04", "15.03.1980"])
        #expect(result.contacts.map(\.anniversary) == [nil, "1976-07-04"])
        #expect(result.problems.map(\.code) == [.invalidDate])
        #expect(
            result.problems.map { "\($0)" } == [
                "3:6: warning: Birthday is not a date in M/D/YYYY form; kept as written"
            ])
    }

    @Test func aPreferredLabelMarksOnlyTheFirstOfSeveralValues() {
        let result = Self.read("First Name,Labels,Phone 1 - Label,Phone 1 - Value\r\nA,,* Home Fax,1 ::: 2 ::: 3\r\n")
        #expect(
            result.contacts.first?.phones == [
                LabeledValue("1", types: ["home", "fax"], pref: 1),
                LabeledValue("2", types: ["home", "fax"]),
                LabeledValue("3", types: ["home", "fax"]),
            ])
    }

    /// Outlook.com's export has its own columns and order; they are found by name like the desktop ones.
    @Test func outlookDotComHeader() {
        let header =
            "First Name,Middle Name,Last Name,Title,Suffix,Nickname,Given Yomi,Surname Yomi,E-mail Address,"
            + "E-mail 2 Address,E-mail 3 Address,Home Phone,Home Phone 2,Business Phone,Business Phone 2,Mobile Phone,"
            + "Car Phone,Other Phone,Primary Phone,Pager,Business Fax,Home Fax,Other Fax,Company Main Phone,Callback,"
            + "Radio Phone,Telex,TTY/TDD Phone,IMAddress,Job Title,Department,Company,Office Location,Manager's Name,"
            + "Assistant's Name,Assistant's Phone,Company Yomi,Business Street,Business City,Business State,"
            + "Business Postal Code,Business Country/Region,Home Street,Home City,Home State,Home Postal Code,"
            + "Home Country/Region,Other Street,Other City,Other State,Other Postal Code,Other Country/Region,"
            + "Personal Web Page,Spouse,Schools,Hobby,Location,Web Page,Birthday,Anniversary,Notes\r\n"
        let fields =
            [
                "Ana", "", "Silva", "Ms.", "", "Aninha", "アナ", "", "ana@example.com", "ana@work.example", "",
                "", "+351 21 000 0001", "", "", "+351 91 000 0002",
            ]
            + Array(repeating: "", count: 36) + ["https://ana.example"] + Array(repeating: "", count: 5)
            + ["3/8/1990", "", ""]
        let result = Self.read(header + fields.joined(separator: ",") + "\r\n")
        #expect(result.layout == .outlook)
        #expect(result.problems.isEmpty)
        let ana = result.contacts.first
        #expect(ana?.formattedName == "Ms. Ana Silva")
        #expect(ana?.nicknames == ["Aninha"])
        #expect(ana?.emails.map(\.value) == ["ana@example.com", "ana@work.example"])
        #expect(
            ana?.phones == [
                LabeledValue("+351 21 000 0001", types: ["home"]),
                LabeledValue("+351 91 000 0002", types: ["cell"]),
            ])
        #expect(ana?.urls == [LabeledValue("https://ana.example", types: ["home"])])
        #expect(ana?.birthday == "1990-03-08")
        #expect(ana?.extensions.map(\.value) == ["アナ"])
    }

    @Test func contentDetection() throws {
        #expect(ContactCSV.looksLikeCSV(Array("First Name,Middle Name,Last Name,Phonetic First Name\r\n".utf8)))
        #expect(ContactCSV.looksLikeCSV(Array("\"Title\",\"First Name\",\"Middle Name\",\"Last Na".utf8)))
        #expect(ContactCSV.looksLikeCSV([0xEF, 0xBB, 0xBF] + Array("Name,Given Name,Family Name".utf8)))
        #expect(!ContactCSV.looksLikeCSV(Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:First Name, Last Name\r\n".utf8)))
        #expect(!ContactCSV.looksLikeCSV(Array("[{\"formattedName\": \"First Name,Last Name,Notes\"}]".utf8)))
        #expect(!ContactCSV.looksLikeCSV(Array("id,First Name,amount\n".utf8)))
        #expect(!ContactCSV.looksLikeCSV([]))
    }
}
