/// A JSON value as `JSONText.parse` reads it, with the byte range it came from.
///
/// Foundation's `JSONSerialization` gives neither positions nor a reliable line between `true` and `1` on every
/// platform; jCard errors must name a line, so values carry their offsets and numbers keep their source text.
package struct JSONValue {
    /// What the value is.
    package enum Kind {
        case string(String)
        /// The number as written (already valid JSON), so no digit is lost to a Double.
        case number(String)
        case bool(Bool)
        case null
        case array([JSONValue])
        /// Members in source order; a repeated key is kept twice, as written.
        case object([(key: String, value: JSONValue)])
    }

    /// The value.
    package var kind: Kind
    /// The byte offset of its first byte.
    package var start: Int
    /// The byte offset just past its last byte.
    package var end: Int

    /// The elements when this is an array.
    package var array: [JSONValue]? {
        if case .array(let items) = kind { return items }
        return nil
    }

    /// The text when this is a string.
    package var string: String? {
        if case .string(let text) = kind { return text }
        return nil
    }
}

/// A byte that broke the JSON grammar: where, and what was expected there.
package struct JSONSyntaxError: Error {
    /// Byte offset of the problem.
    package var offset: Int
    /// What the grammar wanted, as a phrase (`a value`, `',' or ']'`).
    package var expected: String
}

/// Reads and writes JSON text on bytes (RFC 8259): for jCard, and to say where Contact JSON went wrong.
package enum JSONText {
    /// The deepest nesting read. jCard needs six levels (list, card, properties, property, value, component);
    /// the bound keeps a hostile input from exhausting the stack.
    package static let maxDepth = 64

    /// Parses one JSON text, after an optional UTF-8 byte order mark.
    /// - Throws: `JSONSyntaxError` at the first byte that does not fit the grammar.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var parser = Parser(bytes: buffer)
            if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { parser.index = 3 }
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            if parser.index < buffer.count {
                throw JSONSyntaxError(offset: parser.index, expected: "the end of the input")
            }
            return value
        }
    }

    /// Where each line of a text starts, so any byte offset converts to a line and column without rescanning.
    package struct LineIndex {
        /// The offset of the first byte of each line; line 1 starts at 0.
        private var starts: [Int] = [0]

        /// Indexes `bytes`, counting LF, CR and CRLF as one line break each.
        package init(_ bytes: [UInt8]) {
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                    starts.append(index + 1)
                }
                index += 1
            }
        }

        /// The 1-based line and byte column of `offset`.
        package func position(of offset: Int) -> (line: Int, column: Int) {
            // The last line start at or before the offset, by binary search.
            var low = 0
            var high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            return (low + 1, offset - starts[low] + 1)
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        static let escapedControl = "a control character escaped (\\n, \\t, \\u0001)"
        static let knownEscape = "an escape such as \\\" \\\\ \\n or \\u00e9"
        static let hexDigits = "four hex digits after \\u"

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            skipWhitespace()
            guard index < bytes.count else { throw JSONSyntaxError(offset: index, expected: "a value") }
            let start = index
            let kind: JSONValue.Kind
            switch bytes[index] {
            case UInt8(ascii: "["): kind = .array(try array(depth: depth + 1))
            case UInt8(ascii: "{"): kind = .object(try object(depth: depth + 1))
            case UInt8(ascii: "\""): kind = .string(try string())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number(try number())
            case UInt8(ascii: "t"):
                try literal("true")
                kind = .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                kind = .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                kind = .null
            default: throw JSONSyntaxError(offset: index, expected: "a value")
            }
            return JSONValue(kind: kind, start: start, end: index)
        }

        private mutating func array(depth: Int) throws(JSONSyntaxError) -> [JSONValue] {
            guard depth <= JSONText.maxDepth else {
                throw JSONSyntaxError(offset: index, expected: "nesting no deeper than \(JSONText.maxDepth) levels")
            }
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                index += 1
                return items
            }
            while true {
                items.append(try value(depth: depth))
                skipWhitespace()
                guard index < bytes.count else { throw JSONSyntaxError(offset: index, expected: "',' or ']'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return items
                } else {
                    throw JSONSyntaxError(offset: index, expected: "',' or ']'")
                }
            }
        }

        private mutating func object(depth: Int) throws(JSONSyntaxError) -> [(key: String, value: JSONValue)] {
            guard depth <= JSONText.maxDepth else {
                throw JSONSyntaxError(offset: index, expected: "nesting no deeper than \(JSONText.maxDepth) levels")
            }
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                index += 1
                return members
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw JSONSyntaxError(
                        offset: index,
                        expected: members.isEmpty ? "a string key or '}'" : "a string key")
                }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw JSONSyntaxError(offset: index, expected: "':' after the key")
                }
                index += 1
                members.append((key, try value(depth: depth)))
                skipWhitespace()
                guard index < bytes.count else { throw JSONSyntaxError(offset: index, expected: "',' or '}'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return members
                } else {
                    throw JSONSyntaxError(offset: index, expected: "',' or '}'")
                }
            }
        }

        private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw JSONSyntaxError(offset: index, expected: "a value") }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                throw JSONSyntaxError(offset: index, expected: "a value")
            }
            index += count
        }

        private mutating func digits() -> Int {
            let start = index
            while index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - start
        }

        private mutating func number() throws(JSONSyntaxError) -> String {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            if index < bytes.count && bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else if digits() == 0 {
                throw JSONSyntaxError(offset: index, expected: "a digit")
            }
            if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
                index += 1
                if digits() == 0 { throw JSONSyntaxError(offset: index, expected: "a digit after '.'") }
            }
            if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
                index += 1
                if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                    index += 1
                }
                if digits() == 0 { throw JSONSyntaxError(offset: index, expected: "a digit in the exponent") }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        /// A string from its opening quote; invalid UTF-8 becomes U+FFFD, as `String(decoding:)` does.
        private mutating func string() throws(JSONSyntaxError) -> String {
            let open = index
            index += 1
            let contentStart = index
            // Most strings hold no escape: find the closing quote and make the String once.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(
                        decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]),
                        as: UTF8.self)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw JSONSyntaxError(offset: index, expected: Self.escapedControl) }
                index += 1
            }
            var out = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"): appendUTF8(try unicodeEscape(), to: &out)
                    default: throw JSONSyntaxError(offset: index - 2, expected: Self.knownEscape)
                    }
                case 0..<0x20:
                    throw JSONSyntaxError(offset: index, expected: Self.escapedControl)
                default:
                    out.append(byte)
                    index += 1
                }
            }
            throw JSONSyntaxError(offset: open, expected: "a closing '\"' for this string")
        }

        /// The scalar of `\uXXXX` (the `\u` already read), joining a surrogate pair; a lone surrogate is U+FFFD.
        private mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
            let first = try hex4()
            if (0xD800...0xDBFF).contains(first), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            {
                let save = index
                index += 2
                let second = try hex4()
                if (0xDC00...0xDFFF).contains(second) {
                    return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) ?? "\u{FFFD}"
                }
                index = save
            }
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        }

        private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw JSONSyntaxError(offset: index, expected: Self.hexDigits) }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw JSONSyntaxError(offset: index, expected: Self.hexDigits)
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        private func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
            out.append(contentsOf: UTF8.encode(scalar)!)
        }
    }

    // MARK: Writing

    /// Appends `text` as a JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    package static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            // Runs that need no escape are copied whole: appending byte by byte was a tenth of writing jCard.
            var run = 0
            for i in 0..<bytes.count {
                let byte = bytes[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
                run = i + 1
                switch byte {
                case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out += [
                        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                    ]
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
            out.append(UInt8(ascii: "\""))
        }
    }
}
