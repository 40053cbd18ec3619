/// A small deterministic generator (SplitMix64), so property tests fail the same way every run.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Random text mixing ASCII, vCard's special characters, Latin accents, CJK, emoji, combining marks,
    /// right-to-left script and control characters; never CR, which vCard text cannot carry.
    public mutating func text(maxLength: Int) -> String {
        let pools: [[UInt32]] = [
            Array(0x20...0x7E),
            [0x5C, 0x2C, 0x3B, 0x3A, 0x0A, 0x22, 0x5E],
            Array(0xC0...0xFF),
            Array(0x4E00...0x4E80),
            Array(0x1F600...0x1F64F),
            [0x0301, 0x0308, 0x0327, 0x200D, 0xFE0F],
            Array(0x0627...0x064A),
            [0x01, 0x09, 0x1B, 0x7F, 0x00],
        ]
        let length = Int.random(in: 0...maxLength, using: &self)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let pool = pools[Int.random(in: 0..<pools.count, using: &self)]
            scalars.append(Unicode.Scalar(pool[Int.random(in: 0..<pool.count, using: &self)])!)
        }
        return String(scalars)
    }
}
