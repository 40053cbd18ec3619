/// Every weight the score rule adds or subtracts, in tenths of a point, in one table.
///
/// The rule is Fellegi-Sunter's: each field's agreement adds about log2(m/u) and its disagreement about
/// log2((1-m)/(1-u)), where m is how often the same person's two cards agree on the field and u how often two
/// different people's cards do, both among pairs that share a blocking key (a name, a birthday, a home). A point
/// here is about two bits. The values are reasoned from how often fields agree by chance in real address books,
/// not fitted to a data set:
///
/// - A full birthday: two people among the candidates share one about once in 20,000 pairs (365 days over some
///   60 years), and the same person's cards agree unless one has a typo: the strongest field.
/// - A family name: shared by chance about once in a few hundred pairs once a given name matches, less often
///   than a given name, which is why it weighs more.
/// - A street with its house number: nearly unique, but people move, so disagreement costs little; a town or
///   region is shared by thousands, so it adds little, and nothing when the house differs.
/// - A postal code: a few thousand homes; it adds less than the street it usually comes with.
///
/// Disagreements on names and birthdays cost as much as agreement gains, because the same person's cards rarely
/// disagree on them; on addresses and phones they cost little, because people move and change numbers.
public enum Weights {
    // Names.
    public static let givenAgree = 30
    public static let givenSimilar = 20  // a typo (Jaro-Winkler at or above `Scoring.similarity`)
    public static let givenInitial = 10
    public static let givenDisagree = -30
    public static let familyAgree = 40
    public static let familySimilar = 30
    public static let familyDisagree = -40

    // Birthday.
    public static let birthdayAgree = 50
    public static let birthdayNoYear = 20  // month and day agree, one card has no year
    public static let birthdayDaySwapped = 10  // 03/04 read as April 3rd on one side, March 4th on the other
    /// One digit wrong or two digits transposed in the same year, at one home under one name: a typo.
    public static let birthdayTypo = 10
    public static let birthdayDisagree = -50

    // Postal address (the best-agreeing pair of the two cards' addresses).
    public static let streetAgree = 30
    public static let streetSimilar = 20
    public static let streetDisagree = -10
    public static let localityAgree = 10
    public static let localityDisagree = -10
    public static let regionAgree = 5
    public static let regionDisagree = -5
    public static let postalCodeAgree = 20
    public static let postalCodeDisagree = -15

    // Organisation and phones.
    public static let organizationAgree = 10
    /// Personal phones on both cards, none in common: people change numbers, so only a little against.
    public static let phoneDisagree = -10

    // Identifiers, which the identifier rules decide on; for ranking possible duplicates they count as fields.
    public static let sharedEmail = 40
    public static let sharedPersonalPhone = 40
    /// A work line, a family address or a number several cards share.
    public static let sharedLine = 10

    /// A total at or above this (10.0) is the same person, when the names agree exactly, or the full birthday
    /// does, or one name part has a typo at one home, and nothing vetoes it.
    public static let merge = 100
    /// A total at or above this (6.0) is a possible duplicate.
    public static let possible = 60
    /// Jaro-Winkler at or above this counts a name or street as the same with a typo.
    public static let similarity = 0.85

    // Strength: which of two existing cards an incoming card matches best, when it matches several. Not a score
    // of the same person: a card found by UID beats one found by shared identifiers, which beats the score.
    /// A card with the same UID.
    public static let strengthUID = 100
    /// Each email or personal phone only the two cards share.
    public static let strengthStrongIdentifier = 10
    /// Each work line, family address or number other cards share too.
    public static let strengthWeakIdentifier = 3
    /// Names identical (or compatible: a nickname, an initial).
    public static let strengthIdenticalName = 2
    public static let strengthCompatibleName = 1
    /// The same organisation.
    public static let strengthSameOrganization = 1
}
