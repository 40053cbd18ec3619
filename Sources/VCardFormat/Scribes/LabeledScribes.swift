import ContactModel
import VCardSyntax

/// EMAIL, TEL, URL, IMPP and X-SOCIALPROFILE: a value with kinds, preference, label and group.
struct LabeledValueScribe: PropertyScribe {
    let name: String
    let keyPath: WritableKeyPath<Contact, [LabeledValue]> & Sendable
    /// TEL in 4.0 is often a `tel:` URI; the model keeps the number as a person reads it.
    var stripsTelScheme = false
    /// URL, IMPP and TEL values are URIs or phone numbers, not text: no backslash escapes on the way out.
    var isURI = false

    func read(_ line: ContentLine, into context: inout ReadContext) -> Bool {
        var value = isURI ? Self.unescapeURI(line.value) : ValueEscaping.unescapeText(line.value)
        if stripsTelScheme, value.lowercased().hasPrefix("tel:") { value = String(value.dropFirst(4)) }
        let (types, pref, extras) = TypeParameters.read(line)
        let label = line.group.flatMap { context.labels[$0.lowercased()] }
        context.contact[keyPath: keyPath].append(
            LabeledValue(value, types: types, label: label, pref: pref, group: line.group, parameters: extras))
        return true
    }

    func write(_ contact: Contact, into context: inout WriteContext) {
        for item in contact[keyPath: keyPath] {
            let value = isURI ? Self.escapeURI(item.value) : ValueEscaping.escapeText(item.value)
            let parameters = TypeParameters.write(types: item.types, pref: item.pref, extras: item.parameters,
                                                  version: context.version)
            context.appendLabeled(name, value, parameters: parameters, group: item.group, label: item.label)
        }
    }

    /// Many clients escape `:` and `,` in URLs (`http\://`); a URI never needs a backslash, so undo them all.
    static func unescapeURI(_ value: String) -> String {
        ValueEscaping.unescapeText(value)
    }

    /// URIs are written as they are (RFC 2426 value type `uri` has no escapes); the writer still turns
    /// any line break into `\n`.
    static func escapeURI(_ value: String) -> String { value }
}

/// ADR: seven components with kinds, preference, label and group.
struct AddressScribe: PropertyScribe {
    func read(_ line: ContentLine, into context: inout ReadContext) -> Bool {
        var parts = ValueEscaping.structured(line.value).map { $0.joined(separator: ",") }
        guard parts.count <= 7 else { return false }
        while parts.count < 7 { parts.append("") }
        let (types, pref, extras) = TypeParameters.read(line)
        let label = line.group.flatMap { context.labels[$0.lowercased()] }
        context.contact.addresses.append(
            Address(poBox: parts[0], extended: parts[1], street: parts[2], locality: parts[3], region: parts[4],
                    postalCode: parts[5], country: parts[6], types: types, label: label, pref: pref,
                    group: line.group, parameters: extras))
        return true
    }

    func write(_ contact: Contact, into context: inout WriteContext) {
        for address in contact.addresses {
            let value = address.components.map { ValueEscaping.escapeText($0) }.joined(separator: ";")
            let parameters = TypeParameters.write(types: address.types, pref: address.pref, extras: address.parameters,
                                                  version: context.version)
            context.appendLabeled("ADR", value, parameters: parameters, group: address.group, label: address.label)
        }
    }
}
