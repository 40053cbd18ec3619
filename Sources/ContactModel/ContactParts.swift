#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A name in parts (vCard N). Each part may hold several words (`additional: ["Q.", "Public"]`).
public struct StructuredName: Hashable, Sendable, Codable {
    /// Family names (surnames).
    public var family: [String]
    /// Given names.
    public var given: [String]
    /// Additional (middle) names.
    public var additional: [String]
    /// Honorific prefixes (`Dr.`).
    public var prefixes: [String]
    /// Honorific suffixes (`Jr.`).
    public var suffixes: [String]

    /// Creates a structured name.
    public init(
        family: [String] = [], given: [String] = [], additional: [String] = [], prefixes: [String] = [],
        suffixes: [String] = []
    ) {
        self.family = family
        self.given = given
        self.additional = additional
        self.prefixes = prefixes
        self.suffixes = suffixes
    }

    /// Whether every part is empty.
    public var isEmpty: Bool {
        // Part by part: a list of the five parts costs an allocation, and matching asks this of every card.
        family.allSatisfy(\.isEmpty) && given.allSatisfy(\.isEmpty) && additional.allSatisfy(\.isEmpty)
            && prefixes.allSatisfy(\.isEmpty) && suffixes.allSatisfy(\.isEmpty)
    }

    /// The usual display order: prefixes, given, additional, family, suffixes; a Chinese, Japanese or Korean
    /// name (every part in those scripts) family first and without spaces, as it is written: `李小龙`, `김민준`.
    public var displayName: String {
        let parts = [prefixes, given, additional, family, suffixes].flatMap { $0 }.filter { !$0.isEmpty }
        if !given.allSatisfy(\.isEmpty) && !family.allSatisfy(\.isEmpty), parts.allSatisfy(Self.isEastAsian) {
            return [prefixes, family, given, additional, suffixes].flatMap { $0 }.joined()
        }
        return parts.joined(separator: " ")
    }

    /// Whether every character of `text` is a Han ideograph, kana or hangul (or a mark written within them).
    private static func isEastAsian(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x3005, 0x3006, 0x303B: true  // 々 〆 〻
            case 0x3040...0x30FF, 0x31F0...0x31FF: true  // hiragana, katakana (with ー and ・)
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: true  // hangul jamo and syllables
            default: scalar.properties.isIdeographic
            }
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case family, given, additional, prefixes, suffixes }

    /// The keys of this object in Contact JSON.
    static var jsonKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        UnknownJSONKeys.record(decoder, known: CodingKeys.self)
        family = try c.decodeIfPresent([String].self, forKey: .family) ?? []
        given = try c.decodeIfPresent([String].self, forKey: .given) ?? []
        additional = try c.decodeIfPresent([String].self, forKey: .additional) ?? []
        prefixes = try c.decodeIfPresent([String].self, forKey: .prefixes) ?? []
        suffixes = try c.decodeIfPresent([String].self, forKey: .suffixes) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if !family.isEmpty { try c.encode(family, forKey: .family) }
        if !given.isEmpty { try c.encode(given, forKey: .given) }
        if !additional.isEmpty { try c.encode(additional, forKey: .additional) }
        if !prefixes.isEmpty { try c.encode(prefixes, forKey: .prefixes) }
        if !suffixes.isEmpty { try c.encode(suffixes, forKey: .suffixes) }
    }
}

/// An organisation and its units, outermost first (vCard ORG).
public struct Organization: Hashable, Sendable, Codable {
    /// The organisation's name.
    public var name: String
    /// Departments or units, outermost first.
    public var units: [String]

    /// Creates an organisation.
    public init(name: String, units: [String] = []) {
        self.name = name
        self.units = units
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case name, units }

    /// The keys of this object in Contact JSON.
    static var jsonKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        UnknownJSONKeys.record(decoder, known: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
        units = try c.decodeIfPresent([String].self, forKey: .units) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        if !units.isEmpty { try c.encode(units, forKey: .units) }
    }
}

/// A parameter the model does not name, kept so it is written back (`X-SERVICE-TYPE=Skype`).
public struct ExtraParameter: Hashable, Sendable, Codable {
    /// The parameter name, upper-cased.
    public var name: String
    /// Its values.
    public var values: [String]

    /// Creates a parameter.
    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case name, values }

    /// The keys of this object in Contact JSON.
    static var jsonKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        UnknownJSONKeys.record(decoder, known: CodingKeys.self)
        name = try lineName(c, .name, of: "parameter")
        values = try c.decode([String].self, forKey: .values)
    }
}

/// A value with its kinds and label: an email, phone, URL, messaging address or social profile.
public struct LabeledValue: Hashable, Sendable, Codable {
    /// The value: an address, a number, a URL.
    public var value: String
    /// Kinds, lower-cased (`work`, `cell`, `voice`), without `pref`.
    public var types: [String]
    /// A free-text label (iPhone `X-ABLabel`, decoded: `_$!<Mobile>!$_` is `Mobile`).
    public var label: String?
    /// Whether the label came in Apple's form for its own labels (`_$!<Mobile>!$_`): it goes back out in that
    /// form only then, and any other label exactly as written (Google's `Other` stays `Other`).
    public var appleLabel: Bool
    /// Preference, 1 (most preferred) to 100; `TYPE=pref` reads as 1.
    public var pref: Int?
    /// The group the value was written in (`item1`), so its label and siblings stay together.
    public var group: String?
    /// Parameters the model does not name.
    public var parameters: [ExtraParameter]
    /// Whether the value was a URI rather than text (a phone as `TEL;VALUE=uri:tel:+1-555-0100;ext=7`):
    /// `value` holds the number as a person reads it (`+1-555-0100 ext. 7`), and 4.0 writes the URI back.
    public var isURI: Bool

    /// Creates a labeled value.
    public init(
        _ value: String, types: [String] = [], label: String? = nil, pref: Int? = nil, group: String? = nil,
        parameters: [ExtraParameter] = [], appleLabel: Bool = false, isURI: Bool = false
    ) {
        self.value = value
        self.types = types
        self.label = label
        self.appleLabel = appleLabel
        self.pref = pref
        self.group = group
        self.parameters = parameters
        self.isURI = isURI
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case value, types, label, appleLabel, pref, group, parameters, isURI
    }

    /// The keys of this object in Contact JSON.
    static var jsonKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        UnknownJSONKeys.record(decoder, known: CodingKeys.self)
        value = try c.decode(String.self, forKey: .value)
        types = try c.decodeIfPresent([String].self, forKey: .types) ?? []
        label = try c.decodeIfPresent(String.self, forKey: .label)
        appleLabel = try c.decodeIfPresent(Bool.self, forKey: .appleLabel) ?? false
        pref = try wholeNumber(c, .pref)
        group = try lineName(ifPresent: c, .group, of: "group")
        parameters = try c.decodeIfPresent([ExtraParameter].self, forKey: .parameters) ?? []
        isURI = try c.decodeIfPresent(Bool.self, forKey: .isURI) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(value, forKey: .value)
        if !types.isEmpty { try c.encode(types, forKey: .types) }
        try c.encodeIfPresent(label, forKey: .label)
        if appleLabel { try c.encode(appleLabel, forKey: .appleLabel) }
        try c.encodeIfPresent(pref, forKey: .pref)
        try c.encodeIfPresent(group, forKey: .group)
        if !parameters.isEmpty { try c.encode(parameters, forKey: .parameters) }
        if isURI { try c.encode(isURI, forKey: .isURI) }
    }
}

/// A postal address (vCard ADR) with its kinds and label.
public struct Address: Hashable, Sendable, Codable {
    /// Post office box.
    public var poBox: String
    /// Extended address (apartment, suite).
    public var extended: String
    /// Street address.
    public var street: String
    /// City or locality.
    public var locality: String
    /// State, province or region.
    public var region: String
    /// Postal code.
    public var postalCode: String
    /// Country.
    public var country: String
    /// Kinds, lower-cased (`home`, `work`), without `pref`.
    public var types: [String]
    /// A free-text label (iPhone `X-ABLabel`).
    public var label: String?
    /// Whether the label came in Apple's form (`_$!<Home>!$_`); see `LabeledValue.appleLabel`.
    public var appleLabel: Bool
    /// Preference, 1 to 100.
    public var pref: Int?
    /// The group the address was written in.
    public var group: String?
    /// Parameters the model does not name (a 4.0 `LABEL`, `GEO`).
    public var parameters: [ExtraParameter]

    /// Creates an address.
    public init(
        poBox: String = "", extended: String = "", street: String = "", locality: String = "",
        region: String = "", postalCode: String = "", country: String = "", types: [String] = [],
        label: String? = nil, pref: Int? = nil, group: String? = nil, parameters: [ExtraParameter] = [],
        appleLabel: Bool = false
    ) {
        self.poBox = poBox
        self.extended = extended
        self.street = street
        self.locality = locality
        self.region = region
        self.postalCode = postalCode
        self.country = country
        self.types = types
        self.label = label
        self.appleLabel = appleLabel
        self.pref = pref
        self.group = group
        self.parameters = parameters
    }

    /// The seven components in vCard order.
    public var components: [String] { [poBox, extended, street, locality, region, postalCode, country] }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case poBox, extended, street, locality, region, postalCode, country, types, label, appleLabel, pref, group
        case parameters
    }

    /// The keys of this object in Contact JSON.
    static var jsonKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        UnknownJSONKeys.record(decoder, known: CodingKeys.self)
        poBox = try c.decodeIfPresent(String.self, forKey: .poBox) ?? ""
        extended = try c.decodeIfPresent(String.self, forKey: .extended) ?? ""
        street = try c.decodeIfPresent(String.self, forKey: .street) ?? ""
        locality = try c.decodeIfPresent(String.self, forKey: .locality) ?? ""
        region = try c.decodeIfPresent(String.self, forKey: .region) ?? ""
        postalCode = try c.decodeIfPresent(String.self, forKey: .postalCode) ?? ""
        country = try c.decodeIfPresent(String.self, forKey: .country) ?? ""
        types = try c.decodeIfPresent([String].self, forKey: .types) ?? []
        label = try c.decodeIfPresent(String.self, forKey: .label)
        appleLabel = try c.decodeIfPresent(Bool.self, forKey: .appleLabel) ?? false
        pref = try wholeNumber(c, .pref)
        group = try lineName(ifPresent: c, .group, of: "group")
        parameters = try c.decodeIfPresent([ExtraParameter].self, forKey: .parameters) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if !poBox.isEmpty { try c.encode(poBox, forKey: .poBox) }
        if !extended.isEmpty { try c.encode(extended, forKey: .extended) }
        if !street.isEmpty { try c.encode(street, forKey: .street) }
        if !locality.isEmpty { try c.encode(locality, forKey: .locality) }
        if !region.isEmpty { try c.encode(region, forKey: .region) }
        if !postalCode.isEmpty { try c.encode(postalCode, forKey: .postalCode) }
        if !country.isEmpty { try c.encode(country, forKey: .country) }
        if !types.isEmpty { try c.encode(types, forKey: .types) }
        try c.encodeIfPresent(label, forKey: .label)
        if appleLabel { try c.encode(appleLabel, forKey: .appleLabel) }
        try c.encodeIfPresent(pref, forKey: .pref)
        try c.encodeIfPresent(group, forKey: .group)
        if !parameters.isEmpty { try c.encode(parameters, forKey: .parameters) }
    }
}

/// A photo: embedded bytes with their media type, or a link to one.
public struct Photo: Hashable, Sendable, Codable {
    /// The image bytes, when embedded (base64 in JSON).
    public var data: Data?
    /// The media type, such as `image/jpeg`.
    public var mediaType: String?
    /// The link, when the photo is not embedded.
    public var uri: String?
    /// Parameters the model does not name (Apple's `X-ABCROP-RECTANGLE`).
    public var parameters: [ExtraParameter]

    /// Creates an embedded photo.
    public init(data: Data, mediaType: String?, parameters: [ExtraParameter] = []) {
        self.data = data
        self.mediaType = mediaType
        self.uri = nil
        self.parameters = parameters
    }

    /// Creates a linked photo.
    public init(uri: String, mediaType: String? = nil, parameters: [ExtraParameter] = []) {
        self.data = nil
        self.mediaType = mediaType
        self.uri = uri
        self.parameters = parameters
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case data, mediaType, uri, parameters }

    /// The keys of this object in Contact JSON.
    static var jsonKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        UnknownJSONKeys.record(decoder, known: CodingKeys.self)
        data = try c.decodeIfPresent(Data.self, forKey: .data)
        mediaType = try c.decodeIfPresent(String.self, forKey: .mediaType)
        uri = try c.decodeIfPresent(String.self, forKey: .uri)
        parameters = try c.decodeIfPresent([ExtraParameter].self, forKey: .parameters) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(data, forKey: .data)
        try c.encodeIfPresent(mediaType, forKey: .mediaType)
        try c.encodeIfPresent(uri, forKey: .uri)
        if !parameters.isEmpty { try c.encode(parameters, forKey: .parameters) }
    }
}

/// A property the model does not name, kept as written so it goes back out unchanged.
public struct Extension: Hashable, Sendable, Codable {
    /// The group (`item3`), if any.
    public var group: String?
    /// The property name, upper-cased (`X-ABDATE`).
    public var name: String
    /// Its parameters.
    public var parameters: [ExtraParameter]
    /// The value in vCard 3.0 escaped form (`a\,b`), exactly as the card wrote it.
    public var value: String

    /// Creates an extension property.
    public init(group: String? = nil, name: String, parameters: [ExtraParameter] = [], value: String) {
        self.group = group
        self.name = name
        self.parameters = parameters
        self.value = value
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case group, name, parameters, value }

    /// The keys of this object in Contact JSON.
    static var jsonKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        UnknownJSONKeys.record(decoder, known: CodingKeys.self)
        group = try lineName(ifPresent: c, .group, of: "group")
        name = try lineName(c, .name, of: "property")
        parameters = try c.decodeIfPresent([ExtraParameter].self, forKey: .parameters) ?? []
        value = try c.decodeIfPresent(String.self, forKey: .value) ?? ""
        // A card's own BEGIN or END inside it ends it, or starts another, for every reader.
        if ["BEGIN", "END"].contains(name.uppercased()) && value.uppercased() == "VCARD" {
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: c, debugDescription: "expected a property other than the card's own BEGIN or END")
        }
        // A line break ends the line: the rest of the value would be read as lines of their own.
        if value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            throw DecodingError.dataCorruptedError(
                forKey: .value, in: c, debugDescription: "expected a value without a line break (write it as \\n)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(group, forKey: .group)
        try c.encode(name, forKey: .name)
        if !parameters.isEmpty { try c.encode(parameters, forKey: .parameters) }
        try c.encode(value, forKey: .value)
    }
}

extension Extension {
    /// The value as plain text (`a,b` for `a\,b`): what the CSV layer writes in a cell and a preview shows.
    package var text: String { Self.unescape(value) }

    /// vCard 3.0 text escaping: backslash, comma, semicolon; CRLF, CR and LF all become `\n`.
    package static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x2C || $0 == 0x3B || $0 == 0x0A || $0 == 0x0D })
        else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        var previousWasCR = false
        for byte in text.utf8 {
            switch byte {
            case 0x5C, 0x2C, 0x3B: out += [0x5C, byte]
            case 0x0D: out += [0x5C, UInt8(ascii: "n")]
            case 0x0A: if !previousWasCR { out += [0x5C, UInt8(ascii: "n")] }
            default: out.append(byte)
            }
            previousWasCR = byte == 0x0D
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Undoes `escape`: `\n` and `\N` become LF; `\\`, `\,`, `\;` and `\:` their character; an unknown escape
    /// keeps its backslash.
    package static func unescape(_ escaped: String) -> String {
        guard escaped.utf8.contains(0x5C) else { return escaped }
        var out: [UInt8] = []
        out.reserveCapacity(escaped.utf8.count)
        var iterator = escaped.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == 0x5C else {
                out.append(byte)
                continue
            }
            guard let next = iterator.next() else {
                out.append(byte)
                break
            }
            switch next {
            case UInt8(ascii: "n"), UInt8(ascii: "N"): out.append(0x0A)
            case 0x5C, 0x2C, 0x3B, UInt8(ascii: ":"): out.append(next)
            default: out += [byte, next]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The whole number at `key`, or nil when there is none. A number that is not one (`2.5`), or too large for one,
/// is an error that says so at its key: Foundation called it "not valid JSON" at the top of the document.
func wholeNumber<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Int? {
    guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
    let number = try container.decode(Double.self, forKey: key)
    guard number == number.rounded(.towardZero), let whole = Int(exactly: number) else {
        throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "expected a whole number")
    }
    return whole
}

/// The name of a property, parameter or group at `key`, as Contact JSON carries it into a content line: one that
/// the line's grammar can hold, or an error that says so at its key. `x;y` or an empty name, written as it was,
/// broke the line (`:v2`). What the vCard reader itself reads in a name is accepted, so `--to json` reads back:
/// a property name ends at `;`, `:` or `,` (a `.` in it is one a vCard file gave, `some.OTHER.VALUE`), a group
/// at `.` too, a parameter name at `;`, `:` or `=`; none may hold a control character or be empty.
func lineName<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key, of what: String) throws -> String {
    let name = try container.decode(String.self, forKey: key)
    let ends: [UInt8] =
        switch what {
        case "group": Array(";:,.".utf8)
        case "parameter": Array(";:=".utf8)
        default: Array(";:,".utf8)
        }
    guard !name.isEmpty, !name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || ends.contains($0) }) else {
        let listed = ends.map { String(UnicodeScalar($0)) }.joined(separator: " ")
        throw DecodingError.dataCorruptedError(
            forKey: key, in: container,
            debugDescription: "expected a \(what) name without \(listed) or control characters, and not empty")
    }
    return name
}

/// `lineName` of the value at `key`, or nil when there is none.
func lineName<Key: CodingKey>(ifPresent container: KeyedDecodingContainer<Key>, _ key: Key, of what: String) throws
    -> String?
{
    guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
    return try lineName(container, key, of: what)
}

extension Extension {
    /// The value's components as plain text, split at each `;` that is not escaped, and each component's items
    /// at each `,` that is not: `Doe;John,J.;;` is `[["Doe"], ["John", "J."], [""], [""]]`. For a structured
    /// property (N, ORG) kept here because of a parameter the model cannot hold.
    package var structuredText: [[String]] {
        var components: [[String]] = [[]]
        var current: [UInt8] = []
        var escaped = false
        func endItem() {
            components[components.count - 1].append(Self.unescape(String(decoding: current, as: UTF8.self)))
            current = []
        }
        for byte in value.utf8 {
            if escaped {
                current += [0x5C, byte]
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else if byte == UInt8(ascii: ";") {
                endItem()
                components.append([])
            } else if byte == UInt8(ascii: ",") {
                endItem()
            } else {
                current.append(byte)
            }
        }
        if escaped { current.append(0x5C) }
        endItem()
        return components
    }
}
