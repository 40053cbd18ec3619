import ContactModel
import Testing
import VCardFormat
import VCardSyntax

/// Exact bytes the writer must produce where RFC 2426 fixes them: text escapes, unescaped URIs, TYPE with
/// pref, labels in a fresh `itemN` group, and folding.
@Suite struct WriterExactBytesTests {
    static func written(_ contact: Contact) -> String {
        String(decoding: VCardWriter(version: .v3_0).bytes([contact]), as: UTF8.self)
    }

    @Test func textIsEscapedAndURIsAreNot() {
        var contact = Contact(formattedName: "A")
        contact.note = "a,b;c\\d\nline"
        contact.urls = [LabeledValue("https://example.com/a,b;c\\d")]
        contact.phones = [LabeledValue("+1 555;ext=2", types: ["cell"], pref: 1)]
        #expect(
            Self.written(contact) == """
                BEGIN:VCARD\r
                VERSION:3.0\r
                FN:A\r
                N:;;;;\r
                TEL;TYPE=cell,pref:+1 555\\;ext=2\r
                URL:https://example.com/a,b;c\\d\r
                NOTE:a\\,b\\;c\\\\d\\nline\r
                END:VCARD\r

                """)
    }

    @Test func labelsGoIntoAFreshGroupThatIsNotTaken() {
        var contact = Contact(formattedName: "A")
        contact.emails = [LabeledValue("a@example.com", label: "Mobile", appleLabel: true)]
        contact.extensions = [Extension(group: "item1", name: "X-ABDATE", value: "2020-01-01")]
        #expect(
            Self.written(contact) == """
                BEGIN:VCARD\r
                VERSION:3.0\r
                FN:A\r
                N:;;;;\r
                item2.EMAIL:a@example.com\r
                item2.X-ABLabel:_$!<Mobile>!$_\r
                item1.X-ABDATE:2020-01-01\r
                END:VCARD\r

                """)
    }

    @Test func longLinesFoldAt75OctetsWithoutSplittingAnEscape() {
        var contact = Contact(formattedName: "A")
        contact.note = String(repeating: "x", count: 69) + ","
        let lines = Self.written(contact).components(separatedBy: "\r\n")
        // `NOTE:` plus 69 bytes is 74; the escaped comma would straddle octet 75, so it moves to the next line.
        #expect(lines.contains("NOTE:" + String(repeating: "x", count: 69)))
        #expect(lines.contains(" \\,"))
    }

    @Test func dataOfNoKnownTypeWritesTheSameTwiceIn4() {
        // A 4.0 data URI without a type means application/octet-stream; 3.0 gets no TYPE for it, so writing
        // the card read back from 4.0 gives the same bytes.
        let card =
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nKEY:data:application/octet-stream;base64,AAEC\r\nEND:VCARD\r\n"
        func rewritten(_ bytes: [UInt8], as version: VCardVersion) -> [UInt8] {
            VCardWriter(version: version).bytes(VCardDocument.read(bytes).cards.map(\.contact))
        }
        let once = rewritten(Array(card.utf8), as: .v4_0)
        #expect(rewritten(once, as: .v4_0) == once)
        #expect(String(decoding: once, as: UTF8.self).contains("\r\nKEY:data:application/octet-stream;base64,AAEC\r\n"))
        #expect(String(decoding: rewritten(once, as: .v3_0), as: UTF8.self).contains("\r\nKEY;ENCODING=b:AAEC\r\n"))
    }
}
