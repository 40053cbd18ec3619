import Testing
import VCardSyntax

@testable import VCardLint

/// NUL and other control characters in values (issue 18, item 14): a NUL is an error that `--fix` repairs by
/// writing U+FFFD; any other control character but tab and line breaks is a warning kept as written.
@Suite struct ControlCharacterTests {
    static func card(_ lines: String...) -> [UInt8] {
        Array(
            (["BEGIN:VCARD", "VERSION:3.0", "UID:u1", "FN:Ada Obi", "N:Obi;Ada;;;"] + lines + ["END:VCARD"])
                .joined(separator: "\r\n").utf8) + [0x0D, 0x0A]
    }

    @Test func aNULIsAnErrorAndTheFixWritesTheReplacementCharacter() {
        let input = Self.card("NOTE:before\u{0}after", "X-RAW:a\u{0}b\u{0}c")
        let found = Linter.lint(input, file: "t.vcf")
        #expect(found.map(\.code) == [.nulCharacter, .nulCharacter])
        #expect(found.map(\.severity) == [.error, .error])
        #expect(found.map(\.line) == [6, 7])
        #expect(
            found.first?.message == "NOTE holds a NUL character, which readers written in C take as the end of the text"
        )
        #expect(found.last?.message.contains("2 NUL characters") == true)
        let repair = Linter.fix(input, file: "t.vcf")
        #expect(!repair.bytes.contains(0))
        #expect(String(decoding: repair.bytes, as: UTF8.self).contains("NOTE:before\u{FFFD}after\r\n"))
        #expect(repair.changes.filter { $0.code == .nulCharacter }.allSatisfy { $0.outcome == .fixed })
        #expect(Linter.lint(repair.bytes, file: "t.vcf").isEmpty)
    }

    @Test func aNULFromQuotedPrintableIsFoundToo() {
        let input = Array(
            "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:A\r\nN:A;;;;\r\nNOTE;ENCODING=QUOTED-PRINTABLE:x=00y\r\nEND:VCARD\r\n"
                .utf8)
        #expect(Linter.lint(input, file: "t.vcf").contains { $0.code == .nulCharacter && $0.line == 5 })
    }

    @Test func otherControlCharactersAreWarningsKeptAsWritten() {
        let input = Self.card("NOTE:bell\u{7}and escape\u{1B}[2J", "TITLE:tab\tis fine")
        let found = Linter.lint(input, file: "t.vcf")
        #expect(found.map(\.code) == [.controlCharacter])
        #expect(found.first?.severity == .warning)
        #expect(found.first?.message == "NOTE holds the control character U+0007, which no text needs")
        let repair = Linter.fix(input, file: "t.vcf")
        #expect(repair.changes.first { $0.code == .controlCharacter }?.outcome == .notFixed)
        #expect(String(decoding: repair.bytes, as: UTF8.self).contains("bell\u{7}and escape\u{1B}[2J"))
    }
}
