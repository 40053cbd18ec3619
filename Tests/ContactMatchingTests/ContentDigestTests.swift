import Testing
import Utilities

/// The fingerprint merge and dedupe keep of a contacts file instead of its bytes: the same bytes give the same
/// value however they are cut into pieces, and a change anywhere gives another.
@Suite struct ContentDigestTests {
    static let bytes: [UInt8] = (0..<10_007).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }

    static func digest(_ bytes: [UInt8], cuts: [Int]) -> UInt64 {
        var digest = ContentDigest()
        var start = 0
        for cut in cuts + [bytes.count] {
            digest.update(bytes[start..<cut])
            start = cut
        }
        #expect(digest.count == bytes.count)
        return digest.value
    }

    @Test func theValueDoesNotDependOnHowTheBytesAreCut() {
        let whole = Self.digest(Self.bytes, cuts: [])
        for cuts in [[1], [31], [32], [33], [5, 6, 7, 70, 71, 4_000], Array(stride(from: 3, to: 10_000, by: 97))] {
            #expect(Self.digest(Self.bytes, cuts: cuts) == whole, "cut at \(cuts.prefix(8))")
        }
    }

    @Test func anyChangeChangesIt() {
        let whole = Self.digest(Self.bytes, cuts: [])
        var seen: Set<UInt64> = [whole]
        // One bit of one byte at positions in every part of a stripe and in the unfinished tail; a byte more, a
        // byte less, two bytes swapped.
        for position in [0, 7, 8, 31, 32, 5_000, 9_983, 9_999, 10_006] {
            for bit in [0, 7] {
                var changed = Self.bytes
                changed[position] ^= 1 << bit
                #expect(seen.insert(Self.digest(changed, cuts: [])).inserted, "byte \(position) bit \(bit)")
            }
        }
        #expect(seen.insert(Self.digest(Self.bytes + [0], cuts: [])).inserted)
        #expect(seen.insert(Self.digest(Array(Self.bytes.dropLast()), cuts: [])).inserted)
        var swapped = Self.bytes
        swapped.swapAt(100, 101)
        #expect(seen.insert(Self.digest(swapped, cuts: [])).inserted)
        // Nothing at all, and zeros of several lengths, are told apart by their length.
        #expect(Self.digest([], cuts: []) != Self.digest([0], cuts: []))
        #expect(
            Self.digest([UInt8](repeating: 0, count: 32), cuts: [])
                != Self.digest([UInt8](repeating: 0, count: 64), cuts: []))
    }
}
