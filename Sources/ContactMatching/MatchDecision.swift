/// Whether two cards are the same person, and the evidence a reader can check.
public struct MatchDecision: Sendable, Equatable {
    /// The verdict.
    public enum Kind: String, Sendable, Codable {
        /// The same person (or the same card): merge.
        case same
        /// Some evidence, not enough to merge: report and keep both.
        case possible
        /// Nothing in common worth reporting.
        case different
    }

    /// One piece of evidence for or against.
    public enum Evidence: Sendable, Equatable, CustomStringConvertible {
        case sameUID
        case sharedEmail(String)
        case sharedPersonalPhone(String)
        case sharedLine(String)  // a work, main or fax number, or one several existing cards share
        case commonEmail(String)  // an address several existing cards share (a family address)
        case name(PersonName.Relation)
        case sameOrganization
        case birthdayConflict
        case emailDomainConflict(String)  // both have addresses at this domain, none in common
        case personalPhoneConflict  // both have mobile, home or untyped numbers, none in common
        case scoreConflict(String)  // the score's veto, or homes in different places

        /// Whether this is an identifier both cards carry (the UID, an email, a phone), which the rule records as
        /// an identifier rather than a note.
        package var isIdentifier: Bool {
            switch self {
            case .sameUID, .sharedEmail, .sharedPersonalPhone, .sharedLine, .commonEmail: true
            default: false
            }
        }

        /// What the evidence adds to `rank`, in tenths: a shared identifier its weight, anything else nothing.
        package var rankWeight: Int {
            switch self {
            case .sameUID: Weights.sharedEmail * 2
            case .sharedEmail: Weights.sharedEmail
            case .sharedPersonalPhone: Weights.sharedPersonalPhone
            case .sharedLine, .commonEmail: Weights.sharedLine
            default: 0
            }
        }

        public var description: String {
            switch self {
            case .sameUID: "same UID"
            case .sharedEmail(let e): "shared email \(e)"
            case .sharedPersonalPhone(let p): "shared personal phone \(p)"
            case .sharedLine(let p): "shared line \(p) (work, main or shared by several cards: not enough alone)"
            case .commonEmail(let e): "shared email \(e) (on several cards: not enough alone)"
            case .name(let r): "names \(r.rawValue)"
            case .sameOrganization: "same organisation"
            case .birthdayConflict: "different birthdays"
            case .emailDomainConflict(let d): "different addresses at \(d)"
            case .personalPhoneConflict: "different personal phones"
            case .scoreConflict(let why): why
            }
        }
    }

    /// The verdict.
    public var kind: Kind
    /// Which rule decided: "uid", "identifier+name", "name+organisation", "score", or "weak" and "none"; in a
    /// merge also "held" (an existing card already has every email and phone of the incoming one, and no name
    /// or birthday of it conflicts), "identical" (copies) and "review" (a person's answer).
    public var rule: String
    /// Everything found, for and against.
    public var evidence: [Evidence]
    /// Orders several candidates: more shared identifiers first.
    public var strength: Int
    /// Every field's outcome and the total, for every pair not decided by its UID.
    public var score: ScoreCard?

    /// A decision.
    public init(kind: Kind, rule: String, evidence: [Evidence], strength: Int, score: ScoreCard? = nil) {
        self.kind = kind
        self.rule = rule
        self.evidence = evidence
        self.strength = strength
        self.score = score
    }

    /// The weight of evidence that the two cards are one person, in tenths, for ranking possible duplicates:
    /// the score's total (every field's weight) plus each shared identifier's weight from `Weights`.
    public var rank: Int {
        var total = score?.total ?? 0
        for item in evidence { total += item.rankWeight }
        return total
    }

    /// The fields that agree (or nearly: a typo, an initial, a nickname) and those that disagree, by name, with
    /// each shared identifier among those that agree: what a reviewer looks at first.
    public var fieldsInAgreement: (agree: [String], disagree: [String]) {
        var agree: [String] = []
        var disagree: [String] = []
        for item in evidence {
            switch item {
            case .sameUID: agree.append("uid")
            case .sharedEmail, .commonEmail: if !agree.contains("email") { agree.append("email") }
            case .sharedPersonalPhone, .sharedLine: if !agree.contains("phone") { agree.append("phone") }
            default: continue
            }
        }
        for field in score?.fields ?? [] where field.field != .phone || field.outcome == .disagree {
            switch field.outcome {
            case .agree, .similar: agree.append(field.field.rawValue)
            case .disagree: disagree.append(field.field.rawValue)
            case .missing: continue
            }
        }
        return (agree, disagree)
    }

    /// One line a reader can follow: `same person (identifier+name): shared email ..., names compatible`.
    public var explanation: String {
        let verdict =
            switch kind {
            case .same: "same person"
            case .possible: "possible duplicate, not merged"
            case .different: "different people"
            }
        let why = rule == "held" ? "held: this card has every email and phone of the other already" : rule
        return "\(verdict) (\(why)): " + evidence.map(\.description).joined(separator: ", ")
    }

    /// The score line: `score 12.0 (merge at 10.0): given name agree +3.0, family name agree +4.0, ...; veto: ...`.
    public var scoreExplanation: String? {
        guard let score else { return nil }
        return
            "score \(Scoring.points(score.total)) (merge at \(Scoring.points(Scoring.mergeThreshold)) with agreeing names "
            + "or birthday): " + score.fields.map(\.description).joined(separator: ", ")
            + (score.veto.map { "; veto: \($0)" } ?? "")
    }
}

extension MatchDecision {
    /// Keeps everything the rule finds: the decision a report explains.
    package struct Recorder: DecisionRecorder {
        var evidence: [Evidence] = []

        package init() {}

        package mutating func identifier(_ evidence: Evidence) {
            assert(evidence.isIdentifier, "\(evidence) is no identifier: record it as a note")
            self.evidence.append(evidence)
        }

        package mutating func note(_ evidence: @autoclosure () -> Evidence) {
            let evidence = evidence()
            assert(
                evidence.rankWeight == 0 && !evidence.isIdentifier, "\(evidence) is an identifier: record it as one")
            self.evidence.append(evidence)
        }

        package func decision(_ kind: Kind, rule: String, strength: Int) -> MatchDecision {
            MatchDecision(kind: kind, rule: rule, evidence: evidence, strength: strength)
        }

        package func decision(_ kind: Kind, rule: String, strength: Int, score: borrowing Score) -> MatchDecision {
            MatchDecision(kind: kind, rule: rule, evidence: evidence, strength: strength, score: score.card)
        }
    }
}
