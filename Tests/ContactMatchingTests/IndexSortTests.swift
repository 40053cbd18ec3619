@testable import ContactMatching
import Testing

/// The index's radix sort gives the order of the standard sort, negative hashes included.
@Suite struct IndexSortTests {
    @Test(arguments: [0, 1, 255, 257, 10_000])
    func radixSortMatchesTheStandardSort(_ count: Int) {
        var generator = SplitMix(seed: UInt64(count) + 1)
        // Full-range values, and a run of near-equal ones that differ only in their low bits.
        var values = (0..<count).map { _ in Int(bitPattern: UInt(generator.next())) }
        values += (0..<(count / 4)).map { i in (Int.min + 5) | (i % 7) }
        values += [Int.max, Int.min, 0, -1]
        var sorted = values
        ContactIndex.radixSort(&sorted)
        #expect(sorted == values.sorted())
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
