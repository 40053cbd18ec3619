import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Turns the bytes of a value into text: UTF-8 when valid, a declared CHARSET otherwise.
enum TextDecoding {
    /// The result of decoding: the text and whether a fallback was needed.
    struct Result {
        var text: String
        var problem: DiagnosticCode?
        var detail: String?
    }

    /// Decodes `bytes` declared as `charset` (nil: none declared).
    ///
    /// Without a declaration the bytes should be UTF-8; when they are not, Windows-1252 is the one
    /// reading that never fails and matches what old Windows and Outlook exports meant.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, charset: String?) -> Result {
        guard let charset else {
            if let text = utf8String(bytes) { return Result(text: text) }
            return Result(
                text: windows1252(bytes), problem: .invalidEncoding,
                detail: "value is not valid UTF-8 and declares no CHARSET; read as Windows-1252")
        }
        switch normalized(charset) {
        case "UTF8", "USASCII", "ASCII", "":
            if let text = utf8String(bytes) { return Result(text: text) }
            return Result(
                text: windows1252(bytes), problem: .invalidEncoding,
                detail: "value is not valid \(charset); read as Windows-1252")
        case "ISO88591", "LATIN1", "L1", "ISOLATIN1":
            return Result(text: latin1(bytes))
        case "WINDOWS1252", "CP1252", "XANSI", "ANSI":
            return Result(text: windows1252(bytes))
        default:
            if let encoding = foundationEncoding(for: normalized(charset)),
                let text = String(data: Data(buffer: bytes), encoding: encoding)
            {
                return Result(text: text)
            }
            if let text = utf8String(bytes) {
                return Result(
                    text: text, problem: .unknownCharset,
                    detail: "unknown CHARSET \(charset); the value is valid UTF-8 and was read as UTF-8")
            }
            return Result(
                text: windows1252(bytes), problem: .unknownCharset,
                detail: "unknown CHARSET \(charset); read as Windows-1252")
        }
    }

    private static func normalized(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars where scalar != "-" && scalar != "_" && scalar != " " {
            out.unicodeScalars.append(scalar)
        }
        return out.uppercased()
    }

    private static func foundationEncoding(for name: String) -> String.Encoding? {
        switch name {
        case "ISO88592", "LATIN2": return .isoLatin2
        case "WINDOWS1250", "CP1250": return .windowsCP1250
        case "WINDOWS1251", "CP1251": return .windowsCP1251
        case "WINDOWS1253", "CP1253": return .windowsCP1253
        case "WINDOWS1254", "CP1254": return .windowsCP1254
        case "SHIFTJIS", "SJIS", "XSJIS", "CP932", "WINDOWS31J": return .shiftJIS
        case "EUCJP": return .japaneseEUC
        case "ISO2022JP": return .iso2022JP
        case "UTF16": return .utf16
        case "UTF16BE": return .utf16BigEndian
        case "UTF16LE": return .utf16LittleEndian
        case "MACINTOSH", "MACROMAN": return .macOSRoman
        default: return nil
        }
    }

    /// ISO-8859-1: every byte is the code point of the same number.
    static func latin1(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    /// Windows-1252: Latin-1 with printable characters in 0x80...0x9F.
    static func windows1252(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            if byte >= 0x80 && byte <= 0x9F {
                scalars.append(Unicode.Scalar(cp1252High[Int(byte - 0x80)])!)
            } else {
                scalars.append(Unicode.Scalar(byte))
            }
        }
        return String(scalars)
    }

    // The five undefined positions (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to the C1 control of the same number,
    // as the WHATWG encoding standard does, so no byte is lost.
    private static let cp1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
        0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
        0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}

extension TextDecoding {
    /// Validates UTF-8 and makes a String; nil when the bytes are not UTF-8.
    @inline(__always)
    static func utf8String(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        isUTF8(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The bytes as text: UTF-8 when valid, else Windows-1252.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        return utf8String(slice) ?? windows1252(slice)
    }

    /// Whether the bytes are well-formed UTF-8, checked in one specialised pass.
    /// (The generic `String(validating:as:)` is not specialised across modules and dominated profiles.)
    @inline(__always)
    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        // ASCII runs are the common case: check eight bytes at a time.
        if let base = bytes.baseAddress {
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
        }
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            let length: Int
            let minimum: UInt32
            var scalar: UInt32
            switch byte {
            case 0xC2...0xDF:
                length = 2
                minimum = 0x80
                scalar = UInt32(byte & 0x1F)
            case 0xE0...0xEF:
                length = 3
                minimum = 0x800
                scalar = UInt32(byte & 0x0F)
            case 0xF0...0xF4:
                length = 4
                minimum = 0x10000
                scalar = UInt32(byte & 0x07)
            default: return false
            }
            guard index + length <= count else { return false }
            for offset in 1..<length {
                let next = bytes[index + offset]
                guard next & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
            index += length
        }
        return true
    }
}
