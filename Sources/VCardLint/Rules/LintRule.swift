import VCardFormat
import VCardSyntax

/// One check over one card. Each rule declares its codes and their messages in its own file, beside the
/// code that reports them.
protocol CardRule: Sendable {
    /// Appends what the rule finds in `card` to `findings`.
    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic])
}

/// What a rule may consult besides the card.
struct RuleContext {
    let source: LintSource
    let options: LintOptions
}

extension CardRule {
    /// A finding at `line`, column `column`.
    func finding(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String, line: Int,
        column: Int = 1
    ) -> Diagnostic {
        Diagnostic(severity, code, message, line: line, column: column)
    }
}

/// The rules, in the order their findings are listed when several share a line and column.
enum LintRules {
    static let all: [any CardRule] = [
        SyntaxRule(), NameRule(), VersionRule(), RequiredPropertyRule(), DuplicatePropertyRule(), TypeParameterRule(),
        DateRule(), EmbeddedBinaryRule(), ControlCharacterRule(), LineLengthRule(), QuotedPrintableRule(),
        MissingUIDRule(),
        SizeRule(),
        CardDAVRule(),
    ]
}

extension VCardVersion {
    /// How the version reads in a message: `vCard 3.0`.
    var label: String { "vCard \(rawValue)" }
}
