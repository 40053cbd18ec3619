/// Receives what the decision rule finds for a pair, in the order it finds it, and makes the decision. The rule
/// is written once (`Matcher.decide(_:_:recording:)`); each recorder keeps what its callers need, and the compiler
/// makes a copy of the rule for each, so a recorder that keeps little costs little.
package protocol DecisionRecorder {
    /// What the recorder makes of the rule's findings.
    associatedtype Decision

    /// A shared identifier (the same UID, an email, a phone): its weight counts in the rank.
    mutating func identifier(_ evidence: MatchDecision.Evidence)

    /// Evidence that adds nothing to the rank (names, the organisation, conflicts), made only when kept.
    mutating func note(_ evidence: @autoclosure () -> MatchDecision.Evidence)

    /// The decision by a rule that carries no score (a UID, an identifier, a name at one organisation).
    func decision(_ kind: MatchDecision.Kind, rule: String, strength: Int) -> Decision

    /// The decision by the score, or of a pair no rule joins, with the pair's score.
    func decision(_ kind: MatchDecision.Kind, rule: String, strength: Int, score: borrowing Score) -> Decision

    /// Whether the rule may stop scoring a pair once the rest of its fields cannot make it more than `different`:
    /// true when nothing reads a different pair's score, strength or rank.
    static var readsOnlyKindOfDifferent: Bool { get }
}

extension DecisionRecorder {
    /// A decision a report shows carries its whole score.
    package static var readsOnlyKindOfDifferent: Bool { false }
}

/// What choosing among candidates reads of a decision, made without an allocation: most candidate pairs of a
/// large book are different people or possible duplicates, whose evidence nobody reads (a report explains the
/// few it shows again, with `Matcher.decide`).
package struct MatchVerdict: Sendable, Equatable {
    /// The verdict (`MatchDecision.kind`).
    package var kind: MatchDecision.Kind
    /// Which rule decided (`MatchDecision.rule`).
    package var rule: String
    /// Orders several candidates (`MatchDecision.strength`).
    package var strength: Int
    /// The weight of evidence, for ranking possible duplicates (`MatchDecision.rank`).
    package var rank: Int
    /// How many identifiers the two cards share (the UID, emails, phones): when none, the decision read nothing
    /// of the index it was made with, and holds whatever else the index holds.
    package var sharedIdentifiers: Int

    /// A verdict. Of a `different` pair only the kind and rule are read (choosing among candidates skips such a
    /// pair); its strength and rank may stop short of the full score.
    package init(kind: MatchDecision.Kind, rule: String, strength: Int, rank: Int, sharedIdentifiers: Int) {
        self.kind = kind
        self.rule = rule
        self.strength = strength
        self.rank = rank
        self.sharedIdentifiers = sharedIdentifiers
    }

    /// The verdict of `decision`.
    package init(_ decision: MatchDecision) {
        self.init(
            kind: decision.kind, rule: decision.rule, strength: decision.strength, rank: decision.rank,
            sharedIdentifiers: decision.evidence.count(where: \.isIdentifier))
    }

    /// Keeps the verdict alone: the identifiers' weights for the rank, and nothing of the rest.
    package struct Recorder: DecisionRecorder {
        var identifiers = 0
        var shared = 0

        package init() {}

        /// Choosing among candidates skips a different pair, so most pairs of a large book (namesakes, families at
        /// one address) need not compare their addresses, organisations and phones.
        package static var readsOnlyKindOfDifferent: Bool { true }

        package mutating func identifier(_ evidence: MatchDecision.Evidence) {
            identifiers += evidence.rankWeight
            shared += 1
        }

        package mutating func note(_ evidence: @autoclosure () -> MatchDecision.Evidence) {}

        package func decision(_ kind: MatchDecision.Kind, rule: String, strength: Int) -> MatchVerdict {
            MatchVerdict(kind: kind, rule: rule, strength: strength, rank: identifiers, sharedIdentifiers: shared)
        }

        package func decision(_ kind: MatchDecision.Kind, rule: String, strength: Int, score: borrowing Score)
            -> MatchVerdict
        {
            MatchVerdict(
                kind: kind, rule: rule, strength: strength, rank: score.total + identifiers, sharedIdentifiers: shared)
        }
    }
}
