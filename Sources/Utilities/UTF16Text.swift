/// UTF-16 text told from its first bytes, and turned into UTF-8 for readers that take UTF-8 only.
///
/// Windows tools write UTF-16: Windows PowerShell's `Out-File` and `>`, Excel's "Unicode Text", and Google
/// Contacts' older "Google CSV" export. A reader that took those bytes as UTF-8 would find no card in them.
package enum UTF16Text {
    /// The order of the two bytes of each code unit.
    package enum ByteOrder: Sendable {
        case littleEndian
        case bigEndian
    }

    /// The byte order of `bytes` when they are UTF-16, nil otherwise: a byte order mark, or (without one) a zero
    /// in every other byte of the first four, as ASCII text in UTF-16 has. UTF-8 never has either.
    package static func byteOrder(of bytes: [UInt8]) -> ByteOrder? {
        if bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xFE { return .littleEndian }
        if bytes.count >= 2 && bytes[0] == 0xFE && bytes[1] == 0xFF { return .bigEndian }
        guard bytes.count >= 4 else { return nil }
        if bytes[0] != 0 && bytes[1] == 0 && bytes[2] != 0 && bytes[3] == 0 { return .littleEndian }
        if bytes[0] == 0 && bytes[1] != 0 && bytes[2] == 0 && bytes[3] != 0 { return .bigEndian }
        return nil
    }

    /// `bytes` as UTF-8 without the byte order mark when they are UTF-16 (see `byteOrder(of:)`), nil otherwise.
    /// A lone surrogate, or an odd last byte (a prefix cut short), becomes U+FFFD; line breaks stay where they
    /// were, so a line number means the same in both.
    package static func utf8(fromUTF16 bytes: [UInt8]) -> [UInt8]? {
        guard let order = byteOrder(of: bytes) else { return nil }
        let hasMark = bytes[0] == 0xFF && bytes[1] == 0xFE || bytes[0] == 0xFE && bytes[1] == 0xFF
        var index = hasMark ? 2 : 0
        var units: [UInt16] = []
        units.reserveCapacity((bytes.count - index) / 2)
        while index + 1 < bytes.count {
            let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(order == .bigEndian ? a << 8 | b : b << 8 | a)
            index += 2
        }
        var out = Array(String(decoding: units, as: UTF16.self).utf8)
        if index < bytes.count { out += [0xEF, 0xBF, 0xBD] }
        return out
    }
}
