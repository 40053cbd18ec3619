import VCardFormat
import VCardSyntax

/// Property, parameter and group names outside RFC 6350 3.3's grammar (letters, digits and dashes), such as
/// KDE's `X-MESSAGING/XMPP-All` or Outlook's `X-WAB-SPOUSE_NAME`. The reader and writer keep such a name byte
/// for byte, since the application that wrote it looks its data up by it; strict readers (sabre/vobject)
/// reject the line, so it is worth a warning. Not fixed: renaming it would hide the data from its owner.
struct NameRule: CardRule {
    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        // Each name checked where it is: gathering them in a list first cost an allocation a line.
        for line in card.lines {
            check("property name", line.name, line: line.line, into: &findings)
            if let group = line.group { check("group", group, line: line.line, into: &findings) }
            for parameter in line.parameters {
                check("parameter name", parameter.name, line: line.line, into: &findings)
            }
        }
    }

    private func check(_ kind: String, _ name: String, line: Int, into findings: inout [Diagnostic]) {
        guard !Self.isToken(name) else { return }
        findings.append(finding(.warning, .nonstandardName, NameMessages.nonstandard(kind, name), line: line))
    }

    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy {
                ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
            }
    }
}

extension DiagnosticCode {
    /// A property, parameter or group name holds characters outside letters, digits and dashes.
    public static let nonstandardName: Self = "nonstandard-name"
}

enum NameMessages {
    static func nonstandard(_ kind: String, _ name: String) -> String {
        "\(kind) `\(name)` holds characters other than letters, digits and dashes; kept as written, "
            + "but strict readers reject the line"
    }
}
