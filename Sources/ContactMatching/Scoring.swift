// Over 400 lines on purpose: the score rule is one table of field comparisons and vetoes (weights in
// Weights.swift); each comparison is short and reads against the others.

import ContactModel

/// How one field of two cards compares, and what it adds to the score.
public struct FieldComparison: Sendable, Equatable, CustomStringConvertible {
    /// The fields compared.
    public enum Field: String, Sendable {
        case givenName = "given name"
        case familyName = "family name"
        case birthday, street, locality, region
        case postalCode = "postal code"
        case organization, phone
    }

    /// The outcome of one comparison.
    public enum Outcome: String, Sendable {
        /// Equal after folding (or a nickname of the same name).
        case agree
        /// Close but not equal: a typo, an initial, a birthday without its year or with day and month swapped.
        case similar
        /// Different.
        case disagree
        /// One card or both lack the field.
        case missing
    }

    /// The field.
    public var field: Field
    /// The outcome.
    public var outcome: Outcome
    /// What it adds to the score, in tenths of a point (30 is +3.0).
    public var weight: Int
    /// The Jaro-Winkler similarity, when the outcome rests on it (a typo).
    public var similarity: Double?
    /// What else the outcome rests on.
    public var remarks: Remarks

    /// Reasons an outcome is what it is, beyond equality.
    public struct Remarks: OptionSet, Sendable, Equatable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        /// One given name is an initial of the other.
        public static let initial = Remarks(rawValue: 1 << 0)
        /// The given names are nicknames of one name.
        public static let nickname = Remarks(rawValue: 1 << 1)
        /// One birthday has no year.
        public static let noYear = Remarks(rawValue: 1 << 2)
        /// The birthdays have day and month swapped.
        public static let daySwapped = Remarks(rawValue: 1 << 3)
        /// The house numbers differ.
        public static let houseNumber = Remarks(rawValue: 1 << 4)
        /// The same town, another house: the agreement counts nothing.
        public static let anotherHouse = Remarks(rawValue: 1 << 5)
        /// A shared phone, which the identifier rules weigh.
        public static let identifier = Remarks(rawValue: 1 << 6)
        /// Given and family names compared swapped.
        public static let swapped = Remarks(rawValue: 1 << 7)
        /// A birthday one digit off, or with two digits transposed, in the same year.
        public static let typo = Remarks(rawValue: 1 << 8)
        /// A street found in the other card's extended-address field.
        public static let extended = Remarks(rawValue: 1 << 9)

        static let texts: [(Remarks, String)] = [
            (.initial, "initial"), (.nickname, "nickname"), (.noYear, "no year on one card"),
            (.daySwapped, "day and month swapped"), (.houseNumber, "house number"), (.anotherHouse, "another house"),
            (.identifier, "an identifier: see the evidence"), (.swapped, "given and family swapped"),
            (.typo, "a typo"), (.extended, "in the extended address"),
        ]
    }

    /// Why, when the outcome needs it: `jaro-winkler 0.93`, `nickname`, `initial`, `given and family swapped`.
    /// Worked out when read: most comparisons are never shown.
    public var note: String? {
        var parts: [String] = []
        if let similarity {
            let hundredths = Int((similarity * 100).rounded())
            parts.append("jaro-winkler 0.\(hundredths < 10 ? "0" : "")\(hundredths)")
        }
        for (remark, text) in Remarks.texts where remarks.contains(remark) { parts.append(text) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// Creates a comparison.
    public init(_ field: Field, _ outcome: Outcome, _ weight: Int = 0, similarity: Double? = nil, remarks: Remarks = [])
    {
        self.field = field
        self.outcome = outcome
        self.weight = weight
        self.similarity = similarity
        self.remarks = remarks
    }

    /// `given name similar (jaro-winkler 0.93) +2.0`.
    public var description: String {
        "\(field.rawValue) \(outcome.rawValue)" + (note.map { " (\($0))" } ?? "") + " "
            + Scoring.points(weight, sign: true)
    }
}

/// The comparison of two cards field by field, with no identifier shared: what the score rule decides on.
public struct ScoreCard: Sendable, Equatable {
    /// Every field's outcome, in a fixed order.
    public var fields: [FieldComparison]
    /// The sum of the weights, in tenths.
    public var total: Int
    /// Conflicting strong evidence that rules out a merge whatever the total: different birthdays, generations
    /// or middle initials, names that are not alike, different emails of the same type.
    public var veto: String?
    /// Given and family names agree exactly (or as nicknames, or swapped), not only by similarity.
    public var namesAgree: Bool
    /// The full birthday, year included, is the same.
    public var birthdayAgrees: Bool
    /// One name part agrees exactly and the other is a typo of it (Jaro-Winkler), and the street with its house
    /// number agrees: one home, one name written twice.
    public var typoAtOneHome = false
    /// Given and family names agree exactly (or swapped, not as nicknames) and the full birthday agrees: the same
    /// person whatever the addresses say.
    public var sameNameAndBirthday = false

    /// `different homes` when the best pair of addresses disagrees on the house and on the town: the cards
    /// describe people living in different places.
    public var elsewhere: String? {
        Self.elsewhere(
            street: fields.first { $0.field == .street }?.outcome,
            locality: fields.first { $0.field == .locality }?.outcome) ? Self.differentHomes : nil
    }

    /// The text of `elsewhere`.
    static let differentHomes = "different homes"

    /// Whether a street and a locality so compared say the cards describe people living in different places.
    static func elsewhere(street: FieldComparison.Outcome?, locality: FieldComparison.Outcome?) -> Bool {
        street == .disagree && locality == .disagree
    }

    /// Whether the total is allowed to merge: nothing vetoing, and enough points with agreement that two relatives
    /// cannot share by chance (the exact names, the full birthday, or one typo at one home), or the exact names
    /// with the full birthday whatever the total.
    public var merges: Bool {
        Self.merges(
            vetoed: veto != nil, total: total, namesAgree: namesAgree, birthdayAgrees: birthdayAgrees,
            typoAtOneHome: typoAtOneHome, sameNameAndBirthday: sameNameAndBirthday)
    }

    /// `merges`, for a card and for the `Score` it is made from.
    static func merges(
        vetoed: Bool, total: Int, namesAgree: Bool, birthdayAgrees: Bool, typoAtOneHome: Bool,
        sameNameAndBirthday: Bool
    ) -> Bool {
        !vetoed
            && (sameNameAndBirthday
                || total >= Scoring.mergeThreshold && (namesAgree || birthdayAgrees || typoAtOneHome))
    }
}

/// The score rule (Fellegi-Sunter style): each field adds its weight when the cards agree, subtracts when they
/// disagree, and adds nothing when either lacks it. Weights are set by hand from how rarely two different people
/// agree on the field (a full birthday rarely, a locality often), and checked on the seeded generator.
package enum Scoring {
    /// A total at or above this (10.0) is the same person, when the names agree exactly or the full birthday does.
    public static let mergeThreshold = Weights.merge
    /// A total at or above this (6.0) is reported as a possible duplicate.
    public static let possibleThreshold = Weights.possible
    /// Jaro-Winkler at or above this counts a name or street as the same with a typo.
    public static let similarity = Weights.similarity

    /// Compares `a` with `b`; `complete` compares every field even when the names already rule a match out
    /// (for the report; while choosing, such a pair stops at the names).
    public static func compare(_ a: MatchKeys, _ b: MatchKeys, complete: Bool = false) -> ScoreCard {
        score(a, b, complete: complete).card
    }

    /// `compare` without making the card: what the decision rule reads for every candidate pair.
    package static func score(_ a: MatchKeys, _ b: MatchKeys, complete: Bool = false) -> Score {
        var score = Score()
        Self.score(a, b, complete: complete, into: &score)
        return score
    }

    /// The most the fields compared after the birthday can add: the best pair of addresses agreeing on every
    /// part, the same organisation, and phones (which never add).
    static let mostAfterBirthday =
        Weights.streetAgree + Weights.localityAgree + Weights.regionAgree + Weights.postalCodeAgree
        + Weights.organizationAgree

    /// `score(a, b, complete:)` written into `score`, which is a fresh `Score()`: the rule works out the score
    /// in its own storage, without copying it. `sharesEmail`, when given, is `a.sharesEmail(with: b)`, which the
    /// decision rule knows already from the emails it counted. With `stoppingBelow`, a pair whose names and
    /// birthday leave the total below it whatever the rest says stops there (`stoppedAtBirthday`): for a verdict
    /// that only asks whether the total reaches it.
    package static func score(
        _ a: MatchKeys, _ b: MatchKeys, complete: Bool = false, sharesEmail: Bool? = nil,
        stoppingBelow threshold: Int? = nil, into score: inout Score
    ) {
        if compareNames(a, b, into: &score) {
            score.namesAgree = score.given.outcome == .agree && score.family.outcome == .agree
            if !complete && score.given.outcome == .disagree && score.family.outcome == .disagree {
                // Two other people's names (most candidate pairs): -7.0 that the rest (12.5 at most) cannot lift to
                // a possible duplicate, so the rest is not worked out.
                score.stoppedAtNames = true
                score.namesAgree = false
                score.total = score.given.weight + score.family.weight
                return
            }
        }
        score.birthday = compareBirthdays(a.birthday, b.birthday)
        if let threshold, !complete {
            // A birthday typo at one home under one name counts as a typo, not a difference (below).
            let birthdayAtMost =
                score.birthday.remarks.contains(.typo)
                ? max(score.birthday.weight, Weights.birthdayTypo) : score.birthday.weight
            let namesAndBirthday = score.given.weight + score.family.weight + score.birthday.weight
            if score.given.weight + score.family.weight + birthdayAtMost + mostAfterBirthday < threshold {
                score.stoppedAtBirthday = true
                score.total = namesAndBirthday
                return
            }
        }
        (score.street, score.locality, score.region, score.postalCode) = compareAddresses(a.addresses, b.addresses)
        if a.organization != nil && b.organization != nil {
            score.organization =
                a.sameOrganization(as: b)
                ? FieldComparison(.organization, .agree, Weights.organizationAgree)
                : FieldComparison(.organization, .disagree, 0)
        }
        score.phone = comparePhones(a, b)
        let given = score.given
        let family = score.family
        let exactly: (FieldComparison) -> Bool = { $0.outcome == .agree && !$0.remarks.contains(.nickname) }
        let alike: (FieldComparison) -> Bool = {
            $0.outcome == .agree || ($0.outcome == .similar && $0.similarity != nil)
        }
        let street = score.street
        let atOneHome =
            street.outcome == .agree && (score.locality.outcome == .agree || score.postalCode.outcome == .agree)
        // A birthday one digit off or with two digits transposed, under one name at one home, is a typo, not a
        // parent and child (they are born in different years) nor twins (they have different given names).
        if score.birthday.remarks.contains(.typo), atOneHome, alike(given), alike(family),
            exactly(given) || exactly(family)
        {
            score.birthday = FieldComparison(.birthday, .similar, Weights.birthdayTypo, remarks: .typo)
        } else {
            score.birthday.remarks.remove(.typo)
        }
        let birthday = score.birthday
        if birthday.outcome == .disagree { score.veto = score.veto ?? .birthdays }
        if score.veto == nil, let reason = differentEmails(a, b, sharesEmail: sharesEmail) { score.veto = reason }
        score.total =
            given.weight + family.weight + birthday.weight + street.weight + score.locality.weight
            + score.region.weight + score.postalCode.weight + score.organization.weight + score.phone.weight
        score.birthdayAgrees = birthday.outcome == .agree
        // One keystroke apart, not merely alike: "Ana" and "Ananya" at one home are two people.
        let oneTypo =
            (given.outcome == .agree && family.outcome == .similar && family.similarity != nil
                && Self.typed(a.name?.family, b.name?.family, a.name?.given, b.name?.given, family))
            || (given.outcome == .similar && given.similarity != nil && family.outcome == .agree
                && Self.typed(a.name?.given, b.name?.given, a.name?.family, b.name?.family, given))
        score.typoAtOneHome = oneTypo && street.outcome == .agree
        // The same given and family name (exactly, or swapped between the fields) and the same full birthday: one
        // person, wherever the cards say they live, because people move.
        score.sameNameAndBirthday = exactly(given) && exactly(family) && birthday.outcome == .agree
    }

    /// Whether the similar name part `field` is one keystroke from the other card's (or, compared swapped,
    /// from the other card's other part).
    private static func typed(
        _ a: String?, _ b: String?, _ otherA: String?, _ otherB: String?, _ field: FieldComparison
    )
        -> Bool
    {
        guard let a, let b else { return false }
        if field.remarks.contains(.swapped) {
            return Similarity.oneEdit(a, otherB ?? "") || Similarity.oneEdit(otherA ?? "", b)
        }
        return Similarity.oneEdit(a, b)
    }

    /// Tenths of a point as text: `+3.0`, `-1.5`, `0`.
    public static func points(_ tenths: Int, sign: Bool = false) -> String {
        if tenths == 0 { return "0" }
        let text = "\(abs(tenths) / 10).\(abs(tenths) % 10)"
        return tenths < 0 ? "-" + text : (sign ? "+" : "") + text
    }

    // MARK: Names

    /// Compares the names into `score` when both cards have one; whether they have.
    private static func compareNames(_ a: MatchKeys, _ b: MatchKeys, into score: inout Score) -> Bool {
        guard a.hasName, b.hasName, let facts = a.nameFacts, let theirs = b.nameFacts, !a.personName.isEmpty,
            !b.personName.isEmpty
        else { return false }
        (score.given, score.family, score.veto) = compareNames(a.personName, facts, b.personName, theirs)
        return true
    }

    private static func compareNames(_ a: PersonName, _ fa: NameFacts, _ b: PersonName, _ fb: NameFacts)
        -> (given: FieldComparison, family: FieldComparison, veto: Score.Veto?)
    {
        var veto: Score.Veto?
        if a.generation != b.generation {
            veto = .generations(a.generation, b.generation)
        }
        if a.middleRelation(to: b) == .conflicting {
            veto = veto ?? (a.bothWriteMiddleNames(b) ? .middleNames : .middleInitials)
        }
        var given = compareGiven(a.given, fa.given, b.given, fb.given)
        var family = compareFamily(a.family, fa.family, b.family, fb.family)
        // A form filled the wrong way round: try given and family swapped, and keep the better reading.
        if given.outcome == .agree && family.outcome == .agree { return (given, family, veto) }
        // The swapped family names are compared only when the swapped given names are alike (rarely).
        let swappedGiven = compareGiven(a.given, fa.given, b.family, fb.family)
        if swappedGiven.outcome != .disagree && swappedGiven.outcome != .missing,
            case let swappedFamily = compareFamily(a.family, fa.family, b.given, fb.given),
            swappedFamily.outcome != .disagree,
            swappedGiven.weight + swappedFamily.weight > given.weight + family.weight
        {
            given = swappedGiven
            family = swappedFamily
            given.remarks.insert(.swapped)
            family.remarks.insert(.swapped)
        }
        if given.outcome == .disagree { veto = veto ?? .givenNames }
        if family.outcome == .disagree { veto = veto ?? .familyNames }
        return (given, family, veto)
    }

    /// Compares two given names, each with its facts.
    private static func compareGiven(_ a: String, _ fa: NamePartFacts, _ b: String, _ fb: NamePartFacts)
        -> FieldComparison
    {
        if a.isEmpty || b.isEmpty { return FieldComparison(.givenName, .missing) }
        if a == b { return FieldComparison(.givenName, .agree, Weights.givenAgree) }
        // (One scalar: folding leaves no combining marks.)
        if fa.scalarCount == 1 || fb.scalarCount == 1 {
            return a.first == b.first
                ? FieldComparison(.givenName, .similar, Weights.givenInitial, remarks: .initial)
                : FieldComparison(.givenName, .disagree, Weights.givenDisagree)
        }
        let x = fa.nickname
        let y = fb.nickname
        if x.isEquivalent(to: y) {
            return FieldComparison(.givenName, .agree, Weights.givenAgree, remarks: .nickname)
        }
        // Two names people are really called (Anna and Anne, Daniel and Danielle) are two names, not a typo.
        if x.isKnown && y.isKnown {
            return FieldComparison(.givenName, .disagree, Weights.givenDisagree)
        }
        return typo(a, fa, b, fb).map {
            FieldComparison(.givenName, .similar, Weights.givenSimilar, similarity: $0)
        } ?? FieldComparison(.givenName, .disagree, Weights.givenDisagree)
    }

    private static func compareFamily(_ a: String, _ fa: NamePartFacts, _ b: String, _ fb: NamePartFacts)
        -> FieldComparison
    {
        if a.isEmpty || b.isEmpty { return FieldComparison(.familyName, .missing) }
        if a == b { return FieldComparison(.familyName, .agree, Weights.familyAgree) }
        return typo(a, fa, b, fb).map { FieldComparison(.familyName, .similar, Weights.familySimilar, similarity: $0) }
            ?? FieldComparison(.familyName, .disagree, Weights.familyDisagree)
    }

    // MARK: Typos

    /// The Jaro-Winkler similarity of two different texts when it reaches `similarity` (one is a typo of the
    /// other), else nil. Most texts compared are not alike at all (the candidates of a large book share a
    /// Soundex code, a birthday or a house, not a name): a bound from the letters they share rules those out
    /// without comparing them letter by letter.
    static func typo(_ a: String, _ b: String) -> Double? {
        guard mayBeTypo(a, b) else { return nil }
        let similarity = Similarity.jaroWinkler(a, b)
        return similarity >= Self.similarity ? similarity : nil
    }

    /// `typo(a, b)` of two name parts, most pairs ruled out by their facts before either text is read.
    static func typo(_ a: String, _ fa: NamePartFacts, _ b: String, _ fb: NamePartFacts) -> Double? {
        guard fa.mayBeTypo(of: fb) else { return nil }
        return typo(a, b)
    }

    /// False when `Similarity.jaroWinkler(a, b)` is certainly below `similarity`; true for texts that may reach
    /// it (and for empty texts, which are never compared).
    static func mayBeTypo(_ a: String, _ b: String) -> Bool {
        let ascii =
            a.utf8.withContiguousStorageIfAvailable { x in
                b.utf8.withContiguousStorageIfAvailable { y in mayBeTypo(x, y) } ?? nil
            } ?? nil
        return ascii ?? mayBeTypo(scalars: a, b)
    }

    /// Jaro counts the characters of each text that match one of the other within a window (`m`), and the
    /// matched pairs out of order; Winkler adds a share of the rest for a common prefix of up to four. Each text's
    /// matched characters occur in the other, so `m` is at most the number of either's characters that the other
    /// contains, and the similarity is at most Jaro of that `m` with nothing out of order, raised for the actual
    /// prefix. That bound is worked out in the same arithmetic as the similarity, which grows with `m`, and
    /// compared with a margin far above its rounding. Characters are told apart by their low six bits: two that
    /// share them only loosen the bound.
    static func mayReach(matches: Int, _ xCount: Int, _ yCount: Int, prefix: Int) -> Bool {
        // No character in common: Jaro-Winkler is 0.
        guard matches > 0 else { return false }
        let m = Double(matches)
        let jaro = (m / Double(xCount) + m / Double(yCount) + 1) / 3
        return jaro + Double(prefix) * 0.1 * (1 - jaro) >= Self.similarity - 1e-9
    }

    /// `mayBeTypo` of two ASCII texts on their bytes (each byte a character); nil when either is not ASCII.
    static func mayBeTypo(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard !x.isEmpty, !y.isEmpty else { return true }
        var ascii: UInt8 = 0
        var inX: UInt64 = 0
        var inY: UInt64 = 0
        for c in x {
            ascii |= c
            inX |= 1 &<< (c & 63)
        }
        for c in y {
            ascii |= c
            inY |= 1 &<< (c & 63)
        }
        guard ascii < 0x80 else { return nil }
        var xInY = 0
        var yInX = 0
        for c in x { xInY &+= Int(truncatingIfNeeded: (inY &>> (c & 63)) & 1) }
        for c in y { yInX &+= Int(truncatingIfNeeded: (inX &>> (c & 63)) & 1) }
        var prefix = 0
        while prefix < min(4, x.count, y.count) && x[prefix] == y[prefix] { prefix += 1 }
        return mayReach(matches: min(xInY, yInX), x.count, y.count, prefix: prefix)
    }

    /// `mayBeTypo` of any two texts on their Unicode scalars, which Jaro-Winkler compares when they are not
    /// ASCII (names in Chinese, Greek, Arabic...).
    static func mayBeTypo(scalars a: String, _ b: String) -> Bool {
        var inA: UInt64 = 0
        var inB: UInt64 = 0
        var aCount = 0
        var bCount = 0
        for s in a.unicodeScalars {
            inA |= 1 &<< (s.value & 63)
            aCount += 1
        }
        for s in b.unicodeScalars {
            inB |= 1 &<< (s.value & 63)
            bCount += 1
        }
        guard aCount > 0, bCount > 0 else { return true }
        var aInB = 0
        var bInA = 0
        for s in a.unicodeScalars { aInB &+= Int(truncatingIfNeeded: (inB &>> (s.value & 63)) & 1) }
        for s in b.unicodeScalars { bInA &+= Int(truncatingIfNeeded: (inA &>> (s.value & 63)) & 1) }
        var prefix = 0
        var x = a.unicodeScalars.makeIterator()
        var y = b.unicodeScalars.makeIterator()
        while prefix < min(4, aCount, bCount), let p = x.next(), let q = y.next(), p == q { prefix += 1 }
        return mayReach(matches: min(aInB, bInA), aCount, bCount, prefix: prefix)
    }

    // MARK: Birthday

    private static func compareBirthdays(_ a: Birthday?, _ b: Birthday?) -> FieldComparison {
        guard let a, let b else { return FieldComparison(.birthday, .missing) }
        if a.month == b.month && a.day == b.day {
            if let x = a.year, let y = b.year {
                return x == y
                    ? FieldComparison(.birthday, .agree, Weights.birthdayAgree)
                    : FieldComparison(.birthday, .disagree, Weights.birthdayDisagree)
            }
            return FieldComparison(.birthday, .similar, Weights.birthdayNoYear, remarks: .noYear)
        }
        // 03/04 read as April 3rd on one side and March 4th on the other: weak evidence, not a conflict.
        if a.month == b.day && a.day == b.month && (a.year == nil || b.year == nil || a.year == b.year) {
            return FieldComparison(.birthday, .similar, Weights.birthdayDaySwapped, remarks: .daySwapped)
        }
        // A typo is a disagreement here; `compare` forgives it only for one name at one home.
        return FieldComparison(.birthday, .disagree, Weights.birthdayDisagree, remarks: a.isTypo(of: b) ? .typo : [])
    }

    // MARK: Addresses

    /// A street, locality, region and postal code compared.
    private typealias AddressComparison = (
        street: FieldComparison, locality: FieldComparison, region: FieldComparison, postalCode: FieldComparison
    )

    /// Above this many pairs of addresses, two cards' addresses are compared as `compareAddresses` says.
    package static let addressPairsCompared = 4_096

    /// An address whose four compared fields are all there: two equal ones agree on every field, which no other
    /// pair can beat.
    private struct FullAddress: Hashable {
        var number: String
        var street: String
        var locality: String
        var region: String
        var postalCode: String

        init?(_ key: AddressKey) {
            guard !key.street.isEmpty, !key.locality.isEmpty, !key.region.isEmpty, !key.postalCode.isEmpty else {
                return nil
            }
            (number, street, locality, region, postalCode) =
                (key.number, key.street, key.locality, key.region, key.postalCode)
        }
    }

    /// The best-agreeing pair of the two cards' addresses, field by field. Cards with more than
    /// `addressPairsCompared` pairs (a card of thousands of addresses made a merge of it with its copy take
    /// seconds, and one of a million, hours) are compared through a set: an address the two share in full is
    /// the best pair; without one, the first 64 addresses of each are compared pair by pair.
    private static func compareAddresses(_ keysA: [AddressKey], _ keysB: [AddressKey]) -> AddressComparison {
        var limit = (keysA.count, keysB.count)
        if keysA.count * keysB.count > addressPairsCompared {
            let full = Set(keysB.lazy.compactMap(FullAddress.init))
            if let i = keysA.firstIndex(where: { FullAddress($0).map(full.contains) ?? false }),
                let j = keysB.firstIndex(where: { FullAddress($0) == FullAddress(keysA[i]) })
            {
                return keysA.withUnsafeBufferPointer { xs in
                    keysB.withUnsafeBufferPointer { ys in compareAddress(xs.baseAddress! + i, ys.baseAddress! + j) }
                }
            }
            limit = (min(keysA.count, 64), min(keysB.count, 64))
        }
        var best: AddressComparison?
        var bestTotal = Int.min
        // The keys read where they are, through pointers: iterating or subscripting the arrays copied both keys
        // (seven strings each) for every pair of addresses.
        keysA.withUnsafeBufferPointer { xs in
            keysB.withUnsafeBufferPointer { ys in
                guard let x = xs.baseAddress, let y = ys.baseAddress else { return }
                for i in 0..<limit.0 {
                    for j in 0..<limit.1 {
                        let fields = compareAddress(x + i, y + j)
                        let total =
                            fields.street.weight + fields.locality.weight + fields.region.weight
                            + fields.postalCode.weight
                        if total > bestTotal { (best, bestTotal) = (fields, total) }
                    }
                }
            }
        }
        return best ?? (
            FieldComparison(.street, .missing), FieldComparison(.locality, .missing),
            FieldComparison(.region, .missing), FieldComparison(.postalCode, .missing)
        )
    }

    /// A street with its house number: another number is another house, a typo in the name is the same street.
    private static func compareStreet(_ numberA: String, _ a: String, _ numberB: String, _ b: String)
        -> FieldComparison
    {
        if a.isEmpty || b.isEmpty { return FieldComparison(.street, .missing) }
        if numberA != numberB {
            return FieldComparison(.street, .disagree, Weights.streetDisagree, remarks: .houseNumber)
        }
        if a == b { return FieldComparison(.street, .agree, Weights.streetAgree) }
        return typo(a, b).map { FieldComparison(.street, .similar, Weights.streetSimilar, similarity: $0) }
            ?? FieldComparison(.street, .disagree, Weights.streetDisagree)
    }

    private static func compareAddress(_ a: UnsafePointer<AddressKey>, _ b: UnsafePointer<AddressKey>)
        -> AddressComparison
    {
        var street = compareStreet(a.pointee.number, a.pointee.street, b.pointee.number, b.pointee.street)
        // A street written in the extended-address field (ADR component 2) on one card is the same street.
        func consider(_ x: (number: String, street: String)?, _ y: (number: String, street: String)?) {
            guard let x, let y else { return }
            var other = compareStreet(x.number, x.street, y.number, y.street)
            guard other.outcome != .missing, street.outcome == .missing || other.weight > street.weight else { return }
            other.remarks.insert(.extended)
            street = other
        }
        // The lines (tuples of two strings) are made only when both are there: few addresses have an extended street.
        if street.outcome != .agree {
            if !a.pointee.extendedStreet.isEmpty && !b.pointee.street.isEmpty {
                consider(a.pointee.extendedLine, b.pointee.streetLine)
            }
            if !a.pointee.street.isEmpty && !b.pointee.extendedStreet.isEmpty {
                consider(a.pointee.streetLine, b.pointee.extendedLine)
            }
        }
        func plain(_ field: FieldComparison.Field, _ x: String, _ y: String, agree: Int, disagree: Int)
            -> FieldComparison
        {
            if x.isEmpty || y.isEmpty { return FieldComparison(field, .missing) }
            return x == y ? FieldComparison(field, .agree, agree) : FieldComparison(field, .disagree, disagree)
        }
        var fields = (
            street: street,
            locality: plain(
                .locality, a.pointee.locality, b.pointee.locality, agree: Weights.localityAgree,
                disagree: Weights.localityDisagree),
            region: plain(
                .region, a.pointee.region, b.pointee.region, agree: Weights.regionAgree,
                disagree: Weights.regionDisagree),
            postalCode: plain(
                .postalCode, a.pointee.postalCode, b.pointee.postalCode, agree: Weights.postalCodeAgree,
                disagree: Weights.postalCodeDisagree)
        )
        if street.outcome == .disagree {
            // Another house in the same town: agreeing on the town says nothing more about the person.
            func anotherHouse(_ field: inout FieldComparison) {
                guard field.outcome == .agree else { return }
                field.weight = 0
                field.remarks = .anotherHouse
            }
            anotherHouse(&fields.locality)
            anotherHouse(&fields.region)
            anotherHouse(&fields.postalCode)
        }
        return fields
    }

    // MARK: Emails

    /// Why the emails say two people: both have HOME (or WORK) emails and none in common, or both have addresses
    /// at one domain and none in common (two colleagues' mailboxes).
    private static func differentEmails(_ a: MatchKeys, _ b: MatchKeys, sharesEmail: Bool?) -> Score.Veto? {
        if sharesEmail ?? a.sharesEmail(with: b) { return nil }
        if a.hasEmail(kind: .home) && b.hasEmail(kind: .home) { return .emails(.home) }
        if a.hasEmail(kind: .work) && b.hasEmail(kind: .work) { return .emails(.work) }
        if let shared = leastDomain(of: b, alsoOf: a) { return .domain(shared) }
        return nil
    }

    /// The least of `a`'s email domains that `b` has too (`a.emailDomains.filter(b.emailDomains.contains).min()`,
    /// without the array).
    static func leastDomain(of a: MatchKeys, alsoOf b: MatchKeys) -> Substring? {
        // Most pairs asked share no domain, which the domains' fingerprints show without comparing a text.
        guard a.mayShareDomain(with: b) else { return nil }
        // The least is the same whichever card's domains are walked: the one with fewer, the other's looked up.
        // (Two cards passed to a function are lent; a tuple of them was retained and released at every pair.)
        func least(walking walked: MatchKeys, in other: MatchKeys) -> Substring? {
            var least: Substring?
            for domain in walked.emailDomains where other.hasDomain(domain) {
                if let current = least, !(domain < current) { continue }
                least = domain
            }
            return least
        }
        return a.emailDomains.count <= b.emailDomains.count ? least(walking: a, in: b) : least(walking: b, in: a)
    }

    /// Personal phones (mobile, home, untyped) on both cards and none in common: people change numbers, so this
    /// counts against, but does not rule out, the same person.
    private static func comparePhones(_ a: MatchKeys, _ b: MatchKeys) -> FieldComparison {
        if !a.hasPersonalPhone || !b.hasPersonalPhone { return FieldComparison(.phone, .missing) }
        return a.sharesPersonalPhone(with: b)
            ? FieldComparison(.phone, .agree, 0, remarks: .identifier)
            : FieldComparison(.phone, .disagree, Weights.phoneDisagree)
    }
}

extension MatchKeys {
    /// Whether one of the card's personal phones is a personal phone of `other` too: the test
    /// `personal(self).contains(where: personal(other).contains)`, without the two arrays, walking the card with
    /// fewer phones and looking each up in the other.
    func sharesPersonalPhone(with other: MatchKeys) -> Bool {
        // (A function, not a tuple of the two cards, as in `leastDomain`.)
        func shares(walking walked: MatchKeys, in looked: MatchKeys) -> Bool {
            walked.phones.contains { mine in mine.personal && looked.phone(mine.key) == true }
        }
        return phones.count <= other.phones.count ? shares(walking: self, in: other) : shares(walking: other, in: self)
    }
}
