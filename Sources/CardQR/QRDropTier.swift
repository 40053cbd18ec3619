/// What `CardQRFitter` leaves out of a card, in order, when the card is too large for the QR code: the one
/// place the priority is written down.
///
/// The photo never goes into a QR code (a 200 KB photo is 270 KB of base64; version 40 holds 2,953 bytes), and
/// neither does any other `PHOTO` line. Four things are never dropped: the name (`FN`, and `N`), the first `TEL`
/// and the first `EMAIL`; a card that does not fit with them is an error that says what would have to go.
/// Everything else belongs to one tier below. Fields are offered the room from the most important tier to the
/// least (`organization` first, `binary` last) and, within a tier, in the order the card writes them: each is
/// kept when the card still fits with it. So a field is only ever dropped for one it ranks below, or because it
/// does not fit on its own, and small low-ranked fields can still use room a large one left.
///
/// | Rank (kept first) | Tier              | Properties                                                     |
/// |-------------------|-------------------|----------------------------------------------------------------|
/// | never dropped     |                   | FN, N, the first TEL, the first EMAIL                          |
/// | 1                 | `organization`    | ORG                                                            |
/// | 2                 | `title`           | TITLE                                                          |
/// | 3                 | `extraPhones`     | TEL after the first                                            |
/// | 4                 | `extraEmails`     | EMAIL after the first                                          |
/// | 5                 | `firstURL`        | the first URL                                                  |
/// | 6                 | `extraURLs`       | URL after the first                                            |
/// | 7                 | `firstAddress`    | the first ADR                                                  |
/// | 8                 | `nicknameAndRole` | NICKNAME, ROLE                                                 |
/// | 9                 | `dates`           | BDAY, ANNIVERSARY (X-ANNIVERSARY in 3.0)                       |
/// | 10                | `messaging`       | IMPP, X-SOCIALPROFILE                                          |
/// | 11                | `labels`          | custom labels (`itemN.X-ABLabel`) of the values kept           |
/// | 12                | `extraAddresses`  | ADR after the first                                            |
/// | 13                | `otherProperties` | standard properties kept as written: GEO, TZ, LABEL, RELATED,  |
/// |                   |                   | a second FN, N, ORG or TITLE, ...                              |
/// | 14                | `categories`      | CATEGORIES                                                     |
/// | 15                | `note`            | NOTE                                                           |
/// | 16                | `xProperties`     | every other X- property                                        |
/// | 17                | `metadata`        | UID, REV, PRODID, CLASS, SORT-STRING, MAILER, SOURCE, NAME,    |
/// |                   |                   | PROFILE: for synchronising, not for the person scanning        |
/// | 18 (dropped first)| `binary`          | LOGO, SOUND, KEY                                               |
///
/// The order follows the "keep FN, N, ORG, TITLE, TEL, EMAIL, URL first"; a person's own words (NOTE)
/// rank above vendor and synchronisation data (X- properties, UID, REV), which a scanning phone ignores.
public enum QRDropTier: Int, CaseIterable, Comparable, Sendable {
    // Raw values are the rank: lower is kept first.
    case organization = 1
    case title
    case extraPhones
    case extraEmails
    case firstURL
    case extraURLs
    case firstAddress
    case nicknameAndRole
    case dates
    case messaging
    case labels
    case extraAddresses
    case otherProperties
    case categories
    case note
    case xProperties
    case metadata
    case binary

    public static func < (a: QRDropTier, b: QRDropTier) -> Bool { a.rawValue < b.rawValue }

    /// What the tier holds, in a few words for help text (`NOTE`, `addresses after the first`).
    public var summary: String {
        switch self {
        case .organization: "ORG"
        case .title: "TITLE"
        case .extraPhones: "phones after the first"
        case .extraEmails: "emails after the first"
        case .firstURL: "the first URL"
        case .extraURLs: "URLs after the first"
        case .firstAddress: "the first address"
        case .nicknameAndRole: "NICKNAME and ROLE"
        case .dates: "BDAY and ANNIVERSARY"
        case .messaging: "IMPP and social profiles"
        case .labels: "custom labels"
        case .extraAddresses: "addresses after the first"
        case .otherProperties: "other properties"
        case .categories: "CATEGORIES"
        case .note: "NOTE"
        case .xProperties: "X- properties"
        case .metadata: "UID, REV and other metadata"
        case .binary: "LOGO, SOUND and KEY"
        }
    }

    /// Properties for synchronising and bookkeeping.
    static let metadataNames: Set<String> = [
        "UID", "REV", "PRODID", "CLASS", "SORT-STRING", "MAILER", "SOURCE", "NAME", "PROFILE",
    ]

    /// The tier of the `ordinal`th (from 0) property called `name` in the card as written, or nil when it is
    /// never dropped. `PHOTO` is not asked about: it is always left out.
    static func of(property name: String, ordinal: Int) -> QRDropTier? {
        switch name {
        case "FN", "N": ordinal == 0 ? nil : .otherProperties
        case "TEL": ordinal == 0 ? nil : .extraPhones
        case "EMAIL": ordinal == 0 ? nil : .extraEmails
        case "ORG": ordinal == 0 ? .organization : .otherProperties
        case "TITLE": ordinal == 0 ? .title : .otherProperties
        case "URL": ordinal == 0 ? .firstURL : .extraURLs
        case "ADR": ordinal == 0 ? .firstAddress : .extraAddresses
        case "NICKNAME", "ROLE": .nicknameAndRole
        case "BDAY", "ANNIVERSARY", "X-ANNIVERSARY": .dates
        case "IMPP", "X-SOCIALPROFILE": .messaging
        case "CATEGORIES": .categories
        case "NOTE": .note
        case "LOGO", "SOUND", "KEY": .binary
        case _ where metadataNames.contains(name): .metadata
        case _ where name.hasPrefix("X-"): .xProperties
        default: .otherProperties
        }
    }
}
