/// What one CSV column means for the model, found from its header name and the file's layout.
enum Column: Hashable {
    case given, additional, family, prefix, suffix, nickname
    /// The older Google layout's `Name`, the display name.
    case formattedName
    case organization, department, title
    case birthday, anniversary, notes, photo, categories
    /// A Google numbered column: `E-mail 2 - Value`, `Address 1 - City`.
    case group(GroupKind, index: Int, part: GroupPart)
    /// An Outlook or Thunderbird email column (`E-mail Address`, `Primary Email`), preferred or not.
    case email(pref: Int?)
    /// An Outlook phone column with its fixed kinds or label.
    case phone(GoogleLabel)
    /// An Outlook or Thunderbird address column: which address (`Business`, `Home`, `Other`) and which part.
    case address(OutlookAddress, GroupPart)
    /// Thunderbird's birthday, a column for each of its year, month and day.
    case birthPart(DatePart)
    /// An Outlook web page column with its kinds.
    case url(types: [String])
    /// An Outlook column whose value `unset` is Outlook's default, the same as empty (`Gender` `Unspecified`).
    case outlookDefault(unset: String)
    /// A part of the name as it sounds (Google's `Phonetic First Name`, Outlook's `Given Yomi`): the vCard
    /// property Apple Contacts and Android keep that part in (see `KeptColumn.phoneticProperties`).
    case phonetic(property: String)
    /// Anything the model does not name: kept as `X-CSV-FIELD`.
    case unmapped

    /// The kinds of Google numbered columns the model maps.
    enum GroupKind: Int, Hashable, Comparable {
        case email, phone, address, website, event, organization, messaging

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The part of a numbered column or of an Outlook address.
    enum GroupPart: Hashable {
        case label, value, service
        case formatted, street, street2, street3, locality, region, postalCode, country, poBox, extended
        case name, title, department
    }

    /// The parts of a date written in three columns.
    enum DatePart: Int, Hashable {
        case year, month, day
    }

    /// Outlook's three addresses.
    enum OutlookAddress: Int, Hashable {
        case business, home, other

        /// The kinds the address gets.
        var types: [String] { [["work"], ["home"], ["other"]][rawValue] }
    }

    /// The meaning of every column of a header row.
    static func columns(_ header: [String], layout: ContactCSV.Layout) -> [Column] {
        header.map { name in
            let name = trimmed(name)
            switch layout {
            case .google, .googleLegacy: return google(name, legacy: layout == .googleLegacy)
            case .outlook: return outlook[name] ?? .unmapped
            case .thunderbird: return thunderbird[name] ?? .unmapped
            }
        }
    }

    private static func google(_ name: String, legacy: Bool) -> Column {
        if let fixed = (legacy ? googleLegacyFixed : googleFixed)[name] { return fixed }
        guard let group = GroupHeader(name) else { return .unmapped }
        let labelPart = legacy ? "Type" : "Label"
        switch group.kind {
        case "E-mail", "Phone", "Website", "Event":
            let kind: GroupKind = ["E-mail": .email, "Phone": .phone, "Website": .website, "Event": .event][group.kind]!
            switch group.part {
            case labelPart: return .group(kind, index: group.index, part: .label)
            case "Value": return .group(kind, index: group.index, part: .value)
            default: return .unmapped
            }
        case "Address":
            if group.part == labelPart { return .group(.address, index: group.index, part: .label) }
            guard let part = googleAddressParts[group.part] else { return .unmapped }
            return .group(.address, index: group.index, part: part)
        case "IM":
            let parts: [String: GroupPart] = [labelPart: .label, "Service": .service, "Value": .value]
            return parts[group.part].map { .group(.messaging, index: group.index, part: $0) } ?? .unmapped
        case "Organization" where group.index == 1:
            let parts: [String: GroupPart] = ["Name": .name, "Title": .title, "Department": .department]
            return parts[group.part].map { .group(.organization, index: 1, part: $0) } ?? .unmapped
        default:
            return .unmapped
        }
    }

    private static let googleFixed: [String: Column] = [
        "First Name": .given, "Middle Name": .additional, "Last Name": .family, "Name Prefix": .prefix,
        "Name Suffix": .suffix, "Nickname": .nickname, "Organization Name": .organization,
        "Organization Title": .title, "Organization Department": .department, "Birthday": .birthday,
        "Notes": .notes, "Photo": .photo, "Labels": .categories,
        "Phonetic First Name": .phonetic(property: "X-PHONETIC-FIRST-NAME"),
        "Phonetic Middle Name": .phonetic(property: "X-PHONETIC-MIDDLE-NAME"),
        "Phonetic Last Name": .phonetic(property: "X-PHONETIC-LAST-NAME"),
    ]

    private static let googleLegacyFixed: [String: Column] = [
        "Name": .formattedName, "Given Name": .given, "Additional Name": .additional, "Family Name": .family,
        "Name Prefix": .prefix, "Name Suffix": .suffix, "Nickname": .nickname, "Birthday": .birthday,
        "Notes": .notes, "Photo": .photo, "Group Membership": .categories,
        "Given Name Yomi": .phonetic(property: "X-PHONETIC-FIRST-NAME"),
        "Additional Name Yomi": .phonetic(property: "X-PHONETIC-MIDDLE-NAME"),
        "Family Name Yomi": .phonetic(property: "X-PHONETIC-LAST-NAME"),
    ]

    private static let googleAddressParts: [String: GroupPart] = [
        "Formatted": .formatted, "Street": .street, "City": .locality, "PO Box": .poBox, "Region": .region,
        "Postal Code": .postalCode, "Country": .country, "Extended Address": .extended,
    ]

    /// Outlook's fixed columns: the desktop export (Outlook 2003-2016 wizard) and Outlook.com's.
    private static let outlook: [String: Column] = {
        var columns: [String: Column] = [
            "Title": .prefix, "First Name": .given, "Middle Name": .additional, "Last Name": .family,
            "Suffix": .suffix, "Nickname": .nickname, "Company": .organization, "Department": .department,
            "Job Title": .title, "Birthday": .birthday, "Anniversary": .anniversary, "Notes": .notes,
            "Categories": .categories, "E-mail Address": .email(pref: nil),
            "E-mail 2 Address": .email(pref: nil), "E-mail 3 Address": .email(pref: nil),
            "Web Page": .url(types: ["work"]), "Personal Web Page": .url(types: ["home"]),
            "Gender": .outlookDefault(unset: "Unspecified"), "Priority": .outlookDefault(unset: "Normal"),
            "Sensitivity": .outlookDefault(unset: "Normal"), "Private": .outlookDefault(unset: "False"),
            "Given Yomi": .phonetic(property: "X-PHONETIC-FIRST-NAME"),
            "Surname Yomi": .phonetic(property: "X-PHONETIC-LAST-NAME"),
        ]
        let phones: [(String, GoogleLabel)] = [
            ("Assistant's Phone", GoogleLabel(types: [], label: "Assistant", pref: nil)),
            ("Business Phone", GoogleLabel(types: ["work"], label: nil, pref: nil)),
            ("Business Phone 2", GoogleLabel(types: ["work"], label: nil, pref: nil)),
            ("Business Fax", GoogleLabel(types: ["work", "fax"], label: nil, pref: nil)),
            ("Callback", GoogleLabel(types: [], label: "Callback", pref: nil)),
            ("Car Phone", GoogleLabel(types: ["car"], label: nil, pref: nil)),
            ("Company Main Phone", GoogleLabel(types: [], label: "Company Main", pref: nil)),
            ("Home Phone", GoogleLabel(types: ["home"], label: nil, pref: nil)),
            ("Home Phone 2", GoogleLabel(types: ["home"], label: nil, pref: nil)),
            ("Home Fax", GoogleLabel(types: ["home", "fax"], label: nil, pref: nil)),
            ("ISDN", GoogleLabel(types: ["isdn"], label: nil, pref: nil)),
            ("Mobile Phone", GoogleLabel(types: ["cell"], label: nil, pref: nil)),
            ("Other Phone", GoogleLabel(types: ["other"], label: nil, pref: nil)),
            ("Other Fax", GoogleLabel(types: ["other", "fax"], label: nil, pref: nil)),
            ("Pager", GoogleLabel(types: ["pager"], label: nil, pref: nil)),
            ("Primary Phone", GoogleLabel(types: [], label: nil, pref: 1)),
            ("Radio Phone", GoogleLabel(types: [], label: "Radio", pref: nil)),
            ("TTY/TDD Phone", GoogleLabel(types: [], label: "TTY/TDD", pref: nil)),
            ("Telex", GoogleLabel(types: [], label: "Telex", pref: nil)),
        ]
        for (name, label) in phones { columns[name] = .phone(label) }
        let parts: [(String, GroupPart)] = [
            ("Street", .street), ("Street 2", .street2), ("Street 3", .street3), ("City", .locality),
            ("State", .region), ("Postal Code", .postalCode), ("Country/Region", .country), ("Country", .country),
        ]
        for (kind, prefix) in [(OutlookAddress.business, "Business"), (.home, "Home"), (.other, "Other")] {
            for (suffix, part) in parts { columns["\(prefix) \(suffix)"] = .address(kind, part) }
            columns["\(prefix) Address PO Box"] = .address(kind, .poBox)
            // Google's "Outlook CSV" export adds the whole address in one column.
            columns["\(prefix) Address"] = .address(kind, .formatted)
        }
        return columns
    }()

    /// Thunderbird's export (its address book's "Comma Separated" file, English names). `Home Address` and
    /// `Work Address` are the first street line there, where Google's "Outlook CSV" writes a whole address under
    /// the first; `Screen Name` (an AIM name) and `Custom 1` to `Custom 4` have no field and are kept.
    private static let thunderbird: [String: Column] = {
        var columns: [String: Column] = [
            "First Name": .given, "Last Name": .family, "Display Name": .formattedName, "Nickname": .nickname,
            "Primary Email": .email(pref: 1), "Secondary Email": .email(pref: nil),
            "Work Phone": .phone(GoogleLabel(types: ["work"], label: nil, pref: nil)),
            "Home Phone": .phone(GoogleLabel(types: ["home"], label: nil, pref: nil)),
            "Fax Number": .phone(GoogleLabel(types: ["fax"], label: nil, pref: nil)),
            "Pager Number": .phone(GoogleLabel(types: ["pager"], label: nil, pref: nil)),
            "Mobile Number": .phone(GoogleLabel(types: ["cell"], label: nil, pref: nil)),
            "Job Title": .title, "Department": .department, "Organization": .organization,
            "Web Page 1": .url(types: ["work"]), "Web Page 2": .url(types: ["home"]),
            "Birth Year": .birthPart(.year), "Birth Month": .birthPart(.month), "Birth Day": .birthPart(.day),
            "Notes": .notes,
        ]
        let parts: [(String, GroupPart)] = [
            ("Address", .street), ("Address 2", .street2), ("City", .locality), ("State", .region),
            ("ZipCode", .postalCode), ("Country", .country),
        ]
        for (kind, prefix) in [(OutlookAddress.home, "Home"), (.business, "Work")] {
            for (suffix, part) in parts { columns["\(prefix) \(suffix)"] = .address(kind, part) }
        }
        return columns
    }()
}
