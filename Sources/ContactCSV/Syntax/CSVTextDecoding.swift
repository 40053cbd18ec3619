import Utilities

/// Turns a CSV file's field bytes into text: UTF-8 when the whole file is valid UTF-8, Windows-1252 otherwise.
///
/// The choice is made once per file, not per field: old Outlook writes the whole export in the Windows "ANSI"
/// code page, and a file that mixes encodings has no right answer. Every delimiter is ASCII, so the fields can
/// be found before the encoding is known.
enum CSVTextDecoding: Sendable {
    case utf8
    case windows1252

    /// Decodes the bytes of one field.
    func string(_ bytes: ArraySlice<UInt8>) -> String {
        switch self {
        case .utf8: return String(decoding: bytes, as: UTF8.self)
        case .windows1252: return Self.windows1252(bytes)
        }
    }

    /// Windows-1252: Latin-1 with printable characters in 0x80...0x9F.
    static func windows1252(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            if byte >= 0x80 && byte <= 0x9F {
                scalars.append(Unicode.Scalar(high[Int(byte - 0x80)])!)
            } else {
                scalars.append(Unicode.Scalar(byte))
            }
        }
        return String(scalars)
    }

    // The five undefined positions (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to the C1 control of the same number,
    // as the WHATWG encoding standard does, so no byte is lost.
    private static let high: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
        0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
        0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// The offset of the first byte that is not well-formed UTF-8, or nil when all of `bytes[from...]` is.
    static func firstInvalidUTF8(_ bytes: [UInt8], from start: Int) -> Int? {
        UTF8Validation.firstInvalid(bytes, from: start)
    }
}
