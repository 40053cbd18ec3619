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

    /// Reads `line` with the scribe for `name`; false when there is none (the property is kept raw) or it cannot
    /// understand the line. Each scribe is called as its own type: through an `any PropertyScribe`, every line
    /// would copy a scribe into an existential and destroy it again.
    static func read(_ line: RawCard.Line, named name: PropertyName, into context: inout ReadContext) -> Bool {
        switch name {
        case .formattedName: formattedName.read(line, into: &context)
        case .name: Self.name.read(line, into: &context)
        case .nickname: nickname.read(line, into: &context)
        case .photo: photo.read(line, into: &context)
        case .birthday: birthday.read(line, into: &context)
        case .anniversary, .xAnniversary: anniversary.read(line, into: &context)
        case .address: address.read(line, into: &context)
        case .telephone: telephone.read(line, into: &context)
        case .email: email.read(line, into: &context)
        case .impp: impp.read(line, into: &context)
        case .xSocialProfile: socialProfile.read(line, into: &context)
        case .title: title.read(line, into: &context)
        case .role: role.read(line, into: &context)
        case .organization: organization.read(line, into: &context)
        case .categories: categories.read(line, into: &context)
        case .note: note.read(line, into: &context)
        case .url: url.read(line, into: &context)
        case .uid: uid.read(line, into: &context)
        case .revision: revision.read(line, into: &context)
        case .xAndroidCustom: AndroidNicknameScribe.read(line, into: &context)
        case .begin, .end, .version, .xABLabel, .other: false
        }
    }

    /// Writes the contact's modeled properties, each scribe called as its own type, in the order a receiving app
    /// shows them: identity first.
    static func writeAll(_ contact: Contact, into context: inout WriteContext) {
        formattedName.write(contact, into: &context)
        name.write(contact, into: &context)
        nickname.write(contact, into: &context)
        organization.write(contact, into: &context)
        title.write(contact, into: &context)
        role.write(contact, into: &context)
        photo.write(contact, into: &context)
        telephone.write(contact, into: &context)
        email.write(contact, into: &context)
        address.write(contact, into: &context)
        url.write(contact, into: &context)
        impp.write(contact, into: &context)
        socialProfile.write(contact, into: &context)
        birthday.write(contact, into: &context)
        anniversary.write(contact, into: &context)
        note.write(contact, into: &context)
        categories.write(contact, into: &context)
        uid.write(contact, into: &context)
        revision.write(contact, into: &context)
    }

    /// Whether a property of this name takes an `X-ABLabel` from its group.
    static func takesLabel(_ name: PropertyName) -> Bool {
        switch name {
        case .telephone, .email, .address, .url, .impp, .xSocialProfile: true
        default: false
        }
    }
}
