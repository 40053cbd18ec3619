import ContactModel

/// Google's `IM N - Label`, `IM N - Service` and `IM N - Value` columns (`Type` for the label in its older
/// layout) and the model's messaging addresses, which vCard writes as IMPP URIs (`IMPP:skype:ann.lee`) with
/// Apple's `X-SERVICE-TYPE` naming the service.
///
/// A handle of a service whose URI scheme is known becomes that URI (`Skype`, `ann.lee` -> `skype:ann.lee`); of
/// any other service, Apple's URI for a service without a scheme (`Signal`, `+1 555 0100` ->
/// `x-apple:+1 555 0100`); a value that is a URI already is kept as it is. The service as written is kept as
/// `X-SERVICE-TYPE`. Writing gives each address's service (its `X-SERVICE-TYPE`, else the service of its scheme)
/// and its handle (the URI without the scheme that service implies or Apple's, else the whole URI), so what was
/// read is written back the same.
enum MessagingColumns {
    /// Services by the URI scheme they use, lower-cased, and the name written for a scheme.
    private static let schemes: [String: String] = [
        "aim": "aim", "jabber": "xmpp", "xmpp": "xmpp", "google talk": "xmpp", "gtalk": "xmpp", "hangouts": "xmpp",
        "skype": "skype", "yahoo": "ymsgr", "yahoo messenger": "ymsgr", "msn": "msnim", "windows live": "msnim",
        "icq": "icq", "sip": "sip",
    ]
    private static let services: [String: String] = [
        "aim": "AIM", "xmpp": "Jabber", "skype": "Skype", "ymsgr": "Yahoo", "msnim": "MSN", "icq": "ICQ", "sip": "SIP",
    ]

    /// The parameter Apple and others name the service with.
    static let serviceParameter = "X-SERVICE-TYPE"

    /// Apple's scheme for the handle of a service that has no scheme of its own.
    static let appleScheme = "x-apple"

    /// The address a row's `service` and `value` cells give, labelled as `label` says.
    static func address(service: String, value: String, label: GoogleLabel, first: Bool) -> LabeledValue {
        let service = trimmed(service)
        let uri =
            scheme(of: value) != nil ? value : (schemes[service.lowercased()] ?? appleScheme) + ":" + value
        return LabeledValue(
            uri, types: label.types, label: label.label, pref: first ? label.pref : nil,
            parameters: service.isEmpty ? [] : [ExtraParameter(name: serviceParameter, values: [service])])
    }

    /// The service and handle cells of `address`.
    static func cells(_ address: LabeledValue) -> (service: String, value: String) {
        let named = address.parameters.first { $0.name.uppercased() == serviceParameter }?.values.first
        let scheme = scheme(of: address.value)
        let service = named ?? scheme.flatMap { services[$0] } ?? ""
        // The handle alone when the service gives the scheme back on reading.
        if let scheme, (schemes[service.lowercased()] ?? appleScheme) == scheme,
            !service.isEmpty || scheme != appleScheme
        {
            return (service, String(address.value.dropFirst(scheme.utf8.count + 1)))
        }
        return (service, address.value)
    }

    /// The lower-cased scheme of a URI (`skype` of `skype:ann.lee`), or nil when `text` is no URI: a letter,
    /// then letters, digits, `+`, `-` or `.`, then a colon.
    static func scheme(of text: String) -> String? {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = text.utf8[..<colon]
        guard let first = name.first, (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first),
            name.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2B || byte == 0x2D || byte == 0x2E
            })
        else { return nil }
        return String(decoding: name, as: UTF8.self).lowercased()
    }
}
