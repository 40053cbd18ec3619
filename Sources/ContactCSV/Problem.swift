extension ContactCSV {
    /// A problem found while reading a CSV file, reported beside the contacts instead of thrown.
    ///
    /// Messages name the line, column and header, never a field's value, so they can be logged without leaking
    /// a person's data. The command layer prefixes the file name: `file:line:col: severity: message`.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// How bad a problem is: an error drops data (a record or the whole file), a warning does not.
        public enum Severity: String, Hashable, Sendable, Comparable {
            case warning
            case error

            public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
        }

        /// A problem's code: a struct with static constants so codes can be added without breaking callers.
        public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
            /// The code text, kebab-case.
            public var rawValue: String

            /// Creates a code from its text.
            public init(rawValue: String) { self.rawValue = rawValue }

            /// Creates a code from a literal.
            public init(stringLiteral value: String) { self.rawValue = value }

            /// A quoted field with no closing quote: the record it starts and everything after it are dropped.
            public static let unterminatedQuote: Self = "unterminated-quote"
            /// Text between a closing quote and the next comma or line break; it was kept in the field.
            public static let textAfterQuote: Self = "text-after-quote"
            /// A record with more fields than the header row has columns.
            public static let extraFields: Self = "extra-fields"
            /// The first row is not a Google Contacts, Outlook or Thunderbird header row.
            public static let unknownHeader: Self = "unknown-header"
            /// The file is not valid UTF-8 and was read as Windows-1252.
            public static let invalidEncoding: Self = "invalid-encoding"
            /// An Outlook date that is not `M/D/YYYY`; it was kept as written.
            public static let invalidDate: Self = "invalid-date"
            /// A record with more fields than `CSVSyntax.maxFieldsPerRow`: the rest of that record was skipped.
            public static let tooManyFields: Self = "too-many-fields"
        }

        /// The severity.
        public var severity: Severity
        /// A stable, matchable code.
        public var code: Code
        /// The 1-based physical line (a record's fields may span several lines).
        public var line: Int
        /// The 1-based byte column within that line.
        public var column: Int
        /// A one-line human-readable message.
        public var message: String

        /// Creates a problem.
        public init(_ severity: Severity, _ code: Code, _ message: String, line: Int, column: Int = 1) {
            self.severity = severity
            self.code = code
            self.message = message
            self.line = line
            self.column = column
        }

        /// `line:col: severity: message`; the caller puts the file name in front.
        public var description: String { "\(line):\(max(column, 1)): \(severity.rawValue): \(message)" }
    }
}

// Every message the CSV layer emits, beside its code.
extension ContactCSV.Problem {
    static func unterminatedQuote(line: Int, column: Int) -> Self {
        Self(
            .error, .unterminatedQuote,
            "quoted field is never closed; the record starting here and the rest of the file were not read",
            line: line, column: column)
    }

    static func textAfterQuote(line: Int, column: Int) -> Self {
        Self(
            .warning, .textAfterQuote, "text after a closing quote was kept as part of the field",
            line: line, column: column)
    }

    static func extraFields(line: Int, column: Int, fields: Int, columns: Int) -> Self {
        Self(
            .warning, .extraFields,
            "record has \(fields) fields but the header has \(columns) columns; "
                + "the extra non-empty fields were kept as Column N",
            line: line, column: column)
    }

    static func unknownHeader(found: [String]) -> Self {
        // The first row of a file without a header is a person's data: show only a short start of it.
        let shown = found.prefix(3).map { field -> String in
            let short = field.count > 24 ? String(field.prefix(24)) + "..." : field
            return "\"\(short)\""
        }
        let found =
            found.isEmpty || found == [""]
            ? "an empty file"
            : shown.joined(separator: ", ") + (found.count > 3 ? ", ... (\(found.count) columns)" : "")
        return Self(
            .error, .unknownHeader, "expected a Google Contacts, Outlook or Thunderbird CSV header row, found \(found)",
            line: 1, column: 1)
    }

    static func invalidEncoding(line: Int, column: Int) -> Self {
        Self(.warning, .invalidEncoding, "file is not valid UTF-8; read as Windows-1252", line: line, column: column)
    }

    static func tooManyFields(line: Int, column: Int, limit: Int) -> Self {
        Self(
            .error, .tooManyFields, "record has more than \(limit) fields; the rest of the record was skipped",
            line: line, column: column)
    }

    static func invalidDate(header: String, line: Int, column: Int) -> Self {
        Self(
            .warning, .invalidDate, "\(header) is not a date in M/D/YYYY form; kept as written",
            line: line, column: column)
    }

    static func invalidDateParts(headers: [String], line: Int, column: Int) -> Self {
        let named =
            headers.count > 1 ? headers.dropLast().joined(separator: ", ") + " and " + headers.last! : headers[0]
        return Self(
            .warning, .invalidDate,
            "\(named) \(headers.count > 1 ? "do" : "does") not make a date (a month and a day, in numbers, are needed); kept as written",
            line: line, column: column)
    }
}
