/// The single-valued properties a card had with a parameter the model cannot hold (`N;LANGUAGE=en-us`, which
/// Outlook writes on every name; `ORG;TYPE=work`; `FN;PID=1.1`) are kept whole in `extensions`, so they are
/// written back as they were. Read as such, the card had no name: a preview showed "(no name)" or its phone
/// number, a CSV had empty name columns, a merge named the card it added by its number. Whoever shows, exports
/// or matches a card reads it with those properties in the model's empty fields.
extension Contact {
    /// The properties `promotingKeptFields` can take from `extensions`.
    private static let promotable: Set<String> = ["FN", "N", "ORG", "TITLE", "ROLE", "NOTE", "BDAY"]

    /// Whether an extension is one `promotingKeptFields` could take.
    package var hasKeptFields: Bool { extensions.contains { Self.promotable.contains($0.name) } }

    /// The contact with each empty FN, N, ORG, TITLE, ROLE, NOTE or BDAY filled from the first extension of that
    /// name, and that extension taken out; the others (a second ORG) stay.
    package func promotingKeptFields() -> Contact {
        guard hasKeptFields else { return self }
        var contact = self
        var taken: Set<Int> = []
        func first(_ name: String) -> Extension? {
            guard let index = extensions.indices.first(where: { extensions[$0].name == name }) else { return nil }
            taken.insert(index)
            return extensions[index]
        }
        if (formattedName ?? "").isEmpty, let ext = first("FN") { contact.formattedName = ext.text }
        if name?.isEmpty ?? true, let ext = first("N") {
            let parts = ext.structuredText.map { $0.filter { !$0.isEmpty } }
            func part(_ index: Int) -> [String] { index < parts.count ? parts[index] : [] }
            contact.name = StructuredName(
                family: part(0), given: part(1), additional: part(2), prefixes: part(3), suffixes: part(4))
        }
        if organization == nil, let ext = first("ORG") {
            let parts = ext.structuredText.map { $0.joined(separator: ",") }
            contact.organization = Organization(name: parts.first ?? "", units: Array(parts.dropFirst()))
        }
        if (title ?? "").isEmpty, let ext = first("TITLE") { contact.title = ext.text }
        if (role ?? "").isEmpty, let ext = first("ROLE") { contact.role = ext.text }
        if (note ?? "").isEmpty, let ext = first("NOTE") { contact.note = ext.text }
        if (birthday ?? "").isEmpty, let ext = first("BDAY") { contact.birthday = ext.text }
        contact.extensions = extensions.indices.filter { !taken.contains($0) }.map { extensions[$0] }
        return contact
    }
}
