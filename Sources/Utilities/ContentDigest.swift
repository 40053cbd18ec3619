/// A 64-bit fingerprint of a stream of bytes, fed in pieces of any size: whether a file still holds what was
/// read from it, without holding what was read. Not a cryptographic hash: it tells an edit from no edit, by
/// accident one in 2^64, not a forgery. The same bytes give the same value however they are cut.
package struct ContentDigest: Sendable {
    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
        0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89
    )
    /// The bytes of an unfinished stripe, at most `stripe - 1`.
    private var pending: [UInt8] = []
    /// How many bytes were fed.
    package private(set) var count = 0

    private static let stripe = 32
    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    private static let second: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    /// An empty digest.
    package init() {}

    /// Feeds `bytes`.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        count += bytes.count
        var start = 0
        if !pending.isEmpty {
            let taken = min(Self.stripe - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<taken])
            start = taken
            guard pending.count == Self.stripe else { return }
            let full = pending
            pending.removeAll(keepingCapacity: true)
            full.withUnsafeBytes { mix($0, from: 0) }
        }
        // Whole stripes straight from the caller's bytes; only a last partial one is copied.
        let whole = start + (bytes.count - start) / Self.stripe * Self.stripe
        var offset = start
        while offset < whole {
            mix(bytes, from: offset)
            offset += Self.stripe
        }
        if whole < bytes.count { pending.append(contentsOf: bytes[whole...]) }
    }

    /// Feeds `bytes`.
    package mutating func update(_ bytes: ArraySlice<UInt8>) { bytes.withUnsafeBytes { update($0) } }

    @inline(__always)
    private mutating func mix(_ bytes: UnsafeRawBufferPointer, from offset: Int) {
        @inline(__always)
        func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let x = lane &+ word &* Self.second
            return (x << 31 | x >> 33) &* Self.multiplier
        }
        lanes.0 = round(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
        lanes.1 = round(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian)
        lanes.2 = round(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self).littleEndian)
        lanes.3 = round(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self).littleEndian)
    }

    /// The fingerprint of everything fed so far (the digest can be fed on afterwards).
    package var value: UInt64 {
        @inline(__always)
        func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { x << k | x >> (64 - k) }
        var h = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
        h = (h ^ UInt64(count)) &* Self.multiplier
        for byte in pending { h = (h ^ UInt64(byte)) &* Self.second }
        // Spreads every input bit over the whole value.
        h ^= h >> 33
        h = h &* Self.second
        h ^= h >> 29
        h = h &* Self.multiplier
        h ^= h >> 32
        return h
    }
}
