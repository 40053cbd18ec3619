import VCardFormat
import VCardSyntax

/// A card without UID: importing the file a second time cannot recognise the contacts already there, so
/// most address books add them again.
struct MissingUIDRule: CardRule {
    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        // With --carddav the finding is CardDAVRule's error instead.
        guard !card.has("UID"), context.options.carddav == nil else { return }
        findings.append(finding(.warning, .missingUID, UIDMessages.missing, line: card.beginLine))
    }
}

extension DiagnosticCode {
    /// A card has no UID.
    public static let missingUID: Self = "missing-uid"
}

enum UIDMessages {
    static let missing = "card has no UID; importing this file again may duplicate the contact"
}
