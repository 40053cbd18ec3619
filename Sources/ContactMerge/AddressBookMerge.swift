import ContactMatching
import ContactModel
import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// A card to merge, with where it came from for the report.
public struct IncomingCard: Sendable {
    /// The card.
    public var contact: Contact
    /// The file it was read from.
    public var file: String
    /// The line of its BEGIN:VCARD.
    public var line: Int

    /// Creates an incoming card.
    public init(contact: Contact, file: String, line: Int) {
        self.contact = contact
        self.file = file
        self.line = line
    }
}

/// The cards a merge matches against: the match keys of each (UID, names, organisation, emails, phones, birthday),
/// its name for reports, and each whole card on demand, so a large book need not be held in memory in full.
public struct ExistingCards: Sendable {
    /// The match keys of each card, by position, with national numbers read with `countryCode`.
    public var keys: [MatchKeys]
    /// The name of each card as reports show it.
    public var names: [String]
    /// The country code national phone numbers were read with.
    public var countryCode: Int?
    /// The whole card at a position.
    public var card: @Sendable (Int) -> Contact

    /// Cards known by their keys and names, read in full through `card`.
    public init(keys: [MatchKeys], names: [String], countryCode: Int?, card: @escaping @Sendable (Int) -> Contact) {
        self.keys = keys
        self.names = names
        self.countryCode = countryCode
        self.card = card
    }

    /// Cards held in full, national numbers read with `countryCode` or, when nil, with the code most of the cards'
    /// international numbers use.
    public init(_ contacts: [Contact], countryCode: Int?) {
        (keys, self.countryCode) = MatchKeys.all(contacts, countryCode: countryCode)
        names = contacts.map(AddressBookMerge.displayName)
        card = { contacts[$0] }
    }
}

/// What happened to one incoming card.
public struct MergeEntry: Sendable {
    /// The outcome.
    public enum Outcome: String, Sendable, Codable {
        /// The same person as an existing card, which changed.
        case merged
        /// The same person as an existing card, which already held everything.
        case unchanged
        /// A new card.
        case added
        /// Added as a new card, and reported as a possible duplicate of an existing one.
        case possible
        /// Unreadable, left out.
        case skipped
    }

    /// Where the incoming card is.
    public var file: String
    /// The line of its BEGIN:VCARD.
    public var line: Int
    /// Its name as shown.
    public var name: String
    /// What happened.
    public var outcome: Outcome
    /// The position of the existing card it merged into or resembles.
    public var existing: Int?
    /// Why.
    public var decision: MatchDecision?
    /// What the merge changed, or did not take.
    public var changes: [FieldChange]
    /// Why it was skipped.
    public var problem: String?

    /// Creates an entry.
    public init(
        file: String, line: Int, name: String, outcome: Outcome, existing: Int? = nil,
        decision: MatchDecision? = nil, changes: [FieldChange] = [], problem: String? = nil
    ) {
        self.file = file
        self.line = line
        self.name = name
        self.outcome = outcome
        self.existing = existing
        self.decision = decision
        self.changes = changes
        self.problem = problem
    }
}

/// The result of merging cards into a collection: which existing cards change, which are added, and why.
public struct MergeResult: Sendable {
    /// Existing positions whose card changed, with the new card.
    public var replaced: [Int: Contact] = [:]
    /// Existing positions folded into another card (dedupe only).
    public var removed: Set<Int> = []
    /// New cards, in incoming order.
    public var added: [Contact] = []
    /// One entry per incoming card, in order.
    public var entries: [MergeEntry] = []
    /// The country code national numbers were read with.
    public var countryCode: Int?
    /// For dedupe: pairs left as possible duplicates (positions in the file).
    public var possiblePairs: [(Int, Int, MatchDecision)] = []
    /// How many pairs were compared: each card with the cards sharing a key with it (the blocking's cost).
    public var candidatePairs = 0
}

/// Merges incoming cards into an existing collection, or a collection into itself (dedupe).
public struct AddressBookMerge: Sendable {
    /// Which side's single values win.
    public var preference: MergePreference
    /// For national phone numbers when merging into cards held in full; nil means the existing cards' prevailing
    /// code, if any. (A `ContactsFile` resolves its own.)
    public var countryCode: Int?

    /// A merge with these options.
    public init(preference: MergePreference = .newer, countryCode: Int? = nil) {
        self.preference = preference
        self.countryCode = countryCode
    }

    /// The display name used in reports.
    public static func displayName(_ c: Contact) -> String {
        c.formattedName ?? c.name.map(\.displayName) ?? c.organization?.name ?? c.emails.first?.value ?? "(no name)"
    }

    /// Merges `incoming` into cards held in full; see `merge(_:into:)`.
    public func merge(_ incoming: [IncomingCard], into existing: [Contact]) -> MergeResult {
        merge(incoming, into: ExistingCards(existing, countryCode: countryCode))
    }

    /// Merges `incoming` into `existing`. Incoming cards are matched against the existing cards only (never against
    /// each other), and several incoming cards for one existing card merge in a fixed order, so the order of the
    /// incoming cards never changes the result.
    public func merge(_ incoming: [IncomingCard], into existing: ExistingCards) -> MergeResult {
        var result = MergeResult()
        let code = existing.countryCode
        result.countryCode = code
        let matcher = Matcher(index: ContactIndex(existing.keys))
        let merger = ContactMerger(preference: preference, countryCode: code)
        // Each incoming card's decision depends only on the existing cards, so they are worked out in parallel.
        let decided: [(entry: MergeEntry, candidates: Int)] = Concurrently.map(incoming, chunk: 64) { card in
            let keys = MatchKeys(card.contact, countryCode: code)
            let candidates = matcher.index.candidates(for: keys)
            var entry = MergeEntry(
                file: card.file, line: card.line, name: Self.displayName(card.contact), outcome: .added)
            if let (position, decision) = matcher.bestMatch(for: keys, among: candidates) {
                entry.existing = position
                entry.decision = matcher.explained(decision, keys, matcher.index.keys[position])
                entry.outcome = decision.kind == .same ? .merged : .possible
            }
            if entry.outcome != .merged {
                // A card that brings nothing a card already here lacks is already here: adding it again would only
                // make a duplicate (this is what makes merging the same file twice change nothing).
                for position in candidates
                where matcher.index.keys[position].couldContain(keys)
                    && merger.merge(card.contact, into: existing.card(position)).changes.isEmpty
                {
                    entry.outcome = .unchanged
                    entry.existing = position
                    entry.decision = matcher.explained(
                        matcher.decide(keys, matcher.index.keys[position]), keys,
                        matcher.index.keys[position])
                    break
                }
            }
            return (entry, candidates.count)
        }
        result.candidatePairs = decided.reduce(0) { $0 + $1.candidates }
        var targets: [Int: [Int]] = [:]  // existing position -> incoming indexes
        for (i, (entry, _)) in decided.enumerated() {
            if entry.outcome == .merged, let position = entry.existing { targets[position, default: []].append(i) }
            if entry.outcome == .added || entry.outcome == .possible { result.added.append(incoming[i].contact) }
        }
        result.entries = decided.map(\.entry)
        let groups = targets
        // Several incoming cards for one existing card merge in a fixed order; each existing card on its own.
        let merged: [(position: Int, card: Contact?, outcomes: [(Int, MergeEntry.Outcome, [FieldChange])])] =
            Concurrently.map(groups.keys.sorted(), chunk: 64) { position in
                var order = groups[position]!
                if order.count > 1 {
                    let keys = order.map { Self.canonicalKey(incoming[$0].contact) }
                    order = order.indices.sorted { keys[$0] < keys[$1] }.map { order[$0] }
                }
                let original = existing.card(position)
                var card = original
                var outcomes: [(Int, MergeEntry.Outcome, [FieldChange])] = []
                for i in order {
                    let (next, changes) = merger.merge(incoming[i].contact, into: card)
                    outcomes.append((i, next == card ? .unchanged : .merged, changes))
                    card = next
                }
                return (position, card != original ? card : nil, outcomes)
            }
        for target in merged {
            for (i, outcome, changes) in target.outcomes {
                result.entries[i].outcome = outcome
                result.entries[i].changes = changes
            }
            if let card = target.card { result.replaced[target.position] = card }
        }
        return result
    }

    /// Within one collection: clusters the cards the rule says are the same person, merges each cluster into its
    /// first card, and lists the possible duplicates it left alone.
    public func dedupe(_ cards: ExistingCards, file: String, lines: [Int]) -> MergeResult {
        var result = MergeResult()
        let code = cards.countryCode
        result.countryCode = code
        let keys = cards.keys
        let matcher = Matcher(index: ContactIndex(keys), sharedAbove: 2)
        let merger = ContactMerger(preference: preference, countryCode: code)
        var representative = Array(keys.indices)
        // Each cluster's card so far, with its card as the file has it (read once: reads parse the card again).
        var merged: [Int: (original: Contact, card: Contact)] = [:]
        var reported = Set<[Int]>()
        for i in keys.indices {
            var best: (Int, MatchDecision)?
            let candidates = matcher.index.candidates(for: keys[i])
            result.candidatePairs += candidates.count { $0 < i }
            for j in candidates where j < i {
                let rep = representative[j]
                guard rep != i, representative[rep] == rep else { continue }
                var decision = matcher.decide(keys[i], keys[j])
                if decision.kind == .same, let current = merged[rep]?.card {
                    // The cluster's card so far must agree too: no chaining two people through a third card.
                    decision = matcher.decide(keys[i], MatchKeys(current, countryCode: code))
                    if decision.kind != .same { decision.kind = .possible }
                }
                if decision.kind == .possible, reported.insert([rep, i]).inserted {
                    result.possiblePairs.append((rep, i, matcher.explained(decision, keys[i], keys[j])))
                }
                if decision.kind == .same, best == nil || decision.strength > best!.1.strength {
                    best = (rep, decision)
                }
            }
            var entry = MergeEntry(file: file, line: lines[i], name: cards.names[i], outcome: .unchanged)
            if let (rep, decision) = best {
                let original = merged[rep]?.original ?? cards.card(rep)
                let (card, changes) = merger.merge(cards.card(i), into: merged[rep]?.card ?? original)
                merged[rep] = (original, card)
                representative[i] = rep
                result.removed.insert(i)
                entry.outcome = .merged
                entry.existing = rep
                entry.decision = matcher.explained(decision, keys[i], keys[rep])
                entry.changes = changes
            }
            result.entries.append(entry)
        }
        result.possiblePairs.removeAll { result.removed.contains($0.0) || result.removed.contains($0.1) }
        for (rep, cluster) in merged where cluster.card != cluster.original { result.replaced[rep] = cluster.card }
        return result
    }

    /// A stable order for cards without looking at where they came from.
    static func canonicalKey(_ c: Contact) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(c)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
