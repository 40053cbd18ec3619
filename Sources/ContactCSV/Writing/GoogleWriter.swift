import ContactModel

/// Writes contacts in Google Contacts' current CSV layout (see `ContactCSV.write`).
struct GoogleWriter {
    /// Google's fixed columns, in its order.
    static let fixedColumns = [
        "First Name", "Middle Name", "Last Name", "Phonetic First Name", "Phonetic Middle Name", "Phonetic Last Name",
        "Name Prefix", "Name Suffix", "Nickname", "File As", "Organization Name", "Organization Title",
        "Organization Department", "Birthday", "Notes", "Photo", "Labels",
    ]
    /// Fixed columns the model has no field for: a kept column of that header fills them.
    static let keptFixedColumns: Set<String> = [
        "Phonetic First Name", "Phonetic Middle Name", "Phonetic Last Name",
        "File As",
    ]
    static let addressParts = [
        "Formatted", "Street", "City", "PO Box", "Region", "Postal Code", "Country",
        "Extended Address",
    ]
    /// The one system group written with Google's `* ` in front (`* starred`, older `* Starred`), so a starred
    /// contact stays starred. The retired ones (`* friends`, `* coworkers`) read as plain labels and are written
    /// as such, so a user's own `Friends` label is never turned into a system group.
    static let starred = "starred"

    let contacts: [Contact]
    private var header: [String] = []
    private var index: [String: Int] = [:]
    private let counts: (emails: Int, phones: Int, addresses: Int, urls: Int)
    /// The `Event N` group the anniversary goes in, clear of every kept `Event` column; nil with no anniversary.
    private let anniversaryGroup: Int?

    init(_ contacts: [Contact]) {
        self.contacts = contacts
        counts = (
            max(1, contacts.map(\.emails.count).max() ?? 0), max(1, contacts.map(\.phones.count).max() ?? 0),
            max(1, contacts.map(\.addresses.count).max() ?? 0), max(1, contacts.map(\.urls.count).max() ?? 0)
        )
        if contacts.contains(where: { !($0.anniversary ?? "").isEmpty }) {
            let keptEvents = contacts.flatMap { $0.extensions.compactMap { KeptColumn.column(of: $0)?.header } }
                .compactMap(GroupHeader.init).filter { $0.kind == "Event" }.map(\.index)
            anniversaryGroup = (keptEvents.max() ?? 0) + 1
        } else {
            anniversaryGroup = nil
        }
        var columns = Self.fixedColumns
        func group(_ kind: String, _ count: Int, _ parts: [String]) {
            for number in 1...count { columns += parts.map { "\(kind) \(number) - \($0)" } }
        }
        group("E-mail", counts.emails, ["Label", "Value"])
        group("Phone", counts.phones, ["Label", "Value"])
        group("Address", counts.addresses, ["Label"] + Self.addressParts)
        group("Website", counts.urls, ["Label", "Value"])
        if let anniversaryGroup {
            columns += ["Event \(anniversaryGroup) - Label", "Event \(anniversaryGroup) - Value"]
        }
        header = columns
        for (position, name) in header.enumerated() where index[name] == nil { index[name] = position }
    }

    /// A kept column's place among the appended columns: its header and which of that header's columns it is.
    private struct Slot: Hashable {
        var header: String
        var occurrence: Int
    }

    func bytes() -> [UInt8] {
        var rows: [[String]] = []
        var appendedPerContact: [[(slot: Slot, text: String)]] = []
        for contact in contacts {
            var cells = modelCells(contact)
            var appended: [(slot: Slot, text: String)] = []
            var seen: [String: Int] = [:]
            var appendedSeen: [String: Int] = [:]
            for (header, text) in contact.extensions.compactMap(KeptColumn.column) {
                let first = seen[header, default: 0] == 0
                seen[header, default: 0] += 1
                if first, Self.keptFixedColumns.contains(header), let column = index[header], cells[column].isEmpty {
                    cells[column] = text
                    continue
                }
                let occurrence = appendedSeen[header, default: 0]
                appendedSeen[header] = occurrence + 1
                appended.append((Slot(header: header, occurrence: occurrence), text))
            }
            rows.append(cells)
            appendedPerContact.append(appended)
        }

        let slots = Self.order(appendedPerContact.map { $0.map(\.slot) })
        let slotColumn = Dictionary(
            uniqueKeysWithValues: slots.enumerated().map { ($0.element, header.count + $0.offset) })
        var out: [UInt8] = []
        CSVSyntax.append(row: header + slots.map(\.header), to: &out)
        for (cells, appended) in zip(rows, appendedPerContact) {
            var row = cells + Array(repeating: "", count: slots.count)
            for (slot, text) in appended { row[slotColumn[slot]!] = text }
            CSVSyntax.append(row: row, to: &out)
        }
        return out
    }

    /// The cells the model fills, in header order.
    private func modelCells(_ contact: Contact) -> [String] {
        var cells = Array(repeating: "", count: header.count)
        func set(_ column: String, _ value: String?) {
            if let value, let position = index[column] { cells[position] = value }
        }
        let name = contact.name ?? StructuredName()
        set("First Name", name.given.joined(separator: " "))
        set("Middle Name", name.additional.joined(separator: " "))
        set("Last Name", name.family.joined(separator: " "))
        set("Name Prefix", name.prefixes.joined(separator: " "))
        set("Name Suffix", name.suffixes.joined(separator: " "))
        // With no name parts, a display name the organisation or email would not give goes in as the first name,
        // so a card known only by its FN keeps it.
        if name.isEmpty, let formatted = contact.formattedName, !formatted.isEmpty,
            formatted != ContactCSV.derivedFormattedName(contact)
        {
            set("First Name", formatted)
        }
        set("Nickname", contact.nicknames.joined(separator: RecordReader.multiValueSeparator))
        set("Organization Name", contact.organization?.name)
        set("Organization Title", contact.title)
        set("Organization Department", contact.organization?.units.joined(separator: RecordReader.multiValueSeparator))
        set("Birthday", contact.birthday)
        set("Notes", contact.note)
        set("Photo", contact.photo?.uri)
        set(
            "Labels",
            contact.categories.map { $0.lowercased() == Self.starred ? "* " + $0 : $0 }
                .joined(separator: RecordReader.multiValueSeparator))
        for (kind, values) in [("E-mail", contact.emails), ("Phone", contact.phones), ("Website", contact.urls)] {
            for (offset, value) in values.enumerated() {
                let label = GoogleLabel(types: value.types, label: value.label, pref: value.pref)
                set("\(kind) \(offset + 1) - Label", label.cell)
                set("\(kind) \(offset + 1) - Value", value.value)
            }
        }
        for (offset, address) in contact.addresses.enumerated() {
            let prefix = "Address \(offset + 1) - "
            set(prefix + "Label", GoogleLabel(types: address.types, label: address.label, pref: address.pref).cell)
            set(prefix + "Street", address.street)
            set(prefix + "City", address.locality)
            set(prefix + "PO Box", address.poBox)
            set(prefix + "Region", address.region)
            set(prefix + "Postal Code", address.postalCode)
            set(prefix + "Country", address.country)
            set(prefix + "Extended Address", address.extended)
        }
        if let anniversaryGroup, let anniversary = contact.anniversary, !anniversary.isEmpty {
            set("Event \(anniversaryGroup) - Label", "Anniversary")
            set("Event \(anniversaryGroup) - Value", anniversary)
        }
        return cells
    }

    /// One order for the appended columns that keeps every contact's kept columns in that contact's order, so
    /// each reads back in the order it had: a topological sort of "comes after" within each contact, ties (and,
    /// for orders no single file could have produced, cycles) broken by first appearance.
    private static func order(_ lists: [[Slot]]) -> [Slot] {
        var firstSeen: [Slot: Int] = [:]
        var nodes: [Slot] = []
        var successors: [Slot: Set<Slot>] = [:]
        var predecessorCount: [Slot: Int] = [:]
        for list in lists {
            for slot in list where firstSeen[slot] == nil {
                firstSeen[slot] = nodes.count
                nodes.append(slot)
            }
            for (before, after) in zip(list, list.dropFirst())
            where successors[before, default: []].insert(after).inserted {
                predecessorCount[after, default: 0] += 1
            }
        }
        var done: Set<Slot> = []
        var result: [Slot] = []
        while result.count < nodes.count {
            let ready =
                nodes.first { !done.contains($0) && predecessorCount[$0, default: 0] == 0 }
                ?? nodes.first { !done.contains($0) }!
            done.insert(ready)
            result.append(ready)
            for next in successors[ready, default: []] { predecessorCount[next, default: 0] -= 1 }
        }
        return result
    }
}
