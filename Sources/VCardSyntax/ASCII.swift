/// Named ASCII bytes, so the byte-level code reads as grammar rather than numbers.
@usableFromInline enum ASCII {
    static let tab: UInt8 = 0x09
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let dash: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let equals: UInt8 = 0x3D
    static let backslash: UInt8 = 0x5C
    static let caret: UInt8 = 0x5E

    @inline(__always) static func isSpaceOrTab(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    @inlinable static func upper(_ byte: UInt8) -> UInt8 {
        (byte >= 0x61 && byte <= 0x7A) ? byte &- 0x20 : byte
    }

    @inline(__always) static func isBase64(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == plus || byte == slash || byte == equals
    }

    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte &- 0x30
        case 0x41...0x46: return byte &- 0x37
        case 0x61...0x66: return byte &- 0x57
        default: return nil
        }
    }

    /// Whether `bytes` equals the upper-case ASCII `word`, ignoring case.
    @inline(__always)
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ word: StaticString)
        -> Bool
    {
        guard range.count == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        var i = 0
        for index in range {
            if upper(bytes[index]) != w[i] { return false }
            i += 1
        }
        return true
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly the ASCII `word`.
    // Always inlined: it is asked of every line's name, several words at a time, and a call costs more than
    // the comparison of a short name.
    @inlinable @inline(__always)
    package func isEqual(to word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard count == n else { return false }
        if n == 0 { return true }
        let w = word.utf8Start
        for i in 0..<n where self[i] != w[i] { return false }
        return true
    }

    /// Whether these bytes are the upper-case ASCII `word`, ignoring case.
    @inlinable @inline(__always)
    package func isEqualIgnoringCase(to word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard count == n else { return false }
        if n == 0 { return true }
        let w = word.utf8Start
        for i in 0..<n where ASCII.upper(self[i]) != w[i] { return false }
        return true
    }

    /// Whether any byte is `byte`.
    @inlinable
    package func containsByte(_ byte: UInt8) -> Bool {
        for b in self where b == byte { return true }
        return false
    }
}
