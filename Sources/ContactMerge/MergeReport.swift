import CardIdentity
import ContactMatching
import ContactModel
import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// The report of a merge or dedupe as programs read it (`vcf merge --json`): every incoming card with its
/// outcome, the existing card it matched, the rule and evidence, the fields that changed, and the possible
/// duplicates, each side named by its file, line and UID.
public struct MergeReport: Encodable, Sendable {
    /// One incoming card and what happened to it.
    public struct Card: Encodable, Sendable {
        /// Where the card came from.
        public var file: String
        /// The line of its BEGIN:VCARD.
        public var line: Int
        /// Its name as shown.
        public var name: String
        /// `merged`, `unchanged`, `added`, `possible` or `skipped`.
        public var outcome: String
        /// The existing card it matched.
        public var existing: Existing?
        /// The rule that decided.
        public var rule: String?
        /// What the cards share.
        public var evidence: [String]?
        /// The score, when the score decided (`+12.0`).
        public var score: String?
        /// Each field's outcome and weight.
        public var fields: [String]?
        /// Why the score could not merge, if something vetoed it.
        public var veto: String?
        /// The values that changed on the existing card.
        public var changes: [FieldChange]?
        /// Why the card was skipped.
        public var problem: String?
    }

    /// The existing card an incoming one matched.
    public struct Existing: Encodable, Sendable {
        /// The line of its BEGIN:VCARD in the contacts file.
        public var line: Int
        /// Its name as shown.
        public var name: String
    }

    /// One side of a possible duplicate.
    public struct Side: Encodable, Sendable {
        /// The file the card is in.
        public var file: String
        /// The line of its BEGIN:VCARD.
        public var line: Int
        /// Its name as shown.
        public var name: String
        /// The card's UID, or the name-based UUID of its content when it has none (see `uidFromContent`).
        public var uid: String
        /// True when `uid` is made from the content, as `vcf lint --fix` would make it: the card has no UID.
        public var uidFromContent: Bool?
    }

    /// One possible duplicate: two cards that may be one person, and why.
    public struct Pair: Encodable, Sendable {
        /// The weight of evidence (`+8.0`).
        public var score: String
        /// The existing card (merge) or the first card (dedupe).
        public var first: Side
        /// The other card.
        public var second: Side
        /// The fields that agree.
        public var agree: [String]
        /// The fields that differ.
        public var disagree: [String]
        /// What kept the score from merging them, if anything.
        public var veto: String?
        /// The rule that found them.
        public var rule: String
        /// What the cards share.
        public var evidence: [String]
        /// Each field's outcome and weight, when scored.
        public var fields: [String]?
    }

    /// The contacts file merged into.
    public var contacts: String
    /// Whether nothing was written.
    public var dryRun: Bool
    /// The calling code national numbers were read with.
    public var countryCode: Int?
    /// How many pairs of cards were compared.
    public var candidatePairs: Int
    /// How many incoming cards had each outcome.
    public var summary: [String: Int]
    /// Every incoming card.
    public var cards: [Card]
    /// The possible duplicates, strongest first.
    public var possibleDuplicates: [Pair]?
    /// How many blocking keys of each kind were too common to compare.
    public var blocking: [String: Int]?

    /// The report of `result`, whose `entries` are the incoming cards' outcomes, merged into `file`.
    public init(file: ContactsFile, entries: [MergeEntry], result: MergeResult, dryRun: Bool, suggestions: [Pair]) {
        let lines = file.lines
        func existing(_ p: Int) -> Existing { Existing(line: lines[p], name: file.cards[p].displayName) }
        contacts = file.name
        self.dryRun = dryRun
        countryCode = result.countryCode
        candidatePairs = result.candidatePairs
        var summary: [String: Int] = [:]
        for o in ["merged", "unchanged", "added", "possible", "skipped"] { summary[o] = 0 }
        for e in entries { summary[e.outcome.rawValue, default: 0] += 1 }
        self.summary = summary
        cards = entries.map { e in
            Card(
                file: e.file, line: e.line, name: e.name, outcome: e.outcome.rawValue,
                existing: e.existing.map(existing),
                rule: e.decision?.rule, evidence: e.decision.map { $0.evidence.map(\.description) },
                score: e.decision?.score.map { Scoring.points($0.total) },
                fields: e.decision?.score.map { $0.fields.map(\.description) },
                veto: e.decision?.score?.veto, changes: e.changes.isEmpty ? nil : e.changes, problem: e.problem)
        }
        possibleDuplicates = suggestions.isEmpty ? nil : suggestions
        blocking = result.capped.count == 0 ? nil : result.capped.countsByKind
    }

    /// The report as pretty-printed JSON with sorted keys, ending in a newline.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// The two sides of suggestion `s` of a merge of `incoming` into `file` (or, when `isDedupe`, of a dedupe of
    /// `file`): the existing or first card, and the other.
    public static func sides(
        of s: Suggestion, file: ContactsFile, incoming: [IncomingCard], isDedupe: Bool
    ) -> (Side, Side) {
        func fileSide(_ p: Int) -> Side {
            let keys = file.cards[p].keys
            if let uid = keys.uid {
                return Side(file: file.name, line: file.cards[p].beginLine, name: file.cards[p].displayName, uid: uid)
            }
            return Side(
                file: file.name, line: file.cards[p].beginLine, name: file.cards[p].displayName,
                uid: ContentKey.uid(file.contact(at: p)), uidFromContent: true)
        }
        if isDedupe { return (fileSide(s.first), fileSide(s.second)) }
        let card = incoming[s.second]
        let uid = card.contact.uid.flatMap(MatchKeys.uidKey)
        return (
            fileSide(s.first),
            Side(
                file: card.file, line: card.line, name: AddressBookMerge.displayName(card.contact),
                uid: uid ?? ContentKey.uid(card.contact), uidFromContent: uid == nil ? true : nil)
        )
    }

    /// Every suggestion of `result`, strongest first, as `possibleDuplicates` lists them.
    public static func pairs(
        _ result: MergeResult, file: ContactsFile, incoming: [IncomingCard], isDedupe: Bool
    ) -> [Pair] {
        result.suggestions.map { s in
            let decision = result.explain(s)
            let (first, second) = sides(of: s, file: file, incoming: incoming, isDedupe: isDedupe)
            let (agree, disagree) = decision.fieldsInAgreement
            return Pair(
                score: Scoring.points(s.rank), first: first, second: second, agree: agree, disagree: disagree,
                veto: decision.score?.veto, rule: decision.rule, evidence: decision.evidence.map(\.description),
                fields: decision.score.map { $0.fields.map(\.description) })
        }
    }
}
