/// RFC 4180 CSV on bytes, with no knowledge of contacts: rows of fields with the line and column each began on.
///
/// Reading accepts what real exports write: fields separated by commas, or by semicolons or tabs (a spreadsheet
/// saving in a locale whose list separator is `;`, or as "Unicode Text") when the reader is told so, quoted or not, `""` for a quote inside a quoted field, line
/// breaks (CRLF, LF or CR) inside quoted fields, rows ended by CRLF, LF or a lone CR, a UTF-8 byte order mark,
/// and Windows-1252 when the file is not valid UTF-8. Blank lines, and rows of empty fields only, are skipped.
/// Every field then passes through the formula guard (see `FormulaGuard`): one `'` comes off a field that
/// starts `'=`, `'+`, `'-`, `'@`...
/// Writing quotes a field only when it holds a comma, a quote, CR or LF, and guards it first.
package enum CSVSyntax {
    /// The most fields one record may have (Outlook's export, the widest layout, has 92 columns); beyond it the
    /// record's remaining bytes are skipped without being split, so a line of ten million commas costs no
    /// memory beyond the file itself.
    public static let maxFieldsPerRow = 10_000

    /// Where a field began: 1-based physical line and byte column.
    public struct Position: Hashable, Sendable {
        /// The 1-based physical line.
        public var line: Int
        /// The 1-based byte column within that line.
        public var column: Int

        /// Creates a position.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// One record: its fields, decoded and unguarded, and where each began.
    public struct Row: Hashable, Sendable {
        /// The 1-based physical line where the record began.
        public var line: Int
        /// The fields in order.
        public var fields: [String]
        /// Where each field began, parallel to `fields`.
        public var positions: [Position]
    }

    /// Every row of a file and the problems met on the way.
    public struct Table: Sendable {
        /// The rows, header first.
        public var rows: [Row]
        /// Problems: an unterminated quote (error; reading stops there), text after a closing quote, and a file
        /// read as Windows-1252 (warnings).
        public var problems: [ContactCSV.Problem]
    }

    /// Splits a whole file into rows.
    ///
    /// - Complexity: O(n) in the number of bytes; each field is decoded to a `String` once.
    public static func parse(_ bytes: [UInt8], separator: UInt8 = UInt8(ascii: ",")) -> Table {
        var scanner = Scanner(bytes, separator: separator)
        var rows: [Row] = []
        var problems = scanner.encodingProblems
        while true {
            switch scanner.nextRow() {
            case .row(let row): rows.append(row)
            case .end: return Table(rows: rows, problems: problems + scanner.problems)
            case .unterminated(_, let problem):
                problems += scanner.problems
                problems.append(problem)
                return Table(rows: rows, problems: problems)
            }
        }
    }

    /// The first row of a file or of its first bytes, even when cut short, for content detection.
    static func firstRow(_ prefix: [UInt8], separator: UInt8 = UInt8(ascii: ",")) -> [String] {
        var scanner = Scanner(prefix, separator: separator)
        switch scanner.nextRow() {
        case .row(let row): return row.fields
        case .unterminated(let partial, _): return partial.fields
        case .end: return []
        }
    }

    /// Appends one row: fields guarded, quoted where needed, separated by commas, ended by CRLF.
    public static func append(row fields: [String], to out: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(CSVByte.comma) }
            appendField(field, to: &out)
        }
        out += [CSVByte.cr, CSVByte.lf]
    }

    /// Appends one field, guarded against formulas and quoted when it holds a comma, quote, CR or LF.
    ///
    /// A NUL is written as U+FFFD, as the vCard writer does: spreadsheets and C readers end the text at a NUL.
    static func appendField(_ field: String, to out: inout [UInt8]) {
        var text = FormulaGuard.guarded(field)
        if text.utf8.contains(0) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
        }
        let needsQuotes = text.utf8.contains {
            $0 == CSVByte.comma || $0 == CSVByte.quote || $0 == CSVByte.cr || $0 == CSVByte.lf
        }
        guard needsQuotes else {
            out += text.utf8
            return
        }
        out.append(CSVByte.quote)
        for byte in text.utf8 {
            if byte == CSVByte.quote { out.append(CSVByte.quote) }
            out.append(byte)
        }
        out.append(CSVByte.quote)
    }
}

/// The bytes of CSV's grammar (RFC 4180): the field separator, the quote and the line ends.
enum CSVByte {
    static let comma = UInt8(ascii: ",")
    static let semicolon = UInt8(ascii: ";")
    static let tab: UInt8 = 0x09
    static let quote = UInt8(ascii: "\"")
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
}

extension CSVSyntax {
    /// Reads rows one at a time, tracking only a byte offset and the current line's start.
    struct Scanner {
        enum Step {
            case row(Row)
            case unterminated(partial: Row, problem: ContactCSV.Problem)
            case end
        }

        let bytes: [UInt8]
        /// The byte between fields: a comma, else what the file's header row shows.
        let separator: UInt8
        let decoding: CSVTextDecoding
        private(set) var encodingProblems: [ContactCSV.Problem] = []
        private(set) var problems: [ContactCSV.Problem] = []
        private var index: Int
        private var line = 1
        private var lineStart: Int

        /// A scanner of part of a file from `start`, a line's first byte, which is line `line` of the file; its
        /// text decoded as the whole file's was decided (`RecordStream`).
        init(_ bytes: [UInt8], separator: UInt8, decoding: CSVTextDecoding, start: Int, line: Int) {
            self.bytes = bytes
            self.separator = separator
            self.decoding = decoding
            index = start
            lineStart = start
            self.line = line
        }

        /// Where the next row starts, and its line.
        var next: (index: Int, line: Int) { (index, line) }

        init(_ bytes: [UInt8], separator: UInt8) {
            self.bytes = bytes
            self.separator = separator
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            index = start
            lineStart = start
            if let invalid = CSVTextDecoding.firstInvalidUTF8(bytes, from: start) {
                decoding = .windows1252
                let position = Self.position(of: invalid, in: bytes, from: start)
                encodingProblems = [.invalidEncoding(line: position.line, column: position.column)]
            } else {
                decoding = .utf8
            }
        }

        /// The next non-blank row, the end, or an unterminated quote (after which there is nothing more).
        mutating func nextRow() -> Step {
            let count = bytes.count
            var fields: [String] = []
            var positions: [Position] = []
            while true {
                if index == count {
                    // A comma just before the end leaves one empty field to close the row.
                    guard !fields.isEmpty else { return .end }
                    fields.append("")
                    positions.append(Position(line: line, column: index - lineStart + 1))
                    return .row(Row(line: positions[0].line, fields: fields, positions: positions))
                }
                let position = Position(line: line, column: index - lineStart + 1)
                var value: ArraySlice<UInt8>
                if bytes[index] == CSVByte.quote {
                    guard let quoted = quotedField() else {
                        let partial = Row(
                            line: positions.first?.line ?? position.line, fields: fields,
                            positions: positions)
                        return .unterminated(
                            partial: partial,
                            problem: .unterminatedQuote(line: position.line, column: position.column))
                    }
                    value = quoted
                } else {
                    let start = index
                    while index < count, bytes[index] != separator, bytes[index] != CSVByte.cr,
                        bytes[index] != CSVByte.lf
                    { index += 1 }
                    value = bytes[start..<index]
                }
                fields.append(decoding.string(FormulaGuard.unguarded(value)))
                positions.append(position)
                if index < count, bytes[index] == separator {
                    index += 1
                    if fields.count == CSVSyntax.maxFieldsPerRow {
                        problems.append(
                            .tooManyFields(
                                line: line, column: index - lineStart + 1,
                                limit: CSVSyntax.maxFieldsPerRow))
                        skipRestOfRecord()
                    } else {
                        continue
                    }
                }
                // The end of a row: CRLF, LF, CR or the end of the file.
                if index < count {
                    if bytes[index] == CSVByte.cr, index + 1 < count, bytes[index + 1] == CSVByte.lf { index += 1 }
                    index += 1
                    line += 1
                    lineStart = index
                }
                // A blank line, or a row of empty fields only (a spreadsheet's emptied row, `,,,`, `"",""` or
                // spaces): no record, not an empty card.
                if fields.allSatisfy({ $0.allSatisfy { $0 == " " || $0 == "\t" } }) {
                    fields.removeAll()
                    positions.removeAll()
                    continue
                }
                return .row(Row(line: positions[0].line, fields: fields, positions: positions))
            }
        }

        /// Moves to the line break that ends the current record, stepping over quoted line breaks.
        private mutating func skipRestOfRecord() {
            let count = bytes.count
            var quoted = false
            while index < count {
                let byte = bytes[index]
                if byte == CSVByte.quote {
                    quoted.toggle()
                } else if !quoted && (byte == CSVByte.cr || byte == CSVByte.lf) {
                    return
                } else if byte == CSVByte.lf {
                    line += 1
                    lineStart = index + 1
                }
                index += 1
            }
        }

        /// Reads a quoted field starting at the opening quote: its bytes with `""` made `"`, and any text up to
        /// the next delimiter after the closing quote. Nil when the quote never closes (the index is then left at
        /// the opening quote).
        private mutating func quotedField() -> ArraySlice<UInt8>? {
            let count = bytes.count
            let open = index
            let (savedLine, savedLineStart) = (line, lineStart)
            var cursor = open + 1
            var segmentStart = cursor
            var copy: [UInt8]?
            while true {
                guard cursor < count else {
                    (line, lineStart) = (savedLine, savedLineStart)
                    return nil
                }
                let byte = bytes[cursor]
                if byte == CSVByte.quote {
                    if cursor + 1 < count, bytes[cursor + 1] == CSVByte.quote {
                        // `""` is one quote: copy what came before it and the quote, then go on.
                        copy = (copy ?? []) + bytes[segmentStart...cursor]
                        cursor += 2
                        segmentStart = cursor
                        continue
                    }
                    break
                }
                if byte == CSVByte.lf
                    || (byte == CSVByte.cr && !(cursor + 1 < count && bytes[cursor + 1] == CSVByte.lf))
                {
                    line += 1
                    lineStart = cursor + 1
                }
                cursor += 1
            }
            var value: ArraySlice<UInt8>
            if var copy {
                copy += bytes[segmentStart..<cursor]
                value = copy[...]
            } else {
                value = bytes[segmentStart..<cursor]
            }
            cursor += 1
            // Lenient like spreadsheets: text after the closing quote stays in the field, with a warning.
            let junkStart = cursor
            while cursor < count, bytes[cursor] != separator, bytes[cursor] != CSVByte.cr,
                bytes[cursor] != CSVByte.lf
            { cursor += 1 }
            if cursor > junkStart {
                problems.append(.textAfterQuote(line: line, column: junkStart - lineStart + 1))
                value = (Array(value) + bytes[junkStart..<cursor])[...]
            }
            index = cursor
            return value
        }

        /// The line and column of a byte offset, counted from `start` (only for problems, which are rare).
        static func position(of offset: Int, in bytes: [UInt8], from start: Int) -> Position {
            var line = 1
            var lineStart = start
            var cursor = start
            while cursor < offset {
                let byte = bytes[cursor]
                if byte == CSVByte.lf
                    || (byte == CSVByte.cr && !(cursor + 1 < bytes.count && bytes[cursor + 1] == CSVByte.lf))
                {
                    line += 1
                    lineStart = cursor + 1
                }
                cursor += 1
            }
            return Position(line: line, column: offset - lineStart + 1)
        }
    }
}
