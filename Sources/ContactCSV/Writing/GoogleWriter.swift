import ContactModel

/// Writes contacts in Google Contacts' current CSV layout (see `ContactCSV.write`): the columns are settled from
/// every contact first (`ContactCSV.LayoutBuilder`), then each contact's row is written against them
/// (`ContactCSV.WriteLayout`), so a caller that can read its contacts twice never holds them all.
enum GoogleWriter {
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

    /// All of `contacts` as one CSV document.
    static func bytes(_ contacts: [Contact]) -> [UInt8] {
        var builder = ContactCSV.LayoutBuilder()
        for contact in contacts { builder.add(ContactCSV.CardNeeds(contact)) }
        let layout = builder.layout()
        var out = layout.header()
        for contact in contacts {
            // Every contact was added to the layout, so its row always fits.
            _ = layout.appendRow(contact, to: &out)
        }
        return out
    }

    /// A kept column's place among the appended columns: its header and which of that header's columns it is.
    struct Slot: Hashable, Sendable {
        var header: String
        var occurrence: Int
    }

    /// Where a contact's kept columns go: the first kept column of a fixed header the model leaves empty fills
    /// that column; every other one is appended, in the contact's order.
    static func keptColumns(_ contact: Contact) -> (fixed: [(header: String, text: String)], appended: [(Slot, String)])
    {
        var fixed: [(header: String, text: String)] = []
        var appended: [(Slot, String)] = []
        var seen: Set<String> = []
        var appendedSeen: [String: Int] = [:]
        for (header, text) in contact.extensions.compactMap(KeptColumn.column) {
            if seen.insert(header).inserted, keptFixedColumns.contains(header) {
                fixed.append((header, text))
                continue
            }
            let occurrence = appendedSeen[header, default: 0]
            appendedSeen[header] = occurrence + 1
            appended.append((Slot(header: header, occurrence: occurrence), text))
        }
        return (fixed, appended)
    }
}

extension ContactCSV {
    /// What one contact asks of Google's columns (`write`): how many of each numbered group, whether it has an
    /// anniversary, its kept `Event` columns and its appended kept columns in order. Made from each contact in
    /// turn (on any thread) and added to a `LayoutBuilder`.
    package struct CardNeeds: Sendable, Equatable {
        var emails: Int
        var phones: Int
        var addresses: Int
        var urls: Int
        var messaging: Int
        var hasAnniversary: Bool
        /// The `N` of the contact's kept `Event N - ...` columns.
        var keptEvents: Set<Int>
        var slots: [GoogleWriter.Slot]

        init(
            emails: Int, phones: Int, addresses: Int, urls: Int, messaging: Int, hasAnniversary: Bool,
            keptEvents: Set<Int>, slots: [GoogleWriter.Slot]
        ) {
            self.emails = emails
            self.phones = phones
            self.addresses = addresses
            self.urls = urls
            self.messaging = messaging
            self.hasAnniversary = hasAnniversary
            self.keptEvents = keptEvents
            self.slots = slots
        }

        /// What `contact` asks of the columns.
        package init(_ contact: Contact) {
            emails = contact.emails.count
            phones = contact.phones.count
            addresses = contact.addresses.count
            urls = contact.urls.count
            messaging = contact.instantMessaging.count
            hasAnniversary = !(contact.anniversary ?? "").isEmpty
            keptEvents = Set(
                contact.extensions.compactMap { KeptColumn.column(of: $0)?.header }
                    .compactMap(GroupHeader.init).filter { $0.kind == "Event" }.map(\.index))
            slots = GoogleWriter.keptColumns(contact).appended.map(\.0)
        }
    }

    /// Google's columns for a set of contacts, settled one contact at a time: memory grows with the number of
    /// distinct columns, not of contacts. `layout()` gives the columns `write` would give those contacts.
    package struct LayoutBuilder: Sendable {
        private var emails = 1
        private var phones = 1
        private var addresses = 1
        private var urls = 1
        /// IM groups are written only when a contact has a messaging address, unlike the others.
        private var messaging = 0
        private var hasAnniversary = false
        private var keptEvents: Set<Int> = []
        /// The appended columns in order of first appearance, and "comes after" within each contact.
        private var slots: [GoogleWriter.Slot] = []
        private var known: Set<GoogleWriter.Slot> = []
        private var successors: [GoogleWriter.Slot: Set<GoogleWriter.Slot>] = [:]
        private var predecessorCount: [GoogleWriter.Slot: Int] = [:]

        /// A builder that has seen no contact (its layout has one of each group).
        package init() {}

        /// Adds what one contact asks of the columns.
        package mutating func add(_ needs: CardNeeds) {
            emails = max(emails, needs.emails)
            phones = max(phones, needs.phones)
            addresses = max(addresses, needs.addresses)
            urls = max(urls, needs.urls)
            messaging = max(messaging, needs.messaging)
            hasAnniversary = hasAnniversary || needs.hasAnniversary
            keptEvents.formUnion(needs.keptEvents)
            for slot in needs.slots where known.insert(slot).inserted { slots.append(slot) }
            for (before, after) in zip(needs.slots, needs.slots.dropFirst())
            where successors[before, default: []].insert(after).inserted {
                predecessorCount[after, default: 0] += 1
            }
        }

        /// The columns for every contact added.
        package func layout() -> WriteLayout {
            WriteLayout(
                counts: (emails, phones, addresses, urls, messaging),
                anniversaryGroup: hasAnniversary ? anniversaryGroup() : nil, slots: order())
        }

        /// The `Event` group after every kept one; when a kept column already has the highest number there is
        /// (a hostile file), the lowest number none has.
        private func anniversaryGroup() -> Int {
            let (next, overflow) = (keptEvents.max() ?? 0).addingReportingOverflow(1)
            if !overflow { return next }
            return (1...).first { !keptEvents.contains($0) }!
        }

        /// One order for the appended columns that keeps every contact's kept columns in that contact's order, so
        /// each reads back in the order it had: a topological sort of "comes after" within each contact, ties
        /// (and, for orders no single file could have produced, cycles) broken by first appearance.
        private func order() -> [GoogleWriter.Slot] {
            var predecessorCount = predecessorCount
            var done: Set<GoogleWriter.Slot> = []
            var result: [GoogleWriter.Slot] = []
            while result.count < slots.count {
                let ready =
                    slots.first { !done.contains($0) && predecessorCount[$0, default: 0] == 0 }
                    ?? slots.first { !done.contains($0) }!
                done.insert(ready)
                result.append(ready)
                for next in successors[ready, default: []] { predecessorCount[next, default: 0] -= 1 }
            }
            return result
        }
    }

    /// Google's columns, settled: writes the header row and then any contact's row whose needs were added to
    /// the `LayoutBuilder` that made it.
    package struct WriteLayout: Sendable {
        private let counts: (emails: Int, phones: Int, addresses: Int, urls: Int, messaging: Int)
        /// The `Event N` group the anniversary goes in, clear of every kept `Event` column; nil with no
        /// anniversary.
        private let anniversaryGroup: Int?
        /// The model's columns (fixed, then the numbered groups), and the appended kept columns after them.
        private let columns: [String]
        private let slots: [GoogleWriter.Slot]
        private let slotColumn: [GoogleWriter.Slot: Int]

        init(
            counts: (emails: Int, phones: Int, addresses: Int, urls: Int, messaging: Int), anniversaryGroup: Int?,
            slots: [GoogleWriter.Slot]
        ) {
            self.counts = counts
            self.anniversaryGroup = anniversaryGroup
            self.slots = slots
            var columns = GoogleWriter.fixedColumns
            func group(_ kind: String, _ count: Int, _ parts: [String]) {
                for number in stride(from: 1, through: count, by: 1) {
                    columns += parts.map { "\(kind) \(number) - \($0)" }
                }
            }
            group("E-mail", counts.emails, ["Label", "Value"])
            group("Phone", counts.phones, ["Label", "Value"])
            group("Address", counts.addresses, ["Label"] + GoogleWriter.addressParts)
            group("Website", counts.urls, ["Label", "Value"])
            group("IM", counts.messaging, ["Label", "Service", "Value"])
            if let anniversaryGroup {
                columns += ["Event \(anniversaryGroup) - Label", "Event \(anniversaryGroup) - Value"]
            }
            self.columns = columns
            slotColumn = Dictionary(
                uniqueKeysWithValues: slots.enumerated().map { ($0.element, columns.count + $0.offset) })
        }

        /// The header row.
        package func header() -> [UInt8] {
            var out: [UInt8] = []
            CSVSyntax.append(row: columns + slots.map(\.header), to: &out)
            return out
        }

        /// Whether `needs` fits these columns: no more values of a group than there are groups, an anniversary
        /// only with its group, no kept `Event` column in that group, and every appended column present.
        package func fits(_ needs: CardNeeds) -> Bool {
            guard needs.emails <= counts.emails, needs.phones <= counts.phones, needs.addresses <= counts.addresses,
                needs.urls <= counts.urls, needs.messaging <= counts.messaging
            else { return false }
            if needs.hasAnniversary && anniversaryGroup == nil { return false }
            if let anniversaryGroup, needs.keptEvents.contains(anniversaryGroup) { return false }
            return needs.slots.allSatisfy { slotColumn[$0] != nil }
        }

        /// Appends `contact`'s row to `out`; false, appending nothing, when the contact does not fit these
        /// columns (its needs were not added to the builder: the input changed between the passes).
        package func appendRow(_ contact: Contact, to out: inout [UInt8]) -> Bool {
            appendRow(PendingRow(contact), to: &out)
        }

        /// Appends the row of a contact's cells to `out`; false, appending nothing, when they do not fit these
        /// columns.
        package func appendRow(_ pending: PendingRow, to out: inout [UInt8]) -> Bool {
            guard fits(pending.needs) else { return false }
            var row = pending.fixed
            row.reserveCapacity(columns.count + slots.count)
            func group(_ cells: [String], width: Int, count: Int) {
                row += cells
                row += repeatElement("", count: width * count - cells.count)
            }
            group(pending.emails, width: 2, count: counts.emails)
            group(pending.phones, width: 2, count: counts.phones)
            group(pending.addresses, width: PendingRow.addressWidth, count: counts.addresses)
            group(pending.urls, width: 2, count: counts.urls)
            group(pending.messaging, width: 3, count: counts.messaging)
            if anniversaryGroup != nil {
                row += pending.anniversary.map { ["Anniversary", $0] } ?? ["", ""]
            }
            row += repeatElement("", count: slots.count)
            for kept in pending.appended { row[slotColumn[kept.slot]!] = kept.text }
            CSVSyntax.append(row: row, to: &out)
            return true
        }
    }
}
