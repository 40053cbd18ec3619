/// Finds where in JSON text a problem lies, because Foundation's decoders say what went wrong but not on
/// which line: the first syntax error with what was expected there, and the line of a value by its path.
struct JSONLocator {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Deeper nesting is refused rather than followed, so hostile input cannot exhaust the stack.
    static let maximumDepth = 512

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A syntax problem: where, and what the text should have held there.
    struct Problem: Equatable {
        var line: Int
        var column: Int
        var expected: String
    }

    /// The first syntax error in `bytes`, or nil when the text is well-formed JSON.
    static func syntaxError(in bytes: [UInt8]) -> Problem? {
        var locator = JSONLocator(bytes)
        locator.skipBOM()
        do {
            try locator.value()
            locator.skipSpace()
            if locator.index < bytes.count { throw locator.problem("the end of the text after the top-level value") }
            return nil
        } catch {
            return error as? Problem
        }
    }

    /// The 1-based line and column where the value at `path` begins, or where the deepest part of the path
    /// that exists begins.
    static func position(of path: [PathComponent], in bytes: [UInt8]) -> (line: Int, column: Int) {
        var locator = JSONLocator(bytes)
        locator.skipBOM()
        locator.skipSpace()
        for component in path {
            guard locator.enter(component) else { break }
        }
        return locator.position()
    }

    /// One step of a path into JSON.
    enum PathComponent: Equatable {
        case index(Int)
        case key(String)
    }

    // MARK: - Walking to a path

    /// Moves from the start of a container to the start of the member named by `component`.
    private mutating func enter(_ component: PathComponent) -> Bool {
        guard index < bytes.count else { return false }
        let open = bytes[index]
        let start = index
        switch component {
        case .index(let wanted):
            guard open == UInt8(ascii: "[") else { return false }
            index += 1
            for position in 0... {
                skipSpace()
                if position == wanted { return index < bytes.count && bytes[index] != UInt8(ascii: "]") }
                guard (try? value()) != nil else { index = start; return false }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { index = start; return false }
                index += 1
            }
        case .key(let wanted):
            guard open == UInt8(ascii: "{") else { return false }
            index += 1
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = try? string() else {
                    index = start
                    return false
                }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { index = start; return false }
                index += 1
                skipSpace()
                if key == wanted { return true }
                guard (try? value()) != nil else { index = start; return false }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { index = start; return false }
                index += 1
            }
        }
        return false
    }

    // MARK: - Validating

    private mutating func value() throws {
        skipSpace()
        guard index < bytes.count else { throw problem("a value (object, array, string, number, true, false or null)") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw problem("a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func object() throws {
        depth += 1
        guard depth <= Self.maximumDepth else { throw problem("at most \(Self.maximumDepth) levels of nesting") }
        index += 1
        skipSpace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw problem("a quoted key") }
            _ = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw problem("':' after the key") }
            index += 1
            try value()
            skipSpace()
            guard index < bytes.count else { throw problem("',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "}") else { throw problem("',' or '}'") }
            index += 1
            depth -= 1
            return
        }
    }

    private mutating func array() throws {
        depth += 1
        guard depth <= Self.maximumDepth else { throw problem("at most \(Self.maximumDepth) levels of nesting") }
        index += 1
        skipSpace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            try value()
            skipSpace()
            guard index < bytes.count else { throw problem("',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "]") else { throw problem("',' or ']'") }
            index += 1
            depth -= 1
            return
        }
    }

    /// Reads a string starting at its opening quote and returns its raw text (escapes left as written: keys
    /// in Contact JSON are plain ASCII).
    private mutating func string() throws -> String {
        let start = index + 1
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return text
            case UInt8(ascii: "\\"):
                index += 2
            case 0..<0x20:
                throw problem("a closing '\"' (control characters must be escaped inside strings)")
            default:
                index += 1
            }
        }
        throw problem("a closing '\"'")
    }

    private mutating func literal(_ word: String) throws {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw problem("a value (object, array, string, number, true, false or null)")
        }
        index += expected.count
    }

    private mutating func number() throws {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > digitsStart else { index = start; throw problem("a number") }
        for marker in [UInt8(ascii: "."), UInt8(ascii: "e")] {
            if index < bytes.count, bytes[index] == marker || (marker == UInt8(ascii: "e") && bytes[index] == UInt8(ascii: "E")) {
                index += 1
                if marker == UInt8(ascii: "e"), index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                let partStart = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > partStart else { throw problem("digits in the number") }
            }
        }
    }

    // MARK: - Positions

    private mutating func skipBOM() {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func position() -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for offset in 0..<min(index, bytes.count) where bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        return (line, index - lineStart + 1)
    }

    private func problem(_ expected: String) -> Problem {
        let (line, column) = position()
        return Problem(line: line, column: column, expected: expected)
    }
}

extension JSONLocator.Problem: Error {}
