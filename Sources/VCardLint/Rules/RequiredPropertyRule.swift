import VCardFormat
import VCardSyntax

/// FN and N, the properties a version requires: FN in 3.0 (RFC 2426 3.1.1) and 4.0 (RFC 6350 6.2.1), N in
/// 2.1 and 3.0 (RFC 2426 3.1.2). vCard 4.0 made N optional and 2.1 never required FN, so neither is
/// reported there. An FN that is present but empty meets the letter of the RFCs and is a warning: a
/// contacts app shows such a card without a name, or makes one up.
struct RequiredPropertyRule: CardRule {
    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        if card.version != .v2_1 && !card.has("FN") {
            findings.append(
                finding(
                    .error, .missingFormattedName, RequiredMessages.missing("FN", card.version),
                    line: card.beginLine))
        }
        let names = card.lines(named: "FN")
        if !names.isEmpty && names.allSatisfy({ $0.value.trimmingASCIIWhitespace().isEmpty }) {
            findings.append(finding(.warning, .emptyFN, RequiredMessages.emptyFN, line: names[0].line))
        }
        if card.version != .v4_0 && !card.has("N") {
            findings.append(
                finding(
                    .error, .missingN, RequiredMessages.missing("N", card.version),
                    line: card.beginLine))
        }
    }
}

extension DiagnosticCode {
    /// A 2.1 or 3.0 card has no N.
    public static let missingN: Self = "missing-n"
    /// FN is present but empty.
    public static let emptyFN: Self = "empty-fn"
}

enum RequiredMessages {
    static let emptyFN = "FN is empty; contacts apps show the card without a name"

    static func missing(_ name: String, _ version: VCardVersion) -> String {
        "card has no \(name), which \(version.label) requires"
    }
}
