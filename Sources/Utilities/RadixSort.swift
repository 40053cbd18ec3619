/// Sorting of integers by their bits, for the lists a large book makes (a million index entries, hundreds of
/// thousands of possible duplicates), where a comparison sort is several times slower.
package enum RadixSort {
    /// Sorts in four passes of 16 bits (small lists with the standard sort).
    package static func sort(_ values: inout [Int]) {
        guard values.count > 256 else { return values.sort() }
        // Flipping the sign bit makes unsigned order the signed order.
        var source = values.map { UInt64(bitPattern: Int64($0)) ^ (1 << 63) }
        var target = [UInt64](repeating: 0, count: source.count)
        var counts = [Int](repeating: 0, count: 1 << 16)
        for shift in stride(from: UInt64(0), to: 64, by: 16) {
            source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for i in counts.indices { counts[i] = 0 }
                        for v in from { counts[Int((v >> shift) & 0xFFFF)] += 1 }
                        var sum = 0
                        for i in counts.indices {
                            let count = counts[i]
                            counts[i] = sum
                            sum += count
                        }
                        for v in from {
                            let digit = Int((v >> shift) & 0xFFFF)
                            to[counts[digit]] = v
                            counts[digit] += 1
                        }
                    }
                }
            }
            swap(&source, &target)
        }
        for i in values.indices { values[i] = Int(Int64(bitPattern: source[i] ^ (1 << 63))) }
    }
}
