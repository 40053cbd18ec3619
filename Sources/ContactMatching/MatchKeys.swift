import ContactModel
import Foundation

/// What matching looks at on one card, normalised once: identifiers, name, organisation and birthday.
/// A class, so the index hands out references: matching compares one incoming card with many indexed ones.
public final class MatchKeys: Sendable {
    /// The UID, trimmed; UUIDs (with or without `urn:uuid:`) lower-cased.
    public let uid: String?
    /// Email keys, each once.
    public let emails: [String]
    /// Phone keys, each once, with whether its type makes it personal (mobile, home, personal or untyped) rather than
    /// a shared line (work, main, fax, pager).
    public let phones: [(key: PhoneKey, personal: Bool)]
    /// The person's name, nil for an organisation's card or a card without a name.
    public let name: PersonName?
    /// The organisation, folded, with legal-form endings (Inc, LLC, GmbH...) dropped.
    public let organization: String?
    /// The birthday's parts.
    public let birthday: Birthday?
    /// FN folded, so cards with nothing else to index (a name alone) still meet their copies.
    public let formattedName: String?
    /// What the index files this card under, each once: UID, emails, phones, name keys (family name with the
    /// given name's nickname root, with its initial, and swapped), name with organisation, and folded FN.
    public let indexKeys: [IndexKey]

    /// The keys of `contact`, reading national phone numbers with `countryCode`.
    public init(_ contact: Contact, countryCode: Int?) {
        uid = contact.uid.flatMap(Self.uidKey)
        var seenEmails = Set<String>()
        emails = contact.emails.compactMap { EmailKey.key($0.value) }.filter { seenEmails.insert($0).inserted }
        var seenPhones = Set<PhoneKey>()
        var phones: [(key: PhoneKey, personal: Bool)] = []
        for phone in contact.phones {
            guard let key = PhoneKey(phone.value, countryCode: countryCode), seenPhones.insert(key).inserted else { continue }
            phones.append((key, Self.isPersonal(types: phone.types, label: phone.label)))
        }
        self.phones = phones
        name = PersonName(contact)
        organization = contact.organization.flatMap { Self.organizationKey($0.name) }
        birthday = contact.birthday.flatMap(Birthday.init)
        formattedName = contact.formattedName.map(TextFolding.fold).flatMap { $0.isEmpty ? nil : $0 }
        var indexKeys: [IndexKey] = []
        if let uid { indexKeys.append(IndexKey(.uid, uid)) }
        for e in emails { indexKeys.append(IndexKey(.email, e)) }
        for p in phones { indexKeys.append(IndexKey(.phone, p.key)) }
        if let name, !name.family.isEmpty, !name.given.isEmpty {
            indexKeys.append(IndexKey(.name, name.family + "|" + name.givenRoot))
            indexKeys.append(IndexKey(.name, name.family + "|" + String(name.given.prefix(1))))
            // Given and family swapped meet under this key, which is the first key of the swapped name.
            indexKeys.append(IndexKey(.name, name.given + "|" + Nicknames.root(name.family)))
            if let organization {
                indexKeys.append(IndexKey(.nameAndOrganization, name.family + "|" + name.given + "|" + organization))
            }
        }
        if let formattedName { indexKeys.append(IndexKey(.formattedName, formattedName)) }
        var seen = Set<Int>()
        self.indexKeys = indexKeys.filter { seen.insert($0.hash).inserted }
    }

    /// The keys of each of `contacts`, worked out on every processor (a large book has a hundred thousand).
    public static func all(_ contacts: [Contact], countryCode: Int?) -> [MatchKeys] {
        Concurrently.map(contacts, chunk: 2_048) { MatchKeys($0, countryCode: countryCode) }
    }

    /// Whether this card can hold everything `other` holds: each of its emails and phones, and its UID, organisation,
    /// birthday and (for a named card) formatted name when it has them. A quick necessary test before a full merge.
    public func couldContain(_ other: MatchKeys) -> Bool {
        if let uid = other.uid, uid != self.uid { return false }
        if let org = other.organization, org != organization { return false }
        if let birthday = other.birthday, birthday != self.birthday { return false }
        // A nameless card's FN is a reader's stand-in (an email or number), which a merge does not take.
        if other.name != nil, let fn = other.formattedName, fn != formattedName { return false }
        if !other.emails.allSatisfy(emails.contains) { return false }
        return other.phones.allSatisfy { p in phones.contains { $0.key == p.key } }
    }

    /// A UID as matching compares it: trimmed, UUIDs lower-cased without `urn:uuid:`; nil when blank.
    public static func uidKey(_ raw: String) -> String? {
        let trimmed = TextFolding.trimmed(raw)
        guard !trimmed.isEmpty else { return nil }
        let lower = trimmed.lowercased()
        let bare = lower.hasPrefix("urn:uuid:") ? String(lower.dropFirst(9)) : lower
        // UUIDs differ only in case between clients; other UIDs are compared as written.
        let isUUID = bare.count == 36 && bare.allSatisfy { $0.isHexDigit || $0 == "-" }
        return isUUID ? bare : trimmed
    }

    /// Types that mark a shared or business line.
    private static let sharedTypes: Set<String> = ["work", "main", "fax", "pager", "company", "workfax", "homefax", "otherfax", "assistant", "callback", "car", "isdn", "tty", "textphone", "video", "bbs", "modem", "msg"]

    static func isPersonal(types: [String], label: String?) -> Bool {
        for type in types where sharedTypes.contains(type.lowercased()) { return false }
        if let label, sharedTypes.contains(TextFolding.fold(label).replacingOccurrences(of: " ", with: "")) { return false }
        return true
    }

    private static let legalForms: Set<String> = ["inc", "incorporated", "llc", "ltd", "limited", "gmbh", "corp", "corporation", "co", "company", "plc", "ag", "sa", "srl", "bv", "nv", "llp", "lp", "pty", "kg", "oy", "ab", "as", "spa", "sarl", "the"]

    static func organizationKey(_ name: String) -> String? {
        let words = TextFolding.words(name).filter { !legalForms.contains(String($0)) }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}

/// A birthday's year (when given), month and day.
public struct Birthday: Hashable, Sendable {
    /// The year, nil for `--MMDD`.
    public var year: Int?
    /// 1-12.
    public var month: Int
    /// 1-31.
    public var day: Int

    /// Reads `1985-04-15`, `19850415`, `--0415`, `--04-15`, `1985-04-15T00:00:00Z`; nil for anything else.
    public init?(_ text: String) {
        var digits = ""
        var leadingDashes = 0
        for (i, c) in TextFolding.trimmed(text).enumerated() {
            if c == "T" || c == "t" { break }
            if c.isASCII && c.isNumber { digits.append(c) } else if c == "-" && digits.isEmpty { leadingDashes = i + 1 } else if c != "-" { return nil }
        }
        if digits.count == 8, leadingDashes == 0 {
            year = Int(digits.prefix(4))
            month = Int(digits.dropFirst(4).prefix(2))!
            day = Int(digits.suffix(2))!
        } else if digits.count == 4, leadingDashes == 2 {
            year = nil
            month = Int(digits.prefix(2))!
            day = Int(digits.suffix(2))!
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
    }

    /// Whether the two cannot be the same person's birthday.
    public func conflicts(with other: Birthday) -> Bool {
        if month != other.month || day != other.day { return true }
        if let a = year, let b = other.year, a != b { return true }
        return false
    }
}
