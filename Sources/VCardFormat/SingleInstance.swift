import ContactModel

/// The properties a card may hold only once, and what the writer does with the further ones a card read from
/// elsewhere holds (kept raw in `Contact.extensions`, since the model has room for one).
///
/// RFC 6350 gives N, BDAY, ANNIVERSARY, GENDER, KIND, PRODID, REV and UID the cardinality `*1`, where "property
/// instances with the same ALTID count as 1" (5.4): several N are allowed in 4.0 only as alternatives (languages,
/// scripts) sharing one ALTID. RFC 2426 has no ALTID, and says the same of N, REV and UID by their meaning (one
/// name, one last revision, one identifier); the 3.0 properties are the 4.0 ones 3.0 has. CardDAV servers enforce
/// it (Radicale refuses a second N with "400 Bad Request"), so a card that breaks it cannot be uploaded.
///
/// - REV: the newest is kept and the others left out. REV says when the card last changed; an older one says
///   nothing the newest does not.
/// - Any other: the first (the model's value, else the first line, with the lines sharing its ALTID in 4.0) keeps
///   its name; each further line keeps its parameters and value under the name `X-` + name (`X-N;ALTID=1;
///   LANGUAGE=ja:...`), as ez-vcard, sabre/vobject, Python vobject and Evolution all keep unknown `X-` properties
///   when they read and write a card, so a language alternative of a name is still in the card, in a form no
///   reader takes for a second name.
package enum SingleInstance {
    /// The properties `version` allows once, upper-cased (VERSION aside, which the writer writes itself).
    package static func names(_ version: VCardVersion) -> [String] {
        version == .v4_0 ? names4 : names3
    }

    /// RFC 6350 6.1.4, 6.2.2, 6.2.5, 6.2.6, 6.2.7, 6.7.3, 6.7.4, 6.7.6: cardinality `*1`.
    private static let names4 = ["N", "BDAY", "ANNIVERSARY", "GENDER", "KIND", "PRODID", "REV", "UID"]
    /// RFC 2426 3.1.2, 3.1.5, 3.6.3, 3.6.4, 3.6.5, 3.6.7, 3.7.1: single by meaning (and the 2.1 equivalents).
    private static let names3 = ["N", "BDAY", "PRODID", "REV", "UID", "SORT-STRING", "CLASS"]

    /// Makes `contact` hold each of `names(version)` at most once as the writer writes it. Touches nothing (no
    /// copy) when no extension has one of these names, which is nearly every card.
    package static func fit(_ contact: inout Contact, version: VCardVersion) {
        let names = names(version)
        guard contact.extensions.contains(where: { names.contains($0.name) }) else { return }
        for name in names {
            let raw = contact.extensions.indices.filter { contact.extensions[$0].name == name }
            guard !raw.isEmpty else { continue }
            if name == "REV" {
                keepNewestRevision(&contact, raw)
            } else {
                renameFurther(&contact, name: name, raw: raw, version: version)
            }
        }
    }

    /// Whether `fit` would leave `contact` as it is, decided without a copy: each of `names(version)` is held
    /// at most once, and not both by the model and by an extension (REV) or by an extension the model's own
    /// field already writes (the others).
    package static func isFitted(_ contact: Contact, version: VCardVersion) -> Bool {
        let names = names(version)
        var seen: UInt64 = 0
        for item in contact.extensions {
            // Most extensions are `X-` ones, which no single-instance name is: passed over without comparing.
            if item.name.utf8.first == UInt8(ascii: "X") { continue }
            guard let index = names.firstIndex(of: item.name) else { continue }
            if seen & 1 << index != 0 { return false }
            seen |= 1 << index
            if item.name == "REV" ? contact.revision != nil : modelWrites(item.name, contact, version) { return false }
        }
        return true
    }

    /// Whether the writer writes this property from the model's own field.
    private static func modelWrites(_ name: String, _ contact: Contact, _ version: VCardVersion) -> Bool {
        switch name {
        case "N": contact.name != nil
        case "BDAY": contact.birthday != nil
        case "ANNIVERSARY": contact.anniversary != nil
        case "UID": contact.uid != nil
        default: false
        }
    }

    private static func renameFurther(_ contact: inout Contact, name: String, raw: [Int], version: VCardVersion) {
        var keep: [Int] = []
        if !modelWrites(name, contact, version) {
            let first = raw[0]
            keep = [first]
            if version == .v4_0, let altID = altID(contact.extensions[first]) {
                keep = raw.filter { self.altID(contact.extensions[$0]) == altID }
            }
        }
        for index in raw where !keep.contains(index) { contact.extensions[index].name = "X-" + name }
    }

    private static func altID(_ item: Extension) -> String? {
        item.parameters.first { $0.name == "ALTID" }?.values.first
    }

    private static func keepNewestRevision(_ contact: inout Contact, _ raw: [Int]) {
        // The model's REV first, so that it wins a tie.
        var candidates: [(index: Int?, key: String)] = []
        if let revision = contact.revision { candidates.append((nil, timestampKey(revision))) }
        for index in raw { candidates.append((index, timestampKey(contact.extensions[index].value))) }
        guard candidates.count > 1 else { return }
        var newest = candidates[0]
        for candidate in candidates.dropFirst() where candidate.key > newest.key { newest = candidate }
        var dropped = Set(raw.filter { $0 != newest.index })
        if let index = newest.index {
            // A plain line takes the model's place, where the reader of our output puts it.
            let line = contact.extensions[index]
            if line.group == nil && line.parameters.isEmpty {
                contact.revision = line.value
                dropped.insert(index)
            } else {
                contact.revision = nil
            }
        }
        contact.extensions = contact.extensions.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }

    /// A key that orders ISO 8601 timestamps in basic or extended form (`19951031T222710Z`,
    /// `1995-10-31T22:27:10Z`, `1995-10-31`) by time: their digits, padded to seconds.
    static func timestampKey(_ value: String) -> String {
        let digits = String(value.unicodeScalars.filter { $0.properties.numericType != nil && $0.isASCII })
        return digits.count >= 14 ? digits : digits + String(repeating: "0", count: 14 - digits.count)
    }
}
