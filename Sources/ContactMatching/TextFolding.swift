import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Folding that makes two spellings of the same word compare equal: case, accents and punctuation.
package enum TextFolding {
    /// Lower case, accents removed, every run of punctuation or white space turned into one space, trimmed:
    /// `"  Núñez-García, José "` is `"nunez garcia jose"`.
    public static func fold(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        appendFolded(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The folds of `parts` as if they were one text with a space between each: `words(parts).joined(" ")`.
    public static func fold(_ parts: [String]) -> String {
        if parts.count == 1 { return fold(parts[0]) }
        var out: [UInt8] = []
        for part in parts { appendFolded(part, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the fold of `text` to `out`, with one space first when both `out` and the fold are not empty, so
    /// folding several texts into one buffer gives the fold of the texts joined by spaces.
    static func appendFolded(_ text: String, to out: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ appendFolded(utf8: $0, to: &out) }) == nil {
            // A string without UTF-8 storage of its own (bridged from another representation).
            var copy = text
            copy.makeContiguousUTF8()
            copy.utf8.withContiguousStorageIfAvailable { appendFolded(utf8: $0, to: &out) }
        }
    }

    /// `appendFolded` over a text's UTF-8 bytes: scalars are decoded from the bytes as they come (walking the
    /// string's scalars cost more than folding them), and CJK, kana and Hangul copied as they are.
    private static func appendFolded(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if out.capacity < out.count + bytes.count + 1 {
            out.reserveCapacity(max(2 * out.count, out.count + bytes.count + 1))
        }
        var pendingSpace = !out.isEmpty
        @inline(__always) func letter(_ b: UInt8) {
            if pendingSpace && !out.isEmpty { out.append(0x20) }
            pendingSpace = false
            out.append(b)
        }
        var i = 0
        let count = bytes.count
        while i < count {
            let b = bytes[i]
            if b < 0x80 {
                if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) {
                    letter(b)
                } else if b >= 0x41 && b <= 0x5A {
                    letter(b + 0x20)
                } else if b != 0x27 {  // O'Brien and OBrien are one name
                    pendingSpace = true
                }
                i += 1
                continue
            }
            // A string's bytes are valid UTF-8: the first byte of a scalar says how many follow it.
            let length = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
            var v = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for k in 1..<length { v = v << 6 | UInt32(bytes[i + k] & 0x3F) }
            defer { i += length }
            if v < tableEnd {
                let entry = table[Int(v) - 0x80]
                if entry == separator {
                    pendingSpace = true
                } else if entry & 0xFF != 0 {
                    let start = Int(entry >> 8)
                    letter(tableBytes[start])
                    for j in (start + 1)..<(start + Int(entry & 0xFF)) { out.append(tableBytes[j]) }
                }
                continue
            }
            // CJK, Hangul and the rest: no accents to strip, and nearly always no case either, so the scalar is
            // its own fold (without the string `lowercaseMapping` would make).
            if isOwnFold(v) {
                // Three UTF-8 bytes: these blocks are all in the Basic Multilingual Plane above U+0800.
                letter(b)
                out.append(bytes[i + 1])
                out.append(bytes[i + 2])
                continue
            }
            let scalar = Unicode.Scalar(v)!
            let p = scalar.properties
            if (p.isAlphabetic || p.numericType != nil) && !p.changesWhenLowercased {
                letter(b)
                for k in 1..<length { out.append(bytes[i + k]) }
                continue
            }
            switch foldScalar(scalar) {
            case .separator: pendingSpace = true
            case .letters(let folded):
                guard let first = folded.first else { continue }
                letter(first)
                out += folded.dropFirst()
            }
        }
    }

    /// The blocks most names above the table are written in, whose every scalar is a letter without case (kana,
    /// CJK ideographs, Hangul syllables): each is its own fold, without asking for its Unicode properties, which
    /// costs more than the rest of a name's fold. A test checks every scalar of them against the properties.
    static let ownFoldBlocks: [ClosedRange<UInt32>] = [
        0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
    ]

    @inline(__always) static func isOwnFold(_ v: UInt32) -> Bool {
        (v >= 0x4E00 && v <= 0x9FFF) || (v >= 0xAC00 && v <= 0xD7A3) || (v >= 0x3400 && v <= 0x4DBF)
            || (v >= 0x3041 && v <= 0x3096) || (v >= 0x30A1 && v <= 0x30FA)
    }

    /// Where a scalar's fold is in `tableBytes` (offset << 8 | length; length 0 for a combining mark), or
    /// `separator`. Integers rather than enum payloads keep the loop free of reference counting.
    private static let separator = UInt32.max
    // Names are mostly Latin, Greek, Cyrillic, Arabic and Hebrew: fold those scalars once, not on every call
    // (Foundation's decomposition costs microseconds each and matching folds every name in a book).
    static let tableEnd: UInt32 = 0x3000
    // Decoded from `FoldTable.swift`, which holds `foldScalar`'s answers for these scalars worked out when it
    // was generated: working them out at run time took 94 million instructions in every process that folds,
    // while the reader's other threads waited. A test checks the file against `foldScalar`.
    private static let (table, tableBytes): ([UInt32], [UInt8]) = decodedTable(foldTable)

    /// The table an `encodedTable` text describes, as `table` and `tableBytes` hold it.
    static func decodedTable(_ encoded: StaticString) -> ([UInt32], [UInt8]) {
        encoded.withUTF8Buffer { decodedTable($0) }
    }

    /// The same for the text's bytes.
    static func decodedTable(_ text: UnsafeBufferPointer<UInt8>) -> ([UInt32], [UInt8]) {
        var entries: [UInt32] = []
        var bytes: [UInt8] = []
        entries.reserveCapacity(Int(tableEnd) - 0x80)
        var start = bytes.count
        var high: UInt8?
        for c in text {
            switch c {
            case 0x2D:  // "-": a separator
                entries.append(separator)
            case 0x2E:  // ".": the end of a scalar's letters
                entries.append(UInt32(start) << 8 | UInt32(bytes.count - start))
                start = bytes.count
            case 0x30...0x39, 0x61...0x66:
                let digit = c <= 0x39 ? c - 0x30 : c - 0x61 + 10
                if let h = high {
                    bytes.append(h << 4 | digit)
                    high = nil
                } else {
                    high = digit
                }
            default:  // line breaks and the spaces that keep the file readable
                continue
            }
        }
        return (entries, bytes)
    }

    /// `foldTable`'s text for the scalars from U+0080 to `tableEnd`, worked out with `foldScalar`: each scalar's
    /// letters as hex bytes ended by `.`, or `-` for a separator, in lines of at most 96 characters.
    static func encodedTable() -> [String] {
        let hex = Array("0123456789abcdef".utf8)
        var lines: [String] = []
        var line: [UInt8] = []
        for v in UInt32(0x80)..<tableEnd {
            var entry: [UInt8] = []
            if let scalar = Unicode.Scalar(v), case .letters(let folded) = foldScalar(scalar) {
                for b in folded { entry += [hex[Int(b >> 4)], hex[Int(b & 15)]] }
                entry.append(0x2E)
            } else {
                entry.append(0x2D)
            }
            if line.count + entry.count > 96 {
                lines.append(String(decoding: line, as: UTF8.self))
                line = []
            }
            line += entry
        }
        if !line.isEmpty { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    /// What one scalar folds to: letters (UTF-8, possibly none: a combining mark) or a word separator.
    enum Folded: Sendable {
        case letters([UInt8])
        case separator
    }

    /// Decomposes and keeps the base letters, lower-cased: é -> e, ß -> ss, ø -> o; marks vanish.
    static func foldScalar(_ scalar: Unicode.Scalar) -> Folded {
        if let special = Self.special[scalar] { return .letters(Array(special.utf8)) }
        if scalar.value >= tableEnd {
            // CJK, Hangul and the rest: no case and no accents to strip.
            let p = scalar.properties
            if p.isAlphabetic || p.numericType != nil { return .letters(Array(p.lowercaseMapping.utf8)) }
            return p.generalCategory == .nonspacingMark ? .letters([]) : .separator
        }
        var bytes: [UInt8] = []
        var kept = false
        for s in String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars {
            if s.properties.generalCategory == .nonspacingMark { continue }
            if s.properties.isAlphabetic || s.properties.numericType != nil {
                bytes += Array(s.properties.lowercaseMapping.utf8)
                kept = true
            }
        }
        if !kept && !scalar.properties.isAlphabetic && scalar.properties.generalCategory != .nonspacingMark {
            return .separator
        }
        return .letters(bytes)
    }

    /// Letters that do not decompose into a base letter and a mark.
    private static let special: [Unicode.Scalar: String] = [
        "ß": "ss", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "đ": "d", "Đ": "d",
        "ł": "l", "Ł": "l", "þ": "th", "Þ": "th", "ı": "i", "’": "", "‘": "",
    ]

    /// `text` without leading and trailing spaces and tabs (what Foundation's trimming does for `.whitespaces` on
    /// the text cards carry, at a fraction of the cost).
    public static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last,
            first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09
        else { return text }
        var value = Substring(text).drop { $0 == " " || $0 == "\t" }
        while let end = value.last, end == " " || end == "\t" { value = value.dropLast() }
        return String(value)
    }

    /// The folded words of `text`.
    public static func words(_ text: String) -> [Substring] {
        fold(text).split(separator: " ")
    }

    /// The folded words of `parts`, in order, as separate strings (names' words fit in a string without a heap
    /// allocation, which makes this cheaper than splitting a folded text).
    public static func words(_ parts: [String]) -> [String] {
        var words: [String] = []
        guard !parts.isEmpty else { return words }
        var folded: [UInt8] = []
        for part in parts { appendFolded(part, to: &folded) }
        folded.withUnsafeBufferPointer { buffer in
            var start = 0
            for i in 0...buffer.count where i == buffer.count || buffer[i] == 0x20 {
                if i > start {
                    words.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<i]), as: UTF8.self))
                }
                start = i + 1
            }
        }
        return words
    }
}

/// Byte tests for the ASCII text that most keys are made of.
enum ASCIIBytes {
    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
    static func isHexDigit(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (lower(b) >= 0x61 && lower(b) <= 0x66) }

    /// A text of at most eight ASCII bytes (none NUL), lower-cased and packed as `packed` packs a word; nil for
    /// any other text. TYPE values are nearly always such words: they are compared without making a string.
    static func packedLowercased(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { bytes -> UInt64? in
            guard bytes.count <= 8 else { return nil }
            var packed: UInt64 = 0
            for b in bytes {
                guard b != 0 && b < 0x80 else { return nil }
                packed = packed << 8 | UInt64(lower(b))
            }
            return packed
        }
    }

    /// A word of at most eight bytes as one integer, so short words are looked up without making a string;
    /// nil for a longer word.
    static func packed(_ word: some Collection<UInt8>) -> UInt64? {
        guard word.count <= 8 else { return nil }
        return word.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
