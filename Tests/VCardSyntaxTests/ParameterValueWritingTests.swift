import Testing
import VCardSyntax

/// A parameter value cannot hold control characters (RFC 6868): the writer puts a space for each, quoted, so
/// that the words around it stay apart (found by FuzzRoundTrip: `QU\0OTED-PRINTABLE` was written as the encoding).
@Suite struct ParameterValueWritingTests {
    static func written(_ value: String) -> String {
        var out: [UInt8] = []
        ContentLineWriter.write(
            ContentLine(name: "NOTE", parameters: [Parameter("ENCODING", value)], value: "x"),
            into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func controlCharacterIsWrittenAsAQuotedSpace() {
        #expect(Self.written("QU\u{0}OTED-PRINTABLE") == "NOTE;ENCODING=\"QU OTED-PRINTABLE\":x\r\n")
    }

    @Test func lineBreakIsWrittenAsAQuotedSpace() {
        #expect(Self.written("a\r\nb") == "NOTE;ENCODING=\"a  b\":x\r\n")
    }

    @Test func tabStaysUnquoted() {
        #expect(Self.written("a\tb") == "NOTE;ENCODING=a\tb:x\r\n")
    }
}
