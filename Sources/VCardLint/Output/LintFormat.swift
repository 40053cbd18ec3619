import VCardSyntax

/// How lint findings are printed: one line each as `file:line:col: severity: [code] message`, the form
/// editors jump from, or a JSON array for programs.
///
/// This is not `Diagnostic.description` (which puts the code last, as the converter prints problems): a
/// linter's reader scans codes, so the code comes before the message.
public enum LintFormat {
    /// `file:line:col: severity: [code] message`.
    public static func line(_ diagnostic: Diagnostic) -> String {
        "\(diagnostic.file ?? "-"):\(diagnostic.line):\(max(diagnostic.column, 1)): \(diagnostic.severity.rawValue): "
            + "[\(diagnostic.code.rawValue)] \(diagnostic.message)"
    }

    /// A JSON array of `{file, line, column, severity, code, message}` objects, one a line, keys in that
    /// order, ending with a newline.
    public static func json(_ diagnostics: [Diagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "[]\n" }
        return "[\n" + diagnostics.map(jsonObject).joined(separator: ",\n") + "\n]\n"
    }

    /// One finding as `json` writes it in its array (indented, no separator), for findings written as found.
    public static func jsonObject(_ d: Diagnostic) -> String {
        "  {\"file\": \(quoted(d.file ?? "-")), \"line\": \(d.line), \"column\": \(max(d.column, 1)), "
            + "\"severity\": \(quoted(d.severity.rawValue)), \"code\": \(quoted(d.code.rawValue)), "
            + "\"message\": \(quoted(d.message))}"
    }

    /// `1 file: 2 errors, 1 warning`.
    public static func summary(files: Int, errors: Int, warnings: Int) -> String {
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        return "\(count(files, "file")): \(count(errors, "error")), \(count(warnings, "warning"))"
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
