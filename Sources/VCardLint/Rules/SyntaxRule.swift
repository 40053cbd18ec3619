import VCardFormat
import VCardSyntax

/// What the lexer and the reader found in a card, passed through: missing END, lines without a colon,
/// bytes that are not UTF-8, damaged quoted-printable and the like.
///
/// Severities are the reader's, with one change: a value that is not valid UTF-8 is an error in a 3.0 or
/// 4.0 card (RFC 6350 3.1 makes UTF-8 the only charset, and 3.0 writers mean UTF-8 in practice), and a
/// warning in a 2.1 card, whose readers expect 8-bit charsets. Codes the linter works out itself
/// (missing VERSION and FN, base64) are left to their own rules.
struct SyntaxRule: CardRule {
    /// Reader codes that other rules report with the linter's own severity and wording.
    static let replaced: Set<DiagnosticCode> = [.missingVersion, .missingFormattedName, .invalidBase64]

    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        for var diagnostic in card.syntaxDiagnostics + card.readerDiagnostics {
            if Self.replaced.contains(diagnostic.code) { continue }
            if diagnostic.code == .invalidEncoding {
                diagnostic.severity = card.version == .v2_1 ? .warning : .error
            }
            findings.append(diagnostic)
        }
    }
}

extension DiagnosticCode {
    /// The input is UTF-16 rather than UTF-8.
    public static let notUTF8: Self = "not-utf8"
    /// The input holds no card at all.
    public static let noCards: Self = "no-cards"
}

/// Findings about the file as a whole rather than one card.
enum FileMessages {
    static let utf16 = "the file is UTF-16; vCard 4.0 requires UTF-8 and most readers expect it"
    static let noCards = "no BEGIN:VCARD found; this is not a vCard file"
}
