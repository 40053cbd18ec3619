/// Hashing of the texts match keys are made of, giving exactly the values `String`'s own hashing gives, faster
/// for the names of most scripts.
///
/// A string hashes as its bytes in Unicode normalization form C followed by a terminator. The standard library
/// knows a string is in that form only when it is ASCII; any other is normalised scalar by scalar while it is
/// hashed, which cost more than the rest of a card's keys. A text made only of ASCII and of the letters in
/// `composedRanges` is in that form by construction (every such scalar is its own composition, has combining
/// class 0, and is never the second of a pair that composes), so its bytes are hashed as they are.
enum KeyHashing {
    /// Scalars beyond ASCII that are their own normalization form C whatever surrounds them: lower-case Greek
    /// and Cyrillic, Hebrew and Arabic letters, kana, CJK ideographs and Hangul syllables (what folded names
    /// hold). A test checks each against Unicode's decompositions.
    static let composedRanges: [ClosedRange<UInt32>] = [
        0x03B1...0x03C9, 0x0430...0x045F, 0x05D0...0x05EA, 0x0620...0x064A, 0x3041...0x3096, 0x30A1...0x30FA,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
    ]

    @inline(__always) static func isComposed(twoByte v: UInt32) -> Bool {
        (v >= 0x03B1 && v <= 0x03C9) || (v >= 0x0430 && v <= 0x045F) || (v >= 0x05D0 && v <= 0x05EA)
            || (v >= 0x0620 && v <= 0x064A)
    }

    @inline(__always) static func isComposed(threeByte v: UInt32) -> Bool {
        (v >= 0x4E00 && v <= 0x9FFF) || (v >= 0xAC00 && v <= 0xD7A3) || (v >= 0x3400 && v <= 0x4DBF)
            || (v >= 0x3041 && v <= 0x3096) || (v >= 0x30A1 && v <= 0x30FA)
    }

    /// Whether the UTF-8 `bytes` hold only ASCII and scalars of `composedRanges`.
    static func isComposedByConstruction(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let count = bytes.count
        while i < count {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
            } else if b & 0xE0 == 0xC0 && i + 1 < count {
                guard isComposed(twoByte: UInt32(b & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)) else { return false }
                i += 2
            } else if b & 0xF0 == 0xE0 && i + 2 < count {
                let v = UInt32(b & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                guard isComposed(threeByte: v) else { return false }
                i += 3
            } else {
                return false
            }
        }
        return true
    }

    /// `hasher.combine(text)`: the same hash, by the text's bytes when it is composed by construction.
    static func combine(_ text: String, into hasher: inout Hasher) {
        let done = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard isComposedByConstruction(bytes) else { return false }
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            hasher.combine(0xFF as UInt8)
            return true
        }
        if done != true { hasher.combine(text) }
    }
}
