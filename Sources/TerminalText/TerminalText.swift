/// Text made safe to show a person on a terminal: the one sanitiser every message, file name and card value
/// passes through before it is printed.
///
/// A card, a file name or an argument can hold characters that act on a terminal instead of being shown: C0
/// and C1 controls (ESC starts CSI and OSC sequences that clear the screen, retitle the window or plant an
/// OSC 8 link), DEL, and invisible format characters that reorder or hide text (the bidi overrides and
/// isolates U+202A-202E and U+2066-2069, the marks U+200E, U+200F and U+061C, zero-width spaces, tag
/// characters). Each is shown instead as a visible escape in Swift's own spelling, `\u{1B}`; a line break,
/// carriage return and tab as `\n`, `\r` and `\t` where a line break may not appear. Bytes that are not
/// UTF-8 (in file names) are shown as `\xE9`. Nothing is removed, so two different names never look alike.
public enum TerminalText {
    /// What to do with line breaks.
    public enum LineBreaks: Sendable {
        /// Keep `\n` (and tab): for a message the program wrote, whose lines are its own.
        case keep
        /// Show `\n`, `\r` and tab as escapes: for a value (a name, a path) that must stay on one line, so
        /// it cannot fake a line of output.
        case escape
    }

    /// `text` with every character that could act on a terminal replaced by a visible escape.
    public static func sanitized(_ text: String, lineBreaks: LineBreaks = .escape) -> String {
        // Most text has nothing to escape: return it as it is, without building a copy.
        guard text.unicodeScalars.contains(where: { needsEscape($0, lineBreaks: lineBreaks) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar, lineBreaks: lineBreaks) {
                out += escape(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Bytes (a file name, an argument) as text: valid UTF-8 sanitised as `sanitized` does, every other byte as
    /// `\xNN`, so a name that is not UTF-8 is shown exactly and safely.
    public static func sanitized(bytes: some Collection<UInt8>, lineBreaks: LineBreaks = .escape) -> String {
        let bytes = Array(bytes)
        var out = ""
        var validStart = 0
        var index = 0
        func flushValid(upTo end: Int) {
            guard validStart < end else { return }
            out += sanitized(String(decoding: bytes[validStart..<end], as: UTF8.self), lineBreaks: lineBreaks)
        }
        while index < bytes.count {
            let length = sequenceLength(bytes, at: index)
            if length > 0 {
                index += length
            } else {
                // The byte cannot begin a valid sequence here: shown as the byte it is, not as U+FFFD.
                flushValid(upTo: index)
                out += "\\x" + hex(bytes[index], width: 2)
                index += 1
                validStart = index
            }
        }
        flushValid(upTo: index)
        return out
    }

    /// Whether `scalar` is shown as an escape.
    public static func needsEscape(_ scalar: Unicode.Scalar, lineBreaks: LineBreaks = .escape) -> Bool {
        switch scalar.value {
        case 0x20..<0x7F: return false
        case 0x0A, 0x09: return lineBreaks == .escape
        case 0x00...0x1F, 0x7F...0x9F: return true
        // Zero-width non-joiner and joiner shape Persian, Indic scripts and emoji sequences: they are kept.
        case 0x200C, 0x200D: return false
        // Line and paragraph separators break lines on some terminals.
        case 0x2028, 0x2029: return true
        // Blocks with no format character (Latin to Hebrew, Indic to Mongolian, general punctuation's end to the
        // CJK and Hangul blocks): most text of a card, answered without a look at the Unicode tables.
        case 0xA0...0x5FF where scalar.value != 0xAD: return false
        case 0x900..<0x180E, 0x1810..<0x200B, 0x2070..<0xFEFF: return false
        default:
            // Format characters: bidi controls, marks, zero-width spaces, the BOM, tag characters.
            return scalar.properties.generalCategory == .format
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default: return "\\u{" + hex(scalar.value, width: 2) + "}"
        }
    }

    /// The length of the valid UTF-8 sequence at `bytes[index]`, or 0 when none begins there (an overlong
    /// form, a surrogate, a value above U+10FFFF, a stray continuation byte, a sequence cut short).
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            let (lower, upper) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            if byte < lower || byte > upper { return 0 }
        }
        return length
    }

    private static func hex(_ value: some BinaryInteger, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
