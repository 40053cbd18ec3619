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
    /// How the source card spelled what the fields above hold, where vCard has several ways, so that it is
    /// written back the same way; empty for a contact made in memory.
    public var spelling: SourceSpelling

    /// Creates a contact; every field defaults to empty.
    public init(
        uid: String? = nil, formattedName: String? = nil, name: StructuredName? = nil,
        nicknames: [String] = [], organization: Organization? = nil, title: String? = nil,
        role: String? = nil, emails: [LabeledValue] = [], phones: [LabeledValue] = [],
        addresses: [Address] = [], urls: [LabeledValue] = [], instantMessaging: [LabeledValue] = [],
        socialProfiles: [LabeledValue] = [], birthday: String? = nil, anniversary: String? = nil,
        note: String? = nil, categories: [String] = [], photo: Photo? = nil, revision: String? = nil,
        extensions: [Extension] = [], spelling: SourceSpelling = SourceSpelling()
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
        self.spelling = spelling
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case uid, formattedName, name, nicknames, organization, title, role, emails, phones, addresses, urls
        case instantMessaging, socialProfiles, birthday, anniversary, note, categories, photo, revision, extensions
        case spelling
    }

    /// The keys of this object in Contact JSON.
    static var jsonKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        UnknownJSONKeys.record(decoder, known: CodingKeys.self)
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
        spelling = try c.decodeIfPresent(SourceSpelling.self, forKey: .spelling) ?? SourceSpelling()
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
        if !spelling.isEmpty { try c.encode(spelling, forKey: .spelling) }
    }
}

extension Contact {
    /// What a contacts app shows when FN is missing: the name, else the organisation, email, phone.
    public var derivedDisplayName: String {
        // An N or ORG kept as written (`N;LANGUAGE=en-us:Smith;John`, as Outlook writes it) names the card before
        // its phone number does.
        (hasKeptFields ? promotingKeptFields() : self).modelDisplayName
    }

    private var modelDisplayName: String {
        if let name, !name.isEmpty { return name.displayName }
        if let organization, !organization.name.isEmpty { return organization.name }
        if let email = emails.first { return email.value }
        if let phone = phones.first { return phone.value }
        if let nickname = nicknames.first { return nickname }
        return ""
    }
}

/// How a source card spelled what a contact's fields hold, where vCard has several spellings of the same
/// thing; the writer keeps the source's spelling, so what a reader of the source found, it finds in the output.
public struct SourceSpelling: Hashable, Sendable, Codable {
    /// The name a 2.1 or 3.0 card gave the anniversary, `ANNIVERSARY` or `X-ANNIVERSARY`, which 3.0 output
    /// keeps; nil writes 3.0's usual `X-ANNIVERSARY` (a 4.0 ANNIVERSARY converted down).
    public var anniversaryName: String?
    /// How many nicknames each NICKNAME line held, when the card had more than one line (several lines are
    /// several properties to a reader, one line with commas one property).
    public var nicknameLines: [Int]
    /// How many categories each CATEGORIES line held, when the card had more than one line.
    public var categoryLines: [Int]
    /// Whether the card had an N with nothing in it (`N:;;;;`), which 4.0 output keeps too.
    public var emptyName: Bool
    /// The year Apple writes in place of a birthday's or anniversary's missing one
    /// (`BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-15`, which the model holds as `--04-15`): 2.1 and 3.0 output writes a
    /// date without a year that way again, for Apple's readers.
    public var omittedYear: String?
    /// The group a single-valued property was written in, by the property's name (`ORG` for `item1.ORG:Acme`
    /// beside `item1.X-ABLabel:Work`, a labelled organisation as Google Contacts and khard write it): the model
    /// holds the value, and the output writes it in that group again, so the label beside it still labels it.
    public var groups: [String: String] = [:]

    /// Creates a spelling; by default the writer's own.
    public init(
        anniversaryName: String? = nil, nicknameLines: [Int] = [], categoryLines: [Int] = [], emptyName: Bool = false
    ) {
        self.anniversaryName = anniversaryName
        self.nicknameLines = nicknameLines
        self.categoryLines = categoryLines
        self.emptyName = emptyName
    }

    /// Whether nothing differs from the writer's own spelling.
    public var isEmpty: Bool {
        anniversaryName == nil && nicknameLines.isEmpty && categoryLines.isEmpty && !emptyName && omittedYear == nil
            && groups.isEmpty
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case anniversaryName, nicknameLines, categoryLines, emptyName, omittedYear, groups
    }

    /// The keys of this object in Contact JSON.
    static var jsonKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        UnknownJSONKeys.record(decoder, known: CodingKeys.self)
        anniversaryName = try c.decodeIfPresent(String.self, forKey: .anniversaryName)
        nicknameLines = try c.decodeIfPresent([Int].self, forKey: .nicknameLines) ?? []
        categoryLines = try c.decodeIfPresent([Int].self, forKey: .categoryLines) ?? []
        emptyName = try c.decodeIfPresent(Bool.self, forKey: .emptyName) ?? false
        omittedYear = try c.decodeIfPresent(String.self, forKey: .omittedYear)
        groups = try c.decodeIfPresent([String: String].self, forKey: .groups) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(anniversaryName, forKey: .anniversaryName)
        if !nicknameLines.isEmpty { try c.encode(nicknameLines, forKey: .nicknameLines) }
        if !categoryLines.isEmpty { try c.encode(categoryLines, forKey: .categoryLines) }
        if emptyName { try c.encode(emptyName, forKey: .emptyName) }
        try c.encodeIfPresent(omittedYear, forKey: .omittedYear)
        if !groups.isEmpty { try c.encode(groups, forKey: .groups) }
    }
}
