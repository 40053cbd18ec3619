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

    /// Reads `input`; `transcoded` says it is a part of a UTF-16 file already turned into UTF-8 (`StreamLinter`).
    init(_ input: [UInt8], firstLine: Int = 0, transcoded: Bool = false) {
        self.firstLine = firstLine
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
    var lineCount: Int { firstLine + lineStarts.count }

    /// The bytes of physical line `line` (1-based) without its line end; empty when there is no such line.
    func content(ofLine line: Int) -> ArraySlice<UInt8> {
        let line = line - firstLine
        guard line >= 1 && line <= lineStarts.count else { return [] }
        return bytes[lineStarts[line - 1]..<lineEnds[line - 1]]
    }

    /// The octets on physical line `line`, its line end excluded.
    func octets(ofLine line: Int) -> Int { content(ofLine: line).count }

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
        let count = bytes.count
        var index = 0
        if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        lineStarts.reserveCapacity(count / 40 + 1)
        lineEnds.reserveCapacity(count / 40 + 1)
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
            lineStarts.append(start)
            lineEnds.append(end)
            index = next
        }
    }
}
