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
    /// For a card merged into a new card made of several incoming cards: the incoming card (by index) whose
    /// place that card takes.
    public var intoIncoming: Int?

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

/// A possible duplicate left for a person to decide, ranked by the weight of evidence: in a merge an existing
/// card and a new card made of incoming cards; in a dedupe two cards of the file (or the cards merged into them).
public struct Suggestion: Sendable, Equatable {
    /// Merge: the existing position. Dedupe: the position of the first card.
    public var first: Int
    /// Merge: the index of the incoming card whose new card it is. Dedupe: the position of the second card.
    public var second: Int
    /// The weight of evidence, in tenths (`MatchDecision.rank`): suggestions are listed strongest first.
    public var rank: Int
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
    /// Possible duplicates left alone, strongest first.
    public var suggestions: [Suggestion] = []
    /// The decision behind a suggestion, with its complete score, worked out when asked (a large book has
    /// hundreds of thousands of suggestions, and a report shows a few).
    public var explain: @Sendable (Suggestion) -> MatchDecision = { _ in
        MatchDecision(kind: .possible, rule: "weak", evidence: [], strength: 0)
    }
    /// How many pairs were compared: each card with the cards sharing a key with it (the blocking's cost).
    public var candidatePairs = 0
    /// The blocking keys left out because too many cards share them.
    public var capped = BlockingTally()
    /// Keep-apart decisions made by the review, by the two cards' UIDs (cards without one got one).
    public var keptApart: [(String, String)] = []

    /// An empty result.
    public init() {}
}

/// A person's answer to one suggestion.
public enum ReviewAnswer: String, Sendable, Codable {
    /// The same person: merge.
    case merge
    /// Different people: keep apart, and do not suggest the pair again.
    case keepApart = "keep-apart"
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

    /// Merges `incoming` into `existing` with no review: `plan` then `apply` with no answers.
    public func merge(
        _ incoming: [IncomingCard], into existing: ExistingCards, decisions: ReviewDecisions = ReviewDecisions()
    ) -> MergeResult {
        apply(plan(incoming, into: existing, decisions: decisions), answers: [:])
    }

    /// Within one collection, with no review: `plan` then `apply` with no answers.
    public func dedupe(
        _ cards: ExistingCards, file: String, lines: [Int], decisions: ReviewDecisions = ReviewDecisions()
    ) -> MergeResult {
        apply(planDedupe(cards, file: file, lines: lines, decisions: decisions), answers: [:])
    }
}
