import ContactModel

extension ContactCSV {
    /// `contact` with an empty N, ORG, TITLE, NOTE or BDAY filled from the first property of that name that the
    /// model kept in `extensions` for a parameter it cannot hold (`ORG;TYPE=work:Viagenie`, `NOTE;LANGUAGE=de`,
    /// `N;SORT-AS=...`), and that property taken out: Google's columns have no parameters, and the column was
    /// left empty, the name or the organisation lost from the CSV without a word.
    static func promoted(_ contact: Contact) -> Contact {
        guard !contact.extensions.isEmpty else { return contact }
        var contact = contact
        var taken: Set<Int> = []
        func first(_ name: String) -> Extension? {
            guard let index = contact.extensions.indices.first(where: { contact.extensions[$0].name == name })
            else { return nil }
            taken.insert(index)
            return contact.extensions[index]
        }
        if contact.name?.isEmpty ?? true, let ext = first("N") {
            let parts = ext.structuredText.map { $0.filter { !$0.isEmpty } }
            func part(_ index: Int) -> [String] { index < parts.count ? parts[index] : [] }
            contact.name = StructuredName(
                family: part(0), given: part(1), additional: part(2), prefixes: part(3), suffixes: part(4))
        }
        if contact.organization == nil, let ext = first("ORG") {
            let parts = ext.structuredText.map { $0.joined(separator: ",") }
            contact.organization = Organization(name: parts.first ?? "", units: Array(parts.dropFirst()))
        }
        if (contact.title ?? "").isEmpty, let ext = first("TITLE") { contact.title = ext.text }
        if (contact.note ?? "").isEmpty, let ext = first("NOTE") { contact.note = ext.text }
        if (contact.birthday ?? "").isEmpty, let ext = first("BDAY") { contact.birthday = ext.text }
        contact.extensions = contact.extensions.indices.filter { !taken.contains($0) }.map { contact.extensions[$0] }
        return contact
    }
}
