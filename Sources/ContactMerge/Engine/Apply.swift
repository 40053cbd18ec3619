import ContactMatching
import ContactModel
import Utilities

extension AddressBookMerge {
    /// The result of `plan` with the answers of a review (by suggestion index): a merge answer joins the two
    /// sides; a keep-apart answer gives each side a UID if it has none (the name-based UUID of its content) and
    /// records the pair in `keptApart`. Each group's card is made by merging its cards in content order from the
    /// existing card (or the first), so the result never depends on the order of the input files.
    public func apply(_ plan: MergePlan, answers: [Int: ReviewAnswer]) -> MergeResult {
        var state = plan.state
        let count = plan.existingCount
        let isDedupe = plan.isDedupe
        let isAnchor: @Sendable (Int) -> Bool = { !isDedupe && $0 < count }
        func order(_ node: Int) -> UInt64 { plan.order(node) }
        var keptApartNodes: [(Int, Int)] = []
        var reviewed: [Int: MatchDecision] = [:]
        for (k, answer) in answers.sorted(by: { $0.key < $1.key }) where plan.suggestions.indices.contains(k) {
            let (x, y) = plan.nodes(plan.suggestions[k])
            let rx = state.find(x)
            let ry = state.find(y)
            guard rx != ry else { continue }
            switch answer {
            case .merge:
                let all = (state.group(rx) + state.group(ry)).sorted { (order($0), $0) < (order($1), $1) }
                guard all.filter(isAnchor).count <= 1 else { continue }
                for node in [rx, ry] {
                    state.members[node] = nil
                    state.merged[node] = nil
                    state.parent[node] = all[0]
                }
                state.parent[all[0]] = all[0]
                state.members[all[0]] = all
                reviewed[x] = plan.matcher.decide(plan.keys[x], plan.keys[y])
                reviewed[x]?.rule = "review"
                state.joined[x] = (y, reviewed[x]!)
            case .keepApart:
                keptApartNodes.append((rx, ry))
            }
        }
        var result = MergeResult()
        result.countryCode = plan.code
        result.candidatePairs = plan.candidatePairs
        result.capped = plan.capped
        let merger = ContactMerger(preference: preference, countryCode: plan.code)
        var roots: [Int] = []
        // Groups of several cards, and (in a merge) incoming cards on their own; an existing card alone is left.
        for node in plan.keys.indices where state.find(node) == node {
            if state.members[node] != nil || !isDedupe && node >= count { roots.append(node) }
        }
        // Each group's card, and what merging each of its cards changed: in parallel, one group each.
        let frozen = state
        struct Made: Sendable {
            var root: Int
            var card: Contact
            var original: Contact?
            var outcomes: [(node: Int, outcome: MergeEntry.Outcome, changes: [FieldChange])]
        }
        // Only groups of several cards: an incoming card on its own is its own card, read where it is when needed
        // (an import makes one of every card it reads, and copied each into the results and the tables below).
        var made: [Made] = Concurrently.map(roots.filter { state.members[$0] != nil }, chunk: 64) { root in
            let members = frozen.group(root)
            let anchor = members.first(where: isAnchor)
            let base = members[0]
            let original: Contact? =
                isDedupe ? plan.existing.card(base) : anchor.map { plan.existing.card($0) }
            var card = original ?? plan.incoming[base - count].contact
            var outcomes: [(Int, MergeEntry.Outcome, [FieldChange])] = []
            for node in members.dropFirst() {
                let contact = isDedupe ? plan.existing.card(node) : plan.incoming[node - count].contact
                let (next, changes) = merger.merge(contact, into: card)
                outcomes.append((node, next == card ? .unchanged : .merged, changes))
                card = next
            }
            if let original, card == original {
                // The group's card is the card it started from (cards merged here before, whose single values
                // took turns): nothing changed, whatever each step did on the way.
                outcomes = outcomes.map { ($0.0, .unchanged, $0.2.filter { $0.action == .kept }) }
            }
            return Made(root: root, card: card, original: original, outcomes: outcomes)
        }
        var cardOf: [Int: Contact] = [:]
        var originalOf: [Int: Contact] = [:]  // the existing card each group started from, read once
        var outcomeOf: [Int: (MergeEntry.Outcome, [FieldChange])] = [:]
        // Read in place and into tables sized once: this runs on one processor, and copying each group's result
        // out of the list first retained (and then released) both of its cards and its outcomes.
        cardOf.reserveCapacity(made.count)
        // Only groups with an existing card have an original: a merge that adds its cards has none, and a table
        // sized for every group held room for a card per group (600 bytes each) that it never filled.
        originalOf.reserveCapacity(made.reduce(0) { $0 + ($1.original == nil ? 0 : 1) })
        outcomeOf.reserveCapacity(made.reduce(0) { $0 + $1.outcomes.count })
        // Each card moved into its table, not copied: a copy retains every value of a card, and an import
        // makes a group of every card it reads.
        for i in made.indices {
            var card = Contact()
            swap(&card, &made[i].card)
            cardOf[made[i].root] = card
            var original: Contact?
            swap(&original, &made[i].original)
            if let original { originalOf[made[i].root] = original }
            for o in made[i].outcomes { outcomeOf[o.node] = (o.outcome, o.changes) }
        }
        made = []
        // Cards a keep-apart decision names get a UID when they have none, so the decision can name them.
        for (x, y) in keptApartNodes {
            var uids: [String] = []
            for root in [x, y] {
                var card = cardOf[root] ?? plan.card(root)
                if card.uid == nil {
                    card.uid = ContentKey.uid(card)
                    cardOf[root] = card
                }
                uids.append(card.uid!)
            }
            result.keptApart.append((uids[0], uids[1]))
        }
        // A card given a UID is written again, even when nothing else about it changed.
        for (x, y) in keptApartNodes {
            for root in [x, y] where isDedupe || isAnchor(root) {
                if let card = cardOf[root], card != originalOf[root] ?? plan.existing.card(root) {
                    result.replaced[root] = card
                }
            }
        }
        func explained(_ node: Int) -> MatchDecision? { Self.explained(node, in: state, plan: plan) }
        // One pass over what can be hundreds of thousands of suggestions, into a list sized once.
        var remaining: [Suggestion] = []
        remaining.reserveCapacity(max(0, plan.suggestions.count - answers.count))
        for (k, s) in plan.suggestions.enumerated() where answers[k] == nil {
            let (x, y) = plan.nodes(s)
            if state.find(x) != state.find(y) { remaining.append(s) }
        }
        result.entries.reserveCapacity(isDedupe ? plan.keys.count : plan.incoming.count)
        if isDedupe {
            for root in roots {
                guard let card = cardOf[root] else { continue }
                if card != originalOf[root] ?? plan.existing.card(root) { result.replaced[root] = card }
                for node in state.group(root).dropFirst() { result.removed.insert(node) }
            }
            for position in plan.keys.indices {
                var entry = MergeEntry(
                    file: plan.file, line: plan.lines[position], name: plan.existing.names[position],
                    outcome: .unchanged)
                if result.removed.contains(position) {
                    entry.outcome = .merged
                    entry.existing = state.find(position)
                    entry.decision = explained(position)
                    entry.changes = outcomeOf[position]?.1 ?? []
                }
                result.entries.append(entry)
            }
        } else {
            var bestSuggestion: [Int: Int] = [:]  // incoming root -> existing position
            for s in remaining.reversed() { bestSuggestion[s.second] = s.first }
            var addedAt: [(first: Int, root: Int)] = []
            addedAt.reserveCapacity(roots.count)
            for root in roots {
                let members = state.group(root)
                if let anchor = members.first(where: isAnchor) {
                    if let card = cardOf[root], card != originalOf[root] ?? plan.existing.card(anchor) {
                        result.replaced[anchor] = card
                    }
                } else if let first = members.min() {
                    addedAt.append((first, root))
                }
            }
            // In the order of their first cards, each taken out of the table (a root is one group, and the table
            // is not read again) or, alone, copied once from where it was read.
            addedAt.sort { $0.first < $1.first }
            result.added.reserveCapacity(addedAt.count)
            for (_, root) in addedAt {
                result.added.append(cardOf.removeValue(forKey: root) ?? plan.incoming[root - count].contact)
            }
            // Each incoming card's entry, explained: on every processor (each explanation scores its pair in full).
            let roots = plan.incoming.indices.map { state.find(count + $0) }
            let settled = state
            let outcomes = outcomeOf
            let suggested = bestSuggestion
            result.entries = Concurrently.map(Array(plan.incoming.indices), chunk: 128) { i in
                // The card's fields read in place: a copy of the incoming card retained every value of it.
                let node = count + i
                let root = roots[i]
                var entry = MergeEntry(
                    file: plan.incoming[i].file, line: plan.incoming[i].line,
                    name: Self.displayName(plan.incoming[i].contact), outcome: .added)
                if let anchor = settled.group(root).first(where: isAnchor) {
                    entry.existing = anchor
                    entry.outcome = outcomes[node]?.0 ?? .unchanged
                    entry.changes = outcomes[node]?.1 ?? []
                    entry.decision = Self.explained(node, in: settled, plan: plan)
                } else if root != node {
                    entry.outcome = .merged
                    entry.intoIncoming = root - count
                    entry.changes = outcomes[node]?.1 ?? []
                    entry.decision = Self.explained(node, in: settled, plan: plan)
                } else if let existing = suggested[i] {
                    entry.outcome = .possible
                    entry.existing = existing
                    entry.decision = plan.matcher.explained(
                        plan.matcher.decide(plan.keys[node], plan.keys[existing]), plan.keys[node],
                        plan.keys[existing])
                }
                return entry
            }
        }
        result.suggestions = remaining
        let keys = plan.keys
        let merged = state.merged.mapValues(\.keys)
        let matcher = plan.matcher
        result.explain = { s in
            let (x, y) = isDedupe ? (s.first, s.second) : (count + s.second, s.first)
            let a = merged[x] ?? keys[x]
            let b = merged[y] ?? keys[y]
            return matcher.explained(matcher.decide(a, b), a, b)
        }
        return result
    }

    /// The decision by which `node` joined its group, scored in full for the report; nil for a node that joined
    /// nothing.
    private static func explained(_ node: Int, in state: Clustering.State, plan: MergePlan) -> MatchDecision? {
        guard let (partner, decision) = state.joined[node] else { return nil }
        return plan.matcher.explained(decision, plan.keys[node], plan.keys[partner])
    }
}
