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
    /// The UIDs made from the content of cards without one, each made once for all the lines naming the card.
    let uids = SideUIDs()

    /// One side of a suggestion.
    typealias Side = MergeReport.Side

    /// The existing side (merge) or the first card (dedupe), and the other.
    func sides(_ s: Suggestion) -> (Side, Side) {
        MergeReport.sides(of: s, file: file, incoming: incoming, isDedupe: isDedupe, uids: uids)
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
