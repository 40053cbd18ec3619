import VCardSyntax

/// What `Linter.fix` did about one finding: repaired it, or left it and why.
public struct FixChange: Hashable, Sendable, CustomStringConvertible {
    /// Whether the problem was repaired.
    public enum Outcome: String, Hashable, Sendable {
        case fixed
        case notFixed = "not fixed"
    }

    /// The input's name.
    public var file: String?
    /// The line of the finding in the input.
    public var line: Int
    /// The finding's code.
    public var code: DiagnosticCode
    /// The finding's severity (after `strict`), so a caller can tell whether errors remain.
    public var severity: Diagnostic.Severity
    /// Repaired or not.
    public var outcome: Outcome
    /// What was done, or why nothing was.
    public var message: String

    /// Creates a change.
    public init(
        file: String? = nil, line: Int, code: DiagnosticCode, severity: Diagnostic.Severity,
        outcome: Outcome, message: String
    ) {
        self.file = file
        self.line = line
        self.code = code
        self.severity = severity
        self.outcome = outcome
        self.message = message
    }

    /// `file:line: fixed: [code] message`.
    public var description: String {
        "\(file ?? "-"):\(line): \(outcome.rawValue): [\(code.rawValue)] \(message)"
    }
}

/// A repaired file and the list of what was done.
public struct LintFix: Sendable {
    /// The repaired file: every readable card as vCard 3.0 (4.0 cards as 4.0), unreadable cards as they were
    /// written.
    public var bytes: [UInt8]
    /// One entry a finding (and one for each N added to a 4.0 card), in line order.
    public var changes: [FixChange]
    /// How many cards were written again (as vCard 3.0, or 4.0 for 4.0 cards).
    public var cardsRewritten: Int
    /// How many cards were kept byte for byte because a line of theirs could not be read.
    public var cardsKept: Int

    /// Errors (or, with `strict`, any findings) that the repair left in place.
    public var remainingErrors: Int {
        changes.filter { $0.outcome == .notFixed && $0.severity == .error }.count
    }
}
