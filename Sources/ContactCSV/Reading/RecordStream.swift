extension ContactCSV {
    /// Reads a CSV export record by record from its bytes in pieces, holding one piece and the record being read
    /// rather than the file: a large export converts in bounded memory. The records, and the problems in their
    /// order, are those `read` gives for the whole file.
    ///
    /// The file's encoding is decided for the whole file, as `read` decides it, before the first record: the
    /// caller reads the file through an `EncodingCheck` first. UTF-16 is read whole, by `read`. So is the order of
    /// its slashed dates (`DateOrder`): for an Outlook file with a date column the caller reads the file through
    /// `datesAreDayFirst(check:more:)` too, which stops at the header row of any other file.
    package struct RecordStream {
        /// A record, with the problems told before it and the errors within its lines.
        package struct Item {
            /// The record.
            package var record: Record
            /// The problems on lines up to the record's first, not told before: they go before its card.
            package var before: [Problem]
            /// The errors within the record's lines, which the record's card carries.
            package var errors: [Problem]
        }

        /// The layout the header row shows, once it is read; nil before, or when it is not a known one.
        package private(set) var layout: Layout?
        private var reader: RecordReader?
        private var headerRead = false
        private let separator: UInt8
        private let decoding: CSVTextDecoding
        private var buffer: [UInt8] = []
        private var position = 0
        private var line = 1
        private var atEnd = false
        private var bomChecked = false
        private let more: () throws -> [UInt8]
        /// Problems found and not yet told, in the order `read` sorts them.
        private var pending: [(problem: Problem, order: Int)] = []
        private var found = 0
        /// The record read last, given out once the next row (or the end) says where its lines end: `read` gives
        /// a record's card the errors up to the next record, those of a quote left open after the last one too.
        private var held: Item?
        /// Whether the file's slashed dates are day first.
        private let dayFirst: Bool
        /// The dates seen, when the stream only reads the order of the file's dates.
        private var dates: DateOrder?
        /// Whether the stream has read all it needs.
        private var done = false

        /// A stream over the pieces `more` gives (empty at the end of the file), which the check read first, with
        /// the order of its dates from `datesAreDayFirst(check:more:)`.
        package init(check: EncodingCheck, dayFirst: Bool = false, more: @escaping () throws -> [UInt8]) {
            separator = check.separator
            decoding = check.problem == nil ? .utf8 : .windows1252
            self.dayFirst = dayFirst
            self.more = more
            if let problem = check.problem { add([problem]) }
        }

        /// Whether the slashed dates of the file `more` gives, which `check` read first, are day first: read to
        /// the end for an Outlook file with a date column, and only to its header row otherwise.
        package static func datesAreDayFirst(check: EncodingCheck, more: @escaping () throws -> [UInt8]) throws
            -> Bool
        {
            var stream = RecordStream(check: check, more: more)
            stream.dates = DateOrder()
            while try stream.next() != nil {}
            return stream.dates?.isDayFirst ?? false
        }

        /// The next record, or nil at the end of the file.
        package mutating func next() throws -> Item? {
            while !done {
                if !bomChecked {
                    // A byte order mark is not part of the first line (nor of a header name).
                    while buffer.count < 3 && !atEnd { try pull() }
                    if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
                    bomChecked = true
                }
                var scanner = CSVSyntax.Scanner(
                    buffer, separator: separator, decoding: decoding, start: position, line: line)
                switch scanner.nextRow() {
                case .row(let row):
                    // A row is whole when a byte follows it (a CR at the end may be half of a CRLF).
                    guard scanner.next.index < buffer.count || atEnd else {
                        try pull()
                        continue
                    }
                    (position, line) = scanner.next
                    if let item = take(row, problems: scanner.problems) { return item }
                case .end:
                    guard atEnd else {
                        try pull()
                        continue
                    }
                    return release(before: Int.max)
                case .unterminated(_, let problem):
                    guard atEnd else {
                        try pull()
                        continue
                    }
                    add(scanner.problems + [problem])
                    position = buffer.count
                    return release(before: Int.max)
                }
            }
            return nil
        }

        /// The problems not told yet, after the last record: those of the end of the file, in order.
        package mutating func rest() -> [Problem] {
            if headerRead && reader == nil {
                add([.unknownHeader(found: headerFields)])
            } else if !headerRead {
                add([.unknownHeader(found: [])])
            }
            defer { pending = [] }
            return pending.map(\.problem)
        }

        private var headerFields: [String] = []

        /// Reads more into the buffer, dropping what was read before the current row: at least as much again as
        /// the row has so far, so a record larger than a piece is scanned a few times, not once per piece.
        private mutating func pull() throws {
            if position > 0 {
                buffer.removeSubrange(0..<position)
                position = 0
            }
            let wanted = max(1, buffer.count)
            var added = 0
            while added < wanted {
                let piece = try more()
                if piece.isEmpty {
                    atEnd = true
                    return
                }
                buffer += piece
                added += piece.count
            }
        }

        /// The item for a whole row, or nil when it is the header or a row of a file whose header is not known
        /// (only its problems count, as `read` reports every syntax problem of such a file).
        private mutating func take(_ row: CSVSyntax.Row, problems syntax: [Problem]) -> Item? {
            guard headerRead else {
                headerRead = true
                headerFields = row.fields
                if let layout = Layout.detect(row.fields) {
                    self.layout = layout
                    reader = RecordReader(header: row.fields, layout: layout)
                    reader?.dayFirst = dayFirst
                }
                // Reading the dates' order, a file without slashed dates is done at its header.
                if dates != nil && reader?.readsSlashedDates != true { done = true }
                add(syntax)
                return nil
            }
            guard let reader else {
                add(syntax)
                return nil
            }
            if dates != nil {
                reader.see(row, into: &dates!)
                return nil
            }
            var mapping: [Problem] = []
            let contact = reader.contact(from: row, problems: &mapping)
            // `read` sorts the syntax problems of every row before the mapping ones where line and column tie.
            add(ContactCSV.sorted(syntax + mapping))
            let previous = release(before: row.line)
            var before: [Problem] = []
            while let first = pending.first, first.problem.line <= row.line {
                before.append(first.problem)
                pending.removeFirst()
            }
            held = Item(record: Record(line: row.line, contact: contact), before: before, errors: [])
            return previous
        }

        /// The record held, given the errors from its first line up to `end` (the next record's first line).
        private mutating func release(before end: Int) -> Item? {
            guard var item = held else { return nil }
            held = nil
            let start = item.record.line
            item.errors = (item.before + pending.map(\.problem)).filter {
                $0.severity == .error && $0.line >= start && $0.line < end
            }
            return item
        }

        /// Adds problems to those not told, kept in `read`'s order: by line and column, else as found.
        private mutating func add(_ problems: [Problem]) {
            for problem in problems {
                found += 1
                let entry = (problem, found)
                let index =
                    pending.lastIndex { ($0.problem.line, $0.problem.column) <= (problem.line, problem.column) }
                    .map { $0 + 1 } ?? 0
                pending.insert(entry, at: index)
            }
        }
    }

    /// The first pass over a CSV file that is streamed: whether it is all UTF-8 (else it is read as
    /// Windows-1252, with the warning `read` gives, at the same line and column), and its separator.
    package struct EncodingCheck {
        /// The byte between fields, told from the file's first bytes (known once `finish` is called).
        package private(set) var separator = CSVByte.comma
        /// The warning that the file was read as Windows-1252, once a byte that is not UTF-8 was found.
        package private(set) var problem: Problem?
        private var prefix: [UInt8] = []
        private var carry: [UInt8] = []
        private var offset = 0
        private var line = 1
        private var lineStart = 0
        private var afterCR = false
        private var started = false

        package init() {}

        /// Reads the next piece of the file.
        package mutating func feed(_ piece: [UInt8]) {
            if prefix.count < 64 << 10 {
                prefix += piece.prefix((64 << 10) - prefix.count)
                // Told from the first 64 KiB, as `read` tells it.
                if prefix.count == 64 << 10 { separator = ContactCSV.separator(prefix) }
            }
            guard problem == nil else { return }
            var bytes = carry + piece
            var base = offset - carry.count
            if !started {
                guard bytes.count >= 3 || piece.isEmpty else {
                    carry = bytes
                    offset += piece.count
                    return
                }
                started = true
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                    bytes.removeFirst(3)
                    base += 3
                    lineStart = 3
                }
            }
            // A character cut by the end of the piece waits for the next one.
            var cut = bytes.count
            var back = 0
            while back < 3 && cut - back - 1 >= 0 {
                let byte = bytes[cut - back - 1]
                if byte & 0xC0 != 0x80 {
                    let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                    if length > back + 1 { cut -= back + 1 }
                    break
                }
                back += 1
            }
            if let invalid = CSVTextDecoding.firstInvalidUTF8(Array(bytes[..<cut]), from: 0) {
                count(bytes[..<invalid], base: base)
                report(at: base + invalid)
                return
            }
            count(bytes[..<cut], base: base)
            carry = Array(bytes[cut...])
            offset += piece.count
        }

        /// Ends the file: a character it ends in the middle of is not UTF-8 either.
        package mutating func finish() {
            if prefix.count < 64 << 10 { separator = ContactCSV.separator(prefix) }
            if !started {
                started = true
                var bytes = carry
                var base = 0
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                    bytes.removeFirst(3)
                    base = 3
                    lineStart = 3
                }
                if let invalid = CSVTextDecoding.firstInvalidUTF8(bytes, from: 0) {
                    count(bytes[..<invalid], base: base)
                    report(at: base + invalid)
                }
                return
            }
            if problem == nil && !carry.isEmpty { report(at: offset - carry.count) }
        }

        /// Records the warning for the byte at `offset`, the first that is not UTF-8 (a CR just before it ends
        /// a line, as no LF follows it).
        private mutating func report(at offset: Int) {
            if afterCR {
                line += 1
                lineStart = offset
                afterCR = false
            }
            problem = .invalidEncoding(line: line, column: offset - lineStart + 1)
        }

        /// Counts the line breaks of `bytes` (at `base` in the file) as `read` counts them: LF, CRLF, a lone CR.
        private mutating func count(_ bytes: ArraySlice<UInt8>, base: Int) {
            var index = base
            for byte in bytes {
                if afterCR && byte != 0x0A {
                    line += 1
                    lineStart = index
                }
                afterCR = false
                if byte == 0x0A {
                    line += 1
                    lineStart = index + 1
                } else if byte == 0x0D {
                    afterCR = true
                }
                index += 1
            }
            // A CR at the very end is a line break whatever follows, unless an LF does: decided by the next byte.
        }
    }
}
