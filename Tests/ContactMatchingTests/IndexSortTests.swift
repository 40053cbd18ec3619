import Testing

@testable import ContactMatching

/// The index's radix sort gives the order of the standard sort, negative hashes included.
@Suite struct IndexSortTests {
    @Test(arguments: [0, 1, 255, 257, 10_000])
    func radixSortMatchesTheStandardSort(_ count: Int) {
        // Full-range values from a fixed linear congruential sequence (Knuth's MMIX constants; the high bits are
        // well mixed), and a run of near-equal ones that differ only in their low bits.
        var state = UInt64(count) + 1
        var values = (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(bitPattern: UInt(state))
        }
        values += (0..<(count / 4)).map { i in (Int.min + 5) | (i % 7) }
        values += [Int.max, Int.min, 0, -1]
        var sorted = values
        ContactIndex.radixSort(&sorted)
        #expect(sorted == values.sorted())
    }
}
