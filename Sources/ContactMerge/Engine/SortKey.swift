import Utilities

/// The orders the suggestions of a large book are sorted in, as single integers sorted by their bits: a dedupe of
/// 100,000 cards ranks some 700,000 possible pairs twice, and comparing tuples took about a tenth of a second
/// each time on the one thread everything else waits for. Each field gets 21 bits, which holds every node of a
/// book under two million cards and every rank within a million tenths of zero; anything larger is left to the
/// comparison sort (the functions return false).
enum SortKey {
    private static let bits = 21
    private static let limit = 1 << bits
    private static let field = limit - 1
    /// Ranks are stored as `bias - rank`, so ascending order is the strongest rank first.
    private static let bias = limit / 2

    /// Sorts packed pairs of roots (`x << 32 | y`) ascending, and each pair's ranks strongest first.
    static func sortPairs(_ pairs: inout [(key: Int, rank: Int32)], nodes: Int) -> Bool {
        guard nodes <= limit, pairs.allSatisfy({ abs(Int($0.rank)) < bias }) else { return false }
        var keys = pairs.map { ($0.key >> 32) << (2 * bits) | ($0.key & 0xFFFF_FFFF) << bits | (bias - Int($0.rank)) }
        RadixSort.sort(&keys)
        for i in keys.indices {
            let k = keys[i]
            pairs[i] = ((k >> (2 * bits)) << 32 | (k >> bits) & field, Int32(bias - (k & field)))
        }
        return true
    }

    /// Sorts suggestions strongest first, then by their first and second node.
    static func sortSuggestions(_ suggestions: inout [Suggestion], nodes: Int) -> Bool {
        guard nodes <= limit,
            suggestions.allSatisfy({ abs($0.rank) < bias && $0.first < limit && $0.second < limit })
        else { return false }
        var keys = suggestions.map { (bias - $0.rank) << (2 * bits) | $0.first << bits | $0.second }
        RadixSort.sort(&keys)
        for i in keys.indices {
            let k = keys[i]
            suggestions[i] = Suggestion(first: (k >> bits) & field, second: k & field, rank: bias - (k >> (2 * bits)))
        }
        return true
    }
}
