import ContactModel

/// A CSV column the model does not name, kept on the contact as `X-CSV-FIELD;X-COLUMN=<header>:<value>` so it is
/// written back under its header and nothing is lost.
///
/// `Extension.value` is in vCard 3.0 escaped form (`\\`, `\,`, `\;`, `\n`); the CSV field is plain text, which
/// `Extension.escape` and `Extension.text` go between, so the CSV layer needs nothing from the vCard layers.
enum KeptColumn {
    /// The extension's property name.
    static let propertyName = "X-CSV-FIELD"
    /// The parameter holding the column header.
    static let columnParameter = "X-COLUMN"

    /// The extension that keeps `text` from the column `header`.
    static func extensionFor(header: String, text: String) -> Extension {
        Extension(
            name: propertyName, parameters: [ExtraParameter(name: columnParameter, values: [header])],
            value: Extension.escape(text))
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
        if let header = phoneticProperties[name] { return (header, ext.text) }
        guard name == propertyName,
            let parameter = ext.parameters.first(where: { $0.name.uppercased() == columnParameter }),
            let header = parameter.values.first
        else { return nil }
        return (header, ext.text)
    }
}
