import Utilities
import VCardSyntax

/// The input as the linter sees it: UTF-8 bytes (UTF-16 is transcoded first, as the lexer would) and where
/// each physical line starts and ends, so rules that look at the bytes as written (line length, the
/// quoted-printable parameter the lexer consumes, columns) can find a line by its number.
///
/// Lines are counted as `VCardLexer` counts them: a line ends at LF, at a run of CRs followed by LF (iOS
/// writes CR CR LF), or at a run of CRs; a byte order mark is not part of the first line.
struct LintSource {
    /// The bytes, UTF-8 (transcoded when the input was UTF-16).
    let bytes: [UInt8]
    /// Whether the input was UTF-16 (so byte offsets and sizes are those of its UTF-8 form).
    let wasUTF16: Bool
    /// The offset of each physical line's first byte; line `n` is at index `n - 1`.
    private(set) var lineStarts: [Int] = []
    /// The offset just after each physical line's last byte, before its line end.
    private(set) var lineEnds: [Int] = []

    /// The lines before these bytes, when they are a part of a file that starts at a card (`StreamLinter`):
    /// line numbers are the file's.
    let firstLine: Int
    /// Lines left out of `bytes`, in order (see `Gap`).
    let gaps: [Gap]
    /// How many lines of the bytes come before each gap.
    private var gapStarts: [Int] = []

    /// Physical lines a streamed part leaves out of its bytes: lines a card larger than `Limits.maxCardBytes`
    /// skipped, which no rule reads but for their number and lengths. A card of 1 GB is linted holding its
    /// first 32 MiB and this.
    struct Gap: Sendable {
        /// Where in the bytes the lines were: where the line after them begins, or the end.
        var offset: Int
        /// How many physical lines.
        var lines = 0
        /// How many are longer than `longLine` octets.
        var longLines = 0
        /// The first of those: its place among the gap's lines (0-based) and its octets.
        var firstLong: (index: Int, octets: Int)?
        /// The lines are counted as longer than this: the fold limit `LineLengthRule` checks.
        static let longLine = ContentLineWriter.maxLineOctets

        /// The lines of `bytes[range]` (whole lines, counted as `LintSource` counts them), at `offset`.
        init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, offset: Int) {
            self.offset = offset
            LintSource.forEachLine(bytes, range) { start, end in
                if end - start > Self.longLine {
                    if firstLong == nil { firstLong = (lines, end - start) }
                    longLines += 1
                }
                lines += 1
            }
        }

        /// This gap and `next`, which follows it directly, as one.
        mutating func append(_ next: Gap) {
            if firstLong == nil, let first = next.firstLong { firstLong = (lines + first.index, first.octets) }
            lines += next.lines
            longLines += next.longLines
        }
    }

    /// Reads `input`; `transcoded` says it is a part of a UTF-16 file already turned into UTF-8 (`StreamLinter`);
    /// `gaps` are lines left out of it, at their offsets, in order.
    init(_ input: [UInt8], firstLine: Int = 0, transcoded: Bool = false, gaps: [Gap] = []) {
        self.firstLine = firstLine
        self.gaps = gaps
        if transcoded {
            bytes = input
            wasUTF16 = true
        } else if let transcoded = UTF16Text.utf8(fromUTF16: input) {
            bytes = transcoded
            wasUTF16 = true
        } else {
            bytes = input
            wasUTF16 = false
        }
        indexLines()
    }

    /// The number of the last physical line (the number of lines, for a whole file).
    var lineCount: Int { firstLine + lineStarts.count + gaps.reduce(0) { $0 + $1.lines } }

    /// Where physical line `line` (1-based, the file's) is: its index in `lineStarts`, or nil when it is in a
    /// gap or there is no such line.
    private func index(ofLine line: Int) -> Int? {
        var index = line - firstLine - 1
        guard index >= 0 else { return nil }
        var skipped = 0
        for (gap, start) in zip(gaps, gapStarts) {
            // `start` lines of the bytes come before the gap.
            if index < start + skipped { break }
            if index < start + skipped + gap.lines { return nil }
            skipped += gap.lines
        }
        index -= skipped
        return index < lineStarts.count ? index : nil
    }

    /// The bytes of physical line `line` (1-based) without its line end; empty when there is no such line, or
    /// when it is in a gap.
    func content(ofLine line: Int) -> ArraySlice<UInt8> {
        guard let index = index(ofLine: line) else { return [] }
        return bytes[lineStarts[index]..<lineEnds[index]]
    }

    /// The lines from `first` through `last` longer than `Gap.longLine` octets: the first with its octets, and
    /// how many more there are. A gap counts whole when it has a line in that range: it holds one card's lines.
    func longLines(from first: Int, through last: Int) -> (first: (line: Int, octets: Int)?, more: Int) {
        var found: (line: Int, octets: Int)?
        var count = 0
        // The file's line number of `lineStarts[index]`.
        var line = firstLine + 1
        var index = 0
        for k in 0...gaps.count where line <= last {
            let upTo = k < gaps.count ? gapStarts[k] : lineStarts.count
            let (low, high) = (max(first, line), min(last, line + upTo - index - 1))
            if low <= high {
                for number in low...high {
                    let at = index + number - line
                    let octets = lineEnds[at] - lineStarts[at]
                    guard octets > Gap.longLine else { continue }
                    if found == nil { found = (number, octets) }
                    count += 1
                }
            }
            line += upTo - index
            index = upTo
            guard k < gaps.count else { break }
            let gap = gaps[k]
            if line <= last && line + gap.lines > first, let long = gap.firstLong {
                if found == nil { found = (line + long.index, long.octets) }
                count += gap.longLines
            }
            line += gap.lines
        }
        return (found, max(count - 1, 0))
    }

    /// The part of line `line` before its first unquoted colon (name, group and parameters), or the whole
    /// line when it has no colon.
    func head(ofLine line: Int) -> ArraySlice<UInt8> {
        let text = content(ofLine: line)
        var quoted = false
        for index in text.indices {
            let byte = text[index]
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == UInt8(ascii: ":") && !quoted {
                return text[text.startIndex..<index]
            }
        }
        return text
    }

    /// The 1-based byte column where the value of the content line starting on `line` begins, or 1 when
    /// the colon is not on that physical line.
    func valueColumn(ofLine line: Int) -> Int {
        let text = content(ofLine: line)
        let head = self.head(ofLine: line)
        guard head.count < text.count else { return 1 }
        return head.count + 2
    }

    /// The 1-based byte column of `value` as a parameter value on `line` (after `=`, `,` or `;`, ending at
    /// `,`, `;`, `:` or a quote), compared ignoring ASCII case; 1 when it is not on that physical line.
    func parameterValueColumn(_ value: String, onLine line: Int) -> Int {
        let head = Array(self.head(ofLine: line))
        let word = Array(value.utf8).map(Self.lower)
        // A parameter value follows at least one byte (its `=`, `,`, `;` or quote).
        guard !word.isEmpty, head.count > word.count else { return 1 }
        let openers: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\"")]
        let closers: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\"")]
        for start in 1...(head.count - word.count) where openers.contains(head[start - 1]) {
            let end = start + word.count
            guard end == head.count || closers.contains(head[end]) else { continue }
            if (0..<word.count).allSatisfy({ Self.lower(head[start + $0]) == word[$0] }) { return start + 1 }
        }
        return 1
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    private mutating func indexLines() {
        var from = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { from = 3 }
        var starts: [Int] = []
        var lineStarts: [Int] = []
        var lineEnds: [Int] = []
        lineStarts.reserveCapacity(bytes.count / 40 + 1)
        lineEnds.reserveCapacity(bytes.count / 40 + 1)
        bytes.withUnsafeBufferPointer { buffer in
            // Each gap sits where a line begins, between the lines of the bytes.
            for offset in gaps.map(\.offset) + [buffer.count] {
                Self.forEachLine(buffer, from..<max(from, offset)) { start, end in
                    lineStarts.append(start)
                    lineEnds.append(end)
                }
                starts.append(lineStarts.count)
                from = max(from, offset)
            }
        }
        self.lineStarts = lineStarts
        self.lineEnds = lineEnds
        gapStarts = Array(starts.dropLast())
    }

    /// Calls `body` with the start and end (before its line end) of each physical line of `bytes[range]`.
    static func forEachLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (_ start: Int, _ end: Int) -> Void
    ) {
        let count = range.upperBound
        var index = range.lowerBound
        while index < count {
            let start = index
            var end = count
            var next = count
            while index < count {
                let byte = bytes[index]
                if byte == 0x0A {
                    end = index
                    next = index + 1
                    break
                }
                if byte == 0x0D {
                    end = index
                    var after = index + 1
                    while after < count && bytes[after] == 0x0D { after += 1 }
                    next = after < count && bytes[after] == 0x0A ? after + 1 : after
                    break
                }
                index += 1
            }
            body(start, end)
            index = next
        }
    }
}
