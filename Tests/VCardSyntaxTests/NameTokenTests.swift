import Testing
import VCardSyntax

/// Names and groups are kept byte for byte when a content line can hold them (issue 19, class 6: applications
/// find their data by names such as `X-MESSAGING/XMPP-All`); a control character or a byte that is not UTF-8 is
/// read as a dash, with a warning, so that what is read is what the writer can write back (found by FuzzRoundTrip).
@Suite struct NameTokenTests {
    static func lex(_ text: [UInt8]) -> (lines: [ContentLine], diagnostics: [Diagnostic]) {
        let (cards, diagnostics) = VCardLexer.parse(
            Array("BEGIN:VCARD\r\nVERSION:3.0\r\n".utf8) + text
                + Array("\r\nEND:VCARD\r\n".utf8))
        return (cards.first?.lines.filter { $0.name != "VERSION" } ?? [], diagnostics)
    }

    @Test func parameterNameWithAByteNamesCannotHoldIsReadWithADash() {
        // Not quoted-printable: the name is not ENCODING, and writing it back must not make it one.
        let (lines, diagnostics) = Self.lex(
            Array("NOTE;ENCODIN".utf8) + [0xCD] + Array("G=QUOTED-PRINTABLE:a=3Db".utf8))
        #expect(lines.map(\.value) == ["a=3Db"])
        #expect(lines.first?.parameters == [Parameter(name: "ENCODIN-G", values: ["QUOTED-PRINTABLE"])])
        #expect(
            diagnostics.map(\.message)
                == ["parameter name `ENCODIN\u{FFFD}G` has characters names cannot hold; read as `ENCODIN-G`"])
    }

    @Test func controlCharacterInAParameterNameIsReadAsADash() {
        let (lines, diagnostics) = Self.lex(Array("NOTE;".utf8) + [0] + Array("=x:text".utf8))
        #expect(lines.first?.parameters == [Parameter(name: "-", values: ["x"])])
        #expect(diagnostics.count == 1)
    }

    @Test func groupWithAByteNamesCannotHoldIsReadWithADashKeepingItsCase() {
        let (lines, diagnostics) = Self.lex(Array("it".utf8) + [0xCD] + Array("em1.TEL:1\r\nitem1.X-ABLabel:x".utf8))
        #expect(lines.map(\.group) == ["it-em1", "item1"])
        #expect(
            diagnostics.map(\.message) == ["group `it\u{FFFD}em1` has characters names cannot hold; read as `it-em1`"])
    }

    @Test func groupOfABareNameIsKeptAsWritten() {
        // Old Evolution's bare `NAME` for an empty value; `<.0` has the group `<`, a character a line can hold.
        let (lines, diagnostics) = Self.lex(Array("<.X-ZERO".utf8))
        #expect(lines.map(\.group) == ["<"])
        #expect(lines.map(\.name) == ["X-ZERO"])
        #expect(diagnostics.map(\.code) == [.missingColon])
    }

    @Test func emptyGroupIsNoGroup() {
        let (lines, diagnostics) = Self.lex(Array(".N:a;b\r\n.X-BARE".utf8))
        #expect(lines.map(\.group) == [nil, nil])
        #expect(lines.map(\.name) == ["N", "X-BARE"])
        #expect(diagnostics.map(\.code) == [.missingColon])
    }

    @Test func spacedEndIsStillEnd() {
        // `. END:` is END with an empty value, not a property named END (found by FuzzRoundTrip): ignored as
        // an END of something other than VCARD, as it is once written back as `END:`.
        let (lines, diagnostics) = Self.lex(Array(". END:\r\nNOTE:a".utf8))
        #expect(lines.map(\.name) == ["NOTE"])
        #expect(diagnostics.map(\.message) == ["END of something other than VCARD inside a card was ignored"])
        let (cards, _) = VCardLexer.parse(
            Array("BEGIN:VCARD\r\nFN:a\r\nEND :VCARD\r\nBEGIN:VCARD\r\nFN:b\r\nEND:VCARD".utf8))
        #expect(cards.map(\.endLine) == [3, 6])
    }

    @Test func namesThatAreTokensAreKeptWithoutWarning() {
        let (lines, diagnostics) = Self.lex(Array("item-2.X-CUSTOM;X-PARAM-1=a:b".utf8))
        #expect(lines.first?.group == "item-2")
        #expect(lines.first?.parameters == [Parameter(name: "X-PARAM-1", values: ["a"])])
        #expect(diagnostics.isEmpty)
    }

    /// Names are upper-cased as the lexer does it: ASCII letters only.
    static func asciiUpper(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    @Test(arguments: [
        "X-MESSAGING/XMPP-All", "X-WAB-WEDDING_ANNIVERSARY", "X-WAB-SPOUSE_NAME", "X-GOOGLE TALK", "X-ÉTÉ", "X-A=B",
    ])
    func vendorNamesAreKeptByteForByte(_ name: String) {
        let (lines, diagnostics) = Self.lex(Array("\(name):value".utf8))
        #expect(lines.map(\.name) == [Self.asciiUpper(name)])
        #expect(diagnostics.isEmpty)
        var out: [UInt8] = []
        ContentLineWriter.write(lines[0], into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\(Self.asciiUpper(name)):value\r\n")
    }

    @Test func theNameAsWrittenIsKeptBesideTheUpperCasedOne() {
        let (cards, _) = VCardLexer.parse(
            Array("BEGIN:VCARD\r\nVERSION:3.0\r\nX-messaging/xmpp-All:a\r\nx-qq:1\r\nNOTE:b\r\nEND:VCARD\r\n".utf8))
        let names = cards[0].withView { view in (0..<view.count).map { (view[$0].name, view[$0].writtenName) } }
        #expect(names.map(\.0) == ["VERSION", "X-MESSAGING/XMPP-ALL", "X-QQ", "NOTE"])
        #expect(names.map(\.1) == ["VERSION", "X-messaging/xmpp-All", "x-qq", "NOTE"])
    }

    @Test func aDottedNameAfterAGroupKeepsItsDots() {
        let (lines, _) = Self.lex(Array("some.other.value:1.2.3".utf8))
        #expect(lines.map(\.group) == ["some"])
        #expect(lines.map(\.name) == ["OTHER.VALUE"])
        var out: [UInt8] = []
        ContentLineWriter.write(lines[0], into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "some.OTHER.VALUE:1.2.3\r\n")
    }

    @Test func aCommaAfterTheNameOpensTheParameters() {
        let (lines, diagnostics) = Self.lex(Array("LABEL,TYPE=HOME:12 Elm St.\r\nX-A,HOME;X-B=1:v".utf8))
        #expect(lines.map(\.name) == ["LABEL", "X-A"])
        #expect(lines.first?.parameters == [Parameter(name: "TYPE", values: ["HOME"])])
        #expect(
            lines.last?.parameters == [
                Parameter(name: "TYPE", values: ["HOME"]), Parameter(name: "X-B", values: ["1"]),
            ])
        #expect(diagnostics.map(\.code) == [.invalidValue, .invalidValue])
        #expect(diagnostics.first?.message == "a comma follows the property name; read as the `;` before a parameter")
    }

    @Test func theWriterChangesOnlyWhatWouldEndANameEarly() {
        var out: [UInt8] = []
        ContentLineWriter.write(
            ContentLine(name: "X-A:B;C,D.E\u{1}F", parameters: [Parameter(name: "P=Q;R", values: ["v"])], value: "x"),
            into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "X-A-B-C-D-E-F;P-Q-R=v:x\r\n")
        out = []
        ContentLineWriter.write(ContentLine(group: "g.h", name: "A.B", value: "x"), into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "g-h.A.B:x\r\n")
    }
}
