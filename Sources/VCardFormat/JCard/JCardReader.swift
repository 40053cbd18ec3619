import ContactModel
import Utilities
import VCardSyntax

/// Turns jCard text into vCard 4.0 content lines (RFC 7095 sections 4 and 5).
///
/// Shape errors (not JSON, a property that is not `[name, parameters, type, value...]`) stop the read with a
/// `JCardError`; a value that does not fit its type is kept as written with a warning, as the vCard reader does.
struct JCardReader {
    let bytes: [UInt8]
    let name: String?
    private let lines: JSONText.LineIndex
    /// Warnings for the card being read.
    private var diagnostics: [Diagnostic] = []
    /// Where `bytes` sit in the document they were cut from (`JCard.forEachCard`): the position of their first
    /// byte, and the number of their first card.
    var origin = JSONArrayStream.Position()
    var firstCard = 1

    init(bytes: [UInt8], name: String?) {
        self.bytes = bytes
        self.name = name
        lines = JSONText.LineIndex(bytes)
    }

    /// Every card with the warnings found in it.
    mutating func read() throws(JCardError) -> [(card: RawCard, diagnostics: [Diagnostic])] {
        // jCard is UTF-8 (RFC 7095, by RFC 8259): a byte that is not was read as U+FFFD without a word.
        if let invalid = UTF8Validation.firstInvalid(bytes) {
            throw error(.notUTF8(byte: bytes[invalid]), atOffset: invalid)
        }
        let root: JSONValue
        do {
            root = try JSONText.parse(bytes)
        } catch {
            throw self.error(.notJSON(expected: error.expected), atOffset: error.offset)
        }
        guard let items = root.array else { throw self.error(.topLevel, at: root) }
        // A jCard starts with the string "vcard"; an array of jCards starts with an array (or is empty).
        let cards = items.first?.string != nil ? [root] : items
        var result: [(card: RawCard, diagnostics: [Diagnostic])] = []
        for (index, card) in cards.enumerated() {
            diagnostics = []
            let raw = try readCard(card, number: index + firstCard)
            result.append((raw, diagnostics))
        }
        return result
    }

    // MARK: Cards and properties

    private mutating func readCard(_ card: JSONValue, number: Int) throws(JCardError) -> RawCard {
        guard let parts = card.array, parts.count == 2, parts[0].string?.lowercased() == "vcard",
            let properties = parts[1].array
        else { throw error(.card(number), at: card) }
        var version: ContentLine?
        var contentLines: [ContentLine] = []
        for (index, property) in properties.enumerated() {
            guard let line = try readProperty(property, card: number, number: index + 1) else { continue }
            if line.name == "VERSION" && version == nil {
                version = line
            } else {
                contentLines.append(line)
            }
        }
        let (beginLine, beginColumn) = position(card.start)
        if version == nil {
            diagnostics.append(
                Diagnostic(
                    .warning, .missingVersion, Message.missingVersion(card: number).text,
                    line: beginLine, column: beginColumn, file: name))
        }
        // RFC 6350 3.3: VERSION comes right after BEGIN, wherever the jCard put it.
        contentLines.insert(version ?? ContentLine(name: "VERSION", value: "4.0", line: beginLine), at: 0)
        return RawCard(
            lines: contentLines, beginLine: beginLine, endLine: position(card.end - 1).line,
            byteRange: (origin.offset + card.start)..<(origin.offset + card.end))
    }

    private mutating func readProperty(_ property: JSONValue, card: Int, number: Int) throws(JCardError)
        -> ContentLine?
    {
        let unnamed = "card \(card), property \(number)"
        guard let parts = property.array else { throw error(.propertyShape(unnamed), at: property) }
        let label = parts.first?.string.map { "\(unnamed) (\"\($0)\")" } ?? unnamed
        guard parts.count >= 4, let propertyName = parts[0].string else {
            throw error(.propertyShape(label), at: property)
        }
        guard Self.isName(propertyName) else { throw error(.propertyName(label), at: parts[0]) }
        let upperName = propertyName.uppercased()
        let line = position(property.start).line
        if upperName == "BEGIN" || upperName == "END" {
            // RFC 7095 3.2: BEGIN and END are the jCard's brackets, never properties.
            diagnostics.append(
                Diagnostic(
                    .warning, .invalidValue, Message.beginEnd(label).text, line: line,
                    file: name))
            return nil
        }
        guard case .object(let members) = parts[1].kind else { throw error(.parametersShape(label), at: parts[1]) }
        guard let typeName = parts[2].string, !typeName.isEmpty else { throw error(.typeShape(label), at: parts[2]) }

        var group: String?
        var parameters: [Parameter] = []
        for (key, value) in members {
            guard Self.isName(key) else { throw error(.parameterName(label, key), at: value) }
            let values = try parameterValues(value, key: key, label: label)
            let upperKey = key.uppercased()
            switch upperKey {
            case "GROUP":
                // RFC 7095 3.3.1.2: a group travels as the `group` parameter.
                guard values.count == 1, Self.isName(values[0]) else { throw error(.group(label), at: value) }
                group = values[0]
            case "VALUE":
                // The type field says it (RFC 7095 3.4.1); a VALUE parameter as well could only disagree.
                continue
            default:
                if let existing = parameters.firstIndex(where: { $0.name == upperKey }) {
                    parameters[existing].values += values
                } else {
                    parameters.append(Parameter(name: upperKey, values: values))
                }
            }
        }

        let type = JCardValueType(name: typeName)
        let info = JCardPropertyInfo.known(upperName)
        let value = try vCardValue(Array(parts[3...]), type: type, label: label)
        // RFC 7095 4: VALUE is written only when the type is not the property's default; `unknown` never has one.
        if type != .unknown && type != (info?.defaultType ?? .unknown) {
            parameters.insert(Parameter("VALUE", type.name), at: 0)
        }
        return ContentLine(group: group, name: upperName, parameters: parameters, value: value, line: line)
    }

    private func parameterValues(_ value: JSONValue, key: String, label: String) throws(JCardError) -> [String] {
        if let scalar = Self.scalarText(value) { return [scalar] }
        guard let items = value.array else { throw error(.parameterValue(label, key), at: value) }
        var values: [String] = []
        for item in items {
            guard let scalar = Self.scalarText(item) else { throw error(.parameterValue(label, key), at: item) }
            values.append(scalar)
        }
        return values
    }

    // MARK: Values

    /// The vCard value for a property's jCard values: each converted for its type, joined by commas.
    private mutating func vCardValue(_ values: [JSONValue], type: JCardValueType, label: String) throws(JCardError)
        -> String
    {
        var parts: [String] = []
        for value in values { parts.append(try vCardValue(value, type: type, label: label)) }
        return parts.joined(separator: ",")
    }

    private mutating func vCardValue(_ value: JSONValue, type: JCardValueType, label: String) throws(JCardError)
        -> String
    {
        if type == .text {
            guard let components = value.array else { return ValueEscaping.escapeText(text(value, label: label)) }
            // RFC 7095 3.3.1.3: a structured value; a component that is itself an array is a comma list.
            var escaped: [String] = []
            for (index, component) in components.enumerated() {
                if let items = component.array {
                    var escapedItems: [String] = []
                    for item in items {
                        guard item.array == nil else { throw error(.component(label, index + 1), at: item) }
                        escapedItems.append(ValueEscaping.escapeText(text(item, label: label)))
                    }
                    escaped.append(escapedItems.joined(separator: ","))
                } else {
                    escaped.append(ValueEscaping.escapeText(text(component, label: label)))
                }
            }
            return escaped.joined(separator: ";")
        }
        guard value.array == nil else { throw error(.notStructured(label, type.name), at: value) }
        // Null or an object has no text to keep: said once, as left out, not also "kept as written".
        if Self.scalarText(value) == nil { return text(value, label: label) }
        switch type {
        case .boolean:
            if case .bool(let flag) = value.kind { return flag ? "TRUE" : "FALSE" }
            warn(.expectedType(label, "true or false", type.name), at: value)
        case .integer:
            if case .number(let number) = value.kind, !number.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                return number
            }
            warn(.expectedType(label, "a whole number", type.name), at: value)
        case .float:
            if case .number(let number) = value.kind, !number.contains(where: { $0 == "e" || $0 == "E" }) {
                return number
            }
            warn(.expectedType(label, "a number without an exponent", type.name), at: value)
        case .date, .time, .dateTime, .dateAndOrTime, .timestamp:
            if let string = value.string, let basic = VCardDates.basic(string, type: type) { return basic }
            warn(.expectedType(label, Message.dateExample(type), type.name), at: value)
        case .utcOffset:
            if let string = value.string, let basic = VCardDates.utcOffset(string, extended: false) { return basic }
            warn(.expectedType(label, "an offset such as \"-05:00\"", type.name), at: value)
        case .uri, .languageTag, .unknown, .other, .text:
            // URIs and language tags have no escapes; `unknown` is the vCard value itself (RFC 7095 5.2).
            if value.string == nil { warn(.expectedType(label, "a string", type.name), at: value) }
        }
        return ValueEscaping.neutralizeLineBreaks(text(value, label: label))
    }

    /// A scalar as text; a non-string where text belongs is kept as written, with a warning.
    private mutating func text(_ value: JSONValue, label: String) -> String {
        if let string = value.string { return string }
        guard let scalar = Self.scalarText(value) else {
            // Null or an object has no text to keep: the warning said "kept as written" of an emptied value.
            if case .null = value.kind {
                warn(.leftOut(label, found: "null"), at: value)
            } else {
                warn(.leftOut(label, found: "an object"), at: value)
            }
            return ""
        }
        warn(.expectedType(label, "a string", "text"), at: value)
        return scalar
    }

    /// A string, number or boolean as text (a number as written); nil for null, arrays and objects.
    private static func scalarText(_ value: JSONValue) -> String? {
        switch value.kind {
        case .string(let text): text
        case .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// Property, parameter and group names are vCard tokens. RFC 6350 3.3 allows letters, digits and dashes;
    /// other printable ASCII that cannot break a content line (`X-FOO_BAR`) is accepted too, since vCard
    /// readers keep such names and jCard written from them must read back.
    private static func isName(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: ":") && byte != UInt8(ascii: ";")
                    && byte != UInt8(ascii: "=") && byte != UInt8(ascii: ",") && byte != UInt8(ascii: ".")
                    && byte != UInt8(ascii: "\"")
            }
    }

    // MARK: Positions and messages

    private func position(_ offset: Int) -> (line: Int, column: Int) {
        let (line, column) = lines.position(of: offset)
        return line == 1 ? (origin.line, origin.column + column - 1) : (origin.line + line - 1, column)
    }

    private func error(_ message: Message, at value: JSONValue) -> JCardError {
        error(message, atOffset: value.start)
    }

    private func error(_ message: Message, atOffset offset: Int) -> JCardError {
        let (line, column) = position(offset)
        return JCardError(file: name, line: line, column: column, message: message.text)
    }

    private mutating func warn(_ message: Message, at value: JSONValue) {
        let (line, column) = position(value.start)
        diagnostics.append(Diagnostic(.warning, .invalidValue, message.text, line: line, column: column, file: name))
    }

    /// The reader's messages: each says where (card and property) and what was expected, never a value.
    struct Message {
        let text: String

        static func notJSON(expected: String) -> Self { Self(text: "not valid JSON: expected \(expected)") }
        static func notUTF8(byte: UInt8) -> Self {
            Self(
                text: "expected UTF-8 text, found the byte 0x\(String(byte, radix: 16, uppercase: true)) (jCard is "
                    + "UTF-8; save the file as UTF-8)")
        }
        static let topLevel = Self(text: "expected a jCard [\"vcard\", [properties]] or an array of jCards")
        static func card(_ number: Int) -> Self { Self(text: "card \(number): expected [\"vcard\", [properties]]") }
        static func propertyShape(_ label: String) -> Self {
            Self(text: "\(label): expected [name, parameters, type, value...]")
        }
        static func propertyName(_ label: String) -> Self {
            Self(text: "\(label): expected a property name of letters, digits and '-'")
        }
        static func parametersShape(_ label: String) -> Self {
            Self(text: "\(label): expected the parameters as an object, such as {} or {\"type\": \"work\"}")
        }
        static func typeShape(_ label: String) -> Self {
            Self(text: "\(label): expected the value type as a string, such as \"text\"")
        }
        static func parameterName(_ label: String, _ key: String) -> Self {
            Self(text: "\(label): expected parameter names of letters, digits and '-', not \"\(key)\"")
        }
        static func parameterValue(_ label: String, _ key: String) -> Self {
            Self(text: "\(label): expected parameter \"\(key)\" to be a string or an array of strings")
        }
        static func group(_ label: String) -> Self {
            Self(text: "\(label): expected the group as one name of letters, digits and '-'")
        }
        static func component(_ label: String, _ index: Int) -> Self {
            Self(text: "\(label): expected component \(index) to be a string or an array of strings")
        }
        static func notStructured(_ label: String, _ type: String) -> Self {
            Self(text: "\(label): expected a single value for type \"\(type)\", not an array")
        }
        static func expectedType(_ label: String, _ what: String, _ type: String) -> Self {
            Self(text: "\(label): expected \(what) for type \"\(type)\"; the value was kept as written")
        }
        static func leftOut(_ label: String, found: String) -> Self {
            Self(text: "\(label): expected a string, found \(found); the value was left out")
        }
        static func beginEnd(_ label: String) -> Self {
            Self(text: "\(label): BEGIN and END are not properties in jCard; it was left out")
        }
        static func missingVersion(card: Int) -> Self {
            Self(text: "card \(card): expected a \"version\" property first; 4.0 was assumed")
        }

        static func dateExample(_ type: JCardValueType) -> String {
            switch type {
            case .date: "a date such as \"1985-04-12\", \"--04-12\" or \"---12\""
            case .time: "a time such as \"10:22:00\", \"10:22\" or \"-22:00\""
            case .dateTime: "a date-time such as \"1985-04-12T10:22:00\" or \"--04-12T10:22-05:00\""
            case .timestamp: "a timestamp such as \"1985-04-12T10:22:00Z\""
            default: "a date or time such as \"1985-04-12\", \"--04-12\" or \"T10:22:00\""
            }
        }
    }
}
