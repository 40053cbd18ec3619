/// SplitMix64 with its own bounded draws, so a seed gives the same numbers on every platform and toolchain
/// (the standard library's `random(in:using:)` algorithms are not promised to stay the same).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-and-reject, no modulo bias).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "empty range")
        let limit = UInt64(bound)
        var product = next().multipliedFullWidth(by: limit)
        if product.low < limit {
            let threshold = (0 &- limit) % limit
            while product.low < threshold { product = next().multipliedFullWidth(by: limit) }
        }
        return Int(product.high)
    }

    /// A uniform integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// A uniform element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Fisher-Yates, in place.
    mutating func shuffle<T>(_ items: inout [T]) {
        var index = items.count - 1
        while index > 0 {
            items.swapAt(index, below(index + 1))
            index -= 1
        }
    }

    /// A child generator for an independent stream.
    mutating func fork() -> SplitMix64 { SplitMix64(seed: next()) }
}

/// A Zipf-like rank distribution with integer weights `scale / (rank + offset)`: rank 0 is the most common.
/// Integer arithmetic keeps it identical everywhere (no `pow`).
struct ZipfTable: Sendable {
    private let cumulative: [UInt64]

    init(count: Int, offset: Int) {
        precondition(count > 0 && offset > 0)
        var running: UInt64 = 0
        var table = [UInt64]()
        table.reserveCapacity(count)
        for rank in 0..<count {
            running += 1_000_000_000 / UInt64(rank + offset)
            table.append(running)
        }
        cumulative = table
    }

    /// A rank in `0..<count`.
    func draw(_ random: inout SplitMix64) -> Int {
        let total = cumulative[cumulative.count - 1]
        let target = UInt64(random.below(Int(total)))
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > target { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// Fixed-width decimal and hexadecimal text without Foundation.
enum Digits {
    static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    static func hex(_ value: UInt64, _ width: Int, uppercase: Bool) -> String {
        let text = String(value, radix: 16, uppercase: uppercase)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
