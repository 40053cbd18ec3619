import ContactMatching
import ContactModel

/// The review of a plan's suggestions, one at a time, strongest first: the state machine of answers, without
/// any terminal. Each question shows the two sides as they stand after the automatic merges and the merges
/// answered so far; a suggestion that an earlier answer settled (the two sides are now one card, or a new card
/// already joined another existing card) is not asked.
public struct ReviewSession {
    /// What a person can answer.
    public enum Answer: Equatable, Sendable {
        /// The same person: merge the two.
        case merge
        /// Different people: keep them apart and do not ask again.
        case keepApart
        /// Undecided: leave both, ask again next time.
        case skip
        /// Stop reviewing; the answers so far are kept.
        case quit

        /// Reads `m`, `merge`, `k`, `keep`, `keep apart`, `s`, `skip`, `q`, `quit` (any case); nil otherwise.
        public init?(_ text: String) {
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "m", "merge", "y", "yes": self = .merge
            case "k", "keep", "keep apart", "keep-apart", "n", "no": self = .keepApart
            case "s", "skip", "": self = .skip
            case "q", "quit": self = .quit
            default: return nil
            }
        }
    }

    /// One question: a suggestion and the two cards side by side.
    public struct Question: Sendable {
        /// The suggestion's index in the plan.
        public var index: Int
        /// Its rank among the suggestions asked (1 first) and how many there are.
        public var number: Int
        public var total: Int
        /// The suggestion.
        public var suggestion: Suggestion
        /// The existing (merge) or first (dedupe) side as it stands.
        public var left: Contact
        /// The incoming (merge) or second (dedupe) side as it stands.
        public var right: Contact
        /// The fields of both, those that differ marked.
        public var rows: [CardComparison.Row]
    }

    /// The plan reviewed.
    public let plan: MergePlan
    /// Which side's single values win, for showing merged cards.
    public let preference: MergePreference
    /// The answers so far, by suggestion index, ready for `AddressBookMerge.apply`.
    public private(set) var answers: [Int: ReviewAnswer] = [:]
    /// Whether the review is over (every suggestion asked, or quit).
    public private(set) var isFinished = false
    /// How many questions were answered, skips included.
    public private(set) var asked = 0

    private var next = 0
    private var state: Clustering.State
    private var current: Int?

    /// A review of `plan`'s suggestions.
    public init(_ plan: MergePlan, preference: MergePreference = .newer) {
        self.plan = plan
        self.preference = preference
        state = plan.state
    }

    /// The next question, or nil when the review is over.
    public mutating func question() -> Question? {
        if let current { return make(current) }
        while !isFinished && next < plan.suggestions.count {
            let index = next
            next += 1
            let (x, y) = plan.nodes(plan.suggestions[index])
            let rx = state.find(x)
            let ry = state.find(y)
            guard rx != ry else { continue }
            let anchors = (state.group(rx) + state.group(ry)).filter(plan.isAnchor)
            guard anchors.count <= 1 else { continue }
            current = index
            return make(index)
        }
        isFinished = true
        return nil
    }

    private func make(_ index: Int) -> Question {
        let s = plan.suggestions[index]
        let (x, y) = plan.nodes(s)
        var copy = state
        let left = plan.card(of: copy.group(copy.find(y)), preference: preference)
        let right = plan.card(of: copy.group(copy.find(x)), preference: preference)
        return Question(
            index: index, number: index + 1, total: plan.suggestions.count, suggestion: s, left: left,
            right: right, rows: CardComparison.rows(left, right))
    }

    /// Records the answer to the current question.
    public mutating func answer(_ answer: Answer) {
        guard let index = current else { return }
        current = nil
        switch answer {
        case .quit:
            isFinished = true
            return
        case .skip: break
        case .keepApart: answers[index] = .keepApart
        case .merge:
            answers[index] = .merge
            let (x, y) = plan.nodes(plan.suggestions[index])
            let rx = state.find(x)
            let ry = state.find(y)
            let all = (state.group(rx) + state.group(ry)).sorted { (plan.order($0), $0) < (plan.order($1), $1) }
            for node in [rx, ry] {
                state.members[node] = nil
                state.parent[node] = all[0]
            }
            state.parent[all[0]] = all[0]
            state.members[all[0]] = all
        }
        asked += 1
    }
}
