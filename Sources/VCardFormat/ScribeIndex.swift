import ContactModel
import VCardSyntax

/// Which scribe reads each property, and the order in which the writer asks them to write.
enum ScribeIndex {
    static let formattedName = FormattedNameScribe()
    static let name = NameScribe()
    static let nickname = ListScribe(name: "NICKNAME", field: .nicknames, onePerLine: true)
    static let photo = PhotoScribe()
    static let birthday = SingleTextScribe(
        name: "BDAY", field: .birthday, rawIfParameters: true, dateType: .dateAndOrTime)
    static let anniversary = SingleTextScribe(
        name: "ANNIVERSARY", field: .anniversary, name3: "X-ANNIVERSARY",
        rawIfParameters: true, dateType: .dateAndOrTime)
    static let address = AddressScribe()
    static let telephone = LabeledValueScribe(name: "TEL", field: .phones, stripsTelScheme: true)
    static let email = LabeledValueScribe(name: "EMAIL", field: .emails)
    static let impp = LabeledValueScribe(name: "IMPP", field: .instantMessaging, isURI: true)
    static let socialProfile = LabeledValueScribe(name: "X-SOCIALPROFILE", field: .socialProfiles, isURI: true)
    static let title = SingleTextScribe(name: "TITLE", field: .title)
    static let role = SingleTextScribe(name: "ROLE", field: .role)
    static let organization = OrganizationScribe()
    static let categories = ListScribe(name: "CATEGORIES", field: .categories)
    static let note = SingleTextScribe(name: "NOTE", field: .note)
    static let url = LabeledValueScribe(name: "URL", field: .urls, isURI: true)
    static let uid = SingleTextScribe(name: "UID", field: .uid)
    static let revision = SingleTextScribe(name: "REV", field: .revision, rawIfParameters: true, dateType: .timestamp)

    /// The scribe for a property, or nil when the property is kept raw.
    static func scribe(for name: PropertyName) -> (any PropertyScribe)? {
        switch name {
        case .formattedName: formattedName
        case .name: Self.name
        case .nickname: nickname
        case .photo: photo
        case .birthday: birthday
        case .anniversary, .xAnniversary: anniversary
        case .address: address
        case .telephone: telephone
        case .email: email
        case .impp: impp
        case .xSocialProfile: socialProfile
        case .title: title
        case .role: role
        case .organization: organization
        case .categories: categories
        case .note: note
        case .url: url
        case .uid: uid
        case .revision: revision
        case .begin, .end, .version, .xABLabel, .other: nil
        }
    }

    /// The order properties are written in: identity first, as a receiving app shows them.
    static let writeOrder: [any PropertyScribe] = [
        formattedName, name, nickname, organization, title, role, photo, telephone, email, address, url, impp,
        socialProfile, birthday, anniversary, note, categories, uid, revision,
    ]

    /// Whether a property of this name takes an `X-ABLabel` from its group.
    static func takesLabel(_ name: PropertyName) -> Bool {
        switch name {
        case .telephone, .email, .address, .url, .impp, .xSocialProfile: true
        default: false
        }
    }
}
