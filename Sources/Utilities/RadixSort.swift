/// Sorting of integers by their bits, for the lists a large book makes (a million index entries, hundreds of
/// thousands of possible duplicates), where a comparison sort is several times slower.
package enum RadixSort {
    /// Sorts in up to four passes of 16 bits (small lists with the standard sort).
    package static func sort(_ values: inout [Int]) {
        guard values.count > 256 else { return values.sort() }
        let count = values.count
        // Every digit's counts in one read of the list, and a digit the same in every value (a list of one
        // book's positions, keys whose top bits are a field's zeros) sorts nothing and is skipped. The list itself
        // is one of the two buffers the passes move the values between, so only one more is made.
        var counts = [Int](repeating: 0, count: 4 << 16)
        var target = [UInt64](repeating: 0, count: count)
        values.withUnsafeMutableBufferPointer { values in
            values.withMemoryRebound(to: UInt64.self) { own in
                counts.withUnsafeMutableBufferPointer { counts in
                    // Flipping the sign bit makes unsigned order the signed order.
                    for i in 0..<count {
                        let v = own[i] ^ (1 << 63)
                        own[i] = v
                        counts[Int(v & 0xFFFF)] += 1
                        counts[1 << 16 + Int((v >> 16) & 0xFFFF)] += 1
                        counts[2 << 16 + Int((v >> 32) & 0xFFFF)] += 1
                        counts[3 << 16 + Int(v >> 48)] += 1
                    }
                    target.withUnsafeMutableBufferPointer { other in
                        var from = own
                        var to = other
                        for digit in 0..<4 {
                            let base = digit << 16
                            let shift = UInt64(16 * digit)
                            if counts[base + Int((from[0] >> shift) & 0xFFFF)] == count { continue }
                            var sum = 0
                            for i in base..<(base + 1 << 16) {
                                let n = counts[i]
                                counts[i] = sum
                                sum += n
                            }
                            for v in from {
                                let slot = base + Int((v >> shift) & 0xFFFF)
                                to[counts[slot]] = v
                                counts[slot] += 1
                            }
                            swap(&from, &to)
                        }
                        if from.baseAddress != own.baseAddress {
                            for i in 0..<count { own[i] = from[i] }
                        }
                        for i in 0..<count { own[i] ^= 1 << 63 }
                    }
                }
            }
        }
    }
}
