import ContactMatching
import ContactModel
import Foundation
import VCardFormat
import VCardSyntax

/// Which card's single values (FN, N, ORG, TITLE, ROLE, BDAY, PHOTO...) win when both have one.
public enum MergePreference: String, Sendable, CaseIterable {
    /// The card with the newer REV; with no REV on either side, or the same, the incoming card.
    case newer
    /// Always the existing card.
    case existing
    /// Always the incoming card.
    case incoming
}

/// Merges one card into another without losing a value: multi-valued properties are unioned (equal values after
/// normalisation kept once, their types combined), single values follow the preference and a value not taken is
/// reported, notes are joined, and everything the model does not name rides along.
public struct ContactMerger: Sendable {
    /// Which side's single values win.
    public var preference: MergePreference
    /// For comparing national phone numbers.
    public var countryCode: Int?

    /// A merger.
    public init(preference: MergePreference = .newer, countryCode: Int? = nil) {
        self.preference = preference
        self.countryCode = countryCode
    }

    /// `incoming` merged into `existing`: the existing card's UID, order and values first, then what is new.
    public func merge(_ incoming: Contact, into existing: Contact) -> (contact: Contact, changes: [FieldChange]) {
        // A card and its copy make the card, with no change (`mergeInFull` gives the same, as a test checks):
        // a book exported several times over merges every card into its copies, which costs a comparison so.
        if incoming == existing { return (existing, []) }
        return mergeInFull(incoming, into: existing)
    }

    /// `merge` without its shortcut for equal cards.
    package func mergeInFull(_ incoming: Contact, into existing: Contact) -> (
        contact: Contact, changes: [FieldChange]
    ) {
        var out = existing
        var changes: [FieldChange] = []
        let incomingWins: Bool =
            switch preference {
            case .existing: false
            case .incoming: true
            case .newer: Self.revisionKey(incoming.revision) >= Self.revisionKey(existing.revision)
            }
        var groups = GroupRenamer(existing: existing, incoming: incoming)

        func single<T: Equatable>(
            _ field: String, _ path: WritableKeyPath<Contact, T?>, shortens: (T, T) -> Bool = { _, _ in false },
            same: (T, T) -> Bool = { $0 == $1 }, _ show: (T) -> String
        ) {
            guard let new = incoming[keyPath: path] else { return }
            // The existing card holds the property in a form the model keeps raw (`N;LANGUAGE=en:...`): it is
            // there, and a second one would be a second N (which the writer can only write as X-N).
            if out[keyPath: path] == nil && out.extensions.contains(where: { $0.name == field }) {
                changes.append(FieldChange(field, .kept, value: show(new)))
                return
            }
            guard let old = out[keyPath: path] else {
                out[keyPath: path] = new
                changes.append(FieldChange(field, .added, value: show(new)))
                return
            }
            guard !same(old, new) else { return }
            // A value is never replaced by one that says less of the same thing: a name by its own abbreviation
            // ("Juan J. Zhou" by "J. J. Zhou": a later card matched against the initial could be another person
            // of it), or by itself with parts or accents left out, as a CSV export writes it ("Dr. María García
            // López" by "Maria Garcia Lopez", "Acme S.L.;Ventas" by "Acme S.L."), or a date by itself without
            // its year. The report still lists the value not taken.
            if incomingWins && !shortens(new, old) {
                out[keyPath: path] = new
                changes.append(FieldChange(field, .replaced, value: show(new), previous: show(old)))
            } else {
                changes.append(FieldChange(field, .kept, value: show(new)))
            }
        }
        // A reader fills a missing FN from an email or phone; that stand-in never replaces a real name.
        let standIn =
            incoming.formattedName.map { fn in (incoming.emails + incoming.phones).contains { $0.value == fn } }
            ?? false
        if !(standIn && out.formattedName != nil) {
            let shortensFN: (String, String) -> Bool = {
                Self.abbreviates($0.split(separator: " "), $1.split(separator: " ")) || Self.saysLess([$0], than: [$1])
            }
            single("FN", \.formattedName, shortens: shortensFN, { $0 })
        }
        let shortensN: (StructuredName, StructuredName) -> Bool = { new, old in
            new.family.map { $0.lowercased() } == old.family.map { $0.lowercased() }
                && Self.abbreviates(new.given + new.additional, old.given + old.additional)
                || Self.saysLess(Self.parts(new), than: Self.parts(old))
        }
        single("N", \.name, shortens: shortensN, { $0.displayName })
        let shortensORG: (Organization, Organization) -> Bool = {
            Self.saysLess([$0.name] + $0.units, than: [$1.name] + $1.units)
        }
        single("ORG", \.organization, shortens: shortensORG) { ([$0.name] + $0.units).joined(separator: ";") }
        single("TITLE", \.title) { $0 }
        single("ROLE", \.role) { $0 }
        // One date written two ways (`1985-04-15` and `19850415`, `--04-15` and `--0415`) is no change.
        let sameDate: (String, String) -> Bool = { a, b in a == b || Birthday(a).map { $0 == Birthday(b) } ?? false }
        let withoutYear: (String, String) -> Bool = { new, old in
            guard let new = Birthday(new), let old = Birthday(old) else { return false }
            return new.year == nil && old.year != nil && (new.month, new.day) == (old.month, old.day)
        }
        single("BDAY", \.birthday, shortens: withoutYear, same: sameDate) { $0 }
        single("ANNIVERSARY", \.anniversary, shortens: withoutYear, same: sameDate) { $0 }
        single("PHOTO", \.photo) { p in p.uri ?? "\(p.data?.count ?? 0) bytes of \(p.mediaType ?? "image")" }
        if let uid = incoming.uid {
            if out.uid == nil {
                out.uid = uid
                changes.append(FieldChange("UID", .added, value: uid))
            } else if MatchKeys.uidKey(uid) != out.uid.flatMap(MatchKeys.uidKey) {
                // The merged card keeps the existing UID; the other is reported so a sync can map it.
                changes.append(FieldChange("UID", .kept, value: uid))
            }
        }
        mergeNote(incoming.note, into: &out, &changes)
        if let rev = incoming.revision, Self.revisionKey(rev) > Self.revisionKey(out.revision) {
            out.revision = rev
        }

        union("EMAIL", &out.emails, incoming.emails, &changes, &groups) { EmailKey.key($0.value) ?? $0.value }
        // Without the book's country code, a number written without its country on one card is read in the
        // country of the two cards' international numbers, when they are all of one: the same person's
        // `(555) 010-0100` and `+1 555-010-0100` are one line.
        let phoneCode = countryCode ?? Self.soleCountryCode(of: out.phones + incoming.phones)
        union("TEL", &out.phones, incoming.phones, &changes, &groups) { phone in
            PhoneKey(phone.value, countryCode: phoneCode).map { "\($0.number);\($0.ext ?? "")" }
                ?? TextFolding.fold(phone.value)
        }
        union("URL", &out.urls, incoming.urls, &changes, &groups) { Self.urlKey($0.value) }
        union("IMPP", &out.instantMessaging, incoming.instantMessaging, &changes, &groups) { $0.value.lowercased() }
        union("X-SOCIALPROFILE", &out.socialProfiles, incoming.socialProfiles, &changes, &groups) {
            $0.value.lowercased()
        }
        unionAddresses(&out, incoming.addresses, &changes, &groups)
        unionStrings("NICKNAME", &out.nicknames, incoming.nicknames, &changes)
        unionStrings("CATEGORIES", &out.categories, incoming.categories, &changes)
        unionExtensions(&out, incoming.extensions, &changes, &groups)
        return (out, changes)
    }

    /// The country code every international number of `phones` has, when there is one and no other.
    static func soleCountryCode(of phones: [LabeledValue]) -> Int? {
        var sole: Int?
        for phone in phones {
            guard let code = PhoneKey(phone.value, countryCode: nil)?.countryCode else { continue }
            if let sole, sole != code { return nil }
            sole = code
        }
        return sole
    }

    private func mergeNote(_ note: String?, into out: inout Contact, _ changes: inout [FieldChange]) {
        guard let new = note?.trimmed(.whitespacesAndNewlines), !new.isEmpty else { return }
        guard let old = out.note, !old.trimmed(.whitespacesAndNewlines).isEmpty else {
            out.note = note
            changes.append(FieldChange("NOTE", .added, value: note))
            return
        }
        if Self.contains(old, new) { return }
        if Self.contains(new, old.trimmed(.whitespacesAndNewlines)) {
            // The incoming note extends the existing one: taking it keeps every word of both.
            out.note = note
            changes.append(FieldChange("NOTE", .replaced, value: note, previous: old))
            return
        }
        out.note = old + "\n\n" + new
        changes.append(FieldChange("NOTE", .joined, value: new))
    }

    /// `text.contains(part)`: Foundation's search, which compares characters (under canonical equivalence) and
    /// cost about 46,000 instructions a note. A text and part of ASCII without a carriage return (which starts
    /// the one two-byte character ASCII has) are their characters byte for byte, so their bytes are searched;
    /// any other is searched as before.
    static func contains(_ text: String, _ part: String) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { haystack in
            part.utf8.withContiguousStorageIfAvailable { needle in Self.searchASCII(haystack, needle) } ?? nil
        }
        if let found = found ?? nil { return found }
        return text.contains(part)
    }

    /// Whether `needle` occurs in `haystack`, when both are non-empty ASCII without CR; nil otherwise.
    private static func searchASCII(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>)
        -> Bool?
    {
        func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { !bytes.contains { $0 >= 0x80 || $0 == 0x0D } }
        guard !needle.isEmpty, !haystack.isEmpty, plain(haystack), plain(needle) else { return nil }
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            var k = 1
            while k < needle.count && haystack[start + k] == needle[k] { k += 1 }
            if k == needle.count { return true }
        }
        return false
    }

    private func union(
        _ field: String, _ values: inout [LabeledValue], _ incoming: [LabeledValue],
        _ changes: inout [FieldChange], _ groups: inout GroupRenamer, key: (LabeledValue) -> String
    ) {
        // Each key's positions: in a list searched in place for the handful of values a card has (a dictionary
        // for each field of every merge cost more), in a dictionary for a card with many.
        var keys = values.map(key)
        var positions: [String: [Int]]?
        if keys.count + incoming.count > 16 {
            positions = [:]
            for (i, k) in keys.enumerated() { positions![k, default: []].append(i) }
        }
        for var value in incoming {
            let k = key(value)
            // A card may hold one value twice with other types (a number that is both home phone and fax): the
            // value goes to the one that already says all it says, so a card merged into its own copy is left as
            // it was; otherwise the first gains its types.
            var first: Int?
            var held = false
            func consider(_ i: Int) -> Bool {
                if first == nil { first = i }
                held = Self.holds(values[i], value)
                return held
            }
            if let positions {
                for i in positions[k] ?? [] where consider(i) { break }
            } else {
                for i in keys.indices where keys[i] == k && consider(i) { break }
            }
            if held { continue }
            if let i = first {
                let added = value.types.filter { t in
                    !values[i].types.contains { $0.sameIgnoringCase(t) }
                }
                if !added.isEmpty {
                    values[i].types += added
                    changes.append(FieldChange(field, .retyped, value: added.joined(separator: ",")))
                }
                if values[i].label == nil, let label = value.label {
                    values[i].label = label  // the writer gives it a group of its own when the value has none
                    // Its form with it: Apple's `_$!<Home>!$_` only when it came so, Google's `Other` as written.
                    values[i].appleLabel = value.appleLabel
                    changes.append(FieldChange(field, .retyped, value: label))
                }
                continue
            }
            value.group = groups.rename(value.group)
            positions?[k, default: []].append(values.count)
            keys.append(k)
            values.append(value)
            changes.append(FieldChange(field, .added, value: value.value))
        }
    }

    /// Whether an address already says all that another of the same key says: each of its types, and a label
    /// when the other has one.
    private static func holds(_ address: Address, _ other: Address) -> Bool {
        (address.label != nil || other.label == nil)
            && other.types.allSatisfy { t in address.types.contains { $0.sameIgnoringCase(t) } }
    }

    /// Whether a value already says all that another of the same key says: each of its types, and a label
    /// when the other has one.
    private static func holds(_ value: LabeledValue, _ other: LabeledValue) -> Bool {
        (value.label != nil || other.label == nil)
            && other.types.allSatisfy { t in value.types.contains { $0.sameIgnoringCase(t) } }
    }

    private func unionAddresses(
        _ out: inout Contact, _ incoming: [Address], _ changes: inout [FieldChange],
        _ groups: inout GroupRenamer
    ) {
        // One address written two ways ("221 N. Oak Ave, IL 62704" and "221 North Oak Avenue, Illinois
        // 62704-1234, USA") is kept once: street abbreviations, case, state names and ZIP+4 are normalised, a
        // country on one side only does not make it another address, and nor does one country written two ways
        // (`US`, `USA`, `United States`, `Vereinigte Staaten`).
        struct Key: Equatable {
            var address: AddressKey?
            var rest: [String]
            var country: String
            init(_ a: Address) {
                address = AddressKey(a)
                rest = (address == nil ? a.components : [a.poBox, a.extended]).map(TextFolding.fold)
                country = TextFolding.fold(a.country)
            }
            func same(as other: Key) -> Bool {
                address == other.address && rest == other.rest
                    && (country == other.country || country.isEmpty || other.country.isEmpty
                        || CountryKey.same(country, other.country))
            }
            /// What two keys that are the same have equal (a country on one side only aside).
            var exact: Exact { Exact(address: address, rest: rest) }
        }
        struct Exact: Hashable {
            var address: AddressKey?
            var rest: [String]
        }
        var keys = out.addresses.map(Key.init)
        // A card's few addresses are searched in place; a card with many through the positions of each exact
        // key, in order (each incoming address searched every existing one: two copies of a card of 5,000
        // addresses took 4 s to merge).
        var positions: [Exact: [Int]]?
        if keys.count + incoming.count > 16 {
            positions = [:]
            for (i, key) in keys.enumerated() { positions![key.exact, default: []].append(i) }
        }
        for var address in incoming {
            let key = Key(address)
            // As for other values: the address that already says all this one says, else the first.
            let same =
                positions.map { ($0[key.exact] ?? []).filter { keys[$0].same(as: key) } }
                ?? keys.indices.filter { keys[$0].same(as: key) }
            if same.contains(where: { Self.holds(out.addresses[$0], address) }) { continue }
            if let i = same.first {
                let added = address.types.filter { t in
                    !out.addresses[i].types.contains { $0.sameIgnoringCase(t) }
                }
                if !added.isEmpty {
                    out.addresses[i].types += added
                    changes.append(FieldChange("ADR", .retyped, value: added.joined(separator: ",")))
                }
                if out.addresses[i].label == nil, let label = address.label {
                    out.addresses[i].label = label
                    out.addresses[i].appleLabel = address.appleLabel
                    changes.append(FieldChange("ADR", .retyped, value: label))
                }
                continue
            }
            address.group = groups.rename(address.group)
            positions?[key.exact, default: []].append(keys.count)
            keys.append(key)
            out.addresses.append(address)
            changes.append(
                FieldChange("ADR", .added, value: address.components.filter { !$0.isEmpty }.joined(separator: ", ")))
        }
    }

    private func unionStrings(
        _ field: String, _ values: inout [String], _ incoming: [String],
        _ changes: inout [FieldChange]
    ) {
        var seen = Set(values.map(TextFolding.fold))
        for value in incoming where seen.insert(TextFolding.fold(value)).inserted {
            values.append(value)
            changes.append(FieldChange(field, .added, value: value))
        }
    }

    /// Properties the model does not name that a card holds once: the existing card keeps its own.
    private static let singleExtensions: Set<String> = [
        "PRODID", "KIND", "GENDER", "SORT-STRING", "CLASS", "TZ", "GEO", "X-ABSHOWAS", "X-ABUID", "MAILER",
        "PROFILE", "NAME", "SOURCE", "X-PHONETIC-FIRST-NAME", "X-PHONETIC-LAST-NAME", "X-PHONETIC-MIDDLE-NAME",
        "X-MAIDENNAME", "X-GENDER", "LANG",
    ]

    private func unionExtensions(
        _ out: inout Contact, _ incoming: [Extension], _ changes: inout [FieldChange],
        _ groups: inout GroupRenamer
    ) {
        // Compared unescaped: `a\;b` and `a;b` are one value to a person, and servers that rewrite what they
        // store (Radicale's vobject escapes every `;` and `,`) would otherwise get the value again on every merge.
        // Names as a server stores them (`X-GOOGLE TALK` is `X-GOOGLE-TALK` there, see `ServerSafeNames`): the
        // same property, or every merge into a server would send it again.
        func name(_ e: Extension) -> String { ServerSafeNames.name(e.name).uppercased() }
        func key(_ e: Extension, name: String) -> String { name + ":" + ValueEscaping.unescapeText(e.value) }
        guard !incoming.isEmpty else { return }
        // Each name and key worked out once; a card's few searched in lists, a card with many in sets.
        let names = out.extensions.map(name)
        var keys = zip(out.extensions, names).map { key($0, name: $1) }
        let many = keys.count + incoming.count > 16
        var seen = many ? Set(keys) : []
        let nameSet = many ? Set(names) : []
        for var item in incoming {
            let name = name(item)
            let itemKey = key(item, name: name)
            guard many ? !seen.contains(itemKey) : !keys.contains(itemKey) else { continue }
            // The value the existing card's model holds, kept raw for a parameter (`FN;PID=1.1:John Smith` beside
            // `FN:John Smith`): the same value, not a second FN or ORG.
            if Self.modelHoldsValue(of: item, in: out) {
                changes.append(FieldChange(item.name, .kept, value: item.value))
                continue
            }
            let single = Self.singleExtensions.contains(name) || SingleInstance.names(.v4_0).contains(name)
            if single && ((many ? nameSet.contains(name) : names.contains(name)) || Self.modelHolds(name, out)) {
                if name != "PRODID" { changes.append(FieldChange(item.name, .kept, value: item.value)) }
                continue
            }
            if many { seen.insert(itemKey) } else { keys.append(itemKey) }
            item.group = groups.rename(item.group)
            out.extensions.append(item)
            changes.append(FieldChange(item.name, .added, value: item.value))
        }
        dropLabelsOfNothing(&out, addedFrom: names.count, &changes)
    }

    /// Takes out the Apple labels (`item4.X-ABLabel:Wedding`) this merge added to a group nothing else of the
    /// card is in, and reports them as not taken: the labelled value was one the card had already (an
    /// anniversary under another group), and the label was left naming nothing.
    private func dropLabelsOfNothing(_ out: inout Contact, addedFrom start: Int, _ changes: inout [FieldChange]) {
        func isLabel(_ e: Extension) -> Bool { e.group != nil && e.name.uppercased() == "X-ABLABEL" }
        guard out.extensions[start...].contains(where: isLabel) else { return }
        let values = out.emails + out.phones + out.urls + out.instantMessaging + out.socialProfiles
        var used = Set((values.compactMap(\.group) + out.addresses.compactMap(\.group)).map { $0.lowercased() })
        for e in out.extensions where !isLabel(e) { if let group = e.group { used.insert(group.lowercased()) } }
        var index = start
        while index < out.extensions.count {
            let e = out.extensions[index]
            guard isLabel(e), let group = e.group, !used.contains(group.lowercased()) else {
                index += 1
                continue
            }
            out.extensions.remove(at: index)
            if let change = changes.lastIndex(where: {
                $0.field == e.name && $0.action == .added && $0.value == e.value
            }) {
                changes[change].action = .kept
            }
        }
    }

    /// Whether `item` is an FN, N, ORG, TITLE, ROLE, NOTE or BDAY whose value is the one `contact`'s model
    /// holds for it.
    static func modelHoldsValue(of item: Extension, in contact: Contact) -> Bool {
        // Most extensions (X-ABLabel, X-SOCIALPROFILE...) are none of these: no contact is made to ask.
        guard ["FN", "N", "ORG", "TITLE", "ROLE", "NOTE", "BDAY"].contains(item.name.uppercased()) else { return false }
        let probe = Contact(extensions: [item]).promotingKeptFields()
        guard probe.extensions.isEmpty else { return false }
        switch item.name.uppercased() {
        case "FN": return probe.formattedName == contact.formattedName
        case "N": return probe.name == contact.name
        case "ORG": return probe.organization == contact.organization
        case "TITLE": return probe.title == contact.title
        case "ROLE": return probe.role == contact.role
        case "NOTE": return probe.note == contact.note
        case "BDAY": return probe.birthday == contact.birthday
        default: return false
        }
    }

    /// Whether the model holds the property a raw line of this name would be a second one of (an incoming
    /// `N;LANGUAGE=en:...` beside the existing card's N).
    private static func modelHolds(_ name: String, _ contact: Contact) -> Bool {
        switch name {
        case "N": contact.name != nil
        case "BDAY": contact.birthday != nil
        case "ANNIVERSARY": contact.anniversary != nil
        case "UID": contact.uid != nil
        case "REV": contact.revision != nil
        default: false
        }
    }

    /// Whether `short` is `long` with some words cut to their initial ("J." or "J" for "Juan"), the rest equal.
    static func abbreviates<S: StringProtocol>(_ short: [S], _ long: [S]) -> Bool {
        guard short.count == long.count, short != long else { return false }
        return zip(short, long).allSatisfy { s, l in
            if s.lowercased() == l.lowercased() { return true }
            let letters = s.hasSuffix(".") ? s.dropLast() : s[...]
            return letters.count == 1 && l.count > 1 && l.lowercased().hasPrefix(letters.lowercased())
        }
    }

    /// The five parts of a name, each one text: what `saysLess` compares part by part.
    static func parts(_ name: StructuredName) -> [String] {
        [name.family, name.given, name.additional, name.prefixes, name.suffixes].map { $0.joined(separator: " ") }
    }

    /// Whether `new` says less than `old` of the same thing, part by part: each of its parts is empty or words of
    /// the part of `old` in its place, in order, some left out or with fewer accents (`Garcia` of `García López`),
    /// none with an accent the other lacks; it has no more parts; and it is not as much as `old`.
    static func saysLess(_ new: [String], than old: [String]) -> Bool {
        guard new.count <= old.count, new != old else { return false }
        var fewer = false
        // Words are what white space separates, compared folded: `lena.vogt@example.org` is one word, not a name.
        func words(_ text: String) -> [(text: Substring, folded: String)] {
            text.split(whereSeparator: \.isWhitespace).map { ($0, TextFolding.fold(String($0))) }
        }
        for (n, o) in zip(new, old) {
            let newWords = words(n)
            var remaining = words(o)[...]
            if newWords.count < remaining.count { fewer = true }
            for word in newWords {
                guard let at = remaining.firstIndex(where: { $0.folded == word.folded }) else { return false }
                let (mine, theirs) = (Self.accents(word.text), Self.accents(remaining[at].text))
                // `María` beside `Maria` says something more.
                if mine > theirs { return false }
                if mine < theirs { fewer = true }
                remaining = remaining[(at + 1)...]
            }
        }
        for o in old.dropFirst(new.count) where !o.isEmpty { fewer = true }
        return fewer
    }

    /// How many characters of `text` are not ASCII: the accents a plain-ASCII spelling of it leaves out.
    private static func accents(_ text: some StringProtocol) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 0 : 1) }
    }

    /// REV as comparable digits (`2024-01-02T03:04:05Z` and `20240102T030405Z` alike); empty when absent.
    static func revisionKey(_ rev: String?) -> String {
        guard let rev else { return "" }
        // The ASCII digits, padded or cut to 14: by bytes, because asking each scalar for its numeric type
        // cost more than the rest of a merge of two cards.
        var digits: [UInt8] = []
        digits.reserveCapacity(14)
        for byte in rev.utf8 where byte >= 0x30 && byte <= 0x39 && digits.count < 14 { digits.append(byte) }
        while digits.count < 14 { digits.append(0x30) }
        return String(decoding: digits, as: UTF8.self)
    }

    static func urlKey(_ url: String) -> String {
        var s = url.trimmed(.whitespaces).lowercased()
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            // One character a byte: the same cuts on the bytes, without comparing characters.
            var bytes = Substring(s).utf8[...]
            for prefix in ["https://", "http://"] where bytes.starts(with: prefix.utf8) {
                bytes = bytes.dropFirst(prefix.utf8.count)
            }
            if bytes.starts(with: "www.".utf8) { bytes = bytes.dropFirst(4) }
            while bytes.last == UInt8(ascii: "/") { bytes = bytes.dropLast() }
            return String(Substring(bytes))
        }
        for prefix in ["https://", "http://"] where s.hasPrefix(prefix) { s.removeFirst(prefix.count) }
        if s.hasPrefix("www.") { s.removeFirst(4) }
        while s.hasSuffix("/") { s.removeLast() }
        return s
    }
}

/// Gives an incoming value's group (`item1`) a fresh name when the existing card already uses it, the same new name
/// for every property of that group, so an iPhone label stays with its own value.
struct GroupRenamer {
    private var taken: Set<String>
    private var avoid: Set<String>
    private var renamed: [String: String] = [:]
    private var next = 1

    init(existing: Contact, incoming: Contact) {
        taken = Set(Self.groups(existing))
        // A fresh name must not collide with the incoming card's other groups either.
        avoid = taken.union(Self.groups(incoming))
    }

    private static func groups(_ c: Contact) -> [String] {
        ((c.emails + c.phones + c.urls + c.instantMessaging + c.socialProfiles).compactMap(\.group)
            + c.addresses.compactMap(\.group) + c.extensions.compactMap(\.group)).map { $0.lowercased() }
    }

    mutating func rename(_ group: String?) -> String? {
        guard let group else { return nil }
        let lower = group.lowercased()
        if let done = renamed[lower] { return done }
        guard taken.contains(lower) else {
            renamed[lower] = group
            taken.insert(lower)
            return group
        }
        while avoid.contains("item\(next)") { next += 1 }
        let fresh = "item\(next)"
        avoid.insert(fresh)
        taken.insert(fresh)
        renamed[lower] = fresh
        return fresh
    }
}

extension String {
    /// Whether the two are equal ignoring case, as Foundation's case-insensitive comparison says; TYPE values
    /// (nearly always ASCII) are compared by their bytes, which costs a few instructions instead of thousands.
    fileprivate func sameIgnoringCase(_ other: String) -> Bool {
        let a = utf8
        let b = other.utf8
        if a.allSatisfy({ $0 < 0x80 }) && b.allSatisfy({ $0 < 0x80 }) {
            return a.count == b.count
                && zip(a, b).allSatisfy { x, y in
                    x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
                }
        }
        return caseInsensitiveCompare(other) == .orderedSame
    }

    /// The text without the leading and trailing characters of `set`, as Foundation's trimming gives it. A text
    /// whose first and last scalars are not in the set (nearly every value: a visible ASCII character is checked
    /// by its byte) is returned as it is without asking Foundation, whose trimming costs some 80,000
    /// instructions a call on Linux (a note written in Japanese went through it at every merge).
    fileprivate func trimmed(_ set: CharacterSet) -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        func kept(_ scalar: Unicode.Scalar) -> Bool {
            (0x21...0x7E).contains(scalar.value) || scalar.value >= 0x80 && !set.contains(scalar)
        }
        if kept(first) && kept(last) { return self }
        return trimmingCharacters(in: set)
    }
}
