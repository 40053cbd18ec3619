#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation

/// Folding that makes two spellings of the same word compare equal: case, accents and punctuation.
public enum TextFolding {
    /// Lower case, accents removed, every run of punctuation or white space turned into one space, trimmed:
    /// `"  Núñez-García, José "` is `"nunez garcia jose"`.
    public static func fold(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        func append(_ scalar: Unicode.Scalar) {
            if pendingSpace && !out.isEmpty { out.append(" ") }
            pendingSpace = false
            out.unicodeScalars.append(scalar)
        }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let v = scalar.value
                if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) { append(scalar) }
                else if v >= 0x41 && v <= 0x5A { append(Unicode.Scalar(v + 0x20)!) }
                else if v == 0x27 { continue } // O'Brien and OBrien are one name
                else { pendingSpace = true }
                continue
            }
            // Decompose and keep the base letters: é -> e, ß -> ss, ø -> o.
            if let special = Self.special[scalar] {
                for s in special.unicodeScalars { append(s) }
                continue
            }
            let decomposed = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
            var kept = false
            for s in decomposed {
                if s.properties.isAlphabetic || s.properties.numericType != nil {
                    if s.properties.generalCategory == .nonspacingMark { continue }
                    for l in s.properties.lowercaseMapping.unicodeScalars { append(l) }
                    kept = true
                } else if s.properties.generalCategory == .nonspacingMark {
                    continue
                }
            }
            if !kept && !scalar.properties.isAlphabetic && scalar.properties.generalCategory != .nonspacingMark {
                pendingSpace = true
            }
        }
        return out
    }

    /// Letters that do not decompose into a base letter and a mark.
    private static let special: [Unicode.Scalar: String] = [
        "ß": "ss", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "đ": "d", "Đ": "d",
        "ł": "l", "Ł": "l", "þ": "th", "Þ": "th", "ı": "i", "’": "", "‘": "",
    ]

    /// The folded words of `text`.
    public static func words(_ text: String) -> [Substring] {
        fold(text).split(separator: " ")
    }
}
