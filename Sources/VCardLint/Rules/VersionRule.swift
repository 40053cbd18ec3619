import VCardFormat
import VCardSyntax

/// VERSION: present (RFC 2426 3.6.9, RFC 6350 6.7.9), one of 2.1, 3.0 and 4.0, and right after BEGIN.
///
/// vCard 4.0 requires VERSION immediately after BEGIN (an error there); 2.1 and 3.0 allow it anywhere, but
/// readers that decide how to read a card from its first lines read a late one wrongly (a warning).
struct VersionRule: CardRule {
    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        guard let version = card.versionLine else {
            findings.append(finding(.error, .missingVersion, VersionMessages.missing, line: card.beginLine))
            return
        }
        let value = version.value.trimmingASCIIWhitespace()
        if !["2.1", "3.0", "4.0"].contains(value) {
            findings.append(
                finding(
                    .error, .unknownVersion, VersionMessages.unknown(value, readAs: card.version),
                    line: version.line, column: context.source.valueColumn(ofLine: version.line)))
        }
        if card.lines.first?.name != "VERSION" {
            findings.append(
                finding(
                    card.version == .v4_0 ? .error : .warning, .versionNotSecond,
                    VersionMessages.notSecond(card.version), line: version.line))
        }
    }
}

extension DiagnosticCode {
    /// VERSION is not 2.1, 3.0 or 4.0.
    public static let unknownVersion: Self = "unknown-version"
    /// VERSION is not the first property after BEGIN.
    public static let versionNotSecond: Self = "version-not-second"
}

enum VersionMessages {
    static let missing = "card has no VERSION (required by every vCard version); read as 3.0"

    static func unknown(_ value: String, readAs version: VCardVersion) -> String {
        let shown =
            value.count <= 10 && value.allSatisfy({ $0.isASCII && !$0.isWhitespace })
            ? "VERSION \(value)"
            : "VERSION"
        return "\(shown) is not 2.1, 3.0 or 4.0; read as \(version.label)"
    }

    static func notSecond(_ version: VCardVersion) -> String {
        version == .v4_0
            ? "VERSION must come right after BEGIN:VCARD in vCard 4.0 (RFC 6350 6.7.9)"
            : "VERSION is not right after BEGIN:VCARD; readers that look for it there read the card wrongly"
    }
}
