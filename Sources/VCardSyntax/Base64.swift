#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Base64 (RFC 4648) as vCards hold it: white space and line breaks anywhere, padding often missing.
///
/// Table-driven and allocation-free apart from the result, because embedded photos are the largest part
/// of most address books.
package enum Base64 {
    private static let invalid: UInt8 = 0xFF
    private static let skip: UInt8 = 0xFE
    private static let pad: UInt8 = 0xFD

    private static let table: [UInt8] = {
        var t = [UInt8](repeating: invalid, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            t[Int(c)] = UInt8(i)
        }
        for c in 0...0x20 { t[c] = skip }
        t[Int(UInt8(ascii: "="))] = pad
        return t
    }()

    /// For each of the four places in a group, every byte's six bits shifted to where they go in the group's 24
    /// bits; a byte outside the alphabet (white space and padding too) gives the top bit, for the slow path.
    private static let shifted: [UInt32] = {
        var t = [UInt32](repeating: 0x8000_0000, count: 1024)
        for place in 0..<4 {
            for byte in 0..<256 where table[byte] < 64 {
                t[place * 256 + byte] = UInt32(table[byte]) << UInt32(18 - 6 * place)
            }
        }
        return t
    }()

    /// Decodes strictly: bytes up to 0x20 are skipped, padding may be missing or overlong (`QUJD=` is read as
    /// `QUJD`, as Foundation reads it); anything else outside the alphabet, data after padding, or a lone
    /// last character makes the result nil.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        table.withUnsafeBufferPointer { table in
            var out = Data(count: bytes.count / 4 * 3 + 3)
            var written = 0
            let ok = out.withUnsafeMutableBytes { raw -> Bool in
                let dest = raw.bindMemory(to: UInt8.self)
                // A local count, not the captured `written`, so the loops keep it in a register.
                var w = 0
                defer { written = w }
                var index = 0
                let count = bytes.count
                // Whole groups of four alphabet characters (nearly all of a photo) first, in one tight loop:
                // each character's six bits come from a table already shifted into place (a character outside
                // the alphabet sets the top bit), and the three bytes go out in one store of four, whose
                // fourth byte the next group overwrites (the result has three bytes to spare).
                if let source = bytes.baseAddress, let target = dest.baseAddress {
                    (index, w) = Self.shifted.withUnsafeBufferPointer { shifted -> (Int, Int) in
                        guard let t = shifted.baseAddress else { return (0, 0) }
                        let out = UnsafeMutableRawPointer(target)
                        var index = 0
                        var w = 0
                        while index &+ 4 <= count {
                            let group =
                                t[Int(source[index])] | t[256 &+ Int(source[index &+ 1])]
                                | t[512 &+ Int(source[index &+ 2])] | t[768 &+ Int(source[index &+ 3])]
                            if group & 0x8000_0000 != 0 { break }
                            out.storeBytes(of: (group << 8).byteSwapped.littleEndian, toByteOffset: w, as: UInt32.self)
                            w &+= 3
                            index &+= 4
                        }
                        return (index, w)
                    }
                }
                // The rest (white space, padding, a last short group) a character at a time.
                var quad: UInt32 = 0
                var n = 0
                var padding = 0
                while index < count {
                    let v = table[Int(bytes[index])]
                    index += 1
                    if v < 64 {
                        if padding > 0 { return false }
                        quad = quad << 6 | UInt32(v)
                        n += 1
                        if n == 4 {
                            dest[w] = UInt8(truncatingIfNeeded: quad >> 16)
                            dest[w + 1] = UInt8(truncatingIfNeeded: quad >> 8)
                            dest[w + 2] = UInt8(truncatingIfNeeded: quad)
                            w += 3
                            n = 0
                            quad = 0
                        }
                    } else if v == skip {
                        continue
                    } else if v == pad {
                        padding += 1
                    } else {
                        return false
                    }
                }
                // A last group of two or three characters, padded or not.
                if n == 1 { return false }
                if n == 2 {
                    dest[w] = UInt8(truncatingIfNeeded: quad >> 4)
                    w += 1
                } else if n == 3 {
                    dest[w] = UInt8(truncatingIfNeeded: quad >> 10)
                    dest[w + 1] = UInt8(truncatingIfNeeded: quad >> 2)
                    w += 2
                }
                return true
            }
            guard ok else { return nil }
            out.count = written
            return out
        }
    }

    /// Whether `decode` would succeed, without building the data.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        table.withUnsafeBufferPointer { table in
            var n = 0
            var padding = 0
            for byte in bytes {
                let v = table[Int(byte)]
                if v < 64 {
                    if padding > 0 { return false }
                    n = (n + 1) & 3
                } else if v == skip {
                    continue
                } else if v == pad {
                    padding += 1
                } else {
                    return false
                }
            }
            return n != 1
        }
    }

    /// Decodes what damaged files hold: characters outside the alphabet are skipped and an incomplete last
    /// group dropped. Nil when under three quarters of the bytes are base64 (it was not base64 at all).
    public static func decodeLeniently(_ bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(bytes.count)
        table.withUnsafeBufferPointer { table in
            for byte in bytes where table[Int(byte)] < 64 { cleaned.append(byte) }
        }
        cleaned.removeLast(cleaned.count % 4)
        guard cleaned.count >= 4, cleaned.count * 4 >= bytes.count * 3 else { return nil }
        return cleaned.withUnsafeBufferPointer { decode($0) }
    }

    /// Encodes `data` without line breaks, appending to `out`.
    public static func encode(_ data: Data, into out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: encodedCount(data.count)))
        out.withUnsafeMutableBufferPointer { buffer in
            guard let dest = buffer.baseAddress else { return }
            encode(data, to: dest + start)
        }
    }

    /// The two characters for every twelve bits, first character in the low byte (as stored little-endian).
    private static let pairs: [UInt16] = {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        return (0..<4096).map { UInt16(alphabet[$0 >> 6]) | UInt16(alphabet[$0 & 63]) << 8 }
    }()

    /// The number of bytes `count` bytes encode to.
    static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// Encodes `data` without line breaks into `dest`, which has room for `encodedCount(data.count)` bytes.
    static func encode(_ data: Data, to dest: UnsafeMutablePointer<UInt8>) {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        let a = alphabet.utf8Start
        data.withUnsafeBytes { raw in
            let src = raw.bindMemory(to: UInt8.self)
            // Plain pointers and wrapping arithmetic keep the loop's counters in registers.
            guard let source = src.baseAddress else { return }
            let count = src.count
            // Twelve bits at a time through a table of character pairs: one store of four bytes a group.
            let (i, o) = pairs.withUnsafeBufferPointer { pairs -> (Int, Int) in
                guard let pair = pairs.baseAddress else { return (0, 0) }
                let out = UnsafeMutableRawPointer(dest)
                var i = 0
                var o = 0
                while i &+ 3 <= count {
                    let v = Int(source[i]) << 16 | Int(source[i &+ 1]) << 8 | Int(source[i &+ 2])
                    let four = UInt32(pair[v >> 12]) | UInt32(pair[v & 0xFFF]) << 16
                    out.storeBytes(of: four.littleEndian, toByteOffset: o, as: UInt32.self)
                    i &+= 3
                    o &+= 4
                }
                return (i, o)
            }
            if count - i == 1 {
                let v = UInt32(src[i]) << 16
                dest[o] = a[Int(v >> 18)]
                dest[o + 1] = a[Int(v >> 12 & 63)]
                dest[o + 2] = UInt8(ascii: "=")
                dest[o + 3] = UInt8(ascii: "=")
            } else if count - i == 2 {
                let v = UInt32(src[i]) << 16 | UInt32(src[i + 1]) << 8
                dest[o] = a[Int(v >> 18)]
                dest[o + 1] = a[Int(v >> 12 & 63)]
                dest[o + 2] = a[Int(v >> 6 & 63)]
                dest[o + 3] = UInt8(ascii: "=")
            }
        }
    }
}
