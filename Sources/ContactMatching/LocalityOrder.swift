import Utilities

extension ContactIndex {
    /// Positions of `keys` in an order that puts cards of one name next to each other: the order in which to
    /// decide each card's candidate pairs, so the keys of a block of namesakes are read from the cache rather than
    /// from memory once for each of their pairs. Which card decides a pair, and what it decides, do not depend
    /// on this order; only how long the deciding takes does (a third less for a dedupe of a large book).
    /// - Complexity: O(n), a radix sort of one integer per card.
    package static func localityOrder(_ keys: [MatchKeys]) -> [Int] {
        localityOrder(of: Array(keys.indices), in: keys)
    }

    /// `positions` of `keys` in the order of `localityOrder(_:)`.
    package static func localityOrder(of positions: [Int], in keys: [MatchKeys]) -> [Int] {
        localityOrder(of: positions, count: keys.count) { keys[$0] }
    }

    /// `positions` of the cards `index` holds in the order of `localityOrder(_:)`.
    package static func localityOrder(of positions: [Int], in index: ContactIndex) -> [Int] {
        localityOrder(of: positions, count: index.count) { index.key(at: $0) }
    }

    private static func localityOrder(
        of positions: [Int], count: Int, key: @Sendable (Int) -> MatchKeys
    ) -> [Int] {
        guard positions.count > 1 else { return positions }
        let positionBits = Int.bitWidth - count.leadingZeroBitCount
        let hashMask = ~((1 << positionBits) - 1)
        var packed = Concurrently.map(positions, chunk: 4_096) { position -> Int in
            // The name key of the family name and the given name's root, else the formatted name's: the blocks
            // with the most pairs are a name's. A card with neither stays near its place in the file.
            let card = key(position)
            let key =
                card.indexKeys.first { $0.kind == .name } ?? card.indexKeys.first { $0.kind == .formattedName }
            return (key.map { $0.hash & hashMask } ?? position << positionBits & hashMask) | position
        }
        RadixSort.sort(&packed)
        let positionMask = (1 << positionBits) - 1
        return packed.map { $0 & positionMask }
    }
}
