/// Writes content lines: CRLF line ends, folding at 75 octets with one leading space, never inside a
/// UTF-8 sequence or an escape, and parameter values quoted when they need it.
public enum ContentLineWriter {
    /// The most octets on one physical line, excluding CRLF (RFC 2426 section 2.6, RFC 6350 section 3.2).
    public static let maxLineOctets = 75

    /// Appends `line`, folded and terminated by CRLF, to `out`.
    ///
    /// - Parameter caretEncoding: encode `^`, `"` and line breaks in parameter values as RFC 6868 says
    ///   (vCard 4.0); otherwise such characters are replaced by the nearest safe one.
    public static func write(_ line: ContentLine, into out: inout [UInt8], caretEncoding: Bool = false) {
        var logical = [UInt8]()
        logical.reserveCapacity(line.name.utf8.count + line.value.utf8.count + 16)
        appendUnfolded(line, into: &logical, caretEncoding: caretEncoding)
        fold(logical, into: &out)
    }

    /// The line as one unfolded string without a line end (used to embed inline cards as text).
    public static func unfolded(_ line: ContentLine) -> String {
        var bytes = [UInt8]()
        appendUnfolded(line, into: &bytes, caretEncoding: false)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the literal `text` and CRLF, for BEGIN, END and VERSION lines.
    public static func writeRaw(_ text: StaticString, into out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        out.append(ASCII.cr)
        out.append(ASCII.lf)
    }

    static func appendUnfolded(_ line: ContentLine, into out: inout [UInt8], caretEncoding: Bool) {
        if let group = line.group, !group.isEmpty {
            appendName(group, into: &out)
            out.append(ASCII.dot)
        }
        appendName(line.name, into: &out)
        for parameter in line.parameters {
            out.append(ASCII.semicolon)
            appendName(parameter.name, into: &out)
            out.append(ASCII.equals)
            for (index, value) in parameter.values.enumerated() {
                if index > 0 { out.append(ASCII.comma) }
                appendParameterValue(value, into: &out, caretEncoding: caretEncoding)
            }
        }
        out.append(ASCII.colon)
        // A value may never start a line of its own: raw CR and LF are written as `\n`.
        var previousWasCR = false
        for byte in line.value.utf8 {
            if byte == ASCII.cr {
                out += [ASCII.backslash, UInt8(ascii: "n")]
            } else if byte == ASCII.lf {
                if !previousWasCR { out += [ASCII.backslash, UInt8(ascii: "n")] }
            } else {
                out.append(byte)
            }
            previousWasCR = byte == ASCII.cr
        }
    }

    /// Names and groups are ASCII tokens; anything that would break the grammar is dropped.
    private static func appendName(_ name: String, into out: inout [UInt8]) {
        for byte in name.utf8 where byte > ASCII.space && byte != ASCII.colon && byte != ASCII.semicolon
            && byte != ASCII.equals && byte != ASCII.comma && byte != ASCII.dot && byte != ASCII.quote && byte < 0x7F
        {
            out.append(byte)
        }
    }

    private static func appendParameterValue(_ value: String, into out: inout [UInt8], caretEncoding: Bool) {
        let text = caretEncoding ? ValueEscaping.encodeCaret(value) : value
        var needsQuotes = false
        for byte in text.utf8 where byte == ASCII.colon || byte == ASCII.semicolon || byte == ASCII.comma
            || byte == ASCII.space || byte >= 0x80
        {
            needsQuotes = true
            break
        }
        if needsQuotes { out.append(ASCII.quote) }
        for byte in text.utf8 {
            switch byte {
            case ASCII.quote: out.append(UInt8(ascii: "'"))
            case ASCII.cr, ASCII.lf: out.append(ASCII.space)
            case 0..<0x20 where byte != ASCII.tab: break
            default: out.append(byte)
            }
        }
        if needsQuotes { out.append(ASCII.quote) }
    }

    /// Folds one logical line into physical lines of at most 75 octets.
    static func fold(_ logical: [UInt8], into out: inout [UInt8]) {
        let count = logical.count
        out.reserveCapacity(out.count + count + count / 37 + 2)
        var start = 0
        var limit = maxLineOctets
        while count - start > limit {
            var cut = start + limit
            // Never split a UTF-8 sequence: back up to the first byte of the character.
            while cut > start + 1 && logical[cut] & 0xC0 == 0x80 { cut -= 1 }
            // Never split an escape: if the byte before the cut opens an escape, cut before it.
            if cut > start + 1 && logical[cut - 1] == ASCII.backslash && opensEscape(logical, at: cut - 1) {
                cut -= 1
            }
            out.append(contentsOf: logical[start..<cut])
            out.append(ASCII.cr)
            out.append(ASCII.lf)
            out.append(ASCII.space)
            start = cut
            limit = maxLineOctets - 1
        }
        out.append(contentsOf: logical[start..<count])
        out.append(ASCII.cr)
        out.append(ASCII.lf)
    }

    /// Whether the backslash at `index` starts an escape (an even number of backslashes precede it).
    private static func opensEscape(_ bytes: [UInt8], at index: Int) -> Bool {
        var run = 0
        var i = index - 1
        while i >= 0 && bytes[i] == ASCII.backslash {
            run += 1
            i -= 1
        }
        return run % 2 == 0
    }
}
