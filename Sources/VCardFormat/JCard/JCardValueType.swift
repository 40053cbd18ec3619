/// A property value type as jCard names it (RFC 6350 section 4, RFC 7095 section 3.5), with an escape hatch.
enum JCardValueType: Hashable {
    case text  // RFC 6350 4.1
    case uri  // RFC 6350 4.2
    case date  // RFC 6350 4.3.1
    case time  // RFC 6350 4.3.2
    case dateTime  // RFC 6350 4.3.3
    case dateAndOrTime  // RFC 6350 4.3.4
    case timestamp  // RFC 6350 4.3.5
    case boolean  // RFC 6350 4.4
    case integer  // RFC 6350 4.5
    case float  // RFC 6350 4.6
    case utcOffset  // RFC 6350 4.7
    case languageTag  // RFC 6350 4.8
    /// RFC 7095 section 5: a property whose type the converter does not know; its value is the vCard text as is.
    case unknown
    /// An IANA or x- type named by a VALUE parameter (`x-money`), lower-cased; its value passes through as is.
    case other(String)

    /// The type a name spells (compared without case).
    init(name: String) {
        switch name.lowercased() {
        case "text": self = .text
        case "uri": self = .uri
        case "date": self = .date
        case "time": self = .time
        case "date-time": self = .dateTime
        case "date-and-or-time": self = .dateAndOrTime
        case "timestamp": self = .timestamp
        case "boolean": self = .boolean
        case "integer": self = .integer
        case "float": self = .float
        case "utc-offset": self = .utcOffset
        case "language-tag": self = .languageTag
        case "unknown": self = .unknown
        case let other: self = .other(other)
        }
    }

    /// The name, as jCard's type field and vCard's VALUE parameter write it.
    var name: String {
        switch self {
        case .text: "text"
        case .uri: "uri"
        case .date: "date"
        case .time: "time"
        case .dateTime: "date-time"
        case .dateAndOrTime: "date-and-or-time"
        case .timestamp: "timestamp"
        case .boolean: "boolean"
        case .integer: "integer"
        case .float: "float"
        case .utcOffset: "utc-offset"
        case .languageTag: "language-tag"
        case .unknown: "unknown"
        case .other(let name): name
        }
    }

    /// Whether a value of this type is a date or a time (written in ISO 8601 basic form in vCard, extended in jCard).
    var isDateOrTime: Bool {
        switch self {
        case .date, .time, .dateTime, .dateAndOrTime, .timestamp: true
        default: false
        }
    }
}

/// What jCard needs to know of a vCard property: its default value type and the shape of its value.
struct JCardPropertyInfo {
    /// How a text value splits.
    enum Shape {
        /// One value (commas are part of it).
        case single
        /// A comma list: each item is its own jCard value (RFC 7095 3.3.1.2).
        case list
        /// Components split on `;`, each possibly a comma list (RFC 7095 3.3.1.3).
        case structured
    }

    /// The type a value has when no VALUE parameter names one.
    var defaultType: JCardValueType
    /// How a text value splits.
    var shape: Shape = .single

    /// The properties of RFC 6350 (and RFC 6474, RFC 6715, RFC 8605), by upper-case name; nil for any other,
    /// whose type is `unknown` unless a VALUE parameter names one.
    static func known(_ name: String) -> JCardPropertyInfo? {
        switch name {
        case "SOURCE": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.1.3
        case "KIND": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.1.4
        case "XML": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.1.5
        case "FN": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.2.1
        case "N": JCardPropertyInfo(defaultType: .text, shape: .structured)  // RFC 6350 6.2.2
        case "NICKNAME": JCardPropertyInfo(defaultType: .text, shape: .list)  // RFC 6350 6.2.3
        case "PHOTO": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.2.4
        case "BDAY": JCardPropertyInfo(defaultType: .dateAndOrTime)  // RFC 6350 6.2.5
        case "ANNIVERSARY": JCardPropertyInfo(defaultType: .dateAndOrTime)  // RFC 6350 6.2.6
        case "GENDER": JCardPropertyInfo(defaultType: .text, shape: .structured)  // RFC 6350 6.2.7
        case "ADR": JCardPropertyInfo(defaultType: .text, shape: .structured)  // RFC 6350 6.3.1
        case "TEL": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.4.1
        case "EMAIL": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.4.2
        case "IMPP": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.4.3
        case "LANG": JCardPropertyInfo(defaultType: .languageTag)  // RFC 6350 6.4.4
        case "TZ": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.5.1
        case "GEO": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.5.2
        case "TITLE": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.6.1
        case "ROLE": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.6.2
        case "LOGO": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.6.3
        case "ORG": JCardPropertyInfo(defaultType: .text, shape: .structured)  // RFC 6350 6.6.4
        case "MEMBER": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.6.5
        case "RELATED": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.6.6
        case "CATEGORIES": JCardPropertyInfo(defaultType: .text, shape: .list)  // RFC 6350 6.7.1
        case "NOTE": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.7.2
        case "PRODID": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.7.3
        case "REV": JCardPropertyInfo(defaultType: .timestamp)  // RFC 6350 6.7.4
        case "SOUND": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.7.5
        case "UID": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.7.6
        case "CLIENTPIDMAP": JCardPropertyInfo(defaultType: .text, shape: .structured)  // RFC 6350 6.7.7
        case "URL": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.7.8
        case "VERSION": JCardPropertyInfo(defaultType: .text)  // RFC 6350 6.7.9
        case "KEY": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.8.1
        case "FBURL": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.9.1
        case "CALADRURI": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.9.2
        case "CALURI": JCardPropertyInfo(defaultType: .uri)  // RFC 6350 6.9.3
        case "BIRTHPLACE", "DEATHPLACE": JCardPropertyInfo(defaultType: .text)  // RFC 6474 2.1, 2.2
        case "DEATHDATE": JCardPropertyInfo(defaultType: .dateAndOrTime)  // RFC 6474 2.3
        case "EXPERTISE", "HOBBY", "INTEREST": JCardPropertyInfo(defaultType: .text)  // RFC 6715 2.1-2.3
        case "ORG-DIRECTORY": JCardPropertyInfo(defaultType: .uri)  // RFC 6715 2.4
        case "CONTACT-URI": JCardPropertyInfo(defaultType: .uri)  // RFC 8605 2.1
        default: nil
        }
    }

    /// Parameters whose values are comma lists even when quoted: RFC 6350 section 8 writes `TYPE="work,voice"`
    /// and section 5.9 `SORT-AS="Harten,Rene"`, and RFC 7095 reads both as several values.
    static func isListParameter(_ upperName: String) -> Bool {
        upperName == "TYPE" || upperName == "SORT-AS" || upperName == "PID"
    }
}
