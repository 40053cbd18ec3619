import VCardFormat
import VCardSyntax

/// Control characters in values: a NUL (C0 0x00) is an error, since readers written in C take it as the end of
/// the text, and the writer replaces it with U+FFFD; any other C0 control character but tab, CR and LF (and
/// DEL) is a warning, since no text needs one and some terminals act on them, but it is kept as written.
///
/// Reported once per line, at the first such character of the value, with how many more the card holds.
struct ControlCharacterRule: CardRule {
    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        card.raw.withView { view in
            for index in 0..<view.count {
                let line = view[index]
                var nul = 0
                var other: UInt8?
                for byte in line.valueBytes {
                    if byte == 0 {
                        nul += 1
                    } else if other == nil && Self.isReported(byte) {
                        other = byte
                    }
                }
                if nul > 0 {
                    findings.append(
                        finding(
                            .error, .nulCharacter, ControlCharacterMessages.nul(line.name, count: nul), line: line.line)
                    )
                }
                if let other {
                    findings.append(
                        finding(
                            .warning, .controlCharacter, ControlCharacterMessages.control(line.name, byte: other),
                            line: line.line))
                }
            }
        }
    }

    /// C0 controls but NUL (reported on its own), tab, CR and LF (line breaks of a decoded 2.1 value), and DEL.
    static func isReported(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }
}

extension DiagnosticCode {
    /// A value holds a NUL character.
    public static let nulCharacter: Self = "nul-character"
    /// A value holds a control character other than tab or a line break.
    public static let controlCharacter: Self = "control-character"
}

enum ControlCharacterMessages {
    static func nul(_ name: String, count: Int) -> String {
        let many = count == 1 ? "a NUL character" : "\(count) NUL characters"
        return "\(name) holds \(many), which readers written in C take as the end of the text"
    }

    static func control(_ name: String, byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return
            "\(name) holds the control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex), which no text needs"
    }
}
