#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A person's (or organisation's) card, independent of any file format: what preview, JSON and merge use.
///
/// Everything a format carries that the model does not name lives in `extensions`, in source order, so
/// vCard -> Contact -> vCard loses nothing. Empty collections and nil fields are left out of JSON.
public struct Contact: Hashable, Sendable, Codable {
    /// The globally unique identifier (UID).
    public var uid: String?
    /// The name as displayed (FN).
    public var formattedName: String?
    /// The name in parts (N).
    public var name: StructuredName?
    /// Other names (NICKNAME).
    public var nicknames: [String]
    /// The organisation and its units (ORG).
    public var organization: Organization?
    /// The job title (TITLE).
    public var title: String?
    /// The role or function (ROLE).
    public var role: String?
    /// Email addresses (EMAIL).
    public var emails: [LabeledValue]
    /// Telephone numbers (TEL), as written, without a `tel:` prefix.
    public var phones: [LabeledValue]
    /// Postal addresses (ADR).
    public var addresses: [Address]
    /// Web addresses (URL).
    public var urls: [LabeledValue]
    /// Instant messaging addresses (IMPP), as URIs such as `xmpp:jane@example.com`.
    public var instantMessaging: [LabeledValue]
    /// Social profiles (X-SOCIALPROFILE), with the service in `types`.
    public var socialProfiles: [LabeledValue]
    /// The birthday (BDAY) as written: `1985-04-15`, `--0415`, `19850415`, or free text.
    public var birthday: String?
    /// The anniversary (ANNIVERSARY, or X-ANNIVERSARY in 3.0) as written.
    public var anniversary: String?
    /// Free text (NOTE).
    public var note: String?
    /// Tags (CATEGORIES).
    public var categories: [String]
    /// The photo (PHOTO): embedded bytes or a link.
    public var photo: Photo?
    /// When the card was last changed (REV), as written.
    public var revision: String?
    /// Every property the model does not name, as written, in source order.
    public var extensions: [Extension]

    /// Creates a contact; every field defaults to empty.
    public init(
        uid: String? = nil, formattedName: String? = nil, name: StructuredName? = nil,
        nicknames: [String] = [], organization: Organization? = nil, title: String? = nil,
        role: String? = nil, emails: [LabeledValue] = [], phones: [LabeledValue] = [],
        addresses: [Address] = [], urls: [LabeledValue] = [], instantMessaging: [LabeledValue] = [],
        socialProfiles: [LabeledValue] = [], birthday: String? = nil, anniversary: String? = nil,
        note: String? = nil, categories: [String] = [], photo: Photo? = nil, revision: String? = nil,
        extensions: [Extension] = []
    ) {
        self.uid = uid
        self.formattedName = formattedName
        self.name = name
        self.nicknames = nicknames
        self.organization = organization
        self.title = title
        self.role = role
        self.emails = emails
        self.phones = phones
        self.addresses = addresses
        self.urls = urls
        self.instantMessaging = instantMessaging
        self.socialProfiles = socialProfiles
        self.birthday = birthday
        self.anniversary = anniversary
        self.note = note
        self.categories = categories
        self.photo = photo
        self.revision = revision
        self.extensions = extensions
    }

    private enum CodingKeys: String, CodingKey {
        case uid, formattedName, name, nicknames, organization, title, role, emails, phones, addresses, urls
        case instantMessaging, socialProfiles, birthday, anniversary, note, categories, photo, revision, extensions
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        uid = try c.decodeIfPresent(String.self, forKey: .uid)
        formattedName = try c.decodeIfPresent(String.self, forKey: .formattedName)
        name = try c.decodeIfPresent(StructuredName.self, forKey: .name)
        nicknames = try c.decodeIfPresent([String].self, forKey: .nicknames) ?? []
        organization = try c.decodeIfPresent(Organization.self, forKey: .organization)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        role = try c.decodeIfPresent(String.self, forKey: .role)
        emails = try c.decodeIfPresent([LabeledValue].self, forKey: .emails) ?? []
        phones = try c.decodeIfPresent([LabeledValue].self, forKey: .phones) ?? []
        addresses = try c.decodeIfPresent([Address].self, forKey: .addresses) ?? []
        urls = try c.decodeIfPresent([LabeledValue].self, forKey: .urls) ?? []
        instantMessaging = try c.decodeIfPresent([LabeledValue].self, forKey: .instantMessaging) ?? []
        socialProfiles = try c.decodeIfPresent([LabeledValue].self, forKey: .socialProfiles) ?? []
        birthday = try c.decodeIfPresent(String.self, forKey: .birthday)
        anniversary = try c.decodeIfPresent(String.self, forKey: .anniversary)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        categories = try c.decodeIfPresent([String].self, forKey: .categories) ?? []
        photo = try c.decodeIfPresent(Photo.self, forKey: .photo)
        revision = try c.decodeIfPresent(String.self, forKey: .revision)
        extensions = try c.decodeIfPresent([Extension].self, forKey: .extensions) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(uid, forKey: .uid)
        try c.encodeIfPresent(formattedName, forKey: .formattedName)
        try c.encodeIfPresent(name, forKey: .name)
        if !nicknames.isEmpty { try c.encode(nicknames, forKey: .nicknames) }
        try c.encodeIfPresent(organization, forKey: .organization)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(role, forKey: .role)
        if !emails.isEmpty { try c.encode(emails, forKey: .emails) }
        if !phones.isEmpty { try c.encode(phones, forKey: .phones) }
        if !addresses.isEmpty { try c.encode(addresses, forKey: .addresses) }
        if !urls.isEmpty { try c.encode(urls, forKey: .urls) }
        if !instantMessaging.isEmpty { try c.encode(instantMessaging, forKey: .instantMessaging) }
        if !socialProfiles.isEmpty { try c.encode(socialProfiles, forKey: .socialProfiles) }
        try c.encodeIfPresent(birthday, forKey: .birthday)
        try c.encodeIfPresent(anniversary, forKey: .anniversary)
        try c.encodeIfPresent(note, forKey: .note)
        if !categories.isEmpty { try c.encode(categories, forKey: .categories) }
        try c.encodeIfPresent(photo, forKey: .photo)
        try c.encodeIfPresent(revision, forKey: .revision)
        if !extensions.isEmpty { try c.encode(extensions, forKey: .extensions) }
    }
}

extension Contact {
    /// What a contacts app shows when FN is missing: the name, else the organisation, email, phone.
    public var derivedDisplayName: String {
        if let name, !name.isEmpty { return name.displayName }
        if let organization, !organization.name.isEmpty { return organization.name }
        if let email = emails.first { return email.value }
        if let phone = phones.first { return phone.value }
        if let nickname = nicknames.first { return nickname }
        return ""
    }
}
