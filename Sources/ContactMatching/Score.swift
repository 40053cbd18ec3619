/// The score of one pair with every comparison held in place, without an allocation: choosing among a card's
/// candidates scores hundreds of thousands of pairs and reads a few of its values; the `ScoreCard` a report shows
/// (a list of fields, the veto as text) is made from it only for the pairs a report explains.
package struct Score: Sendable {
    package var given = FieldComparison(.givenName, .missing)
    package var family = FieldComparison(.familyName, .missing)
    package var birthday = FieldComparison(.birthday, .missing)
    package var street = FieldComparison(.street, .missing)
    package var locality = FieldComparison(.locality, .missing)
    package var region = FieldComparison(.region, .missing)
    package var postalCode = FieldComparison(.postalCode, .missing)
    package var organization = FieldComparison(.organization, .missing)
    package var phone = FieldComparison(.phone, .missing)
    /// Two other people's names: the comparison stopped at the names, and the card lists those two alone.
    package var stoppedAtNames = false
    /// Names and birthday too far apart for the rest to reach the threshold asked for: the comparison stopped at
    /// the birthday, and the card lists the first three fields alone.
    package var stoppedAtBirthday = false
    /// The sum of the weights, in tenths.
    package var total = 0
    /// Why the cards cannot merge whatever the total (`ScoreCard.veto`).
    package var veto: Veto?
    /// See `ScoreCard.namesAgree`.
    package var namesAgree = false
    /// See `ScoreCard.birthdayAgrees`.
    package var birthdayAgrees = false
    /// See `ScoreCard.typoAtOneHome`.
    package var typoAtOneHome = false
    /// See `ScoreCard.sameNameAndBirthday`.
    package var sameNameAndBirthday = false

    /// Conflicting strong evidence that rules out a merge, kept as what it is until a report asks for its text.
    package enum Veto: Sendable, CustomStringConvertible {
        case generations(String?, String?)
        case middleInitials
        case middleNames
        case givenNames
        case familyNames
        case birthdays
        case emails(EmailKind)
        case domain(Substring)

        package var description: String {
            switch self {
            case .generations(let a, let b): "different generations (\(a ?? "none"), \(b ?? "none"))"
            case .middleInitials: "different middle initials"
            case .middleNames: "different middle names"
            case .givenNames: "different given names"
            case .familyNames: "different family names"
            case .birthdays: "different birthdays"
            case .emails(let kind): "different \(kind.rawValue) emails"
            case .domain(let domain): "different addresses at \(domain)"
            }
        }
    }

    /// The fields in the card's fixed order, those compared alone when the comparison stopped early.
    package var fields: [FieldComparison] {
        stoppedAtNames
            ? [given, family]
            : stoppedAtBirthday
                ? [given, family, birthday]
                : [given, family, birthday, street, locality, region, postalCode, organization, phone]
    }

    /// Whether the total is allowed to merge (`ScoreCard.merges`).
    package var merges: Bool {
        ScoreCard.merges(
            vetoed: veto != nil, total: total, namesAgree: namesAgree, birthdayAgrees: birthdayAgrees,
            typoAtOneHome: typoAtOneHome, sameNameAndBirthday: sameNameAndBirthday)
    }

    /// Whether the cards describe people living in different places (`ScoreCard.elsewhere`).
    package var isElsewhere: Bool { ScoreCard.elsewhere(street: street.outcome, locality: locality.outcome) }

    /// Whether some field's outcome carries `remark` (one written out field by field: this runs for every pair).
    package func anyField(remarked remark: FieldComparison.Remarks) -> Bool {
        given.remarks.contains(remark) || family.remarks.contains(remark) || birthday.remarks.contains(remark)
            || street.remarks.contains(remark) || locality.remarks.contains(remark)
            || region.remarks.contains(remark) || postalCode.remarks.contains(remark)
            || organization.remarks.contains(remark) || phone.remarks.contains(remark)
    }

    /// The card a report shows.
    package var card: ScoreCard {
        var card = ScoreCard(
            fields: fields, total: total, veto: veto?.description, namesAgree: namesAgree,
            birthdayAgrees: birthdayAgrees)
        card.typoAtOneHome = typoAtOneHome
        card.sameNameAndBirthday = sameNameAndBirthday
        return card
    }
}
