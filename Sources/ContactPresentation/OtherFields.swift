import ContactModel

/// Names, people and dates that clients keep in properties of their own, and that a phone shows with the rest
/// of a card: Apple's and Android's phonetic names (`X-PHONETIC-FIRST-NAME`), Apple's labelled dates and related
/// names (`item3.X-ABDATE` labelled `_$!<Anniversary>!$_`), vCard 4.0's RELATED, Android's other names (a
/// maiden name, initials: its plain nickname is read as NICKNAME), relations and events
/// (`X-ANDROID-CUSTOM:vnd.android.cursor.item/relation;Linda;14;...`), and Outlook's,
/// Evolution's and KAddressBook's anniversary, spouse, manager and assistant. The model keeps each as the
/// property it came in (so it goes back out as it was); a preview shows what it means.
enum OtherFields {
    /// Where a field goes among a preview's rows.
    enum Place {
        /// First, under the name.
        case phonetic
        /// After the nickname.
        case name
        /// After the links and profiles.
        case person
        /// With the birthday and anniversary.
        case date
        /// Last: every other property the card has (`GENDER`, `X-SKYPE`, a second `ORG`), so nothing of the
        /// card is missing from its preview.
        case rest
    }

    /// One field: its place, label and text.
    struct Field: Equatable {
        var place: Place
        var label: String
        var text: String
    }

    /// The fields of `contact`, in the order its properties come.
    static func fields(_ contact: Contact) -> [Field] {
        // (One pass over the extensions, which most cards have few of: a preview of a book asks every card.)
        guard !contact.extensions.isEmpty else { return [] }
        var out: [Field] = []
        var phonetic: [String: String] = [:]
        // Each group's X-ABLabel, found once: looking it up for each date was quadratic (a card of 20,000 labelled
        // dates took 33 s to preview).
        var labels: [String: Extension]?
        func label(of ext: Extension) -> String? {
            if labels == nil {
                var found: [String: Extension] = [:]
                for item in contact.extensions where item.name.uppercased() == "X-ABLABEL" {
                    if let group = item.group?.lowercased(), found[group] == nil { found[group] = item }
                }
                labels = found
            }
            return ext.group.flatMap { labels?[$0.lowercased()] }.flatMap(appleLabel)
        }
        for ext in contact.extensions {
            let name = ext.name.uppercased()
            if name.hasPrefix("X-PHONETIC-") {
                if phonetic[name] == nil { phonetic[name] = ext.text }
                continue
            }
            if let (place, label) = fixed[name] {
                let text = ext.text
                guard !text.isEmpty else { continue }
                out.append(Field(place: place, label: label, text: place == .date ? readableDate(text) : text))
                continue
            }
            switch name {
            case "X-ABDATE", "X-ABRELATEDNAMES":
                let text = ext.text
                guard !text.isEmpty else { continue }
                let date = name == "X-ABDATE"
                let label = label(of: ext) ?? (date ? "date" : "related")
                // Apple's date without a year carries a year it omits (`X-APPLE-OMIT-YEAR=1604:1604-06-12`).
                var shown = text
                if date,
                    let omitted = ext.parameters.first(where: { $0.name.uppercased() == "X-APPLE-OMIT-YEAR" })?
                        .values.first, !omitted.isEmpty, text.hasPrefix(omitted + "-")
                {
                    shown = "--" + text.dropFirst(omitted.count + 1)
                }
                out.append(Field(place: date ? .date : .person, label: label, text: date ? readableDate(shown) : text))
            case "RELATED":
                let types = ext.parameters.filter { $0.name.uppercased() == "TYPE" }.flatMap(\.values)
                let text = ext.text
                guard !text.isEmpty else { continue }
                out.append(
                    Field(place: .person, label: types.isEmpty ? "related" : types.joined(separator: ","), text: text))
            case "X-ANDROID-CUSTOM":
                if let field = android(ext.value) { out.append(field) }
            default:
                if let field = rest(ext, name: name) { out.append(field) }
            }
        }
        if !phonetic.isEmpty, let text = phoneticName(phonetic, of: contact.name) {
            out.insert(Field(place: .phonetic, label: "phonetic", text: text), at: 0)
        }
        return out
    }

    /// Properties whose name says what they hold.
    private static let fixed: [String: (Place, String)] = [
        "X-MS-ANNIVERSARY": (.date, "anniversary"), "X-EVOLUTION-ANNIVERSARY": (.date, "anniversary"),
        "X-KADDRESSBOOK-X-ANNIVERSARY": (.date, "anniversary"),
        "X-MS-SPOUSE": (.person, "spouse"), "X-EVOLUTION-SPOUSE": (.person, "spouse"),
        "X-KADDRESSBOOK-X-SPOUSESNAME": (.person, "spouse"), "X-SPOUSE": (.person, "spouse"),
        "X-MS-MANAGER": (.person, "manager"), "X-EVOLUTION-MANAGER": (.person, "manager"),
        "X-KADDRESSBOOK-X-MANAGERSNAME": (.person, "manager"), "X-MANAGER": (.person, "manager"),
        "X-MS-ASSISTANT": (.person, "assistant"), "X-EVOLUTION-ASSISTANT": (.person, "assistant"),
        "X-KADDRESSBOOK-X-ASSISTANTSNAME": (.person, "assistant"), "X-ASSISTANT": (.person, "assistant"),
    ]

    /// Properties a preview has no use for: what labels or places another (`X-ABLabel`, Apple's address country
    /// code), and what only a program reads (the writing program, Apple's own identifiers and display choice).
    private static let bookkeeping: Set<String> = [
        "X-ABLABEL", "X-ABADR", "PRODID", "X-ABUID", "X-ABSHOWAS", "CLIENTPIDMAP", "X-MS-OL-DEFAULT-POSTAL-ADDRESS",
    ]

    /// Friendlier labels of vCard 4.0's other properties.
    private static let restLabels: [String: String] = [
        "LANG": "language", "TZ": "time zone", "GEO": "location", "CALURI": "calendar", "CALADRURI": "calendar address",
        "FBURL": "free/busy", "ORG-DIRECTORY": "directory", "X-MAIDENNAME": "maiden name",
    ]

    /// Any other property as a row of its own: its label from its name (`X-SKYPE` is `skype`, a CSV column's
    /// header, `GENDER` is `gender`), binary data as its size rather than its base64.
    private static func rest(_ ext: Extension, name: String) -> Field? {
        guard !bookkeeping.contains(name) else { return nil }
        let text = ext.text
        guard !text.isEmpty else { return nil }
        let label: String
        if name == "X-CSV-FIELD",
            let column = ext.parameters.first(where: { $0.name.uppercased() == "X-COLUMN" })?
                .values.first
        {
            label = column
        } else if let friendly = restLabels[name] {
            label = friendly
        } else {
            label = (name.hasPrefix("X-") ? String(name.dropFirst(2)) : name).lowercased()
                .replacingOccurrences(of: "-", with: " ")
        }
        let encoded = ext.parameters.contains {
            $0.name.uppercased() == "ENCODING" && $0.values.contains { ["B", "BASE64"].contains($0.uppercased()) }
        }
        if encoded || text.lowercased().hasPrefix("data:") {
            return Field(place: .rest, label: label, text: "[data, \(text.utf8.count * 3 / 4) bytes]")
        }
        return Field(place: .rest, label: label, text: text)
    }

    /// The phonetic name of the parts in `parts` (by property name), in the order the name is shown: family name
    /// first where the name is written so.
    private static func phoneticName(_ parts: [String: String], of name: StructuredName?) -> String? {
        let (first, middle, last) = (
            parts["X-PHONETIC-FIRST-NAME"] ?? "", parts["X-PHONETIC-MIDDLE-NAME"] ?? "",
            parts["X-PHONETIC-LAST-NAME"] ?? ""
        )
        var ordered = [first, middle, last]
        if let name, !name.family.joined().isEmpty, !name.given.joined().isEmpty,
            name.displayName.hasPrefix(name.family.joined())
        {
            ordered = [last, first, middle]
        }
        let text = ordered.filter { !$0.isEmpty }.joined(separator: " ")
        return text.isEmpty ? nil : text
    }

    /// The text of a group's label (`item3.X-ABLabel`), Apple's own labels unwrapped (`Anniversary`).
    private static func appleLabel(_ label: Extension) -> String? {
        let text = label.text
        if text.hasPrefix("_$!<") && text.hasSuffix(">!$_") && text.count >= 8 {
            return String(text.dropFirst(4).dropLast(4))
        }
        return text.isEmpty ? nil : text
    }

    /// Android's nickname, relation or event (`vnd.android.cursor.item/relation;Linda;14;;...`: the value, its
    /// kind as Android numbers it, and a label of the user's own for kind 0).
    private static func android(_ value: String) -> Field? {
        let parts = split(value)
        guard parts.count >= 2, !parts[1].isEmpty else { return nil }
        let kind = parts.count > 2 ? Int(parts[2]) : nil
        let custom = parts.count > 3 && !parts[3].isEmpty ? parts[3] : nil
        switch parts[0] {
        case "vnd.android.cursor.item/nickname":
            let kinds = [2: "other name", 3: "maiden name", 4: "short name", 5: "initials"]
            return Field(place: .name, label: custom ?? kind.flatMap { kinds[$0] } ?? "nickname", text: parts[1])
        case "vnd.android.cursor.item/relation":
            let kinds = [
                1: "assistant", 2: "brother", 3: "child", 4: "domestic partner", 5: "father", 6: "friend",
                7: "manager", 8: "mother", 9: "parent", 10: "partner", 11: "referred by", 12: "relative",
                13: "sister", 14: "spouse",
            ]
            return Field(place: .person, label: custom ?? kind.flatMap { kinds[$0] } ?? "related", text: parts[1])
        case "vnd.android.cursor.item/contact_event":
            let kinds = [1: "anniversary", 2: "date", 3: "birthday"]
            return Field(
                place: .date, label: custom ?? kind.flatMap { kinds[$0] } ?? "date", text: readableDate(parts[1]))
        default:
            return nil
        }
    }

    /// A date as a person reads it: `19800315` as `1980-03-15`, `--0415` as `--04-15`; anything else as written.
    static func readableDate(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let digits = { (range: Range<Int>) in bytes[range].allSatisfy { (0x30...0x39).contains($0) } }
        if bytes.count == 8 && digits(0..<8) {
            return "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
        }
        if bytes.count == 6 && bytes[0] == 0x2D && bytes[1] == 0x2D && digits(2..<6) {
            return "--\(text.dropFirst(2).prefix(2))-\(text.suffix(2))"
        }
        return text
    }

    /// A structured value's parts, split at each `;` not escaped, each unescaped.
    private static func split(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in text {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == ";" {
                parts.append(Extension.unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(Extension.unescape(current))
        return parts
    }
}
