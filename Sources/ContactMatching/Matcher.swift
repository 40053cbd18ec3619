/// The decision rule, over an index of existing cards.
///
/// 1. The same UID: the same card (unless more than `ContactIndex.identifierCap` cards carry it: a placeholder).
/// 2. A shared strong identifier (an email, or a personal phone: mobile, home or untyped) that no other person's
///    indexed card also carries (cards of one name are one person's), names that do not conflict, and birthdays
///    that do not conflict: the same person.
/// 3. The identical full name, the same organisation and nothing conflicting (different addresses at one email
///    domain, or personal phones on both cards with none in common, keep two people apart): the same person.
/// 4. No identifier decides: the score rule (`Scoring`). Names (Jaro-Winkler for typos, nicknames, initials,
///    swapped), birthday, postal address and organisation each add or subtract a weight; a total of 10.0 or more
///    is the same person when the names agree exactly, or the full birthday does, or one name part has a typo
///    and the street with its house number agrees, and nothing vetoes it
///    (different birthdays, generations, middle initials, names, or emails of one type).
/// 5. Anything weaker (a shared work line, a family address, an identical name alone, a nickname, a score of
///    6.0 or more): a possible duplicate, reported and not merged. Nothing shared: different people.
public struct Matcher: Sendable {
    /// The cards matched against.
    public var index: ContactIndex
    /// An email or phone on the cards of more than this many people (cards of one name counting once) is shared
    /// (a family address, a switchboard) and cannot identify a person alone: 1 when matching against another
    /// file, 2 within one file (the pair itself).
    public var sharedAbove: Int

    /// Cards counted too when deciding whether an email or phone is shared (the existing cards, when matching
    /// incoming cards with each other), without being candidates.
    public var alsoCounting: ContactIndex? {
        get { counted?.index }
        set { counted = newValue.map(CountedIndex.init) }
    }

    /// `alsoCounting`, held by reference: reading an optional index out of the matcher copied it (retaining each
    /// of its lists) at every email and phone a pair shares.
    private var counted: CountedIndex?

    private final class CountedIndex: Sendable {
        let index: ContactIndex
        init(_ index: ContactIndex) { self.index = index }
    }

    /// A matcher over `index`.
    public init(index: ContactIndex, sharedAbove: Int = 1, alsoCounting: ContactIndex? = nil) {
        self.index = index
        self.sharedAbove = sharedAbove
        self.counted = alsoCounting.map(CountedIndex.init)
    }

    /// How many cards carry `key`, among the indexed ones and those counted too.
    /// Exact up to `ContactIndex.identifierCap` (and `sharedAbove`), above which every count means the same.
    private func count(_ key: IndexKey) -> Int {
        let cap = max(ContactIndex.identifierCap, sharedAbove)
        return index.cardCount(key, upTo: cap) + (counted?.index.cardCount(key, upTo: cap) ?? 0)
    }

    /// Whether the email or phone `key` is shared by more people than `sharedAbove`, cards of one name counting as
    /// one person: three copies of one card share their address with nobody, where a family's cards do. A key on
    /// more than `ContactIndex.identifierCap` cards is shared whatever their names (a placeholder).
    private func isShared(_ key: IndexKey) -> Bool {
        let cards = count(key)
        guard cards > sharedAbove else { return false }
        guard cards <= ContactIndex.identifierCap else { return true }
        // One card of each name, until there are more than `sharedAbove`: a few, on the stack (a list of them
        // was an allocation at every email and phone a pair shares). The indexes own the cards meanwhile.
        return withUnsafeTemporaryAllocation(of: Unmanaged<MatchKeys>.self, capacity: max(sharedAbove, 0) + 1) {
            people in
            var found = 0
            func visit(_ card: MatchKeys) -> Bool {
                let known = people[..<found].contains { $0._withUnsafeGuaranteedRef { $0.isNamed(like: card) } }
                if !known {
                    people[found] = .passUnretained(card)
                    found += 1
                }
                return found <= sharedAbove
            }
            index.forEachCard(carrying: key, visit)
            if found <= sharedAbove { counted?.index.forEachCard(carrying: key, visit) }
            return found > sharedAbove
        }
    }

    /// The best indexed card for `incoming`: the strongest `same`, else the strongest `possible`; `excluding`
    /// skips positions (the card itself, within one file).
    public func bestMatch(for incoming: MatchKeys, excluding: Set<Int> = []) -> (
        position: Int, decision: MatchDecision
    )? {
        bestMatch(for: incoming, among: index.candidates(for: incoming), excluding: excluding)
    }

    /// The same among `candidates` already looked up.
    public func bestMatch(for incoming: MatchKeys, among candidates: [Int], excluding: Set<Int> = [])
        -> (position: Int, decision: MatchDecision)?
    {
        var best: (position: Int, verdict: MatchVerdict)?
        for position in candidates where !excluding.contains(position) {
            let verdict = verdict(incoming, index.key(at: position))
            guard verdict.kind != .different else { continue }
            if let current = best {
                // A card found by a shared identifier beats one found by the score, however high.
                let rank = (verdict.kind == .same ? 1 : 0, verdict.rule == "score" ? 0 : 1, verdict.strength)
                let currentRank = (
                    current.verdict.kind == .same ? 1 : 0, current.verdict.rule == "score" ? 0 : 1,
                    current.verdict.strength
                )
                if rank <= currentRank { continue }
            }
            best = (position, verdict)
        }
        return best.map { ($0.position, decide(incoming, index.key(at: $0.position))) }
    }

    /// The decision for one pair, with its field-by-field score (worked out only for the pairs that reach the
    /// score rule while choosing: `explained` adds it to the others, for the report).
    public func decide(_ a: MatchKeys, _ b: MatchKeys) -> MatchDecision {
        var recorder = MatchDecision.Recorder()
        return decide(a, b, recording: &recorder)
    }

    /// What choosing among candidates reads of `decide(a, b)`, without its evidence or score card.
    package func verdict(_ a: MatchKeys, _ b: MatchKeys) -> MatchVerdict {
        var recorder = MatchVerdict.Recorder()
        return decide(a, b, recording: &recorder)
    }

    /// The decision rule, once for every recorder: each finding goes to `recorder`, which makes the decision.
    func decide<Recorder: DecisionRecorder>(_ a: MatchKeys, _ b: MatchKeys, recording recorder: inout Recorder)
        -> Recorder.Decision
    {
        // A UID on more cards than a placeholder email could be identifies nobody: an exporter wrote it on all.
        if a.sameUID(as: b), let uid = a.uid, count(IndexKey(.uid, uid)) <= ContactIndex.identifierCap {
            recorder.identifier(.sameUID)
            return recorder.decision(.same, rule: "uid", strength: Weights.strengthUID)
        }
        var strong = 0
        var weak = 0
        // Whether the cards share an email (`a.sharesEmail(with: b)`, which the rules below ask twice).
        var sharesEmail = false
        // (Most pairs share no email, which their emails' fingerprints show without comparing a text. A card with
        // more emails than a list is searched for has the shared ones looked up from the card with fewer.)
        let large = a.emails.count > MatchKeys.largeList
        for e in large ? a.sharedEmails(with: b) : a.emails where large || a.mayShareEmail(with: b) && b.hasEmail(e) {
            sharesEmail = true
            if isShared(IndexKey(.email, e)) {
                recorder.identifier(.commonEmail(e))
                weak += 1
            } else {
                recorder.identifier(.sharedEmail(e))
                strong += 1
            }
        }
        // (Most pairs share no phone either, which the phones' fingerprints show without reading b's phones.)
        for p in a.phones.count > MatchKeys.largeList ? a.sharedPhones(with: b) : a.phones
        where a.maySharePhone(with: b) {
            guard let otherPersonal = b.phone(p.key) else { continue }
            if p.personal && otherPersonal && !isShared(IndexKey(.phone, p.key)) {
                recorder.identifier(.sharedPersonalPhone(p.key.description))
                strong += 1
            } else {
                recorder.identifier(.sharedLine(p.key.description))
                weak += 1
            }
        }
        let relation = Self.relation(a, b)
        recorder.note(.name(relation))
        let sameOrganization = a.sameOrganization(as: b)
        if sameOrganization { recorder.note(.sameOrganization) }
        // The score, worked out in place when a rule first needs it, and once.
        var score = LazyScore(sharesEmail: sharesEmail)
        var conflict = false
        // A birthday typo under one name at one home is forgiven by the score; any other difference vetoes.
        if let x = a.birthday, let y = b.birthday, x.conflicts(with: y),
            !x.isTypo(of: y) || !score.of(a, b).anyField(remarked: .typo)
        {
            recorder.note(.birthdayConflict)
            conflict = true
        }
        let strength =
            strong * Weights.strengthStrongIdentifier + weak * Weights.strengthWeakIdentifier
            + (relation == .identical
                ? Weights.strengthIdenticalName : relation == .compatible ? Weights.strengthCompatibleName : 0)
            + (sameOrganization ? Weights.strengthSameOrganization : 0)
        if strong > 0 && relation != .conflicting && !conflict {
            return recorder.decision(.same, rule: "identifier+name", strength: strength)
        }
        if relation == .identical && sameOrganization && !conflict {
            // Two people of the same name at one company have different addresses there, or each their own mobile.
            if !sharesEmail, let domain = Scoring.leastDomain(of: a, alsoOf: b) {
                recorder.note(.emailDomainConflict(String(domain)))
            } else if a.hasPersonalPhone && b.hasPersonalPhone && !a.sharesPersonalPhone(with: b) {
                recorder.note(.personalPhoneConflict)
            } else if score.of(a, b).veto != nil || score.of(a, b).isElsewhere {
                // Each their own HOME email, a different birthday, or homes in different places: two namesakes.
                recorder.note(.scoreConflict(score.of(a, b).veto?.description ?? ScoreCard.differentHomes))
            } else {
                return recorder.decision(.same, rule: "name+organisation", strength: strength)
            }
        }
        // Evidence that makes the pair a possible duplicate whatever its score.
        let evidence =
            strong > 0 || weak > 0 || relation == .identical
            || (relation == .compatible && a.hasName && b.hasName && a.personName.family == b.personName.family
                && !a.personName.family.isEmpty)
        if !evidence && Recorder.readsOnlyKindOfDifferent {
            // Only a total of a possible duplicate or more can change the verdict from `different`.
            score.workOut(a, b, unlessBelow: Scoring.possibleThreshold)
        } else {
            score.workOut(a, b)
        }
        if score.value.merges && !conflict {
            return recorder.decision(
                .same, rule: "score", strength: strength + score.value.total / 10, score: score.value)
        }
        let someEvidence = evidence || score.value.total >= Scoring.possibleThreshold
        return recorder.decision(
            someEvidence ? .possible : .different, rule: someEvidence ? "weak" : "none",
            strength: strength + max(0, score.value.total) / 10, score: score.value)
    }

    /// How the names relate, `unknown` when a card has none (the names read in place, not copied), with the
    /// facts of each name worked out when its keys were made.
    private static func relation(_ a: MatchKeys, _ b: MatchKeys) -> PersonName.Relation {
        guard a.hasName, b.hasName, let fx = a.nameFacts?.given, let fy = b.nameFacts?.given else { return .unknown }
        return a.personName.relation(to: b.personName, givenFacts: fx, fy)
    }

    /// A pair's score, worked out in place the first time a rule needs it.
    private struct LazyScore {
        /// The score, once worked out.
        private(set) var value = Score()
        private var scored = false
        /// Whether the pair shares an email.
        let sharesEmail: Bool

        init(sharesEmail: Bool) { self.sharesEmail = sharesEmail }

        /// Works the score out unless it is already.
        mutating func workOut(_ a: MatchKeys, _ b: MatchKeys) {
            guard !scored else { return }
            Scoring.score(a, b, sharesEmail: sharesEmail, into: &value)
            scored = true
        }

        /// Works the score out as far as it can reach `threshold`: a total that cannot is left partial, and below
        /// `threshold` (see `Scoring.score(_:_:complete:sharesEmail:stoppingBelow:into:)`).
        mutating func workOut(_ a: MatchKeys, _ b: MatchKeys, unlessBelow threshold: Int) {
            guard !scored else { return }
            Scoring.score(a, b, sharesEmail: sharesEmail, stoppingBelow: threshold, into: &value)
            scored = true
        }

        /// The score, worked out first if need be.
        mutating func of(_ a: MatchKeys, _ b: MatchKeys) -> Score {
            workOut(a, b)
            return value
        }
    }

    /// Why `a` and `b` cannot be one person whatever else they share, or nil: different generations or middle
    /// initials, given or family names that are not typos, nicknames or initials of each other, or birthdays
    /// beyond the typos the score forgives. A card joining a card that several cards already merged into must
    /// pass this against each of them, so no card links two people through a third.
    public static func conflict(_ a: MatchKeys, _ b: MatchKeys) -> String? {
        if let x = a.name, let y = b.name, !x.isEmpty, !y.isEmpty {
            if x.generation != y.generation { return "different generations" }
            if x.middleRelation(to: y) == .conflicting {
                return x.bothWriteMiddleNames(y) ? "different middle names" : "different middle initials"
            }
        }
        guard a.name != nil && b.name != nil || a.birthday != nil && b.birthday != nil else { return nil }
        let score = Scoring.score(a, b, complete: true)
        if score.given.outcome == .disagree { return "different given names" }
        if score.family.outcome == .disagree { return "different family names" }
        if score.birthday.outcome == .disagree { return "different birthdays" }
        return nil
    }

    /// How strongly a same-person decision holds, to choose among several: 3 a UID, 2 a shared identifier,
    /// 1 names and the score.
    public static func tier(_ decision: MatchDecision) -> Int {
        switch decision.rule {
        case "uid": 3
        case "identifier+name": 2
        default: 1
        }
    }

    /// `decision` for the pair `a`, `b` with its complete score, for the report (while choosing, a decision by
    /// identifier has none, and a pair of two other people's names stops at the names).
    public func explained(_ decision: MatchDecision, _ a: MatchKeys, _ b: MatchKeys) -> MatchDecision {
        guard decision.rule != "uid" else { return decision }
        var out = decision
        out.score = Scoring.compare(a, b, complete: true)
        return out
    }

    /// The country code most international numbers in `phones` use, when more than half of them and at least
    /// three numbers do: the default for reading a file's national numbers when the user gave none.
    public static func prevailingCountryCode(_ phones: some Sequence<String>) -> Int? {
        prevailingCountryCode(keys: phones.lazy.compactMap { PhoneKey($0, countryCode: nil) })
    }

    /// The same over phone keys read without a country code.
    package static func prevailingCountryCode(keys: some Sequence<PhoneKey>) -> Int? {
        var counts: [Int: Int] = [:]
        for key in keys {
            guard let code = key.countryCode else { continue }
            counts[code, default: 0] += 1
        }
        return prevailingCountryCode(counts: counts)
    }

    /// The country code most of the numbers counted in `counts` (numbers by code) use: at least three, and more
    /// than half of them; the lower code of two as common.
    package static func prevailingCountryCode(counts: [Int: Int]) -> Int? {
        let total = counts.values.reduce(0, +)
        guard let (code, count) = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }),
            count >= 3, count * 2 > total
        else { return nil }
        return code
    }
}
