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
                guard Self.mayHoldControl(line.valueBytes) else { continue }
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

    /// Whether `bytes` holds a byte below 0x20 or DEL, eight bytes at a time: nearly no value does, and photos
    /// make most of a file's bytes.
    static func mayHoldControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte below 0x20 (bytes of 0x80 and over never count), or a byte equal to 0x7F.
            let del = word ^ (ones &* 0x7F)
            if (word &- ones &* 0x20) & ~word & high != 0 || (del &- ones) & ~del & high != 0 { return true }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] < 0x20 || bytes[index] == 0x7F { return true }
            index += 1
        }
        return false
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
