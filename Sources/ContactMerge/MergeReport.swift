import CardIdentity
import ContactMatching
import ContactModel
import Foundation
import Utilities

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
        contacts = file.name
        self.dryRun = dryRun
        countryCode = result.countryCode
        candidatePairs = result.candidatePairs
        summary = Self.summary(of: entries)
        cards = entries.map { Self.card($0, file: file, lines: lines) }
        possibleDuplicates = suggestions.isEmpty ? nil : suggestions
        blocking = result.capped.count == 0 ? nil : result.capped.countsByKind
    }

    /// How many entries had each outcome, every outcome named.
    static func summary(of entries: [MergeEntry]) -> [String: Int] {
        var summary: [String: Int] = [:]
        for o in ["merged", "unchanged", "added", "possible", "skipped"] { summary[o] = 0 }
        for e in entries { summary[e.outcome.rawValue, default: 0] += 1 }
        return summary
    }

    /// The report's card for entry `e`; `lines` are the BEGIN lines of `file`'s cards.
    static func card(_ e: MergeEntry, file: ContactsFile, lines: [Int]) -> Card {
        Card(
            file: e.file, line: e.line, name: e.name, outcome: e.outcome.rawValue,
            existing: e.existing.map { Existing(line: lines[$0], name: file.cards[$0].displayName) },
            rule: e.decision?.rule, evidence: e.decision.map { $0.evidence.map(\.description) },
            score: e.decision?.score.map { Scoring.points($0.total) },
            fields: e.decision?.score.map { $0.fields.map(\.description) },
            veto: e.decision?.score?.veto, changes: e.changes.isEmpty ? nil : e.changes, problem: e.problem)
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
        sides(of: s, file: file, incoming: incoming, isDedupe: isDedupe, uids: SideUIDs())
    }

    /// The same, each card's UID made from its content at most once in `uids`: a card without a UID can be a
    /// side of thousands of pairs, and each time it was read again from its bytes and hashed.
    package static func sides(
        of s: Suggestion, file: ContactsFile, incoming: [IncomingCard], isDedupe: Bool, uids: SideUIDs
    ) -> (Side, Side) {
        func fileSide(_ p: Int) -> Side {
            let keys = file.cards[p].keys
            if let uid = keys.uid {
                return Side(file: file.name, line: file.cards[p].beginLine, name: file.cards[p].displayName, uid: uid)
            }
            return Side(
                file: file.name, line: file.cards[p].beginLine, name: file.cards[p].displayName,
                uid: uids.uid(existing: p) { ContentKey.uid(file.contact(at: p)) }, uidFromContent: true)
        }
        if isDedupe { return (fileSide(s.first), fileSide(s.second)) }
        let card = incoming[s.second]
        let uid = card.contact.uid.flatMap(MatchKeys.uidKey)
        return (
            fileSide(s.first),
            Side(
                file: card.file, line: card.line, name: AddressBookMerge.displayName(card.contact),
                uid: uid ?? uids.uid(incoming: s.second) { ContentKey.uid(card.contact) },
                uidFromContent: uid == nil ? true : nil)
        )
    }

    /// Every suggestion of `result`, strongest first, as `possibleDuplicates` lists them.
    public static func pairs(
        _ result: MergeResult, file: ContactsFile, incoming: [IncomingCard], isDedupe: Bool
    ) -> [Pair] {
        let uids = SideUIDs()
        return result.suggestions.map { s in
            pair(s, result: result, file: file, incoming: incoming, isDedupe: isDedupe, uids: uids)
        }
    }

    /// The report's pair for suggestion `s`, explained in full.
    static func pair(
        _ s: Suggestion, result: MergeResult, file: ContactsFile, incoming: [IncomingCard], isDedupe: Bool,
        uids: SideUIDs
    ) -> Pair {
        let decision = result.explain(s)
        let (first, second) = sides(of: s, file: file, incoming: incoming, isDedupe: isDedupe, uids: uids)
        let (agree, disagree) = decision.fieldsInAgreement
        return Pair(
            score: Scoring.points(s.rank), first: first, second: second, agree: agree, disagree: disagree,
            veto: decision.score?.veto, rule: decision.rule, evidence: decision.evidence.map(\.description),
            fields: decision.score.map { $0.fields.map(\.description) })
    }

    /// Writes what `MergeReport(file:entries:result:dryRun:suggestions:).json()` gives for every suggestion of
    /// `result`, byte for byte, to `sink` a part at a time. The cards and the pairs are made and encoded on every
    /// processor a batch at a time, so the report is never held whole: a dedupe of a 100,000-card book with
    /// 690,000 possible duplicates built a 760 MB report in 3.9 GB, and took fifteen times the dedupe itself.
    package static func writeJSON(
        file: ContactsFile, entries: [MergeEntry], result: MergeResult, dryRun: Bool, incoming: [IncomingCard],
        isDedupe: Bool, to sink: ([UInt8]) -> Void
    ) {
        var out: [UInt8] = []
        out.reserveCapacity(Self.partBytes + (64 << 10))
        func flush() {
            if out.count >= Self.partBytes {
                sink(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        var members = 0
        // `"key" : ` at the top level; every key here is plain ASCII, written as JSON writes it.
        func key(_ name: String) {
            out += Array((members == 0 ? "{\n  \"" : ",\n  \"").utf8)
            out += Array(name.utf8)
            out += Array("\" : ".utf8)
            members += 1
        }
        func member<T: Encodable>(_ name: String, _ value: T) {
            key(name)
            out += encoded(value, margin: 2).dropFirst(2)
        }
        // A list written a batch of elements at a time, each element made and encoded on the reading threads.
        func list(_ name: String, count: Int, element: @escaping @Sendable (Int) -> [UInt8]) {
            key(name)
            guard count > 0 else {
                out += encoded([Int](), margin: 2).dropFirst(2)
                return
            }
            out += Array("[\n".utf8)
            for start in stride(from: 0, to: count, by: Self.batch) {
                let made = Concurrently.map(Array(start..<min(count, start + Self.batch)), chunk: 64, element)
                for (k, bytes) in made.enumerated() {
                    if start + k > 0 { out += Array(",\n".utf8) }
                    out += bytes
                    flush()
                }
            }
            out += Array("\n  ]".utf8)
        }
        // Members in the order the sorted keys give (JSONEncoder's `.sortedKeys`); a test compares the bytes.
        if result.capped.count > 0 { member("blocking", result.capped.countsByKind) }
        member("candidatePairs", result.candidatePairs)
        let lines = file.lines
        list("cards", count: entries.count) { i in encoded(card(entries[i], file: file, lines: lines), margin: 4) }
        member("contacts", file.name)
        if let code = result.countryCode { member("countryCode", code) }
        member("dryRun", dryRun)
        if !result.suggestions.isEmpty {
            let uids = SideUIDs()
            let suggestions = result.suggestions
            list("possibleDuplicates", count: suggestions.count) { k in
                encoded(
                    pair(
                        suggestions[k], result: result, file: file, incoming: incoming, isDedupe: isDedupe,
                        uids: uids),
                    margin: 4)
            }
        }
        member("summary", summary(of: entries))
        out += Array("\n}\n".utf8)
        sink(out)
    }

    /// How many cards or pairs are made at once by `writeJSON`.
    static let batch = 4_096
    /// How much of the report `writeJSON` gathers before handing it on.
    static let partBytes = 1 << 20

    /// `value` as JSONEncoder writes it (pretty, sorted keys, slashes as they are), with `margin` spaces before it
    /// and after each of its line breaks.
    static func encoded<T: Encodable>(_ value: T, margin: Int) -> [UInt8] {
        var out: [UInt8]
        if let direct = try? PrettyJSONEncoder.encode(value, margin: margin) {
            out = direct
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(value)) ?? Data("null".utf8)
            let indent = [UInt8](repeating: 0x20, count: margin)
            out = indent
            // JSON strings escape their line breaks, so every LF in the encoding is the layout's own.
            for byte in data {
                out.append(byte)
                if byte == 0x0A { out += indent }
            }
        }
        return withoutIndentedBlankLines(out, margin: margin)
    }

    /// `bytes` with the `margin` spaces taken off each line that holds nothing else: JSONEncoder writes an empty
    /// list or object within the report as its brackets around an empty line, with no spaces on it.
    static func withoutIndentedBlankLines(_ bytes: [UInt8], margin: Int) -> [UInt8] {
        guard margin > 0 else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            out.append(bytes[i])
            if bytes[i] == 0x0A, i + margin + 1 < bytes.count, bytes[i + margin + 1] == 0x0A,
                bytes[(i + 1)...(i + margin)].allSatisfy({ $0 == 0x20 })
            {
                i += margin
            }
            i += 1
        }
        return out
    }
}

/// The UIDs made from the content of cards without one, by position, each made once for every pair that names
/// the card; safe to use from several threads (two asking at once may both make it, and keep the same).
package final class SideUIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var existing: [Int: String] = [:]
    private var incoming: [Int: String] = [:]

    package init() {}

    /// The content UID of the existing card (or, in a dedupe, the card) at `position`, made by `make` once.
    func uid(existing position: Int, _ make: () -> String) -> String {
        uid(position, in: \.existing, make)
    }

    /// The content UID of the incoming card `index`, made by `make` once.
    func uid(incoming index: Int, _ make: () -> String) -> String {
        uid(index, in: \.incoming, make)
    }

    private func uid(
        _ key: Int, in table: ReferenceWritableKeyPath<SideUIDs, [Int: String]>, _ make: () -> String
    ) -> String {
        lock.lock()
        let known = self[keyPath: table][key]
        lock.unlock()
        if let known { return known }
        let made = make()
        lock.lock()
        self[keyPath: table][key] = made
        lock.unlock()
        return made
    }
}
