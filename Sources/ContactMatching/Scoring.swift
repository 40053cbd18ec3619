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
        let street = fields.first { $0.field == .street }?.outcome
        let locality = fields.first { $0.field == .locality }?.outcome
        return street == .disagree && locality == .disagree ? "different homes" : nil
    }

    /// Whether the total is allowed to merge: nothing vetoing, and enough points with agreement that two relatives
    /// cannot share by chance (the exact names, the full birthday, or one typo at one home), or the exact names
    /// with the full birthday whatever the total.
    public var merges: Bool {
        veto == nil
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
        var fields: [FieldComparison] = []
        fields.reserveCapacity(9)
        var veto: String?
        var namesAgree = false
        if let x = a.name, let y = b.name, !x.isEmpty, !y.isEmpty {
            let names = compareNames(x, y)
            fields += [names.given, names.family]
            veto = names.veto
            namesAgree = names.given.outcome == .agree && names.family.outcome == .agree
            if !complete && names.given.outcome == .disagree && names.family.outcome == .disagree {
                // Two other people's names (most candidate pairs): -7.0 that the rest (12.5 at most) cannot lift to
                // a possible duplicate, so the rest is not worked out.
                return ScoreCard(
                    fields: fields, total: fields.reduce(0) { $0 + $1.weight }, veto: veto, namesAgree: false,
                    birthdayAgrees: false)
            }
        } else {
            fields += [FieldComparison(.givenName, .missing), FieldComparison(.familyName, .missing)]
        }
        let birthdayIndex = fields.count
        fields.append(compareBirthdays(a.birthday, b.birthday))
        fields += compareAddresses(a.addresses, b.addresses)
        if let x = a.organization, let y = b.organization {
            fields.append(
                x == y
                    ? FieldComparison(.organization, .agree, Weights.organizationAgree)
                    : FieldComparison(.organization, .disagree, 0))
        } else {
            fields.append(FieldComparison(.organization, .missing))
        }
        fields.append(comparePhones(a, b))
        let given = fields[0]
        let family = fields[1]
        let exactly: (FieldComparison) -> Bool = { $0.outcome == .agree && !$0.remarks.contains(.nickname) }
        let alike: (FieldComparison) -> Bool = {
            $0.outcome == .agree || ($0.outcome == .similar && $0.similarity != nil)
        }
        let street = fields[birthdayIndex + 1]
        let atOneHome =
            street.outcome == .agree
            && (fields[birthdayIndex + 2].outcome == .agree || fields[birthdayIndex + 4].outcome == .agree)
        // A birthday one digit off or with two digits transposed, under one name at one home, is a typo, not a
        // parent and child (they are born in different years) nor twins (they have different given names).
        if fields[birthdayIndex].remarks.contains(.typo), atOneHome, alike(given), alike(family),
            exactly(given) || exactly(family)
        {
            fields[birthdayIndex] = FieldComparison(.birthday, .similar, Weights.birthdayTypo, remarks: .typo)
        } else {
            fields[birthdayIndex].remarks.remove(.typo)
        }
        let birthday = fields[birthdayIndex]
        if birthday.outcome == .disagree { veto = veto ?? "different birthdays" }
        if veto == nil, let reason = differentEmails(a, b) { veto = reason }
        var card = ScoreCard(
            fields: fields, total: fields.reduce(0) { $0 + $1.weight }, veto: veto, namesAgree: namesAgree,
            birthdayAgrees: birthday.outcome == .agree)
        // One keystroke apart, not merely alike: "Ana" and "Ananya" at one home are two people.
        let names = (a.name, b.name)
        let oneTypo =
            (given.outcome == .agree && family.outcome == .similar && family.similarity != nil
                && Self.typed(names.0?.family, names.1?.family, names.0?.given, names.1?.given, family))
            || (given.outcome == .similar && given.similarity != nil && family.outcome == .agree
                && Self.typed(names.0?.given, names.1?.given, names.0?.family, names.1?.family, given))
        card.typoAtOneHome = oneTypo && street.outcome == .agree
        // The same given and family name (exactly, or swapped between the fields) and the same full birthday: one
        // person, wherever the cards say they live, because people move.
        card.sameNameAndBirthday = exactly(given) && exactly(family) && birthday.outcome == .agree
        return card
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

    private static func compareNames(_ a: PersonName, _ b: PersonName)
        -> (given: FieldComparison, family: FieldComparison, veto: String?)
    {
        var veto: String?
        if a.generation != b.generation {
            veto = "different generations (\(a.generation ?? "none"), \(b.generation ?? "none"))"
        }
        if let x = a.middleInitials.first, let y = b.middleInitials.first, x != y {
            veto = veto ?? "different middle initials"
        }
        var given = compareGiven(a.given, b.given)
        var family = compareFamily(a.family, b.family)
        // A form filled the wrong way round: try given and family swapped, and keep the better reading.
        if given.outcome == .agree && family.outcome == .agree { return (given, family, veto) }
        // The swapped family names are compared only when the swapped given names are alike (rarely).
        let swappedGiven = compareGiven(a.given, b.family)
        if swappedGiven.outcome != .disagree && swappedGiven.outcome != .missing,
            case let swappedFamily = compareFamily(a.family, b.given), swappedFamily.outcome != .disagree,
            swappedGiven.weight + swappedFamily.weight > given.weight + family.weight
        {
            given = swappedGiven
            family = swappedFamily
            given.remarks.insert(.swapped)
            family.remarks.insert(.swapped)
        }
        if given.outcome == .disagree { veto = veto ?? "different given names" }
        if family.outcome == .disagree { veto = veto ?? "different family names" }
        return (given, family, veto)
    }

    private static func compareGiven(_ a: String, _ b: String) -> FieldComparison {
        if a.isEmpty || b.isEmpty { return FieldComparison(.givenName, .missing) }
        if a == b { return FieldComparison(.givenName, .agree, Weights.givenAgree) }
        if isOneLetter(a) || isOneLetter(b) {
            return a.first == b.first
                ? FieldComparison(.givenName, .similar, Weights.givenInitial, remarks: .initial)
                : FieldComparison(.givenName, .disagree, Weights.givenDisagree)
        }
        if Nicknames.areEquivalent(a, b) {
            return FieldComparison(.givenName, .agree, Weights.givenAgree, remarks: .nickname)
        }
        // Two names people are really called (Anna and Anne, Daniel and Danielle) are two names, not a typo.
        if Nicknames.isKnown(a) && Nicknames.isKnown(b) {
            return FieldComparison(.givenName, .disagree, Weights.givenDisagree)
        }
        let similarity = Similarity.jaroWinkler(a, b)
        return similarity >= Self.similarity
            ? FieldComparison(.givenName, .similar, Weights.givenSimilar, similarity: similarity)
            : FieldComparison(.givenName, .disagree, Weights.givenDisagree)
    }

    /// Whether a folded name is an initial: one scalar (folding leaves no combining marks), without counting
    /// characters, which walks grapheme breaks.
    private static func isOneLetter(_ name: String) -> Bool {
        var scalars = name.unicodeScalars.makeIterator()
        return scalars.next() != nil && scalars.next() == nil
    }

    private static func compareFamily(_ a: String, _ b: String) -> FieldComparison {
        if a.isEmpty || b.isEmpty { return FieldComparison(.familyName, .missing) }
        if a == b { return FieldComparison(.familyName, .agree, Weights.familyAgree) }
        let similarity = Similarity.jaroWinkler(a, b)
        return similarity >= Self.similarity
            ? FieldComparison(.familyName, .similar, Weights.familySimilar, similarity: similarity)
            : FieldComparison(.familyName, .disagree, Weights.familyDisagree)
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

    /// The best-agreeing pair of the two cards' addresses, field by field.
    private static func compareAddresses(_ keysA: [AddressKey], _ keysB: [AddressKey]) -> [FieldComparison] {
        var best: [FieldComparison]?
        var bestTotal = Int.min
        for x in keysA {
            for y in keysB {
                let fields = compareAddress(x, y)
                let total = fields.reduce(0) { $0 + $1.weight }
                if total > bestTotal { (best, bestTotal) = (fields, total) }
            }
        }
        return best ?? [
            FieldComparison(.street, .missing), FieldComparison(.locality, .missing),
            FieldComparison(.region, .missing), FieldComparison(.postalCode, .missing),
        ]
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
        let similarity = Similarity.jaroWinkler(a, b)
        return similarity >= Self.similarity
            ? FieldComparison(.street, .similar, Weights.streetSimilar, similarity: similarity)
            : FieldComparison(.street, .disagree, Weights.streetDisagree)
    }

    private static func compareAddress(_ a: AddressKey, _ b: AddressKey) -> [FieldComparison] {
        var street = compareStreet(a.number, a.street, b.number, b.street)
        // A street written in the extended-address field (ADR component 2) on one card is the same street.
        if street.outcome != .agree {
            for (x, y) in [(a.extendedLine, b.streetLine), (a.streetLine, b.extendedLine)] {
                guard let x, let y else { continue }
                var other = compareStreet(x.number, x.street, y.number, y.street)
                guard other.outcome != .missing, street.outcome == .missing || other.weight > street.weight
                else { continue }
                other.remarks.insert(.extended)
                street = other
            }
        }
        func plain(_ field: FieldComparison.Field, _ x: String, _ y: String, agree: Int, disagree: Int)
            -> FieldComparison
        {
            if x.isEmpty || y.isEmpty { return FieldComparison(field, .missing) }
            return x == y ? FieldComparison(field, .agree, agree) : FieldComparison(field, .disagree, disagree)
        }
        var fields = [
            street,
            plain(.locality, a.locality, b.locality, agree: Weights.localityAgree, disagree: Weights.localityDisagree),
            plain(.region, a.region, b.region, agree: Weights.regionAgree, disagree: Weights.regionDisagree),
            plain(
                .postalCode, a.postalCode, b.postalCode, agree: Weights.postalCodeAgree,
                disagree: Weights.postalCodeDisagree),
        ]
        if street.outcome == .disagree {
            // Another house in the same town: agreeing on the town says nothing more about the person.
            for i in 1..<fields.count where fields[i].outcome == .agree {
                fields[i].weight = 0
                fields[i].remarks = .anotherHouse
            }
        }
        return fields
    }

    // MARK: Emails

    /// Why the emails say two people: both have HOME (or WORK) emails and none in common, or both have addresses
    /// at one domain and none in common (two colleagues' mailboxes).
    private static func differentEmails(_ a: MatchKeys, _ b: MatchKeys) -> String? {
        if a.sharesEmail(with: b) { return nil }
        for kind in [EmailKind.home, .work] where a.emailKinds.contains(kind) && b.emailKinds.contains(kind) {
            return "different \(kind.rawValue) emails"
        }
        if let shared = b.emailDomains.filter(a.emailDomains.contains).min() {
            return "different addresses at \(shared)"
        }
        return nil
    }

    /// Personal phones (mobile, home, untyped) on both cards and none in common: people change numbers, so this
    /// counts against, but does not rule out, the same person.
    private static func comparePhones(_ a: MatchKeys, _ b: MatchKeys) -> FieldComparison {
        let x = a.phones.filter(\.personal).map(\.key)
        let y = b.phones.filter(\.personal).map(\.key)
        if x.isEmpty || y.isEmpty { return FieldComparison(.phone, .missing) }
        return x.contains(where: y.contains)
            ? FieldComparison(.phone, .agree, 0, remarks: .identifier)
            : FieldComparison(.phone, .disagree, Weights.phoneDisagree)
    }
}
