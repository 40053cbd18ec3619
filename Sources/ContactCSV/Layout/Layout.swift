extension ContactCSV {
    /// Which program wrote a file, told from its header row. Columns are found by name, so their order and any
    /// extra or missing columns do not matter.
    public enum Layout: String, Hashable, Sendable, CaseIterable {
        /// Google Contacts' current export: `First Name,Middle Name,Last Name,Phonetic First Name,...,Labels,
        /// E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,...`. The layout `write` produces.
        case google
        /// Google's older export: `Name,Given Name,Additional Name,Family Name,Yomi Name,...,Group Membership,
        /// E-mail 1 - Type,E-mail 1 - Value,...`.
        case googleLegacy
        /// Outlook's export (desktop and Outlook.com): `First Name,Middle Name,Last Name,Title,Suffix,...,
        /// E-mail Address,E-mail 2 Address,...,Business Street,...,Mobile Phone,...,Categories`.
        case outlook
        /// Thunderbird's export: `First Name,Last Name,Display Name,Nickname,Primary Email,Secondary Email,
        /// Screen Name,Work Phone,...,Home Address,Home Address 2,Home City,...,Birth Year,Birth Month,Birth Day,
        /// Custom 1,...,Notes`.
        case thunderbird
    }
}

extension ContactCSV.Layout {
    /// The layout a header row belongs to: the one most of its names are peculiar to, when two or more are.
    /// A header with fewer, but three names of these layouts in all (what `looksLikeCSV` asks), is a file cut
    /// down to a few columns (`First Name,Last Name,E-mail 1 - Value,Phone 1 - Value`, by hand or by another
    /// program): it is read in the layout of its one peculiar name, or with none, in Google's current layout,
    /// whose reader knows the shared names and the numbered `Value` columns. Nil otherwise.
    static func detect(_ header: [String]) -> Self? {
        var scores: [Self: Int] = [:]
        for name in header.map(trimmed) {
            for layout in Self.allCases where layout.isMarker(name) { scores[layout, default: 0] += 1 }
        }
        // Ties go to the order of `allCases`: current Google, older Google, Outlook, Thunderbird.
        let best = scores.values.max() ?? 0
        if best >= 2 { return Self.allCases.first { scores[$0] == best } }
        guard header.filter(isKnownHeader).count >= 3 else { return nil }
        return best == 1 ? Self.allCases.first { scores[$0] == 1 } : .google
    }

    /// Whether `name` is a header name of any layout (shared or peculiar), for content detection.
    static func isKnownHeader(_ name: String) -> Bool {
        let name = trimmed(name)
        return sharedNames.contains(name) || allCases.contains { $0.isMarker(name) }
            || GroupHeader(name).map { groupKinds.contains($0.kind) } ?? false
    }

    /// Whether `name` is peculiar to this layout.
    private func isMarker(_ name: String) -> Bool {
        switch self {
        case .google:
            return Self.googleNames.contains(name) || GroupHeader(name)?.part == "Label"
        case .googleLegacy:
            return Self.googleLegacyNames.contains(name) || GroupHeader(name)?.part == "Type"
        case .outlook:
            return Self.outlookNames.contains(name)
        case .thunderbird:
            return Self.thunderbirdNames.contains(name)
        }
    }

    /// Names in more than one layout: they count as CSV headers but tell no layout apart.
    private static let sharedNames: Set<String> = [
        "First Name", "Middle Name", "Last Name", "Name Prefix", "Name Suffix", "Nickname", "Birthday", "Notes",
        "Photo", "Anniversary",
    ]
    private static let googleNames: Set<String> = [
        "Phonetic First Name", "Phonetic Middle Name", "Phonetic Last Name", "File As", "Organization Name",
        "Organization Title", "Organization Department", "Labels",
    ]
    private static let googleLegacyNames: Set<String> = [
        "Name", "Given Name", "Additional Name", "Family Name", "Yomi Name", "Given Name Yomi",
        "Additional Name Yomi", "Family Name Yomi", "Group Membership", "Short Name", "Maiden Name",
    ]
    private static let outlookNames: Set<String> = [
        "Title", "Suffix", "Company", "Department", "Job Title", "E-mail Address", "E-mail 2 Address",
        "E-mail 3 Address", "E-mail Display Name", "Business Street", "Home Street", "Other Street", "Business City",
        "Home City", "Business Phone", "Home Phone", "Mobile Phone", "Business Fax", "Primary Phone", "Categories",
        "Web Page", "Given Yomi", "Surname Yomi",
    ]
    /// Thunderbird's names. It shares `Home City`, `Home Phone`, `Job Title` and `Department` with Outlook, so a
    /// Thunderbird file has more of these than of Outlook's.
    private static let thunderbirdNames: Set<String> = [
        "Display Name", "Primary Email", "Secondary Email", "Screen Name", "Work Phone", "Fax Number",
        "Pager Number", "Mobile Number", "Home Address 2", "Home ZipCode", "Work Address", "Work Address 2",
        "Work City", "Work State", "Work ZipCode", "Work Country", "Organization", "Web Page 1", "Web Page 2",
        "Birth Year", "Birth Month", "Birth Day", "Custom 1", "Custom 2", "Custom 3", "Custom 4",
    ]
    private static let groupKinds: Set<String> = [
        "E-mail", "Phone", "Address", "Website", "Event", "Relation", "IM", "Custom Field", "Organization",
    ]
}

/// Header names are compared after trimming spaces, which hand-edited files sometimes add.
func trimmed(_ text: String) -> String {
    // (A space is one byte: the ends are read as bytes, not as characters, which cost a tenth of a read.)
    let bytes = text.utf8
    guard let first = bytes.first, let last = bytes.last, first == 0x20 || last == 0x20 else { return text }
    let start = bytes.firstIndex { $0 != 0x20 } ?? bytes.endIndex
    // A space is a character of its own unless a combining mark follows it (one is never ASCII): then by
    // characters, as before.
    guard start == bytes.endIndex || bytes[start] < 0x80 else {
        return String(text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
    let end = bytes[start...].lastIndex { $0 != 0x20 }.map { bytes.index(after: $0) } ?? start
    return String(text[start..<end])
}

/// A Google numbered column, `<Kind> <N> - <Part>`: `E-mail 2 - Value`, `Address 1 - Postal Code`.
struct GroupHeader: Hashable {
    var kind: String
    var index: Int
    var part: String

    /// Parses a header; nil when it is not a numbered column.
    init?(_ header: String) {
        guard let dash = header.firstRange(of: " - ") else { return nil }
        let left = header[..<dash.lowerBound]
        guard let space = left.lastIndex(of: " "), let index = Int(left[left.index(after: space)...]), index >= 1
        else { return nil }
        kind = String(left[..<space])
        self.index = index
        part = String(header[dash.upperBound...])
    }

    /// The header text.
    var header: String { "\(kind) \(index) - \(part)" }
}
