import ContactModel
import Utilities
import VCardSyntax

/// Writes cards of vCard 4.0 content lines as jCard text (RFC 7095 section 3).
///
/// The JSON is written by hand rather than by `JSONSerialization`, so its layout is fixed: one property per
/// line, parameters in source order, and the same bytes for the same cards on every platform.
enum JCardWriter {
    /// A jCard value: what a property's value maps to.
    enum Value {
        case string(String)
        /// A number, already in JSON's grammar.
        case number(String)
        case bool(Bool)
        /// A structured value, or a component that is a list.
        case array([Value])
    }

    /// One property: `[name, {parameters}, type, value...]`.
    struct Property {
        var name: String
        var parameters: [(name: String, values: [String])]
        var type: String
        var values: [Value]
    }

    /// One jCard alone for one card; an array of jCards for none or several. A final newline either way.
    static func write(_ cards: [RawCard]) -> [UInt8] {
        var out: [UInt8] = []
        if cards.count == 1 {
            write(cards[0], indent: "", into: &out)
        } else {
            out += Array("[".utf8)
            for (index, card) in cards.enumerated() {
                out += Array((index == 0 ? "\n" : ",\n").utf8)
                write(card, indent: "  ", into: &out)
            }
            out += Array((cards.isEmpty ? "]" : "\n]").utf8)
        }
        out.append(0x0A)
        return out
    }

    static func write(_ card: RawCard, indent: String, into out: inout [UInt8]) {
        let properties = self.properties(card)
        out += Array("\(indent)[\"vcard\",\n\(indent)  [\n".utf8)
        for (index, property) in properties.enumerated() {
            out += Array("\(indent)    ".utf8)
            write(property, into: &out)
            if index + 1 < properties.count { out.append(UInt8(ascii: ",")) }
            out.append(0x0A)
        }
        out += Array("\(indent)  ]\n\(indent)]".utf8)
    }

    private static func write(_ property: Property, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        JSONText.appendString(property.name, to: &out)
        out += Array(", {".utf8)
        for (index, parameter) in property.parameters.enumerated() {
            if index > 0 { out += Array(", ".utf8) }
            JSONText.appendString(parameter.name, to: &out)
            out += Array(": ".utf8)
            if parameter.values.count == 1 {
                JSONText.appendString(parameter.values[0], to: &out)
            } else {
                write(.array(parameter.values.map(Value.string)), into: &out)
            }
        }
        out += Array("}, ".utf8)
        JSONText.appendString(property.type, to: &out)
        for value in property.values {
            out += Array(", ".utf8)
            write(value, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func write(_ value: Value, into out: inout [UInt8]) {
        switch value {
        case .string(let text): JSONText.appendString(text, to: &out)
        case .number(let text): out += Array(text.utf8)
        case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out += Array(", ".utf8) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    // MARK: Mapping content lines

    /// The card's properties, VERSION first (RFC 7095 3.3.1.1), added as 4.0 when the card has none.
    static func properties(_ card: RawCard) -> [Property] {
        var properties: [Property] = []
        var version: Property?
        for line in card.lines {
            let property = self.property(line)
            if line.name == "VERSION" && version == nil {
                version = property
            } else {
                properties.append(property)
            }
        }
        properties.insert(
            version ?? Property(name: "version", parameters: [], type: "text", values: [.string("4.0")]),
            at: 0)
        return properties
    }

    /// One content line as a jCard property (RFC 7095 section 3.3 and 5.1).
    static func property(_ line: ContentLine) -> Property {
        var parameters: [(name: String, values: [String])] = []
        if let group = line.group { parameters.append(("group", [group])) }
        var declared: String?
        for parameter in line.parameters {
            if parameter.name == "VALUE" {
                // The VALUE parameter becomes the type field (RFC 7095 3.4.1).
                if declared == nil { declared = parameter.values.first }
                continue
            }
            var values = parameter.values
            if JCardPropertyInfo.isListParameter(parameter.name) {
                values = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            }
            let name = parameter.name.lowercased()
            if let existing = parameters.firstIndex(where: { $0.name == name }) {
                parameters[existing].values += values
            } else {
                parameters.append((name, values))
            }
        }
        // jCard has no parameter without a value: a bare one is an empty string.
        for index in parameters.indices where parameters[index].values.isEmpty { parameters[index].values = [""] }

        let info = JCardPropertyInfo.known(line.name)
        var type = declared.map(JCardValueType.init(name:)) ?? info?.defaultType ?? .unknown
        if line.name == "TZ" && declared == nil && VCardDates.utcOffset(line.value, extended: true) != nil {
            // RFC 6350 section 8 writes `TZ:-0500` and RFC 7095 appendix B.1 reads it as a utc-offset.
            type = .utcOffset
        }
        let values = self.values(line.value, type: type, shape: info?.shape ?? (declared == nil ? .single : .list))
        guard let values else {
            // A value that does not fit its type goes as `unknown`, the vCard text as is (RFC 7095 5.1), so
            // converting back gives the line that was read.
            return Property(
                name: line.name.lowercased(), parameters: parameters, type: "unknown",
                values: [.string(line.value)])
        }
        return Property(name: line.name.lowercased(), parameters: parameters, type: type.name, values: values)
    }

    /// The jCard values of an escaped vCard value of `type`, or nil when it does not fit the type.
    private static func values(_ value: String, type: JCardValueType, shape: JCardPropertyInfo.Shape) -> [Value]? {
        switch type {
        case .text:
            switch shape {
            case .single: return [.string(ValueEscaping.unescapeText(value))]
            case .list: return ValueEscaping.list(value).map(Value.string)
            case .structured: return [structured(value)]
            }
        case .uri:
            // Many writers escape `:` and `,` in URIs (`http\://`); no URI holds a backslash of its own.
            return [.string(ValueEscaping.unescapeText(value))]
        case .date, .time, .dateTime, .dateAndOrTime, .timestamp:
            return eachItem(value) { VCardDates.extended($0, type: type).map(Value.string) }
        case .utcOffset:
            return VCardDates.utcOffset(value, extended: true).map { [.string($0)] }
        case .boolean:
            return eachItem(value) { item in
                switch item.uppercased() {
                case "TRUE": .bool(true)
                case "FALSE": .bool(false)
                default: nil
                }
            }
        case .integer:
            return eachItem(value) { item in Int64(item).map { .number(String($0)) } }
        case .float:
            return eachItem(value) { jsonNumber(float: $0).map(Value.number) }
        case .languageTag, .unknown, .other:
            return [.string(value)]
        }
    }

    /// Each comma-separated item converted, or nil when one does not convert.
    private static func eachItem(_ value: String, _ convert: (String) -> Value?) -> [Value]? {
        var values: [Value] = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            guard let converted = convert(String(item)) else { return nil }
            values.append(converted)
        }
        return values
    }

    /// A structured value (RFC 7095 3.3.1.3): an array of components, each a string or, when it is a comma
    /// list, an array. A value of one component is that component alone (`GENDER:M` is `"M"`).
    private static func structured(_ value: String) -> Value {
        let components = ValueEscaping.split(value, on: ";").map { component -> Value in
            let items = ValueEscaping.list(component)
            return items.count == 1 ? .string(items[0]) : .array(items.map(Value.string))
        }
        return components.count == 1 ? components[0].singleComponent : .array(components)
    }

    /// A vCard float (`[+-]digits[.digits]`) in JSON's number grammar: no `+`, no leading zeros.
    private static func jsonNumber(float text: String) -> String? {
        var rest = Substring(text)
        var sign = ""
        if let first = rest.first, first == "+" || first == "-" {
            if first == "-" { sign = "-" }
            rest = rest.dropFirst()
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        var whole = parts[0].drop { $0 == "0" }
        if whole.isEmpty { whole = "0" }
        return sign + whole + (parts.count == 2 ? "." + parts[1] : "")
    }
}

extension JCardWriter.Value {
    /// A lone component as a value: a list stays nested so it is not read back as several components.
    fileprivate var singleComponent: Self {
        if case .array = self { return .array([self]) }
        return self
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
