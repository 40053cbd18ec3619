import Testing

@testable import ContactMerge

/// The suggestions' orders by packed integers are the orders of the comparison sorts they replace, and a book
/// too large to pack is left to those sorts.
@Suite struct SortKeyTests {
    /// Pairs of roots sorted by pair, strongest rank first; negative ranks and repeated pairs included.
    @Test func pairsSortAsTheComparisonSortDoes() {
        var generator = SystemRandomNumberGenerator()
        var pairs: [(key: Int, rank: Int32)] = (0..<20_000).map { _ in
            let x = Int.random(in: 0..<3_000, using: &generator)
            let y = Int.random(in: 0..<3_000, using: &generator)
            return (x << 32 | y, Int32.random(in: -400...900, using: &generator))
        }
        pairs += pairs.prefix(2_000).map { ($0.key, $0.rank + 7) }
        var expected = pairs
        expected.sort { ($0.key, $1.rank) < ($1.key, $0.rank) }
        #expect(SortKey.sortPairs(&pairs, nodes: 3_000))
        #expect(pairs.map(\.key) == expected.map(\.key))
        #expect(pairs.map(\.rank) == expected.map(\.rank))
    }

    /// Suggestions sorted strongest first, then by first and second node.
    @Test func suggestionsSortAsTheComparisonSortDoes() {
        var generator = SystemRandomNumberGenerator()
        var suggestions = (0..<20_000).map { _ in
            Suggestion(
                first: Int.random(in: 0..<500, using: &generator), second: Int.random(in: 0..<500, using: &generator),
                rank: Int.random(in: -50...120, using: &generator))
        }
        var expected = suggestions
        expected.sort { ($0.rank, $1.first, $1.second) > ($1.rank, $0.first, $0.second) }
        #expect(SortKey.sortSuggestions(&suggestions, nodes: 500))
        #expect(suggestions == expected)
    }

    /// Nodes or ranks beyond 21 bits are not packed: the caller sorts by comparison.
    @Test func tooLargeABookIsLeftToTheComparisonSort() {
        var pairs: [(key: Int, rank: Int32)] = [(1 << 32 | 2, 5)]
        #expect(!SortKey.sortPairs(&pairs, nodes: 3_000_000))
        var ranked: [(key: Int, rank: Int32)] = [(1 << 32 | 2, 2_000_000)]
        #expect(!SortKey.sortPairs(&ranked, nodes: 10))
        var suggestions = [Suggestion(first: 1, second: 2, rank: -2_000_000)]
        #expect(!SortKey.sortSuggestions(&suggestions, nodes: 10))
        #expect(suggestions == [Suggestion(first: 1, second: 2, rank: -2_000_000)])
    }
}
