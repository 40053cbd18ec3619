import ContactModel

/// A CSV column the model does not name, kept on the contact as `X-CSV-FIELD;X-COLUMN=<header>:<value>` so it is
/// written back under its header and nothing is lost.
///
/// `Extension.value` is in vCard 3.0 escaped form (`\\`, `\,`, `\;`, `\n`); the CSV field is plain text. This is
/// the whole of the escaping the CSV layer knows, so it needs nothing from the vCard layers.
enum KeptColumn {
    /// The extension's property name.
    static let propertyName = "X-CSV-FIELD"
    /// The parameter holding the column header.
    static let columnParameter = "X-COLUMN"

    /// The extension that keeps `text` from the column `header`.
    static func extensionFor(header: String, text: String) -> Extension {
        Extension(
            name: propertyName, parameters: [ExtraParameter(name: columnParameter, values: [header])],
            value: escape(text))
    }

    /// The properties Apple Contacts and Android write a name's sound in (`X-PHONETIC-FIRST-NAME:たろう`), by the
    /// Google column of the same part: read from Google's, its older layout's and Outlook's columns, and written
    /// back to Google's, so a reading of a Japanese or Chinese name goes from one client to the other.
    static let phoneticProperties: [String: String] = [
        "X-PHONETIC-FIRST-NAME": "Phonetic First Name", "X-PHONETIC-MIDDLE-NAME": "Phonetic Middle Name",
        "X-PHONETIC-LAST-NAME": "Phonetic Last Name",
    ]

    /// The header and plain text of a kept column (or of a phonetic name, under Google's column for it), or nil
    /// when the extension is neither.
    static func column(of ext: Extension) -> (header: String, text: String)? {
        let name = ext.name.uppercased()
        if let header = phoneticProperties[name] { return (header, unescape(ext.value)) }
        guard name == propertyName,
            let parameter = ext.parameters.first(where: { $0.name.uppercased() == columnParameter }),
            let header = parameter.values.first
        else { return nil }
        return (header, unescape(ext.value))
    }

    /// vCard 3.0 text escaping: backslash, comma, semicolon; CRLF, CR and LF all become `\n`.
    static func escape(_ text: String) -> String {
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
    static func unescape(_ escaped: String) -> String {
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
