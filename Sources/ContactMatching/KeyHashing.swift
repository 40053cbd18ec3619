import Foundation

/// Hashing of the texts match keys are made of: texts equal as strings (canonically equivalent) hash alike, as
/// with `String`'s own hashing, at a fraction of its cost.
///
/// Index keys, UIDs and organisations are hashed about fifteen times for each card of a book, and the standard
/// library's SipHash cost more than the rest of a card's keys together. Nothing stores these hashes or shows them,
/// and a collision only adds a candidate (the decision then compares the texts), so a multiply-and-fold hash of
/// eight bytes at a time serves, seeded once per process as `Hasher` is. A text hashes as its bytes in Unicode
/// normalization form C with its length after them. A text made only of ASCII and of the letters in
/// `composedRanges` is in that form by construction (every such scalar is its own composition, has combining
/// class 0, and is never the second of a pair that composes), so its bytes are hashed as they are; any other is
/// composed first.
enum KeyHashing {
    /// Scalars beyond ASCII that are their own normalization form C whatever surrounds them: the Latin letters of
    /// Latin-1, Latin Extended-A and -B and Latin Extended Additional (Vietnamese), Greek with its accents,
    /// Cyrillic, Hebrew and Arabic letters, kana, CJK ideographs and Hangul syllables (what names, organisations
    /// and emails hold). A test checks each against Unicode's decompositions.
    static let composedRanges: [ClosedRange<UInt32>] = [
        0x00C0...0x024F, 0x03AC...0x03CE, 0x0400...0x045F, 0x05D0...0x05EA, 0x0620...0x064A, 0x1E00...0x1EFF,
        0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
    ]

    @inline(__always) static func isComposed(twoByte v: UInt32) -> Bool {
        (v >= 0x00C0 && v <= 0x024F) || (v >= 0x0400 && v <= 0x045F) || (v >= 0x03AC && v <= 0x03CE)
            || (v >= 0x05D0 && v <= 0x05EA) || (v >= 0x0620 && v <= 0x064A)
    }

    @inline(__always) static func isComposed(threeByte v: UInt32) -> Bool {
        (v >= 0x4E00 && v <= 0x9FFF) || (v >= 0xAC00 && v <= 0xD7A3) || (v >= 0x3400 && v <= 0x4DBF)
            || (v >= 0x3041 && v <= 0x3096) || (v >= 0x30A1 && v <= 0x30FA) || (v >= 0x1E00 && v <= 0x1EFF)
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

    /// A hash being made.
    struct State {
        private var value: UInt64

        /// A hash of `kind` and whatever is combined after it.
        init(kind: UInt8) { value = KeyHashing.mix(KeyHashing.seed, UInt64(kind) | 0x100) }

        /// Adds `text`, composed (see `KeyHashing`).
        mutating func combine(_ text: String) {
            // Native strings are read where they are; a small one (up to 15 bytes) is spilled by `withUTF8`.
            let done =
                text.utf8.withContiguousStorageIfAvailable { combineIfComposed($0) }
                ?? { () -> Bool in
                    var text = text
                    return text.withUTF8 { combineIfComposed($0) }
                }()
            if done { return }
            var composed = text.precomposedStringWithCanonicalMapping
            composed.withUTF8 { combineComposed($0) }
        }

        /// Adds `number`.
        mutating func combine(_ number: Int) { value = KeyHashing.mix(value, UInt64(bitPattern: Int64(number))) }

        /// Adds `bytes` and their count when they are composed by construction (nearly always: most keys are
        /// ASCII, which the hashing loop itself notices); false, changing nothing, when they are not.
        private mutating func combineIfComposed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let (hash, highBits) = Self.hashed(bytes, from: value)
            guard highBits & 0x8080_8080_8080_8080 == 0 || KeyHashing.isComposedByConstruction(bytes) else {
                return false
            }
            value = hash
            return true
        }

        /// Adds UTF-8 bytes already in normalization form C, then their count.
        private mutating func combineComposed(_ bytes: UnsafeBufferPointer<UInt8>) {
            value = Self.hashed(bytes, from: value).hash
        }

        /// `state` with `bytes` and then their count mixed in, and every word of the bytes or-ed together.
        @inline(__always)
        private static func hashed(_ bytes: UnsafeBufferPointer<UInt8>, from state: UInt64) -> (
            hash: UInt64, highBits: UInt64
        ) {
            var h = state
            var seen: UInt64 = 0
            let count = bytes.count
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                var i = 0
                while i + 8 <= count {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    seen |= word
                    h = KeyHashing.mix(h, word)
                    i += 8
                }
                if i < count {
                    var tail: UInt64 = 0
                    var shift: UInt64 = 0
                    while i < count {
                        tail |= UInt64(bytes[i]) &<< shift
                        shift += 8
                        i += 1
                    }
                    seen |= tail
                    h = KeyHashing.mix(h, tail)
                }
            }
            // The count ends the text, so texts combined one after another cannot run into each other.
            return (KeyHashing.mix(h, UInt64(count) | 0xFF00_0000_0000_0000), seen)
        }

        /// The hash.
        func finalize() -> Int { Int(bitPattern: UInt(KeyHashing.mix(value, 0x2D35_8DCC_AA6C_78A5))) }
    }

    /// One round: the two halves of the full product of the state mixed with a word and an odd constant.
    @inline(__always) static func mix(_ h: UInt64, _ word: UInt64) -> UInt64 {
        let product = (h ^ word).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return product.high ^ product.low
    }

    /// Drawn from `Hasher`'s per-process seed, so hashes differ between runs as the standard library's do (and
    /// stay fixed under `SWIFT_DETERMINISTIC_HASHING`).
    static let seed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x6B65_7973 as UInt64)
        return UInt64(bitPattern: Int64(hasher.finalize())) | 1
    }()
}
