/// Converts a UTF-16 byte stream to UTF-8 chunk by chunk, carrying an odd byte or a high surrogate
/// across chunk boundaries, so the lexer below only ever sees UTF-8.
package struct UTF16Transcoder {
    package let bigEndian: Bool
    private var carryByte: UInt8?
    private var highSurrogate: UInt16?
    package private(set) var invalidUnits = 0

    package init(bigEndian: Bool) { self.bigEndian = bigEndian }

    package mutating func transcode(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.reserveCapacity(out.count + bytes.count * 3 / 2)
        var index = 0
        if let first = carryByte, bytes.count > 0 {
            carryByte = nil
            emit(unit(first, bytes[0]), into: &out)
            index = 1
        }
        while index + 1 < bytes.count {
            emit(unit(bytes[index], bytes[index + 1]), into: &out)
            index += 2
        }
        if index < bytes.count { carryByte = bytes[index] }
    }

    /// Flushes what is left at the end of input; a dangling surrogate and an odd last byte each become U+FFFD,
    /// as `UTF16Text.utf8(fromUTF16:)` makes them of a whole file.
    package mutating func finish(into out: inout [UInt8]) {
        for dangling in [highSurrogate != nil, carryByte != nil] where dangling {
            invalidUnits += 1
            appendScalar(0xFFFD, into: &out)
        }
        carryByte = nil
        highSurrogate = nil
    }

    private func unit(_ a: UInt8, _ b: UInt8) -> UInt16 {
        bigEndian ? UInt16(a) << 8 | UInt16(b) : UInt16(b) << 8 | UInt16(a)
    }

    private mutating func emit(_ unit: UInt16, into out: inout [UInt8]) {
        if let high = highSurrogate {
            highSurrogate = nil
            if unit >= 0xDC00 && unit <= 0xDFFF {
                let scalar = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
                appendScalar(scalar, into: &out)
                return
            }
            invalidUnits += 1
            appendScalar(0xFFFD, into: &out)
        }
        if unit >= 0xD800 && unit <= 0xDBFF {
            highSurrogate = unit
        } else if unit >= 0xDC00 && unit <= 0xDFFF {
            invalidUnits += 1
            appendScalar(0xFFFD, into: &out)
        } else {
            appendScalar(UInt32(unit), into: &out)
        }
    }

    private func appendScalar(_ value: UInt32, into out: inout [UInt8]) {
        for byte in UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}")! { out.append(byte) }
    }
}
