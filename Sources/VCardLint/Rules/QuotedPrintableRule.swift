import VCardFormat
import VCardSyntax

/// Values encoded as quoted-printable, the vCard 2.1 transfer encoding.
///
/// RFC 2426 (5) allows only `ENCODING=b` and RFC 6350 no encoding at all, and many 3.0 and 4.0 readers
/// show quoted-printable undecoded (`=C3=A9`) or cut at its soft line breaks. The lexer decodes it and
/// drops the parameter, so the rule reads the parameter from the line as written. Reported once per card,
/// at the first such line.
struct QuotedPrintableRule: CardRule {
    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        var first: Int?
        var count = 0
        for line in card.lines where Self.isQuotedPrintable(context.source.head(ofLine: line.line)) {
            if first == nil { first = line.line }
            count += 1
        }
        guard let first else { return }
        findings.append(
            finding(
                .warning, .quotedPrintable, QuotedPrintableMessages.used(count, card.version),
                line: first,
                column: context.source.parameterValueColumn("QUOTED-PRINTABLE", onLine: first)))
    }

    /// Whether a line's name and parameters ask for quoted-printable (`ENCODING=QUOTED-PRINTABLE`, the bare
    /// 2.1 `QUOTED-PRINTABLE`, or `ENCODING=QP`).
    static func isQuotedPrintable(_ head: ArraySlice<UInt8>) -> Bool {
        let upper = String(decoding: head, as: UTF8.self).uppercased()
        return upper.contains("QUOTED-PRINTABLE") || upper.contains("ENCODING=QP")
    }
}

extension DiagnosticCode {
    /// A value is quoted-printable.
    public static let quotedPrintable: Self = "quoted-printable"
}

enum QuotedPrintableMessages {
    static func used(_ count: Int, _ version: VCardVersion) -> String {
        let lines = count == 1 ? "1 value" : "\(count) values"
        return version == .v2_1
            ? "\(lines) in quoted-printable (vCard 2.1); many 3.0 and 4.0 readers show it undecoded"
            : "\(lines) in quoted-printable, which \(version.label) does not allow"
    }
}
