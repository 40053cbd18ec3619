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
    ///
    /// On bytes, ignoring ASCII case as the lexer does when it decides to decode: a Foundation search of an
    /// upper-cased String cost about 6,000 instructions a line, over a third of all of `vcf lint`.
    static func isQuotedPrintable(_ head: ArraySlice<UInt8>) -> Bool {
        head.withUnsafeBufferPointer { bytes in
            contains(bytes, "QUOTED-PRINTABLE") || contains(bytes, "ENCODING=QP")
        }
    }

    /// Whether `bytes` holds the upper-case ASCII `word`, ignoring ASCII case.
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard bytes.count >= length else { return false }
        for start in 0...(bytes.count - length)
        where UnsafeBufferPointer(rebasing: bytes[start..<start + length]).isEqualIgnoringCase(to: word) {
            return true
        }
        return false
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
