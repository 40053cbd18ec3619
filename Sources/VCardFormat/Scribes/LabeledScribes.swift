import ContactModel
import VCardSyntax

/// EMAIL, TEL, URL, IMPP and X-SOCIALPROFILE: a value with kinds, preference, label and group.
struct LabeledValueScribe: PropertyScribe {
    let name: String
    let field: Contact.LabeledField
    /// TEL in 4.0 is often a `tel:` URI; the model keeps the number as a person reads it.
    var stripsTelScheme = false
    /// URL and IMPP values are URIs, not text: no backslash escapes on the way out. (TEL is text in 3.0 and
    /// 4.0 unless it is a `tel:` URI: every reader unescapes it, and Python's vobject splits it at a bare comma.)
    var isURI = false

    func read(_ line: RawCard.Line, into context: inout ReadContext) -> Bool {
        // URIs need no backslash, but many clients escape `:` and `,` in them (`http\://`): undo them all.
        var value = ValueEscaping.unescapeText(line.valueBytes)
        var isURI = false
        if stripsTelScheme {
            (value, isURI) = TelephoneValue.read(value, valueTypeIsURI: Self.valueTypeIsURI(line))
        }
        let (types, pref, extras) = TypeParameters.read(line)
        let label = context.label(for: line)
        context.contact.append(
            LabeledValue(
                value, types: types, label: label?.text, pref: pref, group: line.group, parameters: extras,
                appleLabel: label?.apple ?? false, isURI: isURI),
            to: field)
        return true
    }

    private static func valueTypeIsURI(_ line: RawCard.Line) -> Bool {
        for index in 0..<line.parameterCount where line.parameterNameIs(index, "VALUE") {
            return line.parameterValueCount(index) > 0
                && line.parameterValueBytes(index, 0).isEqualIgnoringCase(to: "URI")
        }
        return false
    }

    func write(_ contact: Contact, into context: inout WriteContext) {
        switch field {
        case .emails: write(contact.emails, into: &context)
        case .phones: write(contact.phones, into: &context)
        case .urls: write(contact.urls, into: &context)
        case .instantMessaging: write(contact.instantMessaging, into: &context)
        case .socialProfiles: write(contact.socialProfiles, into: &context)
        }
    }

    /// Writes each value where it is: copying a value out of the list retains and releases each of its strings and
    /// arrays, several atomic pairs per value.
    private func write(_ list: [LabeledValue], into context: inout WriteContext) {
        list.withUnsafeBufferPointer { values in
            for index in values.indices { write(values[index], into: &context) }
        }
    }

    private func write(_ item: borrowing LabeledValue, into context: inout WriteContext) {
        // URIs (RFC 2426 value type `uri`) have no escapes; text escapes its specials.
        // A number that came as a URI is one again in 4.0 (`VALUE=uri`); 3.0 has only text for TEL.
        let writesURI = stripsTelScheme && item.isURI && context.version == .v4_0
        context.appendLabeled(
            name, group: item.group, label: item.label, appleLabel: item.appleLabel, types: item.types,
            pref: item.pref, extras: item.parameters, valueType: writesURI ? "uri" : nil
        ) { builder in
            if writesURI {
                builder.appendEscaped(ValueEscaping.protectingBackslashes(TelephoneValue.uri(item.value)))
            } else if isURI {
                builder.appendEscaped(ValueEscaping.protectingBackslashes(item.value))
            } else {
                builder.appendText(item.value)
            }
        }
    }

}

/// ADR: seven components with kinds, preference, label and group.
struct AddressScribe: PropertyScribe {
    func read(_ line: RawCard.Line, into context: inout ReadContext) -> Bool {
        var parts = ValueEscaping.components(line.valueBytes)
        guard parts.count <= 7 else { return false }
        while parts.count < 7 { parts.append("") }
        let (types, pref, extras) = TypeParameters.read(line)
        let label = context.label(for: line)
        context.contact.addresses.append(
            Address(
                poBox: parts[0], extended: parts[1], street: parts[2], locality: parts[3], region: parts[4],
                postalCode: parts[5], country: parts[6], types: types, label: label?.text, pref: pref,
                group: line.group, parameters: extras, appleLabel: label?.apple ?? false))
        return true
    }

    func write(_ contact: Contact, into context: inout WriteContext) {
        for address in contact.addresses {
            context.appendLabeled(
                "ADR", group: address.group, label: address.label, appleLabel: address.appleLabel,
                types: address.types, pref: address.pref, extras: address.parameters
            ) { builder in
                // The seven components in order, without the array `components` would make for each address.
                builder.appendText(address.poBox)
                builder.appendSeparator(UInt8(ascii: ";"))
                builder.appendText(address.extended)
                builder.appendSeparator(UInt8(ascii: ";"))
                builder.appendText(address.street)
                builder.appendSeparator(UInt8(ascii: ";"))
                builder.appendText(address.locality)
                builder.appendSeparator(UInt8(ascii: ";"))
                builder.appendText(address.region)
                builder.appendSeparator(UInt8(ascii: ";"))
                builder.appendText(address.postalCode)
                builder.appendSeparator(UInt8(ascii: ";"))
                builder.appendText(address.country)
            }
        }
    }
}

extension Contact {
    /// The multi-valued labeled fields, so scribes reach them with a switch rather than a key path.
    enum LabeledField: Sendable {
        case emails, phones, urls, instantMessaging, socialProfiles
    }

    subscript(field: LabeledField) -> [LabeledValue] {
        switch field {
        case .emails: emails
        case .phones: phones
        case .urls: urls
        case .instantMessaging: instantMessaging
        case .socialProfiles: socialProfiles
        }
    }

    mutating func append(_ value: consuming LabeledValue, to field: LabeledField) {
        switch field {
        case .emails: emails.append(value)
        case .phones: phones.append(value)
        case .urls: urls.append(value)
        case .instantMessaging: instantMessaging.append(value)
        case .socialProfiles: socialProfiles.append(value)
        }
    }
}
