/// Escaping and splitting of values (RFC 2426 section 4, RFC 6350 section 3.4) and of parameter values
/// (RFC 6868). The syntax layer owns these rules; the vCard layer decides which one a property needs.
package enum ValueEscaping {
    /// Unescapes a text value: `\\`, `\,`, `\;`, `\n`, `\N`, and leniently `\:`. An unknown escape such as
    /// `\x` keeps its backslash, so unescaped Windows paths survive.
    /// Line breaks come out as LF whether written `\n` or, in decoded 2.1 quoted-printable, as CRLF or CR.
    public static func unescapeText(_ escaped: String) -> String {
        guard escaped.containsUTF8Byte(where: { $0 == ASCII.backslash || $0 == ASCII.cr }) else { return escaped }
        var out = [UInt8]()
        out.reserveCapacity(escaped.utf8.count)
        var previousWasCR = false
        var iterator = escaped.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == ASCII.cr {
                out.append(ASCII.lf)
                previousWasCR = true
                continue
            }
            defer { previousWasCR = false }
            if byte == ASCII.lf && previousWasCR { continue }
            guard byte == ASCII.backslash else {
                out.append(byte)
                continue
            }
            guard let next = iterator.next() else {
                out.append(byte)
                break
            }
            switch next {
            case UInt8(ascii: "n"), UInt8(ascii: "N"): out.append(ASCII.lf)
            case ASCII.backslash, ASCII.comma, ASCII.semicolon, ASCII.colon: out.append(next)
            // An unknown escape is most likely a literal backslash (`C:\Temp`): keep both characters.
            default: out += [byte, next]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A URI or phone number as written without escapes, except that a backslash `unescapeText` would read as the
    /// start of an escape (one before `\`, `,`, `;`, `:`, `n` or `N`) is doubled, so that it reads back as itself.
    ///
    /// Readers undo the escapes many clients put in URIs (`http\://`), so `C:\new` written as it stands would
    /// come back with a line break.
    public static func protectingBackslashes(_ value: String) -> String {
        guard value.containsUTF8Byte(ASCII.backslash) else { return value }
        let bytes = Array(value.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 8)
        for index in bytes.indices {
            out.append(bytes[index])
            guard bytes[index] == ASCII.backslash, index + 1 < bytes.count else { continue }
            switch bytes[index + 1] {
            case ASCII.backslash, ASCII.comma, ASCII.semicolon, ASCII.colon, UInt8(ascii: "n"), UInt8(ascii: "N"):
                out.append(ASCII.backslash)
            default: break
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Escapes text for a content line: backslash, comma, semicolon and every line break.
    ///
    /// CR, LF and CRLF all become `\n`, so no value can ever start a line of its own.
    public static func escapeText(_ text: String, escapeComma: Bool = true) -> String {
        var needs = false
        for byte in text.utf8
        where byte == ASCII.backslash || byte == ASCII.comma || byte == ASCII.semicolon
            || byte == ASCII.lf || byte == ASCII.cr
        {
            needs = true
            break
        }
        guard needs else { return text }
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count + 8)
        var previousWasCR = false
        for byte in text.utf8 {
            switch byte {
            case ASCII.backslash: out += [ASCII.backslash, ASCII.backslash]
            case ASCII.comma where escapeComma: out += [ASCII.backslash, ASCII.comma]
            case ASCII.semicolon: out += [ASCII.backslash, ASCII.semicolon]
            case ASCII.cr: out += [ASCII.backslash, UInt8(ascii: "n")]
            case ASCII.lf:
                if !previousWasCR { out += [ASCII.backslash, UInt8(ascii: "n")] }
            default: out.append(byte)
            }
            previousWasCR = byte == ASCII.cr
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Makes an already-escaped value safe to write: a raw CR or LF (possible in a value read from 2.1
    /// quoted-printable) becomes `\n`. Everything else is left as it was.
    public static func neutralizeLineBreaks(_ value: String) -> String {
        guard value.containsUTF8Byte(where: { $0 == ASCII.cr || $0 == ASCII.lf }) else { return value }
        var out = [UInt8]()
        var previousWasCR = false
        for byte in value.utf8 {
            if byte == ASCII.cr {
                out += [ASCII.backslash, UInt8(ascii: "n")]
            } else if byte == ASCII.lf {
                if !previousWasCR { out += [ASCII.backslash, UInt8(ascii: "n")] }
            } else {
                out.append(byte)
            }
            previousWasCR = byte == ASCII.cr
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Splits an escaped value on unescaped `separator` bytes, leaving each part escaped.
    public static func split(_ escaped: String, on separator: Character) -> [String] {
        let sep = separator.asciiValue!
        guard escaped.containsUTF8Byte(sep) else { return [escaped] }
        var parts: [String] = []
        var current = [UInt8]()
        var escapedNext = false
        for byte in escaped.utf8 {
            if escapedNext {
                current.append(byte)
                escapedNext = false
            } else if byte == ASCII.backslash {
                current.append(byte)
                escapedNext = true
            } else if byte == sep {
                parts.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        parts.append(String(decoding: current, as: UTF8.self))
        return parts
    }

    /// A list value (CATEGORIES, NICKNAME): items split on unescaped `,`, each unescaped.
    public static func list(_ escaped: String) -> [String] {
        split(escaped, on: ",").map(unescapeText)
    }

    /// Decodes RFC 6868 caret escapes in a parameter value: `^n` newline, `^^` caret, `^'` double quote.
    public static func decodeCaret(_ value: String) -> String {
        guard value.containsUTF8Byte(ASCII.caret) else { return value }
        var out = [UInt8]()
        var iterator = value.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == ASCII.caret else {
                out.append(byte)
                continue
            }
            guard let next = iterator.next() else {
                out.append(byte)
                break
            }
            switch next {
            case UInt8(ascii: "n"), UInt8(ascii: "N"): out.append(ASCII.lf)
            case ASCII.caret: out.append(ASCII.caret)
            case UInt8(ascii: "'"): out.append(ASCII.quote)
            default: out += [byte, next]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes a parameter value with RFC 6868 caret escapes (for vCard 4.0).
    public static func encodeCaret(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == ASCII.caret || $0 == ASCII.lf || $0 == ASCII.cr || $0 == ASCII.quote })
        else { return value }
        var out = [UInt8]()
        var previousWasCR = false
        for byte in value.utf8 {
            switch byte {
            case ASCII.caret: out += [ASCII.caret, ASCII.caret]
            case ASCII.quote: out += [ASCII.caret, UInt8(ascii: "'")]
            case ASCII.cr: out += [ASCII.caret, UInt8(ascii: "n")]
            case ASCII.lf: if !previousWasCR { out += [ASCII.caret, UInt8(ascii: "n")] }
            default: out.append(byte)
            }
            previousWasCR = byte == ASCII.cr
        }
        return String(decoding: out, as: UTF8.self)
    }
}

// Byte-level forms, for readers that hold a card's bytes in place (`RawCard.Line.valueBytes`): each makes
// its Strings straight from the bytes, without an intermediate escaped String.
extension ValueEscaping {
    /// `unescapeText` on bytes.
    public static func unescapeText(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var needsWork = false
        for byte in bytes where byte == ASCII.backslash || byte == ASCII.cr {
            needsWork = true
            break
        }
        if !needsWork { return String(decoding: bytes, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: bytes.count) { out in
            unescape(bytes, 0..<bytes.count, into: out, splitOn: nil).written
        }
    }

    /// Unescapes `bytes[range]` into `out` up to the first unescaped `splitOn` byte; returns the bytes
    /// written and where reading stopped (at the separator, or the end).
    @inline(__always)
    private static func unescape(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
        into out: UnsafeMutableBufferPointer<UInt8>, splitOn: UInt8?
    )
        -> (written: Int, stop: Int)
    {
        var index = range.lowerBound
        var n = 0
        let end = range.upperBound
        while index < end {
            let byte = bytes[index]
            if byte == splitOn { return (n, index) }
            switch byte {
            case ASCII.backslash where index + 1 < end:
                index += 1
                let next = bytes[index]
                switch next {
                case UInt8(ascii: "n"), UInt8(ascii: "N"):
                    out[n] = ASCII.lf
                    n += 1
                case ASCII.backslash, ASCII.comma, ASCII.semicolon, ASCII.colon:
                    out[n] = next
                    n += 1
                // An unknown escape is most likely a literal backslash (`C:\Temp`): keep both characters.
                default:
                    out[n] = byte
                    out[n + 1] = next
                    n += 2
                }
            case ASCII.cr:
                out[n] = ASCII.lf
                n += 1
                if index + 1 < end && bytes[index + 1] == ASCII.lf { index += 1 }
            default:
                out[n] = byte
                n += 1
            }
            index += 1
        }
        return (n, end)
    }

    /// Splits on unescaped `separator` and unescapes each part, calling `body` with each in order.
    @inline(__always)
    private static func forEachPart(
        _ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8,
        _ body: (String) -> Void
    ) {
        var start = 0
        let count = bytes.count
        while true {
            // Find the end of this part first, so the String is made at its exact size.
            var end = start
            var plain = true
            while end < count {
                let byte = bytes[end]
                if byte == separator { break }
                if byte == ASCII.backslash {
                    plain = false
                    end += 2
                    continue
                }
                if byte == ASCII.cr { plain = false }
                end += 1
            }
            end = min(end, count)
            if plain {
                body(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
            } else {
                body(
                    String(unsafeUninitializedCapacity: end - start) { out in
                        unescape(bytes, start..<end, into: out, splitOn: nil).written
                    })
            }
            if end >= count { return }
            start = end + 1
        }
    }

    /// The components of a structured value split on unescaped `;`, each unescaped, commas kept
    /// (`ORG`, `ADR`: a component's list items read back joined by `,`).
    public static func components(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var parts: [String] = []
        parts.reserveCapacity(8)
        forEachPart(bytes, separator: ASCII.semicolon) { parts.append($0) }
        return parts
    }

    /// Calls `body` with each item of a structured value and the index of its component, in order, so a
    /// reader can file items where they belong without building the nested arrays. Every component has
    /// at least one item (an empty component gives one empty item).
    public static func forEachStructuredItem(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, String) -> Void) {
        var start = 0
        var component = 0
        let count = bytes.count
        while true {
            var end = start
            while end < count && bytes[end] != ASCII.semicolon {
                end += bytes[end] == ASCII.backslash ? 2 : 1
            }
            end = min(end, count)
            forEachPart(UnsafeBufferPointer(rebasing: bytes[start..<end]), separator: ASCII.comma) {
                body(component, $0)
            }
            if end >= count { return }
            start = end + 1
            component += 1
        }
    }

    /// `list` on bytes: items split on unescaped `,`, each unescaped.
    public static func list(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var items: [String] = []
        forEachPart(bytes, separator: ASCII.comma) { items.append($0) }
        return items
    }

    /// `neutralizeLineBreaks` on bytes.
    public static func neutralizeLineBreaks(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if !bytes.containsByte(ASCII.cr) && !bytes.containsByte(ASCII.lf) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return neutralizeLineBreaks(String(decoding: bytes, as: UTF8.self))
    }
}

extension String {
    /// Whether the UTF-8 form holds `byte`, read from the string's contiguous bytes: the UTF8View's own
    /// `contains` steps through String indexes, several times slower on the writer's paths that ask it of
    /// every value.
    @inline(__always)
    package func containsUTF8Byte(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }

    /// Calls `body` with the UTF-8 bytes in place. `withUTF8` needs a `var`, and copying the string into one
    /// retains and releases its storage (an atomic pair) for every value the writer writes.
    @inline(__always)
    package func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }

    /// Whether some byte of the UTF-8 form satisfies `predicate` (see `containsUTF8Byte(_:)`).
    @inline(__always)
    package func containsUTF8Byte(where predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(where: predicate) } ?? utf8.contains(where: predicate)
    }
}
