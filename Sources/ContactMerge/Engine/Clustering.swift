import ContactMatching
import ContactModel
import Foundation
import Utilities

/// A pair of cards (or of the people cards merged into) that may be one person, kept compact: a large book has
/// hundreds of thousands, and only the few shown are explained in full.
public struct PossiblePair: Sendable, Hashable {
    /// The lower node (a position in the file for dedupe; an existing position, or existing count plus an
    /// incoming index, for merge).
    public var a: Int32
    /// The higher node.
    public var b: Int32
    /// The weight of evidence, in tenths (`MatchDecision.rank`).
    public var rank: Int32

    init(_ a: Int, _ b: Int, rank: Int) {
        self.a = Int32(min(a, b))
        self.b = Int32(max(a, b))
        self.rank = Int32(clamping: rank)
    }
}

/// One same-person link between two nodes, to be applied strongest first.
struct Edge: Sendable {
    var a: Int
    var b: Int
    var tier: Int
    var strength: Int
    var decision: MatchDecision

    /// A same-person link by `decision`: an identical pair in the tier before every other.
    init(_ a: Int, _ b: Int, _ decision: MatchDecision) {
        self.init(
            a: a, b: b, tier: decision.rule == "identical" ? 4 : Matcher.tier(decision), strength: decision.strength,
            decision: decision)
    }

    /// The link between two copies of one card (each holds everything the other does).
    static func identical(_ a: Int, _ b: Int) -> Edge {
        Edge(a, b, MatchDecision(kind: .same, rule: "identical", evidence: [], strength: 1_000))
    }

    init(a: Int, b: Int, tier: Int, strength: Int, decision: MatchDecision) {
        self.a = a
        self.b = b
        self.tier = tier
        self.strength = strength
        self.decision = decision
    }

    /// Files the verdict for nodes `a` and `b`: a same-person link with the whole `decision` (kept to explain
    /// the link, and made only for such a link), a possible duplicate, or nothing.
    static func file(
        _ verdict: MatchVerdict, _ a: Int, _ b: Int, edges: inout [Edge], possible: inout [PossiblePair],
        decision: () -> MatchDecision
    ) {
        switch verdict.kind {
        case .same: edges.append(Edge(a, b, decision()))
        case .possible: possible.append(PossiblePair(a, b, rank: verdict.rank))
        case .different: break
        }
    }
}

/// Groups nodes (cards) into people, strongest links first, each link checked against the people as they stand
/// after the links before it, so a veto holds however the cards are ordered:
///
/// 1. Links found between single cards (by the caller) are applied by tier (UID or identical content, shared
///    identifiers, names and score), then strength, then a content order that does not depend on file order.
/// 2. A node claimed at its strongest tier by two nodes of equal strength that are not one person themselves is
///    ambiguous (two Ken Suzukis of one company, one card without birthday): none of those links is applied.
/// 3. Joining two groups needs the same-person decision between their merged cards and no conflict (different
///    names, birthdays, generations) between any member of one and any member of the other; at most one anchor
///    (an existing card, in a merge) per group.
/// 4. Groups that changed, and the nodes found ambiguous (a claimant may since have joined someone the node
///    conflicts with), are looked up again among the groups as they stand, and joined to what they now match,
///    until nothing changes: the result is a fixed point, so running again merges nothing.
struct Clustering: Sendable {
    /// The keys of each node.
    var keys: [MatchKeys]
    /// Whether a node is an anchor (an existing card in a merge): two anchors never join.
    var isAnchor: @Sendable (Int) -> Bool
    /// The whole card of a node.
    var card: @Sendable (Int) -> Contact
    /// The order in which a group's cards are merged, and ties are broken: content for incoming cards.
    var order: @Sendable (Int) -> UInt64
    /// Whether the user said the two nodes are different people.
    var keptApart: @Sendable (Int, Int) -> Bool
    var merger: ContactMerger
    var countryCode: Int?
    /// Every node's own keys, indexed: each look-up changes it into the groups as they stand.
    var index: ContactIndex
    /// Whether `keptApart` may say yes at all (a person kept some cards apart): otherwise joining two groups does
    /// not ask it for every pair of their members.
    var keepsApart = true

    /// The state of the grouping.
    struct State {
        var parent: [Int]
        /// The members of each group of more than one node, by root.
        var members: [Int: [Int]] = [:]
        /// The merged card and its keys, by root, for groups of more than one node.
        var merged: [Int: (card: Contact, keys: MatchKeys)] = [:]
        /// Groups joined by `apply` whose card is not merged yet, by root: made when a decision needs the group's
        /// keys, and the rest together on every processor when `apply` ends (after which this is empty).
        var pending: [Int: Pending] = [:]
        /// The decision by which each joined node joined, by node.
        var joined: [Int: (partner: Int, decision: MatchDecision)] = [:]
        /// Links refused (vetoed by the groups as they stood, ambiguous): possible duplicates.
        var refused: [PossiblePair] = []
        /// Nodes claimed equally by two people: they join nobody at that strength, in this pass or a later one.
        var ambiguous: [Int: Int] = [:]  // node -> the tier at which it is ambiguous

        init(count: Int) { parent = Array(0..<count) }

        mutating func find(_ x: Int) -> Int {
            var root = x
            while parent[root] != root { root = parent[root] }
            var node = x
            while parent[node] != root {
                let next = parent[node]
                parent[node] = root
                node = next
            }
            return root
        }

        func group(_ root: Int) -> [Int] { members[root] ?? [root] }

        /// Whether a member of the group of `root` satisfies `test`: `group(root).contains(where:)` without
        /// making an array for a card that is a group of its own (most cards of a book).
        func anyMember(of root: Int, _ test: (Int) -> Bool) -> Bool {
            if let group = members[root] { return group.contains(where: test) }
            return test(root)
        }
    }

    /// The keys of a group as it stands, its card merged first if it is not yet.
    func keys(of root: Int, in state: inout State) -> MatchKeys {
        if let pending = state.pending.removeValue(forKey: root) { state.merged[root] = made(pending.card) }
        return state.merged[root]?.keys ?? keys[root]
    }

    /// How a group's card is made from its parts, in the order `join` joined them.
    indirect enum MergedCard: Sendable {
        /// A node's own card.
        case card(Int)
        /// A card already made, with its keys.
        case made(Contact, MatchKeys)
        /// A node's card standing for a group of cards it holds everything of, with the node's keys.
        case held(Int)
        /// One part merged into another.
        case merge(from: MergedCard, into: MergedCard)
    }

    /// A group's card not made yet: how it is made, and how many merges deep.
    struct Pending: Sendable {
        var card: MergedCard
        var depth: Int
    }

    /// Making a card recurses once for each merge it is made of, on a worker's small stack: a group whose
    /// card would be more merges deep than this (thousands of copies of one card joining it one by one) is
    /// made at once.
    static let deepestPending = 32

    /// What `join` makes a group's card of, for the group of `root` as it stands.
    private func part(_ root: Int, in state: State) -> Pending {
        if let pending = state.pending[root] { return pending }
        if let merged = state.merged[root] { return Pending(card: .made(merged.card, merged.keys), depth: 0) }
        return Pending(card: .card(root), depth: 0)
    }

    /// The card `recipe` makes, with its keys.
    func made(_ recipe: MergedCard) -> (card: Contact, keys: MatchKeys) {
        switch recipe {
        case .made(let card, let keys): return (card, keys)
        case .held(let node): return (card(node), keys[node])
        case .card, .merge:
            let card = contact(recipe)
            return (card, MatchKeys(card, countryCode: countryCode))
        }
    }

    /// The card alone.
    private func contact(_ recipe: MergedCard) -> Contact {
        switch recipe {
        case .card(let node), .held(let node): return card(node)
        case .made(let card, _): return card
        case .merge(let from, let into): return merger.merge(contact(from), into: contact(into)).contact
        }
    }

    /// Makes the cards of the groups joined since they were last made, on every processor: each is its own
    /// merges, in the order they were joined.
    private func makePending(in state: inout State) {
        guard !state.pending.isEmpty else { return }
        let roots = state.pending.keys.sorted()
        let recipes = roots.map { state.pending[$0]!.card }
        let made = Concurrently.map(Array(recipes.indices), chunk: 4) { self.made(recipes[$0]) }
        for (root, group) in zip(roots, made) { state.merged[root] = group }
        state.pending = [:]
    }

    /// Applies `edges` to `state`, strongest first, dropping the ambiguous ones; returns the roots that changed.
    @discardableResult
    func apply(_ edges: [Edge], to state: inout State, matcher: @Sendable (MatchKeys, MatchKeys) -> MatchVerdict)
        -> Set<Int>
    {
        var changed = Set<Int>()
        // Each kept edge's place in the order, worked out once and sorted without the edges: comparing edges
        // asked four orders each time and moved whole decisions about, and a book full of copies applies
        // hundreds of thousands of links.
        var places = unambiguous(edges, state: &state, matcher: matcher).map { i in
            let (x, y) = (order(edges[i].a), order(edges[i].b))
            return EdgePlace(
                tier: edges[i].tier, strength: edges[i].strength, low: min(x, y), high: max(x, y), a: edges[i].a,
                b: edges[i].b, index: i)
        }
        places.sort()
        // Whether each group joined here holds an anchor, by root: asked of its members once, not at every join
        // (thousands of copies of one card join one group one by one).
        var anchored: [Int: Bool] = [:]
        func holdsAnchor(_ root: Int, _ group: [Int]) -> Bool {
            if let known = anchored[root] { return known }
            let holds = group.contains(where: isAnchor)
            anchored[root] = holds
            return holds
        }
        // Whether joining the groups of `ra` and `rb` by `edge` is refused; nil when both hold an anchor (which
        // never join). A function of its own, so the groups' lists are let go before `join` appends one to the
        // other (a list still held would be copied).
        func refuses(_ edge: Edge, _ ra: Int, _ rb: Int, in state: inout State) -> Bool? {
            let groupA = state.group(ra)
            let groupB = state.group(rb)
            let (anchorA, anchorB) = (holdsAnchor(ra, groupA), holdsAnchor(rb, groupB))
            if anchorA && anchorB { return nil }
            if keepsApart && groupA.contains(where: { x in groupB.contains { y in keptApart(x, y) } }) { return true }
            // A card its existing card already holds (the planner links such a card to its holder only) joins
            // whatever else joined the holder: it adds nothing, so nothing in it can conflict with the group. So
            // does a copy of a card of the other group, alone in its own.
            let held =
                edge.tier >= 4 && isAnchor(edge.a) && groupB.count == 1
                || edge.decision.rule == "identical" && !isAnchor(edge.a) && !isAnchor(edge.b)
                    && (groupA.count == 1 || groupB.count == 1)
            guard !held && (groupA.count > 1 || groupB.count > 1) else { return false }
            // The people as they stand, not the cards that first linked them.
            let decision = matcher(keys(of: ra, in: &state), keys(of: rb, in: &state))
            return decision.kind != .same && edge.tier < 4
                || groupA.contains { x in groupB.contains { y in Matcher.conflict(keys[x], keys[y]) != nil } }
        }
        // Groups whose members are not in order yet: joined lists are put in order once, when `apply` ends.
        var unsorted = Set<Int>()
        for place in places {
            let edge = edges[place.index]
            let ra = state.find(edge.a)
            let rb = state.find(edge.b)
            guard ra != rb else { continue }
            if edge.tier <= max(state.ambiguous[edge.a] ?? 0, state.ambiguous[edge.b] ?? 0) {
                state.refused.append(PossiblePair(edge.a, edge.b, rank: rank(edge)))
                continue
            }
            guard let refused = refuses(edge, ra, rb, in: &state) else { continue }
            if refused {
                state.refused.append(PossiblePair(edge.a, edge.b, rank: rank(edge)))
                continue
            }
            let root = join(ra, rb, by: edge, in: &state)
            let (anchorA, anchorB) = (anchored.removeValue(forKey: ra), anchored.removeValue(forKey: rb))
            anchored[root] = anchorA == true || anchorB == true
            unsorted.insert(root)
            changed.insert(root)
        }
        for root in unsorted where state.parent[root] == root {
            state.members[root]?.sort { (order($0), $0) < (order($1), $1) }
        }
        makePending(in: &state)
        return changed
    }

    /// Joins the groups of `ra` and `rb`, returning the root: the member first in `order`. The members are left
    /// out of order, for `apply` to sort.
    private func join(_ ra: Int, _ rb: Int, by edge: Edge, in state: inout State) -> Int {
        // Each root is its group's first member, so the first of the two roots is the joined group's.
        let before = { (x: Int, y: Int) in (order(x), x) < (order(y), y) }
        let root = before(ra, rb) ? ra : rb
        let into = root
        let from = into == ra ? rb : ra
        // The group's card is made when its keys are needed, or with the others when `apply` ends.
        let merged: Pending
        if edge.tier >= 4 && state.members[from] == nil && state.members[into] == nil {
            // A card whose values the other already holds: the group stands as that card (the checks need no more).
            merged = Pending(card: .held(into), depth: 0)
        } else {
            let (x, y) = (part(from, in: state), part(into, in: state))
            merged = Pending(card: .merge(from: x.card, into: y.card), depth: max(x.depth, y.depth) + 1)
        }
        // The longer list takes the shorter: a group thousands of copies join one by one is not copied each time.
        var all = state.members.removeValue(forKey: into) ?? [into]
        var other = state.members.removeValue(forKey: from) ?? [from]
        if all.count < other.count { swap(&all, &other) }
        all.append(contentsOf: other)
        state.merged[ra] = nil
        state.merged[rb] = nil
        state.pending[ra] = nil
        state.pending[rb] = nil
        state.parent[ra] = root
        state.parent[rb] = root
        state.parent[root] = root
        state.members[root] = all
        if merged.depth > Self.deepestPending {
            state.merged[root] = made(merged.card)
        } else {
            state.pending[root] = merged
        }
        let joiner = edge.a == root || before(edge.a, edge.b) ? edge.b : edge.a
        state.joined[joiner] = (joiner == edge.a ? edge.b : edge.a, edge.decision)
        return root
    }

    /// Where an edge comes in the order links are applied: higher tier, then stronger, then the content order of
    /// its nodes, then its nodes, then its place in the list.
    private struct EdgePlace: Comparable {
        var tier: Int
        var strength: Int
        var low: UInt64
        var high: UInt64
        var a: Int
        var b: Int
        var index: Int

        static func < (x: EdgePlace, y: EdgePlace) -> Bool {
            if x.tier != y.tier { return x.tier > y.tier }
            if x.strength != y.strength { return x.strength > y.strength }
            if (x.low, x.high) != (y.low, y.high) { return (x.low, x.high) < (y.low, y.high) }
            return (x.a, x.b, x.index) < (y.a, y.b, y.index)
        }
    }

    /// The positions of the edges left when those of ambiguous nodes are dropped: a node whose two strongest links
    /// at its top tier are equally strong, to nodes that are not one person, links neither (those become possible
    /// duplicates).
    private func unambiguous(
        _ edges: [Edge], state: inout State, matcher: @Sendable (MatchKeys, MatchKeys) -> MatchVerdict
    ) -> [Int] {
        // Each node's edges, in order: node and edge packed in one integer and sorted, rather than a dictionary
        // of lists (a large book's first application has tens of thousands of nodes). Nodes are looked at one
        // by one, and what one finds does not depend on the others.
        // A card held by an existing card has that one link, and a card holding several is no ambiguity: they
        // are all the holder's already.
        var incidences: [Int] = []
        incidences.reserveCapacity(2 * edges.count)
        for (i, e) in edges.enumerated() where !(e.tier >= 4 && isAnchor(e.a)) {
            incidences.append(e.a << 32 | i)
            incidences.append(e.b << 32 | i)
        }
        incidences.sort()
        // Pairs packed in one integer: hashing a two-element array for each of a large book's edges costs more.
        var linked = Set<Int>()
        for e in edges { linked.insert(min(e.a, e.b) << 32 | max(e.a, e.b)) }
        let pairs = linked
        // Each node's run of incidences, looked at on every processor: a large book has thousands of nodes with
        // several links, each tie among them a decision, and settling applies links at every pass.
        var runs: [Range<Int>] = []
        var start = 0
        while start < incidences.count {
            let node = incidences[start] >> 32
            var end = start + 1
            while end < incidences.count && incidences[end] >> 32 == node { end += 1 }
            if end - start > 1 { runs.append(start..<end) }
            start = end
        }
        let sortedIncidences = incidences
        // For each run, the top tier at which its node is ambiguous, or nil.
        let ambiguousAt: [Int?] = Concurrently.map(runs, chunk: 64) { run -> Int? in
            let node = sortedIncidences[run.lowerBound] >> 32
            let list = sortedIncidences[run].map { $0 & 0xFFFF_FFFF }
            let top = list.map { edges[$0].tier }.max()!
            // Copies of one card are copies of each other: thousands of them claim their first alike.
            guard top < 4 else { return nil }
            let strongest = list.filter { edges[$0].tier == top }.sorted { edges[$0].strength > edges[$1].strength }
            guard strongest.count > 1, edges[strongest[0]].strength == edges[strongest[1]].strength else { return nil }
            let ties = strongest.filter { edges[$0].strength == edges[strongest[0]].strength }
            let others = ties.map { edges[$0].a == node ? edges[$0].b : edges[$0].a }
            for i in others.indices {
                for j in others.indices where j > i {
                    let x = others[i]
                    let y = others[j]
                    if isAnchor(x) && isAnchor(y) {
                        // Two existing cards: the book holds one person twice only if they are the same person.
                        if matcher(keys[x], keys[y]).kind == .same { continue }
                    } else if pairs.contains(min(x, y) << 32 | max(x, y)) || matcher(keys[x], keys[y]).kind == .same {
                        continue
                    }
                    return top
                }
            }
            return nil
        }
        var dropped = Set<Int>()
        for (run, top) in zip(runs, ambiguousAt) {
            guard let top else { continue }
            let node = incidences[run.lowerBound] >> 32
            for i in incidences[run] where edges[i & 0xFFFF_FFFF].tier <= top { dropped.insert(i & 0xFFFF_FFFF) }
            state.ambiguous[node] = max(state.ambiguous[node] ?? 0, top)
        }
        // Each refused link's rank scores its pair in full: on every processor.
        let refused = dropped.sorted()
        let ranks = Concurrently.map(refused, chunk: 256) { rank(edges[$0]) }
        for (i, rank) in zip(refused, ranks) {
            state.refused.append(PossiblePair(edges[i].a, edges[i].b, rank: rank))
        }
        return edges.indices.filter { !dropped.contains($0) }
    }

    /// Looks the groups in `changed` up again with their merged keys among every group, joins what they now
    /// match, and repeats until nothing changes (at most `passes` times). Each pass indexes the groups as they
    /// stand, so an email several cards of one group carry counts once, as it will in the file written.
    func settle(_ changed: Set<Int>, state: inout State, possible: inout [PossiblePair], passes: Int = 16) {
        var changed = changed
        var memo = PairMemo()
        var last: LastPass?
        let skips = Self.skipsUnchangedNeighbourhoods
        for pass in 1...passes {
            // A node found ambiguous among the cards as they stood then is looked at again with the groups that
            // changed: a card that claimed it may have joined a group that claims it no longer (the group holds
            // a phone or a birthday the card did not), or a changed group may claim it more strongly than the
            // rest. A second run, which sees only the groups, would join it.
            var again: [Int] = []
            var kept: [Int: Int] = [:]
            var keptEdges: [Edge] = []
            let groups = groupIndex(state)
            if skips, let last {
                (again, kept, keptEdges) = last.ambiguousToLookAt(
                    state.ambiguous, changed: changed, index: groups, state: &state, in: self)
            } else {
                again = Array(state.ambiguous.keys)
            }
            let looked = changed.union(again.map { state.find($0) })
            state.ambiguous = kept
            Self.skipTally?.add(looked: looked.count, kept: kept.count)
            guard !looked.isEmpty else { return }
            let previousKeys = state.merged.mapValues(\.keys)
            let found = look(
                at: looked, alsoLooked: kept, in: groups, state: &state, possible: &possible, memo: &memo)
            // The links of the neighbourhoods kept as they were stand for them in the next pass.
            last = LastPass(
                edges: found.edges + keptEdges, looked: looked.union(kept.keys), changed: found.changed,
                keysBefore: previousKeys, index: groups)
            changed = found.changed
            PhaseClock.mark(
                "settle pass \(pass): \(looked.count) looked at, \(kept.count) kept, \(changed.count) joined")
            if changed.isEmpty { return }
        }
    }

    /// Whether `settle` looks again only at the ambiguous nodes whose neighbourhood changed in the pass before:
    /// tests turn it off to compare with looking at every one again.
    @TaskLocal static var skipsUnchangedNeighbourhoods = true

    /// Where a test counts the nodes looked at and kept, when it asks.
    @TaskLocal static var skipTally: SkipTally?

    /// Counts of nodes looked at and kept as they were, over the passes of a plan.
    final class SkipTally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var looked = 0
        private(set) var kept = 0

        func add(looked: Int, kept: Int) {
            lock.lock()
            self.looked += looked
            self.kept += kept
            lock.unlock()
        }
    }

    /// What a pass of `settle` looked at and found, for the next pass to tell which ambiguous nodes could decide
    /// differently now.
    ///
    /// Whether a node is ambiguous depends on the links found with it and, for the nodes that claim it, whether
    /// they are one person: on the keys of the groups in its neighbourhood (the nodes the pass's links connect to
    /// it, however far) and on the index entries of those keys (which groups carry them, and how many). A pass
    /// changes only the groups that joined, and the index only under their keys, before and after joining; and
    /// a node the next pass looks at that the pass did not may find links to any card it shares a key with. So
    /// a neighbourhood with no group that joined and no key among those keys decides in the next pass exactly
    /// as it did, provided the nodes of it looked at are those the next pass looks at, the ambiguous ones (so the
    /// same pairs are decided, by the same nodes): its nodes keep their ambiguity and their links, and are not
    /// looked at again. A neighbourhood that changed is looked at as before, each of its ambiguous nodes again.
    struct LastPass {
        /// The links found in the pass, and those of the neighbourhoods it kept as they were.
        var edges: [Edge]
        /// The nodes looked at in the pass or kept as they were.
        var looked: Set<Int>
        /// The groups that joined in the pass.
        var changed: Set<Int>
        /// The keys of the groups of several cards in the pass's index, by root (any other node's are its own).
        var keysBefore: [Int: MatchKeys]
        /// The pass's index.
        var index: ContactIndex

        /// The index keys under which the pass changed what the index holds, a hash's top bits each (the index
        /// tells keys apart by those, so a key that only shares them with a changed one counts as changed); a key
        /// on more groups than its cap both before and after proposes no candidates either way, and is left out.
        private func changedKeys(state: inout State, now: ContactIndex, in clustering: Clustering) -> Set<Int> {
            var out = Set<Int>()
            func add(_ keys: MatchKeys) {
                for key in keys.indexKeys where !out.contains(key.hash >> 32) {
                    let cap = ContactIndex.cap(key.kind)
                    if index.cardCount(key, upTo: cap) <= cap || now.cardCount(key, upTo: cap) <= cap {
                        out.insert(key.hash >> 32)
                    }
                }
            }
            for root in changed {
                for member in state.group(root) { add(keysBefore[member] ?? clustering.keys[member]) }
                add(clustering.keys(of: root, in: &state))
            }
            return out
        }

        /// The ambiguous nodes of `ambiguous` to look at again, those kept with their tier, and the links of the
        /// neighbourhoods kept.
        func ambiguousToLookAt(
            _ ambiguous: [Int: Int], changed: Set<Int>, index now: ContactIndex, state: inout State,
            in clustering: Clustering
        ) -> (again: [Int], kept: [Int: Int], keptEdges: [Edge]) {
            guard !ambiguous.isEmpty else { return ([], [:], []) }
            var dirtyKeys = changedKeys(state: &state, now: now, in: clustering)
            // A node looked at now and not in the pass before decides pairs that pass did not: with any card it
            // shares a key that is not capped with, whose neighbourhood must then be looked at as before too.
            for node in ambiguous.keys where !looked.contains(node) {
                for key in clustering.keys(of: state.find(node), in: &state).indexKeys
                where now.cardCount(key, upTo: ContactIndex.cap(key.kind)) <= ContactIndex.cap(key.kind) {
                    dirtyKeys.insert(key.hash >> 32)
                }
            }
            // Neighbourhoods: the nodes the links connect, each named by its lowest node.
            var parent = [Int32](repeating: -1, count: clustering.keys.count)
            func root(_ x: Int) -> Int {
                var r = x
                while parent[r] >= 0 && Int(parent[r]) != r { r = Int(parent[r]) }
                var n = x
                while parent[n] >= 0 && Int(parent[n]) != r {
                    let next = Int(parent[n])
                    parent[n] = Int32(r)
                    n = next
                }
                return r
            }
            var nodes: [Int] = []
            func add(_ x: Int) {
                if parent[x] < 0 {
                    parent[x] = Int32(x)
                    nodes.append(x)
                }
            }
            for node in ambiguous.keys { add(node) }
            for edge in edges {
                add(edge.a)
                add(edge.b)
                let (x, y) = (root(edge.a), root(edge.b))
                if x != y { parent[max(x, y)] = Int32(min(x, y)) }
            }
            var dirty = [Bool](repeating: false, count: clustering.keys.count)
            for node in nodes {
                let r = root(node)
                guard !dirty[r] else { continue }
                let group = state.find(node)
                if group != node || changed.contains(group) || (ambiguous[node] != nil) != looked.contains(node)
                    || clustering.keys(of: group, in: &state).indexKeys.contains(where: {
                        dirtyKeys.contains($0.hash >> 32)
                    })
                {
                    dirty[r] = true
                }
            }
            var again: [Int] = []
            var kept: [Int: Int] = [:]
            for (node, tier) in ambiguous {
                if dirty[root(node)] { again.append(node) } else { kept[node] = tier }
            }
            let keptEdges = kept.isEmpty ? [] : edges.filter { !dirty[root($0.a)] }
            return (again.sorted(), kept, keptEdges)
        }
    }

    /// The groups as they stand, indexed by their roots: every other node is left out, and a group of several
    /// cards is indexed with its merged keys, so an email several cards of one group carry counts once, as it will
    /// in the file written.
    private func groupIndex(_ state: State) -> ContactIndex {
        var replaced: [Int: MatchKeys] = [:]
        var removed: [Int] = []
        // A node is a root when it is its own parent, and only roots have merged cards: read without following
        // parents or looking every node up in the dictionary of groups, at every pass.
        for node in keys.indices where state.parent[node] != node { removed.append(node) }
        for (root, group) in state.merged where state.parent[root] == root { replaced[root] = group.keys }
        return index.updating(replaced, removing: removed)
    }

    /// Compares the groups of `changed` with the groups they share a key with in `groups`, decided on the groups
    /// as they stand, and applies what is the same person; returns the groups that changed and the links found.
    /// A pair `memo` holds from the pass before is not decided again; `memo` then holds this pass's pairs.
    private func look(
        at changed: Set<Int>, alsoLooked kept: [Int: Int], in groups: ContactIndex, state: inout State,
        possible: inout [PossiblePair], memo: inout PairMemo
    ) -> (changed: Set<Int>, edges: [Edge]) {
        let matcher = Matcher(index: groups, sharedAbove: 2)
        let mine = Set(changed.map { state.find($0) }).sorted()
        var looked = [Bool](repeating: false, count: keys.count)
        for root in mine { looked[root] = true }
        // Nodes kept as they were count as looked at: a pair of one with a node looked at is left to the lower
        // of the two, as when both were looked at (where the kept one gave what it gave before).
        for node in kept.keys { looked[node] = true }
        // The groups as they stand, read by the decisions, which run on every processor. Every candidate is a
        // root, which the index holds with its group's keys.
        let members = state.members
        let merged = state.merged
        let previous = PairMemo.replays ? memo.groups : [:]
        struct Found: Sendable {
            var edges: [Edge] = []
            var possible: [PossiblePair] = []
            var kept: PairMemo.Group
            var replayed = 0
        }
        // Groups of one name one after another, so their candidates' keys stay in the cache (as in the planner).
        let byName = ContactIndex.localityOrder(of: mine, in: groups)
        let found = Concurrently.map(byName, chunk: 16) { [looked] root -> Found in
            let ours = groups.key(at: root)
            var out = Found(kept: PairMemo.Group(ours: ours))
            var replay = PairMemo.Cursor(previous[root], ours: ours)
            let anchored = (members[root] ?? [root]).contains(where: isAnchor)
            for other in matcher.index.candidates(for: ours) where other != root {
                // A pair of two groups looked at is decided once, by the lower root.
                if looked[other] && other < root { continue }
                if anchored && (members[other] ?? [other]).contains(where: isAnchor) { continue }
                groups.withKey(at: other) { theirs in
                    assert(
                        theirs === (merged[other]?.keys ?? keys[other]), "the index holds a group's keys at its root")
                    let (edgeCount, possibleCount) = (out.edges.count, out.possible.count)
                    // A possible duplicate replayed is in `possible` from the pass before: the suggestions keep each
                    // pair once with its strongest rank, so it is not added again.
                    if let pair = replay.replay(other, theirs, edges: &out.edges) {
                        out.kept.keep(
                            other, theirs, edge: out.edges.count > edgeCount ? out.edges.last : nil,
                            rank: pair.outcome == .possible ? pair.value : nil)
                        out.replayed += 1
                        return
                    }
                    let verdict = matcher.verdict(ours, theirs)
                    if verdict.kind != .same
                        && merger.areCopies(
                            merged[root]?.card ?? card(root), ours, merged[other]?.card ?? card(other), theirs)
                    {
                        out.edges.append(
                            Edge(
                                root, other, MatchDecision(kind: .same, rule: "identical", evidence: [], strength: 100))
                        )
                    } else {
                        Edge.file(verdict, root, other, edges: &out.edges, possible: &out.possible) {
                            matcher.decide(ours, theirs)
                        }
                    }
                    // What the pair gave is kept for the next pass unless its decision read the index.
                    if verdict.sharedIdentifiers == 0 {
                        out.kept.keep(
                            other, theirs, edge: out.edges.count > edgeCount ? out.edges.last : nil,
                            rank: out.possible.count > possibleCount ? out.possible.last?.rank : nil)
                    }
                }
            }
            return out
        }
        for f in found { possible.append(contentsOf: f.possible) }
        PairMemo.tally?.replayed += found.reduce(0) { $0 + $1.replayed }
        memo.groups = Dictionary(uniqueKeysWithValues: zip(byName, found.lazy.map(\.kept)))
        let edges = found.flatMap(\.edges)
        return (apply(edges, to: &state) { matcher.verdict($0, $1) }, edges)
    }

    /// The weight of evidence of a link that was not applied, with every field compared.
    func rank(_ edge: Edge) -> Int {
        var decision = edge.decision
        decision.score = Scoring.compare(keys[edge.a], keys[edge.b], complete: true)
        return decision.rank
    }
}
