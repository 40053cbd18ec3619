#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation

/// Folding that makes two spellings of the same word compare equal: case, accents and punctuation.
public enum TextFolding {
    /// Lower case, accents removed, every run of punctuation or white space turned into one space, trimmed:
    /// `"  Núñez-García, José "` is `"nunez garcia jose"`.
    public static func fold(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) {
                    if pendingSpace && !out.isEmpty { out.append(0x20) }
                    pendingSpace = false
                    out.append(UInt8(v))
                } else if v >= 0x41 && v <= 0x5A {
                    if pendingSpace && !out.isEmpty { out.append(0x20) }
                    pendingSpace = false
                    out.append(UInt8(v + 0x20))
                } else if v != 0x27 { // O'Brien and OBrien are one name
                    pendingSpace = true
                }
                continue
            }
            let folded = v < tableEnd ? table[Int(v) - 0x80] : Self.foldScalar(scalar)
            switch folded {
            case .separator:
                pendingSpace = true
            case .letters(let bytes):
                if bytes.isEmpty { continue }
                if pendingSpace && !out.isEmpty { out.append(0x20) }
                pendingSpace = false
                out += bytes
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What one scalar folds to: letters (UTF-8, possibly none: a combining mark) or a word separator.
    enum Folded: Sendable {
        case letters([UInt8])
        case separator
    }

    // Names are mostly Latin, Greek, Cyrillic, Arabic and Hebrew: fold those scalars once, not on every call
    // (Foundation's decomposition costs microseconds each and matching folds every name in a book).
    private static let tableEnd: UInt32 = 0x3000
    private static let table: [Folded] = (0x80..<tableEnd).map { v in
        Unicode.Scalar(v).map(foldScalar) ?? .separator
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
              first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 else { return text }
        var value = Substring(text).drop { $0 == " " || $0 == "\t" }
        while let end = value.last, end == " " || end == "\t" { value = value.dropLast() }
        return String(value)
    }

    /// The folded words of `text`.
    public static func words(_ text: String) -> [Substring] {
        fold(text).split(separator: " ")
    }
}

/// Byte tests for the ASCII text that most keys are made of.
enum ASCIIBytes {
    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
    static func isHexDigit(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (lower(b) >= 0x61 && lower(b) <= 0x66) }
}
