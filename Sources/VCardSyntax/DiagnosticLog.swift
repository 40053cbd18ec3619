/// The diagnostics a lexer has found and not yet handed out, with the same problem on line after line reported
/// only `VCardLexer.repeatedDiagnosticLimit` times and then once more to say the rest are not: a million lines
/// without a colon give 101 diagnostics, not a million (nor the memory to hold them).
struct DiagnosticLog {
    /// Found since the last `take`, in input order.
    var diagnostics: [Diagnostic] = []
    /// The code of the last diagnostic and how many times in a row it has come.
    private var repeatedCode: DiagnosticCode?
    private var repeatCount = 0
    /// Every error found, reported or not: a card is known to hold one when its report was left out.
    private(set) var errorCount = 0
    /// The first error found since `watchErrors`, reported or not.
    private(set) var firstWatchedError: Diagnostic?

    /// Starts looking for the first error anew: a card's own, told even when the repeat limit left it unreported.
    mutating func watchErrors() { firstWatchedError = nil }

    /// Records one diagnostic.
    mutating func report(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String, line: Int, column: Int = 1
    ) {
        diagnostics.append(Diagnostic(severity, code, message, line: line, column: column))
        admit(from: diagnostics.count - 1)
    }

    /// Passes the diagnostics appended to `diagnostics` from `start` on through the repeat limit.
    mutating func admit(from start: Int) {
        var kept = start
        let limit = VCardLexer.repeatedDiagnosticLimit
        for index in start..<diagnostics.count {
            let diagnostic = diagnostics[index]
            if diagnostic.severity == .error {
                errorCount += 1
                if firstWatchedError == nil { firstWatchedError = diagnostic }
            }
            if diagnostic.code == repeatedCode {
                repeatCount += 1
            } else {
                repeatedCode = diagnostic.code
                repeatCount = 1
            }
            if repeatCount <= limit {
                diagnostics[kept] = diagnostic
                kept += 1
            } else if repeatCount == limit + 1 {
                diagnostics[kept] = Diagnostic(
                    diagnostic.severity, diagnostic.code,
                    "the same problem repeats on the lines after this one; they are not reported",
                    line: diagnostic.line, column: diagnostic.column)
                kept += 1
            }
        }
        diagnostics.removeSubrange(kept...)
    }

    /// The diagnostics found since the last call.
    mutating func take() -> [Diagnostic] {
        defer { diagnostics.removeAll() }
        return diagnostics
    }
}
