import ContactMatching

/// What each pass of `Clustering.settle` decided pair by pair, kept for the next pass: most groups a pass looks
/// at are nodes found ambiguous, looked at again with the same keys against candidates that did not change
/// either, and a large book has thousands of them with dozens of candidates each. A pair whose two sides have
/// the same keys as when it was decided is decided the same way, unless its decision read the index, which
/// changes from pass to pass: only the count of cards carrying an identifier both cards share does
/// (`MatchVerdict.sharedIdentifiers`), so such pairs are not kept.
struct PairMemo: Sendable {
    /// What a pair gave.
    enum Outcome: UInt8, Sendable {
        /// Different people.
        case nothing
        /// A possible duplicate, with the pair's rank.
        case possible
        /// A same-person link: one of the group's edges.
        case edge
    }

    /// A candidate a group was compared with.
    struct Pair: Sendable {
        /// The candidate's node.
        var other: Int
        /// The candidate's keys then: the pair is decided again when the candidate's group changed since.
        var theirs: MatchKeys
        var outcome: Outcome
        /// The rank of a possible duplicate, or the position of an edge in `Group.edges`.
        var value: Int32
    }

    /// What looking one group up found.
    struct Group: Sendable {
        /// The keys the group was looked up with. Keys are made once for each merged card and never change, so
        /// the same keys are the same card.
        var ours: MatchKeys
        /// The pairs kept, in ascending order of candidate.
        var pairs: [Pair] = []
        /// The same-person links among them.
        var edges: [Edge] = []

        init(ours: MatchKeys) { self.ours = ours }

        /// Keeps what the pair with `other` gave: a same-person link, a possible duplicate of rank `rank`, or
        /// (both nil) nothing. Pairs must be kept in ascending order of candidate.
        mutating func keep(_ other: Int, _ theirs: MatchKeys, edge: Edge?, rank: Int32?) {
            if let edge {
                pairs.append(Pair(other: other, theirs: theirs, outcome: .edge, value: Int32(edges.count)))
                edges.append(edge)
            } else if let rank {
                pairs.append(Pair(other: other, theirs: theirs, outcome: .possible, value: rank))
            } else {
                pairs.append(Pair(other: other, theirs: theirs, outcome: .nothing, value: 0))
            }
        }
    }

    /// The groups looked at in the last pass, by root.
    var groups: [Int: Group] = [:]

    /// Whether a pass replays what the pass before decided: tests turn it off to compare with deciding every
    /// pair again.
    @TaskLocal static var replays = true

    /// Where a test counts the pairs replayed, when it asks.
    @TaskLocal static var tally: Tally?

    /// A count of replayed pairs, added to by the thread that plans.
    final class Tally: @unchecked Sendable {
        var replayed = 0
    }

    /// Reads the kept pairs of one group in ascending order of candidate, as its candidates are met again.
    struct Cursor {
        private let pairs: [Pair]
        private let edges: [Edge]
        private var next = 0

        /// A cursor over what `group` found, when it was looked up with `ours`; over nothing otherwise.
        init(_ group: Group?, ours: MatchKeys) {
            if let group, group.ours === ours {
                (pairs, edges) = (group.pairs, group.edges)
            } else {
                (pairs, edges) = ([], [])
            }
        }

        /// What the pair with `other`, whose keys are `theirs`, gave last time, with the edge appended to `edges`
        /// (a possible duplicate was added to the pass's pairs then, and is not added again); nil when it was not
        /// kept or `theirs` changed since. Candidates must come in ascending order.
        mutating func replay(_ other: Int, _ theirs: MatchKeys, edges: inout [Edge]) -> Pair? {
            while next < pairs.count && pairs[next].other < other { next += 1 }
            guard next < pairs.count, pairs[next].other == other, pairs[next].theirs === theirs else { return nil }
            if pairs[next].outcome == .edge { edges.append(self.edges[Int(pairs[next].value)]) }
            return pairs[next]
        }
    }
}
