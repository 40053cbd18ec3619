import ContactModel
import Testing
import VCardFormat

/// Apple writes a birthday without a year as a date in the year 1604 with `X-APPLE-OMIT-YEAR=1604`. The model
/// holds the date without a year, so CSV, JSON, 4.0, matching and preview see a birthday rather than an opaque
/// property (or the year 1604); 2.1 and 3.0 output writes Apple's form again.
@Suite struct AppleYearlessDateTests {
    static func card(_ lines: String, version: String = "3.0") -> Contact {
        let text = "BEGIN:VCARD\r\nVERSION:\(version)\r\nFN:Jane\r\n\(lines)END:VCARD\r\n"
        return VCardDocument.read(Array(text.utf8)).cards[0].contact
    }

    static func written(_ contact: Contact, _ version: VCardVersion) -> [String] {
        String(decoding: VCardWriter(version: version).bytes([contact]), as: UTF8.self)
            .components(separatedBy: "\r\n").filter { $0.hasPrefix("BDAY") || $0.hasPrefix("X-ANNIVERSARY") }
    }

    @Test(arguments: ["1604-04-15", "16040415"])
    func aBirthdayWithoutAYearIsOneInTheModel(_ value: String) {
        let jane = Self.card("BDAY;X-APPLE-OMIT-YEAR=1604:\(value)\r\n")
        #expect(jane.birthday == "--04-15")
        #expect(jane.extensions.isEmpty)
        #expect(jane.spelling.omittedYear == "1604")
        #expect(Self.written(jane, .v3_0) == ["BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-15"])
        #expect(Self.written(jane, .v4_0) == ["BDAY:--0415"])
    }

    @Test func theParameterBesideAWholeDateSaysNothingMore() {
        let jane = Self.card("BDAY;X-APPLE-OMIT-YEAR=1604;VALUE=date:1984-04-15\r\n")
        #expect(jane.birthday == "1984-04-15")
        #expect(jane.spelling.omittedYear == nil)
        #expect(Self.written(jane, .v3_0) == ["BDAY:1984-04-15"])
    }

    @Test func whatIsNoDateOrCarriesMoreStaysAsWritten() {
        for line in ["BDAY;X-APPLE-OMIT-YEAR=1604:around Easter", "BDAY;X-APPLE-OMIT-YEAR=1604;LANGUAGE=en:1604-04-15"]
        {
            let jane = Self.card(line + "\r\n")
            #expect(jane.birthday == nil, "\(line)")
            #expect(jane.extensions.map(\.name) == ["BDAY"], "\(line)")
            #expect(Self.written(jane, .v3_0) == [line])
        }
    }

    @Test func theAnniversaryToo() {
        let jane = Self.card("X-ANNIVERSARY;X-APPLE-OMIT-YEAR=1604:1604-06-12\r\n")
        #expect(jane.anniversary == "--06-12")
        #expect(Self.written(jane, .v3_0) == ["X-ANNIVERSARY;X-APPLE-OMIT-YEAR=1604:1604-06-12"])
    }

    /// A date without a year from elsewhere (Google, Evolution) keeps its own form.
    @Test func otherDatesWithoutAYearKeepTheirForm() {
        let jane = Self.card("BDAY:--0415\r\n")
        #expect(jane.birthday == "--0415")
        #expect(Self.written(jane, .v3_0) == ["BDAY:--0415"])
    }
}
