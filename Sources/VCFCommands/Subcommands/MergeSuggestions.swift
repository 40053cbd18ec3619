import ContactMatching
import ContactMerge
import ContactModel

/// The possible duplicates of a merge or dedupe as people and programs read them: a few strongest first in
/// text, all of them in JSON, each side named by its file, line and UID. Display strings live here, in one
/// place; text lines pass the shared sanitiser, JSON keeps the values as they are.
struct MergeSuggestions {
    let file: ContactsFile
    let incoming: [IncomingCard]
    let result: MergeResult
    let isDedupe: Bool

    /// One side of a suggestion.
    struct Side: Encodable {
        var file: String
        var line: Int
        var name: String
        /// The card's UID, or the name-based UUID of its content when it has none (see `uidFromContent`).
        var uid: String
        /// True when `uid` is made from the content, as `vcf lint --fix` would make it: the card has no UID.
        var uidFromContent: Bool?
    }

    /// One suggestion in JSON.
    struct Pair: Encodable {
        var score: String
        var first: Side
        var second: Side
        var agree: [String]
        var disagree: [String]
        var veto: String?
        var rule: String
        var evidence: [String]
        var fields: [String]?
    }

    /// The existing side (merge) or the first card (dedupe), and the other.
    func sides(_ s: Suggestion) -> (Side, Side) {
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

    /// Every suggestion, strongest first, for `--json`.
    func pairs() -> [Pair] {
        result.suggestions.map { s in
            let decision = result.explain(s)
            let (first, second) = sides(s)
            let (agree, disagree) = decision.fieldsInAgreement
            return Pair(
                score: Scoring.points(s.rank), first: first, second: second, agree: agree, disagree: disagree,
                veto: decision.score?.veto, rule: decision.rule, evidence: decision.evidence.map(\.description),
                fields: decision.score.map { $0.fields.map(\.description) })
        }
    }

    /// The strongest `limit` suggestions as lines for people, and a line saying how many more there are.
    func lines(limit: Int, explain: Bool) -> [String] {
        var out: [String] = []
        for s in result.suggestions.prefix(limit) {
            let decision = result.explain(s)
            let (first, second) = sides(s)
            let (agree, disagree) = decision.fieldsInAgreement
            var line =
                "\(Merge.oneLine(second.file)):\(second.line): note: \(Merge.oneLine(second.name)) may be the same "
                + "person as \(Merge.oneLine(first.file)):\(first.line) \(Merge.oneLine(first.name)) (score \(Scoring.points(s.rank))"
            if !agree.isEmpty { line += "; agree: " + agree.joined(separator: ", ") }
            if !disagree.isEmpty { line += "; differ: " + disagree.joined(separator: ", ") }
            line += ")"
            out.append(line)
            if explain {
                out.append("    " + decision.explanation)
                if let score = decision.scoreExplanation { out.append("    " + score) }
            }
        }
        if result.suggestions.count > limit {
            out.append(
                "note: \(result.suggestions.count - limit) more possible duplicates, weaker; --json lists them all, "
                    + "--review shows them one by one")
        }
        return out
    }

    /// A note saying which blocking keys were too common to compare, when any were.
    var cappedNote: String? {
        let capped = result.capped
        guard capped.count > 0 else { return nil }
        let kinds = capped.countsByKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        return
            "note: \(capped.count) keys were shared by too many cards to compare each pair (\(kinds.joined(separator: ", "))"
            + "; the largest by \(capped.largest) cards): cards sharing only such a key were not compared"
    }
}
