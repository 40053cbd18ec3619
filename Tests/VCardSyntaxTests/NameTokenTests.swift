import Testing
import VCardSyntax

/// Names and groups are letters, digits and dashes (RFC 2425 5.8.2): any other character is read as a dash,
/// with a warning, so that what is read is what the writer can write back (found by FuzzRoundTrip).
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

    @Test func groupOfABareNameIsReadWithADash() {
        // Old Evolution's bare `NAME` for an empty value; `<.0` has the group `<`.
        let (lines, diagnostics) = Self.lex(Array("<.X-ZERO".utf8))
        #expect(lines.map(\.group) == ["-"])
        #expect(lines.map(\.name) == ["X-ZERO"])
        #expect(diagnostics.map(\.code) == [.missingColon, .invalidValue])
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
}
