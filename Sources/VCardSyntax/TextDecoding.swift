import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Turns the bytes of a value into text: UTF-8 when valid, a declared CHARSET otherwise; text that is neither
/// is left for its card's decision (`RawCard.decideCharsets`).
enum TextDecoding {
    /// The result of decoding: the text (nil: undecided), and a problem to report.
    struct Result {
        var text: String?
        var problem: DiagnosticCode?
        var detail: String?
    }

    /// Decodes `bytes` declared as `charset` (nil: none declared).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, charset name: String?) -> Result {
        guard let name else { return Result(text: utf8String(bytes)) }
        guard let charset = Charset(named: name) else {
            if let text = utf8String(bytes) {
                return Result(
                    text: text, problem: .unknownCharset,
                    detail: "unknown CHARSET \(name); the value is valid UTF-8 and was read as UTF-8")
            }
            return Result(
                text: nil, problem: .unknownCharset,
                detail: "unknown CHARSET \(name); read as text that declares none")
        }
        if charset.isUTF8 { return Result(text: utf8String(bytes)) }
        if let text = charset.decodeStrictly(bytes) { return Result(text: text) }
        // A byte the declared code page leaves undefined: kept as the character of its number, not dropped.
        return Result(
            text: charset.decode(bytes), problem: .invalidEncoding,
            detail: "value holds bytes \(charset.name) does not define; each was read as the character of its number")
    }

    /// ISO-8859-1: every byte is the code point of the same number.
    static func latin1(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    /// Windows-1252, undefined positions as the C1 control of the same number (as the WHATWG decoder), so no
    /// byte is lost.
    static func windows1252(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        Charset.windows1252.decode(bytes)
    }
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

    /// Whether the bytes are UTF-8 but for exactly one damaged sequence, and hold at least one well-formed
    /// multi-byte character: a value cut inside its last character, or one stray byte in UTF-8 text. A value
    /// with no well-formed multi-byte character (`Caf\xE9`) is no evidence of UTF-8 and is left to the detector.
    static func isDamagedUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        var damaged = 0
        var multiByte = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            let length: Int
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: length = 0
            }
            // The longest prefix of a well-formed sequence (RFC 3629's table), so a damaged sequence counts once.
            var good = length > 0 ? 1 : 0
            while good > 0 && good < length && index + good < count {
                let next = bytes[index + good]
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                if good == 1 {
                    if byte == 0xE0 { low = 0xA0 } else if byte == 0xED { high = 0x9F }
                    if byte == 0xF0 { low = 0x90 } else if byte == 0xF4 { high = 0x8F }
                }
                guard next >= low && next <= high else { break }
                good += 1
            }
            if length > 0 && good == length {
                multiByte += 1
                index += length
            } else {
                damaged += 1
                if damaged > 1 { return false }
                index += max(good, 1)
            }
        }
        return damaged == 1 && multiByte >= 1
    }

    /// Whether all `count` bytes at `base` are ASCII: words of eight, the last one overlapping the one before,
    /// so a short value (most are) costs a few loads instead of a loop turn a byte.
    @inline(__always)
    static func isASCII(_ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        if count < 8 {
            var any: UInt8 = 0
            for index in 0..<count { any |= base[index] }
            return any & 0x80 == 0
        }
        let raw = UnsafeRawPointer(base)
        var any = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        var index = 0
        while index + 8 <= count {
            any |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // A long value with a letter of another script near its start leaves early, for the long way.
            if any & high != 0 { return false }
            index &+= 8
        }
        return any & high == 0
    }

    /// Whether the bytes are well-formed UTF-8, checked in one specialised pass.
    /// (The generic `String(validating:as:)` is not specialised across modules and dominated profiles.)
    @inline(__always)
    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else { return true }
        if isASCII(base, count) { return true }
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                // ASCII runs are the common case, between letters of other scripts too: eight bytes at a time.
                while index + 8 <= count,
                    UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
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
