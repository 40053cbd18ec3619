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

    /// The same fixtures in UTF-16, as Windows tools write them, in either byte order, with and without a byte
    /// order mark (cut at the 64 KiB prefix, possibly inside a character).
    @Test(arguments: [
        ("vcard/46-groups-ablabel.vcf", ContactFormat.vcard),
        ("csv/google-contacts.csv", .csv),
        ("csv/google-legacy.csv", .csv),
        ("convert/contact.json", .json),
        ("jcard/edge-two-cards.json", .jcard),
    ])
    func utf16FixturesAreDetected(_ file: String, _ expected: ContactFormat) throws {
        let text = String(decoding: try FixturePaths.bytes(file), as: UTF8.self)
        for (bigEndian, mark) in [(false, true), (true, true), (false, false), (true, false)] {
            var bytes: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
            for unit in text.utf16 {
                bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
            #expect(ContactFormat.detect(Array(bytes.prefix(64 << 10))) == expected, "\(file) \(bigEndian) \(mark)")
            #expect(ContactFormat.detect(Array(bytes.prefix(101))) == expected, "\(file) \(bigEndian) \(mark)")
        }
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
