import ContactModel
import Foundation
import Utilities

/// What matching looks at on one card, normalised once: identifiers, name, organisation and birthday.
/// A class, so the index hands out references: matching compares one incoming card with many indexed ones.
///
/// Sendable because nothing changes it once it is shared: only `resolveNationalNumbers(countryCode:)` does, and
/// only for keys that have not left the code that made them (a book's keys, before it is read whole). For the
/// same reason its variables are read without the run-time exclusivity check, which every pair the decision rule
/// compares paid several times over.
public final class MatchKeys: @unchecked Sendable {
    /// The UID, trimmed; UUIDs (with or without `urn:uuid:`) lower-cased.
    public let uid: String?
    /// Email keys, each once.
    public let emails: [String]
    /// What each email's TYPE says it is for, by position in `emails`.
    package let emailKinds: [EmailKind]
    /// Each email's domain, by position in `emails` (pairs compare them often; each is worked out once).
    public let emailDomains: [Substring]
    /// Phone keys, each once, with whether its type makes it personal (mobile, home, personal or untyped) rather than
    /// a shared line (work, main, fax, pager).
    @exclusivity(unchecked) package private(set) var phones: [(key: PhoneKey, personal: Bool)]
    /// The person's name, nil for an organisation's card or a card without a name.
    public var name: PersonName? { hasName ? personName : nil }
    /// The name, empty when `hasName` is false, read in place by the decision rule: unwrapping `name` for each
    /// pair copied the name (retaining each of its texts) only to release it again.
    package let personName: PersonName
    /// Whether the card has a person's name.
    package let hasName: Bool
    /// What comparing the name reads of its parts, worked out once (nil without a name).
    let nameFacts: NameFacts?
    /// The organisation, folded, with legal-form endings (Inc, LLC, GmbH...) dropped.
    public let organization: String?
    /// The birthday's parts.
    package let birthday: Birthday?
    /// FN folded, so cards with nothing else to index (a name alone) still meet their copies.
    public let formattedName: String?
    /// The postal addresses, normalised.
    package let addresses: [AddressKey]
    /// Each email's position in `emails`, for a card with more than `largeList` of them; nil otherwise.
    private let emailPositions: [String: Int]?
    /// The email domains, for a card with more than `largeList` emails; nil otherwise.
    private let domainSet: Set<Substring>?
    /// Which kinds (`EmailKind`) the card's emails have, a bit each.
    private let emailKindBits: UInt8
    /// Each phone's position in `phones`, for a card with more than `largeList` of them; nil otherwise.
    @exclusivity(unchecked) private var phoneSet: [PhoneKey: Int]?
    /// Whether the card has a personal phone (mobile, home, untyped).
    @exclusivity(unchecked) package private(set) var hasPersonalPhone: Bool
    /// Fingerprints that rule out most unequal values of two cards without comparing their texts (a dedupe of a
    /// large book decides about a million pairs, nearly every one with two different UIDs and emails): equal
    /// texts have equal hashes, so a pair whose fingerprints differ has different texts, and any other pair is
    /// compared as before. The UID's index key hash (0 without a UID), one bit per email and one per phone (set by
    /// its index key hash), and the organisation's hash (0 without one). The phones' bits spare a pair without a
    /// common number from reading the other card's phones, the most frequent cache miss of deciding a pair.
    private let uidHash: Int
    private let emailBits: UInt64
    /// One bit per email domain, set by the domain's hash, as `emailBits` for emails; every bit when a domain is
    /// not ASCII. Domains are compared with `==`, the standard library's canonical equivalence, and the hash
    /// composes text with Foundation, whose Unicode tables can be older (`x\u{0897}\u{0316}` and
    /// `x\u{0316}\u{0897}` are equal to the one and composed apart by the other): only ASCII, which both leave
    /// as it is, is ruled out by its hash.
    private let domainBits: UInt64
    @exclusivity(unchecked) private var phoneBits: UInt64
    private let organizationHash: Int
    /// Above this many values a card's lookups go through a set: a linear search is faster below it, and a card
    /// with 100,000 emails must not make matching quadratic.
    static let largeList = 16

    /// Whether the card has the email key `email`.
    package func hasEmail(_ email: String) -> Bool {
        if let emailPositions { return emailPositions[email] != nil }
        return emails.contains(email)
    }

    /// Whether one of the card's emails is of `kind`.
    package func hasEmail(kind: EmailKind) -> Bool { emailKindBits & Self.bit(kind) != 0 }

    private static func bit(_ kind: EmailKind) -> UInt8 {
        switch kind {
        case .home: 1
        case .work: 2
        case .other: 4
        }
    }

    /// Whether one of the card's emails is at `domain`.
    package func hasDomain(_ domain: Substring) -> Bool { domainSet?.contains(domain) ?? emailDomains.contains(domain) }

    /// False when the cards certainly share no email domain; true when they may (then each is compared).
    package func mayShareDomain(with other: MatchKeys) -> Bool { domainBits & other.domainBits != 0 }

    /// The emails `other` has too, in this card's order. Looked up from the card with fewer: a card with
    /// thousands (a mailing list kept as one card) made every pair it was in cost as many lookups, and a dedupe
    /// of a book with one such card quadratic.
    package func sharedEmails(with other: MatchKeys) -> [String] {
        guard mayShareEmail(with: other) else { return [] }
        guard let emailPositions, other.emails.count < emails.count else { return emails.filter(other.hasEmail) }
        return other.emails.filter { emailPositions[$0] != nil }.sorted { emailPositions[$0]! < emailPositions[$1]! }
    }

    /// The phones `other` has too, in this card's order, looked up from the card with fewer (as `sharedEmails`).
    package func sharedPhones(with other: MatchKeys) -> [(key: PhoneKey, personal: Bool)] {
        guard maySharePhone(with: other) else { return [] }
        guard let phoneSet, other.phones.count < phones.count else {
            return phones.filter { other.phone($0.key) != nil }
        }
        return other.phones.compactMap { phoneSet[$0.key] }.sorted().map { phones[$0] }
    }

    /// Whether the cards have the same UID (both have one).
    package func sameUID(as other: MatchKeys) -> Bool {
        guard let uid, uidHash == other.uidHash else { return false }
        return uid == other.uid
    }

    /// Whether the cards carry one name: the same person's name, or the same formatted name on two cards without
    /// a person's name.
    package func isNamed(like other: MatchKeys) -> Bool {
        hasName == other.hasName && (hasName ? personName == other.personName : formattedName == other.formattedName)
    }

    /// Whether the cards have the same organisation (both have one).
    package func sameOrganization(as other: MatchKeys) -> Bool {
        guard let organization, organizationHash == other.organizationHash else { return false }
        return organization == other.organization
    }

    /// False when the cards certainly share no email; true when they may (then each is compared).
    package func mayShareEmail(with other: MatchKeys) -> Bool { emailBits & other.emailBits != 0 }

    /// False when some email of `other` is certainly not on this card; true when each may be.
    private func mayHaveEmails(of other: MatchKeys) -> Bool { other.emailBits & ~emailBits == 0 }

    /// False when the cards certainly share no phone; true when they may (then each is looked up).
    package func maySharePhone(with other: MatchKeys) -> Bool { phoneBits & other.phoneBits != 0 }

    /// The bit an email's or phone's index key hash sets in `emailBits` or `phoneBits`.
    private static func fingerprintBit(_ hash: Int) -> UInt64 { 1 &<< UInt64(UInt(bitPattern: hash) & 63) }

    private static func textHash(_ text: String) -> Int {
        var state = KeyHashing.State(kind: 0)
        state.combine(text)
        return state.finalize()
    }

    /// Whether the card has the phone key `key`, and whether it is personal there; nil when it lacks it.
    package func phone(_ key: PhoneKey) -> Bool? {
        if let phoneSet { return phoneSet[key].map { phones[$0].personal } }
        return phones.first { $0.key == key }?.personal
    }

    /// Whether the cards share an email.
    package func sharesEmail(with other: MatchKeys) -> Bool {
        guard mayShareEmail(with: other) else { return false }
        let (small, large) = emails.count <= other.emails.count ? (self, other) : (other, self)
        return small.emails.contains(where: large.hasEmail)
    }

    /// What the index files this card under, each once: UID, emails, phones, name keys (family name with the
    /// given name's nickname root, with its initial, and swapped), name with organisation, folded FN, and the
    /// blocking keys that find a person whose name has a typo: Soundex of the family name with the given name's
    /// initial (and swapped), the full birthday, and the postal code with the house number.
    @exclusivity(unchecked) package private(set) var indexKeys: [IndexKey]

    /// One hash of every index key but the UID's: equal for copies of one card (whatever their UIDs), so copies
    /// whose every key is too common to compare by are still found. Worked out when asked.
    package var copyFingerprint: Int {
        var sorted = indexKeys.filter { $0.kind != .uid }.map(\.hash)
        sorted.sort()
        var state = KeyHashing.State(kind: 0)
        for hash in sorted { state.combine(hash) }
        return state.finalize()
    }

    /// Each phone's position, for a card with more than `largeList` phones (each key once); nil otherwise.
    private static func positions(_ phones: [(key: PhoneKey, personal: Bool)]) -> [PhoneKey: Int]? {
        phones.count > largeList ? Dictionary(zip(phones.lazy.map(\.key), phones.indices)) { first, _ in first } : nil
    }

    /// The keys of `contact`, reading national phone numbers with `countryCode`.
    public convenience init(_ contact: borrowing Contact, countryCode: Int?) {
        // A name or organisation kept with its parameters (`N;LANGUAGE=en-us`, as Outlook writes it) is matched
        // on as the model's.
        if contact.hasKeptFields {
            self.init(model: contact.promotingKeptFields(), countryCode: countryCode)
        } else {
            self.init(model: contact, countryCode: countryCode)
        }
    }

    private convenience init(model contact: borrowing Contact, countryCode: Int?) {
        // Cards carry a handful of emails and phones: arrays beat sets here, and this runs for every card of a book.
        // A card with thousands of values (a mailing list kept as one card) is looked up in a set instead.
        var emails: [String] = []
        var emailKinds: [EmailKind] = []
        emails.reserveCapacity(contact.emails.count)
        emailKinds.reserveCapacity(contact.emails.count)
        var seenEmails: Set<String>?
        // Values are read in place by index: binding each to a name copied it (and released the copy).
        for i in contact.emails.indices {
            guard let key = EmailKey.key(contact.emails[i].value) else { continue }
            if emails.count == Self.largeList { seenEmails = Set(emails) }
            if var seen = seenEmails {
                seenEmails = nil
                let new = seen.insert(key).inserted
                seenEmails = seen
                guard new else { continue }
            } else if emails.contains(key) {
                continue
            }
            emails.append(key)
            emailKinds.append(EmailKind(types: contact.emails[i].types))
        }
        var phones: [(key: PhoneKey, personal: Bool)] = []
        phones.reserveCapacity(contact.phones.count)
        var seenPhones: Set<PhoneKey>?
        for i in contact.phones.indices {
            guard let key = PhoneKey(contact.phones[i].value, countryCode: countryCode) else { continue }
            if phones.count == Self.largeList { seenPhones = Set(phones.map(\.key)) }
            if var seen = seenPhones {
                seenPhones = nil
                let new = seen.insert(key).inserted
                seenPhones = seen
                guard new else { continue }
            } else if phones.contains(where: { $0.key == key }) {
                continue
            }
            phones.append((key, Self.isPersonal(types: contact.phones[i].types, label: contact.phones[i].label)))
        }
        var addresses: [AddressKey] = []
        addresses.reserveCapacity(contact.addresses.count)
        for i in contact.addresses.indices {
            if let key = AddressKey(contact.addresses[i]) { addresses.append(key) }
        }
        let foldedFormattedName = contact.formattedName.map(TextFolding.fold)
        self.init(
            uid: contact.uid.flatMap(Self.uidKey), emails: emails, emailKinds: emailKinds, phones: phones,
            name: PersonName(contact, foldedFormattedName: foldedFormattedName),
            organization: contact.organization.flatMap { Self.organizationKey($0.name) },
            birthday: contact.birthday.flatMap(Birthday.init),
            formattedName: foldedFormattedName.flatMap { $0.isEmpty ? nil : $0 },
            addresses: addresses)
    }

    private init(
        uid: String?, emails: [String], emailKinds: [EmailKind], phones: [(key: PhoneKey, personal: Bool)],
        name: PersonName?, organization: String?, birthday: Birthday?, formattedName: String?, addresses: [AddressKey]
    ) {
        self.uid = uid
        self.emails = emails
        self.emailKinds = emailKinds
        let domains = emails.map(EmailKey.domain)
        emailDomains = domains
        self.phones = phones
        personName = name ?? PersonName.none
        hasName = name != nil
        let nameFacts = name.map(NameFacts.init)
        self.nameFacts = nameFacts
        self.organization = organization
        self.birthday = birthday
        self.formattedName = formattedName
        self.addresses = addresses
        emailPositions =
            emails.count > Self.largeList ? Dictionary(zip(emails, emails.indices)) { first, _ in first } : nil
        domainSet = emails.count > Self.largeList ? Set(domains) : nil
        emailKindBits = emailKinds.reduce(0) { $0 | Self.bit($1) }
        domainBits = domains.reduce(0) { bits, domain in
            domain.utf8.allSatisfy { $0 < 0x80 } ? bits | Self.fingerprintBit(Self.textHash(String(domain))) : ~0
        }
        phoneSet = Self.positions(phones)
        hasPersonalPhone = phones.contains(where: \.personal)
        var indexKeys: [IndexKey] = []
        // One allocation for a card's keys (growing the list from empty was a tenth of the work here).
        indexKeys.reserveCapacity(
            (uid == nil ? 0 : 1) + emails.count + phones.count + 7 + (birthday == nil ? 0 : 1) + 2 * addresses.count)
        var seenHashes: Set<Int>?
        func add(_ key: IndexKey) {
            if indexKeys.count == Self.largeList { seenHashes = Set(indexKeys.map(\.hash)) }
            if seenHashes != nil {
                if seenHashes!.insert(key.hash).inserted { indexKeys.append(key) }
            } else if !indexKeys.contains(where: { $0.hash == key.hash }) {
                indexKeys.append(key)
            }
        }
        if let uid {
            let key = IndexKey(.uid, uid)
            uidHash = key.hash
            add(key)
        } else {
            uidHash = 0
        }
        var emailBits: UInt64 = 0
        for e in emails {
            let key = IndexKey(.email, e)
            emailBits |= Self.fingerprintBit(key.hash)
            add(key)
        }
        self.emailBits = emailBits
        organizationHash = organization.map(Self.textHash) ?? 0
        var phoneBits: UInt64 = 0
        for p in phones {
            let key = IndexKey(.phone, p.key)
            phoneBits |= Self.fingerprintBit(key.hash)
            add(key)
        }
        self.phoneBits = phoneBits
        if let name, let facts = nameFacts, !name.family.isEmpty, !name.given.isEmpty {
            let givenInitial = Self.firstCharacter(name.given)
            add(IndexKey(.name, parts: name.family, Nicknames.root(name.given, facts.given.nickname)))
            add(IndexKey(.name, parts: name.family, givenInitial))
            // Given and family swapped meet under this key, which is the first key of the swapped name.
            add(IndexKey(.name, parts: name.given, Nicknames.root(name.family, facts.family.nickname)))
            if let organization { add(IndexKey(.nameAndOrganization, parts: name.family, name.given, organization)) }
            add(IndexKey(.phonetic, parts: Similarity.soundex(name.family), givenInitial))
            add(IndexKey(.phonetic, parts: Similarity.soundex(name.given), Self.firstCharacter(name.family)))
        }
        if let formattedName { add(IndexKey(.formattedName, formattedName)) }
        if let birthday, let year = birthday.year {
            add(IndexKey(.birthday, year * 10_000 + birthday.month * 100 + birthday.day))
        }
        for address in addresses where !address.postalCode.isEmpty {
            if !address.number.isEmpty { add(IndexKey(.household, parts: address.postalCode, address.number)) }
            if let line = address.extendedLine, !line.number.isEmpty {
                add(IndexKey(.household, parts: address.postalCode, line.number))
            }
        }
        self.indexKeys = indexKeys
    }

    /// These keys with national phone numbers read with `countryCode` (itself when there are none).
    public func resolvingNationalNumbers(countryCode: Int) -> MatchKeys {
        guard let resolved = resolvedPhones(countryCode: countryCode) else { return self }
        return MatchKeys(self, phones: resolved)
    }

    /// The phones with national numbers read with `countryCode`, each once; nil when none is national.
    private func resolvedPhones(countryCode: Int) -> [(key: PhoneKey, personal: Bool)]? {
        guard phones.contains(where: \.key.isNational) else { return nil }
        var resolved: [(key: PhoneKey, personal: Bool)] = []
        resolved.reserveCapacity(phones.count)
        for phone in phones {
            let key = phone.key.resolved(countryCode: countryCode)
            if !resolved.contains(where: { $0.key == key }) { resolved.append((key, phone.personal)) }
        }
        return resolved
    }

    /// Reads these keys' national numbers with `countryCode`, in place: for keys no other thread holds yet
    /// (see the type's discussion). A large book read without a country code has most of its cards' numbers
    /// read again once its own code is known, and a copy of each card's keys retained every other value of them
    /// (a cache miss or two each) only to release the old ones.
    package func resolveNationalNumbers(countryCode: Int) {
        guard let resolved = resolvedPhones(countryCode: countryCode) else { return }
        (phoneSet, indexKeys, phoneBits) = Self.phoneKeys(resolved, others: indexKeys)
        phones = resolved
        hasPersonalPhone = resolved.contains(where: \.personal)
    }

    /// `keys` with other phones: only the phones' index keys are worked out again.
    private init(_ keys: MatchKeys, phones: [(key: PhoneKey, personal: Bool)]) {
        uid = keys.uid
        emails = keys.emails
        emailKinds = keys.emailKinds
        emailDomains = keys.emailDomains
        self.phones = phones
        personName = keys.personName
        hasName = keys.hasName
        nameFacts = keys.nameFacts
        organization = keys.organization
        birthday = keys.birthday
        formattedName = keys.formattedName
        addresses = keys.addresses
        emailPositions = keys.emailPositions
        domainSet = keys.domainSet
        emailKindBits = keys.emailKindBits
        domainBits = keys.domainBits
        hasPersonalPhone = phones.contains(where: \.personal)
        uidHash = keys.uidHash
        emailBits = keys.emailBits
        organizationHash = keys.organizationHash
        (phoneSet, indexKeys, phoneBits) = Self.phoneKeys(phones, others: keys.indexKeys)
    }

    /// The lookup set for `phones` (for a card with many), the index keys (those of `others` that are not a
    /// phone's, then each phone's, each once) and the phones' bits.
    private static func phoneKeys(_ phones: [(key: PhoneKey, personal: Bool)], others: [IndexKey]) -> (
        [PhoneKey: Int]?, [IndexKey], UInt64
    ) {
        let phoneSet = positions(phones)
        // As the card's keys were first made: a list checked in place, a set only for a card with many keys.
        var indexKeys: [IndexKey] = []
        indexKeys.reserveCapacity(others.count + phones.count)
        for key in others where key.kind != .phone { indexKeys.append(key) }
        var seen: Set<Int>? = indexKeys.count + phones.count > largeList ? Set(indexKeys.map(\.hash)) : nil
        var bits: UInt64 = 0
        for p in phones {
            let key = IndexKey(.phone, p.key)
            bits |= fingerprintBit(key.hash)
            if seen != nil {
                if seen!.insert(key.hash).inserted { indexKeys.append(key) }
            } else if !indexKeys.contains(where: { $0.hash == key.hash }) {
                indexKeys.append(key)
            }
        }
        return (phoneSet, indexKeys, bits)
    }

    /// The keys of each of `contacts`, worked out on every processor (a large book has a hundred thousand), with
    /// national numbers read with `countryCode`, or when it is nil with the code most of the cards' international
    /// numbers use (see `resolvingPrevailingCountryCode`).
    public static func all(_ contacts: [Contact], countryCode: Int?) -> (keys: [MatchKeys], countryCode: Int?) {
        let keys = Concurrently.map(contacts, chunk: 2_048) { MatchKeys($0, countryCode: countryCode) }
        return countryCode == nil ? resolvingPrevailingCountryCode(keys) : (keys, countryCode)
    }

    /// Keys read without a country code, with their national numbers read with the code most of their
    /// international numbers use, when there is one: a book's own numbers say which country it lives in.
    public static func resolvingPrevailingCountryCode(_ keys: [MatchKeys]) -> (keys: [MatchKeys], countryCode: Int?) {
        guard let code = Matcher.prevailingCountryCode(keys: keys.lazy.flatMap { $0.phones.lazy.map(\.key) }) else {
            return (keys, nil)
        }
        return (Concurrently.map(keys, chunk: 4_096) { $0.resolvingNationalNumbers(countryCode: code) }, code)
    }

    /// `resolvingPrevailingCountryCode` in place, for keys just made that no other thread holds yet (a book's
    /// keys as it is read); returns the code, nil when the keys' numbers name none (then nothing changed).
    package static func resolvePrevailingCountryCode(inPlace keys: [MatchKeys]) -> Int? {
        // The numbers counted by country code on every processor, each number read where it is (walking a
        // book's numbers on one thread retained every card's keys and every number on the way).
        let chunk = 4_096
        let counted = Concurrently.map(Array(stride(from: 0, to: keys.count, by: chunk)), chunk: 1) { start in
            var counts: [Int: Int] = [:]
            for k in start..<min(keys.count, start + chunk) {
                let phones = keys[k].phones
                for i in phones.indices {
                    if let code = phones[i].key.countryCode { counts[code, default: 0] += 1 }
                }
            }
            return counts
        }
        var counts: [Int: Int] = [:]
        for part in counted { counts.merge(part, uniquingKeysWith: +) }
        guard let code = Matcher.prevailingCountryCode(counts: counts) else { return nil }
        _ = Concurrently.map(keys, chunk: 4_096) { $0.resolveNationalNumbers(countryCode: code) }
        return code
    }

    /// Whether this card can hold everything `other` holds: each of its emails and phones, and its UID, organisation,
    /// birthday and (for a named card) formatted name when it has them. A quick necessary test before a full merge.
    public func couldContain(_ other: MatchKeys) -> Bool { couldContain(other, ignoringUID: false) }

    /// The same, with the UIDs left out when `ignoringUID` (for copies of one card, which an import gives new UIDs).
    package func couldContain(_ other: MatchKeys, ignoringUID: Bool) -> Bool {
        if !ignoringUID && other.uid != nil && !sameUID(as: other) { return false }
        if other.organization != nil && !sameOrganization(as: other) { return false }
        if let birthday = other.birthday, birthday != self.birthday { return false }
        // A nameless card's FN is a reader's stand-in (an email or number), which a merge does not take.
        if other.name != nil, let fn = other.formattedName, fn != formattedName { return false }
        if other.emails.count > emails.count || other.phones.count > phones.count { return false }
        if !mayHaveEmails(of: other) || !other.emails.allSatisfy(hasEmail) { return false }
        return other.phones.allSatisfy { phone($0.key) != nil }
    }

    /// Whether this card may already hold everything `other` says, single values aside: each of its emails,
    /// phones and postal addresses, no conflicting names, birthdays or generations. A quick necessary test before
    /// merging `other` into this card shows whether it would add anything but a different single value (which
    /// it would replace or be refused as), the test of an incoming card merged here before.
    public func couldHold(_ other: MatchKeys) -> Bool {
        if other.emails.count > emails.count || other.phones.count > phones.count { return false }
        if !mayHaveEmails(of: other) || !other.emails.allSatisfy(hasEmail)
            || !other.phones.allSatisfy({ phone($0.key) != nil })
        {
            return false
        }
        if other.addresses.count * addresses.count > Self.largeList * Self.largeList {
            // Through a set for cards of many addresses: searching each in the other's list made a merge of a
            // card of thousands with its copy quadratic.
            let own = Set(addresses)
            if !other.addresses.allSatisfy(own.contains) { return false }
        } else if !other.addresses.allSatisfy(addresses.contains) {
            return false
        }
        if let x = birthday, let y = other.birthday, x.conflicts(with: y) { return false }
        return Matcher.conflict(self, other) == nil
    }

    /// `String(text.first!)`: the first character of a non-empty text. Two ASCII scalars other than CR LF are
    /// never one character, so a text starting with them needs no search for the character's end.
    static func firstCharacter(_ text: String) -> String {
        var bytes = text.utf8.makeIterator()
        if let a = bytes.next(), a < 0x80, a != 0x0D {
            let b = bytes.next()
            if b == nil || b! < 0x80 { return String(Unicode.Scalar(a)) }
        }
        return String(text.first!)
    }

    /// A UID as matching compares it: trimmed, UUIDs lower-cased without `urn:uuid:`; nil when blank.
    public static func uidKey(_ raw: String) -> String? {
        var text = raw
        let key = text.withUTF8 { all -> (key: String?, asWritten: Bool) in
            var start = 0
            var end = all.count
            while start < end, all[start] == 0x20 || all[start] == 0x09 { start += 1 }
            while end > start, all[end - 1] == 0x20 || all[end - 1] == 0x09 { end -= 1 }
            guard end > start else { return (nil, false) }
            let trimmed = UnsafeBufferPointer(rebasing: all[start..<end])
            // UUIDs differ only in case between clients; other UIDs are compared as written.
            var uuid = trimmed
            if uuid.count == 45, (0..<9).allSatisfy({ ASCIIBytes.lower(uuid[$0]) == Self.urnUUID[$0] }) {
                uuid = UnsafeBufferPointer(rebasing: uuid[(uuid.startIndex + 9)...])
            }
            guard uuid.count == 36, uuid.allSatisfy({ ASCIIBytes.isHexDigit($0) || $0 == 0x2D }) else {
                if start == 0 && end == all.count { return (nil, true) }
                return (String(decoding: trimmed, as: UTF8.self), false)
            }
            // A UUID written alone in lower case is its own key (without a copy).
            if uuid.count == all.count && !uuid.contains(where: { $0 >= 0x41 && $0 <= 0x46 }) { return (nil, true) }
            let lowered = String(unsafeUninitializedCapacity: 36) { out in
                for i in 0..<36 { out[i] = ASCIIBytes.lower(uuid[uuid.startIndex + i]) }
                return 36
            }
            return (lowered, false)
        }
        return key.asWritten ? raw : key.key
    }

    private static let urnUUID = Array("urn:uuid:".utf8)

    /// Types that mark a shared or business line.
    private static let sharedTypes: Set<String> = [
        "work", "main", "fax", "pager", "company", "workfax", "homefax", "otherfax", "assistant", "callback", "car",
        "isdn", "tty", "textphone", "video", "bbs", "modem", "msg",
    ]

    /// `sharedTypes` of at most eight bytes packed (see `ASCIIBytes.packed`), sorted: a type is looked up
    /// without hashing a string (every phone of a book has one or two).
    private static let packedSharedTypes: [UInt64] = sharedTypes.compactMap { ASCIIBytes.packed($0.utf8) }.sorted()

    static func isPersonal(types: [String], label: String?) -> Bool {
        // Readers keep TYPE values as written, which is nearly always lower case already.
        for type in types {
            if let packed = ASCIIBytes.packedLowercased(type) {
                if packedSharedTypes.contains(packed) { return false }
            } else if sharedTypes.contains(type.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? type.lowercased() : type) {
                return false
            }
        }
        if let label, sharedTypes.contains(TextFolding.fold(label).replacingOccurrences(of: " ", with: "")) {
            return false
        }
        return true
    }

    private static let legalForms: Set<String> = [
        "inc", "incorporated", "llc", "ltd", "limited", "gmbh", "corp", "corporation", "co", "company", "plc", "ag",
        "sa", "srl", "bv", "nv", "llp", "lp", "pty", "kg", "oy", "ab", "as", "spa", "sarl", "the",
    ]

    /// `legalForms` of at most eight bytes, packed: most words of a name are looked up without making a string.
    private static let packedLegalForms: Set<UInt64> = Set(legalForms.compactMap { ASCIIBytes.packed($0.utf8) })

    static func organizationKey(_ name: String) -> String? {
        var folded: [UInt8] = []
        folded.reserveCapacity(name.utf8.count)
        TextFolding.appendFolded(name, to: &folded)
        return folded.withUnsafeBufferPointer { folded -> String? in
            // The words, each as a range of the folded bytes.
            func forEachWord(_ body: (Range<Int>) -> Void) {
                var start = 0
                for end in 0...folded.count where end == folded.count || folded[end] == 0x20 {
                    if end > start { body(start..<end) }
                    start = end + 1
                }
            }
            func isLegalForm(_ word: Range<Int>) -> Bool {
                word.count <= 8
                    ? packedLegalForms.contains(ASCIIBytes.packed(folded[word])!)
                    : word.count <= 12 && legalForms.contains(String(decoding: folded[word], as: UTF8.self))
            }
            // Most names have no legal form: they are their fold. Only one that has is built again without it.
            var dropped = false
            forEachWord { if !dropped && isLegalForm($0) { dropped = true } }
            guard dropped else { return folded.isEmpty ? nil : String(decoding: folded, as: UTF8.self) }
            var kept: [UInt8] = []
            kept.reserveCapacity(folded.count)
            forEachWord { word in
                guard !isLegalForm(word) else { return }
                if !kept.isEmpty { kept.append(0x20) }
                kept.append(contentsOf: folded[word])
            }
            return kept.isEmpty ? nil : String(decoding: kept, as: UTF8.self)
        }
    }
}

/// A birthday's year (when given), month and day.
package struct Birthday: Hashable, Sendable {
    /// The year, nil for `--MMDD`.
    public var year: Int?
    /// 1-12.
    public var month: Int
    /// 1-31.
    public var day: Int

    /// Reads `1985-04-15`, `19850415`, `--0415`, `--04-15`, `1985-04-15T00:00:00Z`; nil for anything else.
    public init?(_ text: String) {
        // The digits, at most eight, packed one to four bits (a list of them cost an allocation per card).
        var digits: UInt64 = 0
        var digitCount = 0
        var leadingDashes = 0
        var started = false
        var ended = false
        for b in text.utf8 {
            if b == 0x20 || b == 0x09 {
                ended = started
                continue
            }
            if ended { return nil }  // a space inside the value
            started = true
            if b == 0x54 || b == 0x74 { break }
            if b >= 0x30 && b <= 0x39 {
                guard digitCount < 8 else { return nil }
                digits = digits << 4 | UInt64(b - 0x30)
                digitCount += 1
            } else if b == 0x2D {
                if digitCount == 0 { leadingDashes += 1 }
            } else {
                return nil
            }
        }
        // (Copies the function captures: capturing the variables boxed them, and read each with an exclusivity
        // check, for every digit of every birthday of a book.)
        let (packed, length) = (digits, digitCount)
        func number(_ range: Range<Int>) -> Int {
            var value = 0
            for i in range { value = value * 10 + Int(packed >> UInt64(4 * (length - 1 - i)) & 0xF) }
            return value
        }
        if digitCount == 8, leadingDashes == 0 {
            year = number(0..<4)
            month = number(4..<6)
            day = number(6..<8)
        } else if digitCount == 4, leadingDashes == 2 {
            year = nil
            month = number(0..<2)
            day = number(2..<4)
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
    }

    /// Whether `other` is this date with one digit of the month and day wrong, or two adjacent digits transposed,
    /// in the same year: what a slip of the keyboard makes of one date (`1985-04-15` for `1985-04-16` or
    /// `1985-04-51`... when that is a date).
    public func isTypo(of other: Birthday) -> Bool {
        guard let a = year, let b = other.year, a == b, self != other else { return false }
        let x = [month / 10, month % 10, day / 10, day % 10]
        let y = [other.month / 10, other.month % 10, other.day / 10, other.day % 10]
        let differing = x.indices.filter { x[$0] != y[$0] }
        if differing.count == 1 { return true }
        return differing.count == 2 && differing[1] == differing[0] + 1 && x[differing[0]] == y[differing[1]]
            && x[differing[1]] == y[differing[0]]
    }

    /// Whether the two cannot be the same person's birthday.
    public func conflicts(with other: Birthday) -> Bool {
        if month != other.month || day != other.day { return true }
        if let a = year, let b = other.year, a != b { return true }
        return false
    }
}
