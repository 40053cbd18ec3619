import ContactFormats
import TestSupport
import Testing

/// Format detection on the first bytes of real fixtures and on the edge cases of its rule.
@Suite struct ContactFormatTests {
    @Test(arguments: [
        ("vcard/46-groups-ablabel.vcf", ContactFormat.vcard),
        ("csv/google-contacts.csv", .csv),
        ("csv/outlook.csv", .csv),
        ("convert/contact.json", .json),
        ("jcard/edge-two-cards.json", .jcard),
    ])
    func fixturesAreDetected(_ file: String, _ expected: ContactFormat) throws {
        let bytes = try FixturePaths.bytes(file)
        #expect(ContactFormat.detect(Array(bytes.prefix(64 << 10))) == expected)
    }

    @Test func jCardIsToldFromContactJSON() {
        #expect(ContactFormat.detect(Array(#"["vcard",[["version",{},"text","4.0"]]]"#.utf8)) == .jcard)
        #expect(ContactFormat.detect(Array(#"[{"formattedName":"Ann"}]"#.utf8)) == .json)
        #expect(ContactFormat.detect(Array("\u{FEFF}\r\n  {\"formattedName\":\"Ann\"}".utf8)) == .json)
    }

    @Test func anythingElseIsVCardForItsReaderToReport() {
        #expect(ContactFormat.detect([]) == .vcard)
        #expect(ContactFormat.detect(Array(" \n".utf8)) == .vcard)
        #expect(ContactFormat.detect(Array("BEGIN:VCARD\r\nVERSION:3.0\r\n".utf8)) == .vcard)
        #expect(ContactFormat.detect(Array("name,email\nAnn,ann@example.com\n".utf8)) == .vcard)
    }
}
