import VCardFormat
import VCardSyntax

/// Physical lines over 75 octets, which RFC 2426 2.6 and RFC 6350 3.2 say to fold.
///
/// Reported once per card, at the first such line (column 76, the first octet over), with how many more
/// the card holds, so a file written without folding gives one finding a card rather than one a line.
/// Lines of a UTF-16 file are not measured: its octets are not those of the lines readers see.
struct LineLengthRule: CardRule {
    static let limit = LintSource.Gap.longLine

    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        guard !context.source.wasUTF16 else { return }
        let (first, more) = context.source.longLines(from: card.beginLine, through: max(card.beginLine, card.lastLine))
        guard let first else { return }
        findings.append(
            finding(
                .warning, .longLine, LineLengthMessages.long(first.octets, more: more),
                line: first.line, column: Self.limit + 1))
    }
}

extension DiagnosticCode {
    /// A physical line is longer than 75 octets.
    public static let longLine: Self = "long-line"
}

enum LineLengthMessages {
    static func long(_ octets: Int, more: Int) -> String {
        let others =
            more == 0
            ? "" : more == 1 ? "; 1 more line of this card is too" : "; \(more) more lines of this card are too"
        return "line is \(octets) octets, over the 75 that vCard folds at\(others)"
    }
}
