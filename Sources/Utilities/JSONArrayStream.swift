/// The elements of a top-level JSON array, one at a time, from its bytes in pieces: memory holds a piece and the
/// element being read, not the document.
///
/// Only the array's own grammar is checked here (`[`, elements separated by commas, `]`, white space, nothing
/// after): each element's bytes are found by their strings and brackets, and are parsed by whoever takes them.
/// Anything else (a top-level object, a broken separator) is `notAnArray` or `malformed`, for the caller to
/// read the document whole and report it as it does.
package struct JSONArrayStream {
    /// What the next step found.
    package enum Step {
        /// An element's bytes, and where its first byte is in the document.
        case element([UInt8], at: Position)
        /// The array ended, and only white space followed it.
        case end
        /// The document does not start with `[` (after a byte order mark and white space).
        case notAnArray
        /// The array's grammar broke (or the document ended inside it).
        case malformed
    }

    /// Where a byte is in the document: its 1-based line and byte column (`JSONText.LineIndex`'s), and offset.
    package struct Position: Sendable, Equatable {
        package var line = 1
        package var column = 1
        package var offset = 0

        /// The first byte of a document.
        package init() {}

        package init(line: Int, column: Int, offset: Int) {
            self.line = line
            self.column = column
            self.offset = offset
        }
    }

    private var buffer: [UInt8] = []
    private var position = 0
    /// The document's offset of `buffer[0]`, and the bytes of the buffer before `counted` whose line breaks
    /// were counted (LF, CRLF and a CR alone are one each, as `JSONText.LineIndex` counts them).
    private var dropped = 0
    private var counted = 0
    private var line = 1
    private var lineStart = 0
    private var afterCR = false
    private var atEnd = false
    private var started = false
    private var finished = false
    private let more: () throws -> [UInt8]

    /// A stream over the pieces `more` gives (empty at the end of the document).
    package init(more: @escaping () throws -> [UInt8]) { self.more = more }

    /// The next element, or how the array ended.
    package mutating func next() throws -> Step {
        if !started {
            started = true
            guard try skipSpace(allowingMark: true), buffer[position] == UInt8(ascii: "[") else { return .notAnArray }
            position += 1
            guard try skipSpace() else { return .malformed }
            if buffer[position] == UInt8(ascii: "]") {
                position += 1
                return try trailing()
            }
        } else if finished {
            return .end
        } else {
            // After an element: a comma and the next one, or the end of the array.
            guard try skipSpace() else { return .malformed }
            if buffer[position] == UInt8(ascii: "]") {
                position += 1
                return try trailing()
            }
            guard buffer[position] == UInt8(ascii: ",") else { return .malformed }
            position += 1
            guard try skipSpace() else { return .malformed }
        }
        guard let end = try elementEnd() else { return .malformed }
        let start = place(of: position)
        let element = Array(buffer[position..<end])
        position = end
        return .element(element, at: start)
    }

    /// Only white space after the array.
    private mutating func trailing() throws -> Step {
        finished = true
        return try skipSpace() ? .malformed : .end
    }

    /// Moves past white space (and a byte order mark at the start); whether a byte follows.
    private mutating func skipSpace(allowingMark: Bool = false) throws -> Bool {
        if allowingMark {
            while buffer.count < 3 && !atEnd { try pull() }
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }
        while true {
            while position < buffer.count, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[position]) { position += 1 }
            if position < buffer.count { return true }
            if atEnd { return false }
            try pull()
        }
    }

    /// The offset just past the element that starts at `position`: a string, a number or word, or an object or
    /// array to its closing bracket (brackets inside strings not counted); nil when the document ends first.
    private mutating func elementEnd() throws -> Int? {
        var cursor = position
        var depth = 0
        var inString = false
        var escaped = false
        while true {
            // Read through a pointer: checked subscripts made this scan, on the thread that hands cards to the
            // others, the larger part of what stayed on one thread.
            let found = buffer.withUnsafeBufferPointer { bytes -> Int? in
                let count = bytes.count
                while cursor < count {
                    // Runs of bytes that change nothing are passed over first: within a string all but a quote
                    // and a backslash, within a bracket all but a quote and a bracket.
                    if inString && !escaped {
                        while cursor < count && bytes[cursor] != UInt8(ascii: "\"")
                            && bytes[cursor] != UInt8(ascii: "\\")
                        {
                            cursor += 1
                        }
                        if cursor == count { break }
                    } else if !inString && depth > 0 {
                        // `|` 0x20 folds `[` and `]` onto `{` and `}`.
                        while cursor < count && bytes[cursor] != UInt8(ascii: "\"") && bytes[cursor] | 0x20 != 0x7B
                            && bytes[cursor] | 0x20 != 0x7D
                        {
                            cursor += 1
                        }
                        if cursor == count { break }
                    }
                    let byte = bytes[cursor]
                    cursor += 1
                    if inString {
                        if escaped {
                            escaped = false
                        } else if byte == UInt8(ascii: "\\") {
                            escaped = true
                        } else if byte == UInt8(ascii: "\"") {
                            inString = false
                            if depth == 0 { return cursor }
                        }
                        continue
                    }
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { return cursor }
                        if depth < 0 { return cursor - 1 }
                    case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                        if depth == 0 { return cursor - 1 }
                    default: break
                    }
                }
                return nil
            }
            if let found { return found }
            if atEnd { return depth == 0 && !inString && cursor > position ? cursor : nil }
            // The element goes on past what is read: read more, keeping where the scan got to.
            let scanned = cursor - position
            try pull()
            cursor = position + scanned
        }
    }

    /// Where `buffer[index]` is, the line breaks before it counted.
    private mutating func place(of index: Int) -> Position {
        count(upTo: index)
        if afterCR && index < buffer.count && buffer[index] != 0x0A {
            // A CR just before, with no LF after it: a line break of its own.
            line += 1
            lineStart = dropped + index
            afterCR = false
        }
        return Position(line: line, column: dropped + index - lineStart + 1, offset: dropped + index)
    }

    private mutating func count(upTo index: Int) {
        guard counted < index else { return }
        var counted = self.counted
        var line = self.line
        var lineStart = self.lineStart
        var afterCR = self.afterCR
        let dropped = self.dropped
        buffer.withUnsafeBufferPointer { bytes in
            while counted < index {
                let byte = bytes[counted]
                // Most bytes end no line: the test for both line ends is one comparison for them.
                if byte > 0x0D && !afterCR {
                    counted += 1
                    continue
                }
                if afterCR && byte != 0x0A {
                    line += 1
                    lineStart = dropped + counted
                }
                afterCR = byte == 0x0D
                if byte == 0x0A {
                    line += 1
                    lineStart = dropped + counted + 1
                }
                counted += 1
            }
        }
        (self.counted, self.line, self.lineStart, self.afterCR) = (counted, line, lineStart, afterCR)
    }

    /// Reads the next piece, dropping what was read before `position`.
    private mutating func pull() throws {
        if position > 0 {
            count(upTo: position)
            buffer.removeSubrange(0..<position)
            dropped += position
            counted -= position
            position = 0
        }
        let piece = try more()
        if piece.isEmpty { atEnd = true } else { buffer += piece }
    }
}
