import ContactMatching
import ContactModel
import Utilities

/// What a merge or dedupe will do before anything is written: who is one person, and the possible duplicates
/// left for a person to decide (`suggestions`). `AddressBookMerge.apply` turns it, with the answers of a review,
/// into the result.
public struct MergePlan: Sendable {
    /// Whether this is a dedupe of one file (else a merge of incoming cards into existing ones).
    public let isDedupe: Bool
    /// Possible duplicates, strongest first.
    public let suggestions: [Suggestion]
    /// Per node (merge: existing positions, then the existing count plus each incoming index; dedupe: positions).
    let keys: [MatchKeys]
    let existing: ExistingCards
    let incoming: [IncomingCard]
    let state: Clustering.State
    let candidatePairs: Int
    let capped: BlockingTally
    let file: String
    let lines: [Int]
    let code: Int?
    let orderKeys: [UInt64]
    /// The index decisions were made with, to explain suggestions.
    let matcher: Matcher

    /// Nodes that are existing cards.
    var existingCount: Int { existing.keys.count }
}

/// What deciding the candidate pairs of a run of cards found.
private struct PairsFound: Sendable {
    var edges: [Edge] = []
    var possible: [PossiblePair] = []
    var candidates = 0
    var capped = BlockingTally()
    /// Cards every key of which was capped: they met nobody by their keys, not even their copies.
    var alone: [Int] = []
}

extension AddressBookMerge {
    // MARK: Merge

    /// Works out who is one person among `existing` and `incoming` (see `Clustering`): an incoming card whose
    /// every value an existing card already holds is that card's; the rest are linked by the decision rule to
    /// existing cards and to each other, each link checked against the card as it stands after the links before
    /// it, so the result does not depend on the order of the incoming cards and a second run changes nothing.
    public func plan(
        _ incoming: [IncomingCard], into existing: ExistingCards, decisions: ReviewDecisions = ReviewDecisions()
    ) -> MergePlan {
        // Existing cards are read in full to look up, to make groups and again to apply: once is enough.
        let existing = existing.remembered()
        let code = existing.countryCode
        let count = existing.keys.count
        let inKeys = Concurrently.map(incoming, chunk: 64) { MatchKeys($0.contact, countryCode: code) }
        let keys = existing.keys + inKeys
        let merger = ContactMerger(preference: preference, countryCode: code)
        PhaseClock.mark("plan: incoming keys")
        let existingMatcher = Matcher(index: ContactIndex(existing.keys))
        PhaseClock.mark("plan: index")
        // Incoming cards are linked to each other with every card's count: an email on an existing card too is
        // shared by three cards, not two, and identifies nobody.
        let incomingMatcher = Matcher(index: ContactIndex(inKeys), sharedAbove: 2, alsoCounting: existingMatcher.index)
        let ids: [String?] =
            decisions.isEmpty
            ? []
            : existing.keys.map(\.uid) + Concurrently.map(incoming, chunk: 64) { ContentKey.uid($0.contact) }
        let keptApart: @Sendable (Int, Int) -> Bool = { x, y in
            !ids.isEmpty && decisions.areKeptApart(ids[x], ids[y])
        }
        // First the incoming cards an existing card already holds (a second run of the same merge finds every
        // card it merged or added before). Such a card is that card's and links to nothing else: its emails,
        // phones and addresses are all on its holder, so every other card that is the same person finds the
        // holder itself, and no chain through it can join cards the run before kept apart.
        struct Lookup: Sendable {
            var candidates: [Int]
            var capped = BlockingTally()
            var holder: Int?
            /// Whether every key of the card was capped among the existing cards.
            var allCapped = false
        }
        // Whether the existing card `p` holds incoming card `i` (keys `mine`).
        // (Single values aside: a card merged here before may have lost its FN or ORG to another card's.)
        // A different single value counts only when the card's emails and phones (all there) or the rule
        // say the same person: a card with a name and an organisation alone is not held by a colleague's
        // card of a similar name.
        @Sendable func holds(_ p: Int, _ i: Int, _ mine: MatchKeys) -> Bool {
            guard !keptApart(count + i, p) && existing.keys[p].couldHold(mine) else { return false }
            let changes = merger.merge(incoming[i].contact, into: existing.card(p)).changes
            return changes.isEmpty && existing.keys[p].couldContain(mine)
                || changes.allSatisfy({ $0.action == .replaced || $0.action == .kept })
                    && (!mine.emails.isEmpty || !mine.phones.isEmpty
                        || existingMatcher.verdict(mine, existing.keys[p]).kind == .same)
        }
        // Incoming cards of one name one after another, so their candidates' keys stay in the cache; the results
        // are then put in incoming order.
        let order = ContactIndex.localityOrder(inKeys)
        let lookupsInOrder: [Lookup] = Concurrently.map(order, chunk: 64) { i in
            var out = Lookup(candidates: [])
            let mine = inKeys[i]
            out.candidates = existingMatcher.index.candidates(
                for: mine, below: Int.max, capped: &out.capped, allCapped: &out.allCapped)
            out.holder = out.candidates.first { holds($0, i, mine) }
            return out
        }
        var lookups = Self.inPlaces(order, lookupsInOrder)
        // A card whose every key is on too many existing cards to compare by may still be one of them, copied
        // many times over: looked for among the existing cards of its fingerprint (worked out only then).
        let alone = lookups.indices.filter { lookups[$0].allCapped && lookups[$0].holder == nil }
        if !alone.isEmpty {
            let prints = Concurrently.map(existing.keys, chunk: 4_096) { $0.copyFingerprint }
            var byPrint: [Int: [Int]] = [:]
            for (p, print) in prints.enumerated()
            where byPrint[print, default: []].count < CopyFinding.comparedPerFingerprint {
                byPrint[print, default: []].append(p)
            }
            for i in alone {
                lookups[i].holder = byPrint[inKeys[i].copyFingerprint]?.first { holds($0, i, inKeys[i]) }
            }
        }
        let frozenLookups = lookups
        // Files the link between incoming cards `j` and `i` (`j` first), `mine` the keys of `i`; whether it
        // links them.
        @Sendable func link(_ j: Int, _ i: Int, _ mine: MatchKeys, into out: inout PairsFound) -> Bool {
            let (node, other) = (count + i, count + j)
            guard !keptApart(node, other) else { return false }
            if incomingMatcher.verdict(mine, inKeys[j]).kind == .same {
                out.edges.append(Edge(other, node, incomingMatcher.decide(mine, inKeys[j])))
            } else if merger.areCopies(incoming[i].contact, mine, incoming[j].contact, inKeys[j]) {
                out.edges.append(.identical(other, node))
            } else {
                return false
            }
            return true
        }
        var foundInOrder: [PairsFound] = Concurrently.map(order, chunk: 64) { i in
            var out = PairsFound(capped: frozenLookups[i].capped)
            let node = count + i
            let mine = inKeys[i]
            let candidates = frozenLookups[i].candidates
            out.candidates = candidates.count
            if let holder = frozenLookups[i].holder {
                // The decision is kept to explain it; the tier puts it before every other link. Held by the card, the
                // pair is one person whatever the rule alone says: the explanation says so.
                var decision = existingMatcher.decide(mine, existing.keys[holder])
                if decision.kind != .same {
                    decision.kind = .same
                    decision.rule = "held"
                }
                out.edges.append(Edge(a: holder, b: node, tier: 4, strength: 1_000, decision: decision))
                return out
            }
            let existingKeys = existing.keys
            for p in candidates where !keptApart(node, p) {
                existingKeys.withElement(at: p) { theirs in
                    Edge.file(
                        existingMatcher.verdict(mine, theirs), p, node, edges: &out.edges, possible: &out.possible
                    ) {
                        existingMatcher.decide(mine, theirs)
                    }
                }
            }
            // The other incoming cards: the same person exported twice becomes one card.
            var allCapped = false
            for j in incomingMatcher.index.candidates(
                for: mine, below: i, capped: &out.capped, allCapped: &allCapped)
            where frozenLookups[j].holder == nil {
                _ = link(j, i, mine, into: &out)
            }
            if allCapped { out.alone.append(i) }
            return out
        }
        // Incoming copies of one card too many to compare by their keys.
        var copies = PairsFound()
        CopyFinding.pairs(
            among: foundInOrder.flatMap(\.alone).sorted(), fingerprint: { inKeys[$0].copyFingerprint },
            compare: { j, i in link(j, i, inKeys[i], into: &copies) })
        foundInOrder.append(copies)
        // (The copies' links come last, after every card's own, in incoming order.)
        let copyLinks = foundInOrder.removeLast()
        let found = Self.inPlaces(order, foundInOrder) + [copyLinks]
        PhaseClock.mark("plan: candidate pairs")
        // Content orders: existing cards keep their places (and come first); incoming cards sort by content,
        // worked out for the cards some link touches (the others are never ordered).
        var linked = Set<Int>()
        for f in found { for e in f.edges where e.b >= count { linked.insert(e.b - count) } }
        for f in found { for e in f.edges where e.a >= count { linked.insert(e.a - count) } }
        let touched = linked.sorted()
        let contentOrder = Concurrently.map(touched, chunk: 64) { ContentKey.order(incoming[$0].contact) | (1 << 63) }
        // (`UInt64.max` marks an order not worked out yet: `MergePlan.order` works it out when asked.)
        var orderKeys = (0..<count).map { UInt64($0) } + Array(repeating: UInt64.max, count: incoming.count)
        for (k, i) in touched.enumerated() { orderKeys[count + i] = contentOrder[k] }
        let frozenOrder = orderKeys
        let clustering = Clustering(
            keys: keys, isAnchor: { $0 < count },
            card: { $0 < count ? existing.card($0) : incoming[$0 - count].contact },
            order: { node in
                frozenOrder[node] != .max
                    ? frozenOrder[node] : ContentKey.order(incoming[node - count].contact) | 1 << 63
            }, keptApart: keptApart, merger: merger, countryCode: code,
            index: existingMatcher.index.appending(incomingMatcher.index), keepsApart: !decisions.isEmpty)
        var state = Clustering.State(count: keys.count)
        var possible = found.flatMap(\.possible)
        // Links to existing cards are decided with the existing cards' counts, links among incoming cards with
        // theirs; a group checked against another group uses the existing counts (an identifier shared within
        // the group counts once).
        PhaseClock.mark("plan: content order")
        let changed = clustering.apply(found.flatMap(\.edges), to: &state) { a, b in existingMatcher.verdict(a, b) }
        PhaseClock.mark("plan: links applied")
        clustering.settle(changed, state: &state, possible: &possible)
        var capped = BlockingTally()
        for f in found { capped.formUnion(f.capped) }
        // Suggestions pair an existing card with a new card made of incoming cards.
        let suggestions = Self.suggestions(
            possible, state: &state, isAnchor: { $0 < count }, keptApart: keptApart,
            make: { root, anchor in
                anchor < count && root >= count ? Suggestion(first: anchor, second: root - count, rank: 0) : nil
            })
        return MergePlan(
            isDedupe: false, suggestions: suggestions, keys: keys, existing: existing, incoming: incoming,
            state: state, candidatePairs: found.reduce(0) { $0 + $1.candidates }, capped: capped, file: "",
            lines: [], code: code, orderKeys: orderKeys, matcher: existingMatcher)
    }

    /// `results`, made for the positions `order` lists in its order, each put at its position.
    static func inPlaces<T>(_ order: [Int], _ results: [T]) -> [T] {
        var placed = results
        for (k, position) in order.enumerated() { placed[position] = results[k] }
        return placed
    }

    /// The possible pairs (and those the state refused) as suggestions between groups, each pair of groups once
    /// with its strongest rank, pairs kept apart left out, strongest first. `make` turns a pair of roots (the
    /// second holding the anchor, if either does) into a suggestion, or nil when it is not one.
    static func suggestions(
        _ pairs: [PossiblePair], state: inout Clustering.State, isAnchor: (Int) -> Bool,
        keptApart: (Int, Int) -> Bool, make: (Int, Int) -> Suggestion?
    ) -> [Suggestion] {
        // Pairs of roots packed in one integer with their rank, sorted, so each pair of groups is kept once
        // with its strongest rank without a dictionary of hundreds of thousands of entries. A large book has
        // hundreds of thousands: every list here is sized once and sorted in place, and none is copied.
        // Most roots are cards on their own: a list says which are groups, so they are not each looked up in the
        // dictionary of groups (millions of lookups for a large book).
        var isGrouped = [Bool](repeating: false, count: state.parent.count)
        for root in state.members.keys { isGrouped[root] = true }
        let grouped = isGrouped
        let groups = state.members
        func anyMember(of root: Int, _ test: (Int) -> Bool) -> Bool {
            grouped[root] ? groups[root]!.contains(where: test) : test(root)
        }
        // Whether each root's group holds an anchor, worked out once rather than for each of its pairs.
        var anchored = [Bool](repeating: false, count: state.parent.count)
        for node in anchored.indices where state.parent[node] == node {
            anchored[node] = anyMember(of: node, isAnchor)
        }
        var packed: [(key: Int, rank: Int32)] = []
        packed.reserveCapacity(pairs.count + state.refused.count)
        for pair in [pairs, state.refused].joined() {
            var x = state.find(Int(pair.a))
            var y = state.find(Int(pair.b))
            guard x != y else { continue }
            // The group holding an anchor second, else the lower root first.
            let anchorX = anchored[x]
            let anchorY = anchored[y]
            if anchorX && !anchorY || !anchorX && !anchorY && x > y { swap(&x, &y) }
            packed.append((x << 32 | y, pair.rank))
        }
        // Each pair of groups with its strongest rank first.
        if !SortKey.sortPairs(&packed, nodes: state.parent.count) {
            packed.sort { ($0.key, $1.rank) < ($1.key, $0.rank) }
        }
        var out: [Suggestion] = []
        out.reserveCapacity(packed.count)
        var previous = -1
        for (key, rank) in packed where key != previous {
            previous = key
            let x = key >> 32
            let y = key & 0xFFFF_FFFF
            let anchor = grouped[y] ? groups[y]!.first(where: isAnchor) ?? y : y
            guard !anyMember(of: x, { a in anyMember(of: y) { keptApart(a, $0) } }),
                var suggestion = make(x, anchor)
            else { continue }
            suggestion.rank = Int(rank)
            out.append(suggestion)
        }
        packed = []
        if !SortKey.sortSuggestions(&out, nodes: state.parent.count) {
            out.sort { ($0.rank, $1.first, $1.second) > ($1.rank, $0.first, $0.second) }
        }
        return out
    }

    // MARK: Dedupe

    /// Works out who is one person within one collection (see `Clustering`): every card linked to the cards
    /// sharing a key with it, exact copies joined, each link checked against the cards as they stand, and the
    /// merged cards looked up again until nothing more joins, so running dedupe again merges nothing.
    public func planDedupe(
        _ cards: ExistingCards, file: String, lines: [Int], decisions: ReviewDecisions = ReviewDecisions()
    ) -> MergePlan {
        // Cards are read in full to compare copies, to make groups and again to apply: once is enough.
        let cards = cards.remembered()
        let code = cards.countryCode
        let keys = cards.keys
        PhaseClock.mark("plan: cards remembered")
        let matcher = Matcher(index: ContactIndex(keys), sharedAbove: 2)
        PhaseClock.mark("plan: index")
        let merger = ContactMerger(preference: preference, countryCode: code)
        let keptApart: @Sendable (Int, Int) -> Bool = { x, y in
            !decisions.isEmpty && decisions.areKeptApart(keys[x].uid, keys[y].uid)
        }
        // Files the decision for cards `j` and `i` (`j` first), `mine` the keys of `i`; whether it links them.
        @Sendable func decide(_ j: Int, _ i: Int, _ mine: MatchKeys, into out: inout PairsFound) -> Bool {
            out.candidates += 1
            return keys.withElement(at: j) { theirs in
                let verdict = matcher.verdict(mine, theirs)
                if verdict.kind != .same, merger.areCopies(cards.card(i), mine, cards.card(j), theirs) {
                    out.edges.append(.identical(j, i))
                    return true
                }
                Edge.file(verdict, j, i, edges: &out.edges, possible: &out.possible) {
                    matcher.decide(mine, theirs)
                }
                return verdict.kind == .same
            }
        }
        // One result for each run of cards rather than for each card: a large book's hundred thousand results,
        // each with its own lists and tally, cost memory and time to gather for nothing.
        let run = 256
        // Cards of one name one after another: their keys stay in the cache for the pairs among them.
        let order = ContactIndex.localityOrder(keys)
        var found: [PairsFound] = Concurrently.map(Array(stride(from: 0, to: keys.count, by: run)), chunk: 1) { start in
            var out = PairsFound()
            for i in order[start..<min(keys.count, start + run)] {
                // Each card's keys taken once for all its pairs (reading a class from the list retains it).
                let mine = keys[i]
                var allCapped = false
                let candidates = matcher.index.candidates(
                    for: mine, below: i, capped: &out.capped, allCapped: &allCapped)
                if allCapped { out.alone.append(i) }
                for j in candidates where !keptApart(i, j) { _ = decide(j, i, mine, into: &out) }
            }
            return out
        }
        var copies = PairsFound()
        CopyFinding.pairs(
            among: found.flatMap(\.alone).sorted(), fingerprint: { keys[$0].copyFingerprint },
            compare: { j, i in !keptApart(i, j) && decide(j, i, keys[i], into: &copies) })
        found.append(copies)
        PhaseClock.mark("plan: candidate pairs")
        let clustering = Clustering(
            keys: keys, isAnchor: { _ in false }, card: cards.card, order: { UInt64($0) }, keptApart: keptApart,
            merger: merger, countryCode: code, index: matcher.index, keepsApart: !decisions.isEmpty)
        var state = Clustering.State(count: keys.count)
        var capped = BlockingTally()
        for f in found { capped.formUnion(f.capped) }
        let candidatePairs = found.reduce(0) { $0 + $1.candidates }
        // Each run's lists moved into one and let go as they go: a large book's possible pairs, and the links of
        // a book full of copies (hundreds of thousands), are held once, not twice.
        var possible: [PossiblePair] = []
        var edges: [Edge] = []
        possible.reserveCapacity(found.reduce(0) { $0 + $1.possible.count })
        edges.reserveCapacity(found.reduce(0) { $0 + $1.edges.count })
        for i in found.indices {
            possible += found[i].possible
            found[i].possible = []
            edges += found[i].edges
            found[i].edges = []
        }
        found = []
        PhaseClock.mark("plan: gathered")
        let changed = clustering.apply(edges, to: &state) { matcher.verdict($0, $1) }
        PhaseClock.mark("plan: links applied")
        clustering.settle(changed, state: &state, possible: &possible)
        let suggestions = Self.suggestions(
            possible, state: &state, isAnchor: { _ in false }, keptApart: keptApart,
            make: { Suggestion(first: $0, second: $1, rank: 0) })
        return MergePlan(
            isDedupe: true, suggestions: suggestions, keys: keys, existing: cards, incoming: [], state: state,
            candidatePairs: candidatePairs, capped: capped, file: file, lines: lines,
            code: code, orderKeys: [], matcher: matcher)
    }
}

extension MergePlan {
    /// The nodes a suggestion joins: (the incoming or second card, the existing or first card).
    func nodes(_ s: Suggestion) -> (Int, Int) { isDedupe ? (s.second, s.first) : (existingCount + s.second, s.first) }

    /// Whether a node is an existing card a merge never joins to another.
    func isAnchor(_ node: Int) -> Bool { !isDedupe && node < existingCount }

    /// The card of a node as read.
    func card(_ node: Int) -> Contact {
        isDedupe || node < existingCount ? existing.card(node) : incoming[node - existingCount].contact
    }

    /// The card `members` make, merged in their order from the first.
    func card(of members: [Int], preference: MergePreference) -> Contact {
        let sorted = members.sorted { (order($0), $0) < (order($1), $1) }
        let merger = ContactMerger(preference: preference, countryCode: code)
        var card = self.card(sorted[0])
        for node in sorted.dropFirst() { card = merger.merge(self.card(node), into: card).contact }
        return card
    }

    func order(_ node: Int) -> UInt64 {
        if isDedupe { return UInt64(node) }
        return orderKeys[node] != .max
            ? orderKeys[node] : ContentKey.order(incoming[node - existingCount].contact) | 1 << 63
    }
}
