/// A problem found while reading, reported beside the result instead of thrown.
///
/// Messages name the line and the property, never the value, so they can be logged without leaking a
/// person's data (see `STYLE.md`, "Private by default").
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Hashable, Sendable, Codable, Comparable {
        case warning
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// The severity.
    public var severity: Severity
    /// A stable, matchable code.
    public var code: DiagnosticCode
    /// A one-line human-readable message.
    public var message: String
    /// The 1-based physical line, or 0 when the problem has no line.
    public var line: Int
    /// The 1-based byte column, or 0 when unknown.
    public var column: Int
    /// The input's name (a path or `-`), filled in by whoever knows it.
    public var file: String?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String, line: Int, column: Int = 1,
        file: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.file = file
    }

    /// `file:line:col: severity: message [code]`, the form editors and CI annotate.
    public var description: String {
        "\(file ?? "<input>"):\(line):\(max(column, 1)): \(severity.rawValue): \(message) [\(code.rawValue)]"
    }
}

/// A diagnostic's code: a struct with static constants so codes can be added without breaking callers.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
    /// The code text, kebab-case.
    public var rawValue: String

    /// Creates a code from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a code from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// A card began but the input ended, or another card began, before its END.
    public static let missingEnd: Self = "missing-end"
    /// An END:VCARD with no open card.
    public static let unexpectedEnd: Self = "unexpected-end"
    /// A content line inside a card has no colon.
    public static let missingColon: Self = "missing-colon"
    /// A content line has no property name.
    public static let missingName: Self = "missing-name"
    /// Text outside any card that is not blank.
    public static let textOutsideCard: Self = "text-outside-card"
    /// A logical line exceeded `Limits.maxLineBytes`; the line was skipped.
    public static let lineTooLong: Self = "line-too-long"
    /// A card exceeded `Limits.maxCardBytes`; the rest of the card was skipped.
    public static let cardTooLarge: Self = "card-too-large"
    /// A line had more parameters than `Limits.maxParameters`; the rest were ignored.
    public static let tooManyParameters: Self = "too-many-parameters"
    /// Nested cards went deeper than `Limits.maxNestingDepth`.
    public static let nestingTooDeep: Self = "nesting-too-deep"
    /// Bytes that are not valid in the declared or assumed character set.
    public static let invalidEncoding: Self = "invalid-encoding"
    /// A CHARSET this platform cannot decode.
    public static let unknownCharset: Self = "unknown-charset"
    /// A malformed quoted-printable sequence.
    public static let invalidQuotedPrintable: Self = "invalid-quoted-printable"
    /// A quoted parameter value with no closing quote.
    public static let unterminatedQuote: Self = "unterminated-quote"
    /// Base64 data that does not decode.
    public static let invalidBase64: Self = "invalid-base64"
    /// A card with no VERSION property.
    public static let missingVersion: Self = "missing-version"
    /// A value that does not fit its property's value type.
    public static let invalidValue: Self = "invalid-value"
    /// A card with no FN property.
    public static let missingFormattedName: Self = "missing-fn"
    /// An input file that could not be read.
    public static let unreadable: Self = "unreadable"
}
