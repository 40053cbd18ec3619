import ContactModel

extension ContactCSV {
    /// One contact's cells before Google's columns are settled: the fixed columns, each numbered group's cells,
    /// the anniversary and the appended kept columns. `bytes` is a compact form a spool can hold for a card that
    /// cannot be read again, so its row is written later without the contact.
    package struct PendingRow: Sendable, Equatable {
        /// The fixed columns' cells, in `GoogleWriter.fixedColumns` order (kept columns that fill one included).
        var fixed: [String]
        /// Label and value of each email, phone and web address, one after the other.
        var emails: [String]
        var phones: [String]
        var urls: [String]
        /// Label, service and handle of each messaging address (see `MessagingColumns`).
        var messaging: [String]
        /// The label and `GoogleWriter.addressParts` of each address.
        var addresses: [String]
        var anniversary: String?
        var appended: [Appended]

        struct Appended: Sendable, Equatable {
            var slot: GoogleWriter.Slot
            var text: String
        }

        static let addressWidth = 1 + GoogleWriter.addressParts.count

        /// The cells of `contact`.
        package init(_ contact: Contact) {
            let contact = contact.promotingKeptFields()
            var fixed = Array(repeating: "", count: GoogleWriter.fixedColumns.count)
            func set(_ column: String, _ value: String?) {
                if let value, let position = GoogleWriter.fixedColumns.firstIndex(of: column) {
                    fixed[position] = value
                }
            }
            let name = contact.name ?? StructuredName()
            set("First Name", name.given.joined(separator: " "))
            set("Middle Name", name.additional.joined(separator: " "))
            set("Last Name", name.family.joined(separator: " "))
            set("Name Prefix", name.prefixes.joined(separator: " "))
            set("Name Suffix", name.suffixes.joined(separator: " "))
            // With no name parts, a display name the organisation or email would not give goes in as the first
            // name, so a card known only by its FN keeps it.
            if name.isEmpty, let formatted = contact.formattedName, !formatted.isEmpty,
                formatted != ContactCSV.derivedFormattedName(contact)
            {
                set("First Name", formatted)
            }
            set("Nickname", contact.nicknames.joined(separator: RecordReader.multiValueSeparator))
            set("Organization Name", contact.organization?.name)
            set("Organization Title", contact.title)
            set(
                "Organization Department",
                contact.organization?.units.joined(separator: RecordReader.multiValueSeparator))
            set("Birthday", contact.birthday)
            set("Notes", contact.note)
            set("Photo", contact.photo?.uri)
            set(
                "Labels",
                contact.categories.map { $0.lowercased() == GoogleWriter.starred ? "* " + $0 : $0 }
                    .joined(separator: RecordReader.multiValueSeparator))
            func pairs(_ values: [LabeledValue]) -> [String] {
                values.flatMap { value in
                    [GoogleLabel(types: value.types, label: value.label, pref: value.pref).cell, value.value]
                }
            }
            emails = pairs(contact.emails)
            phones = pairs(contact.phones)
            urls = pairs(contact.urls)
            messaging = contact.instantMessaging.flatMap { address in
                let (service, handle) = MessagingColumns.cells(address)
                return [
                    GoogleLabel(types: address.types, label: address.label, pref: address.pref).cell, service,
                    handle,
                ]
            }
            addresses = contact.addresses.flatMap { address in
                [
                    GoogleLabel(types: address.types, label: address.label, pref: address.pref).cell, "",
                    address.street, address.locality, address.poBox, address.region,
                    address.postalCode, address.country, address.extended,
                ]
            }
            anniversary = (contact.anniversary ?? "").isEmpty ? nil : contact.anniversary
            let kept = GoogleWriter.keptColumns(contact)
            for (column, text) in kept.fixed {
                // The model never fills these columns, so the kept value always goes in.
                if let position = GoogleWriter.fixedColumns.firstIndex(of: column), fixed[position].isEmpty {
                    fixed[position] = text
                }
            }
            self.fixed = fixed
            appended = kept.appended.map { Appended(slot: $0.0, text: $0.1) }
        }

        /// What this row asks of the columns: the same as `CardNeeds` of its contact.
        package var needs: CardNeeds {
            CardNeeds(
                emails: emails.count / 2, phones: phones.count / 2, addresses: addresses.count / Self.addressWidth,
                urls: urls.count / 2, messaging: messaging.count / 3, hasAnniversary: anniversary != nil,
                keptEvents: Set(
                    appended.compactMap { GroupHeader($0.slot.header) }.filter { $0.kind == "Event" }.map(\.index)),
                slots: appended.map(\.slot))
        }

        /// The row as bytes `init(bytes:)` reads: counts, then each cell as its UTF-8 length and bytes.
        package var bytes: [UInt8] {
            var out: [UInt8] = []
            func number(_ value: Int) {
                var little = UInt64(value).littleEndian
                withUnsafeBytes(of: &little) { out += $0 }
            }
            func text(_ value: String) {
                number(value.utf8.count)
                out += value.utf8
            }
            for count in [
                fixed.count, emails.count, phones.count, urls.count, addresses.count, messaging.count, appended.count,
            ] {
                number(count)
            }
            number(anniversary == nil ? 0 : 1)
            for cell in fixed + emails + phones + urls + addresses + messaging { text(cell) }
            if let anniversary { text(anniversary) }
            for kept in appended {
                text(kept.slot.header)
                number(kept.slot.occurrence)
                text(kept.text)
            }
            return out
        }

        /// The row `bytes` gave; nil when they are not such a row.
        package init?(bytes: [UInt8]) {
            var offset = 0
            func number() -> Int? {
                guard offset + 8 <= bytes.count else { return nil }
                var value: UInt64 = 0
                for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
                offset += 8
                return value <= UInt64(bytes.count) ? Int(value) : nil
            }
            func text() -> String? {
                guard let length = number(), offset + length <= bytes.count else { return nil }
                defer { offset += length }
                return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
            }
            func texts(_ count: Int) -> [String]? {
                var out: [String] = []
                for _ in 0..<count {
                    guard let cell = text() else { return nil }
                    out.append(cell)
                }
                return out
            }
            guard let fixedCount = number(), fixedCount == GoogleWriter.fixedColumns.count, let emailCount = number(),
                let phoneCount = number(), let urlCount = number(), let addressCount = number(),
                let messagingCount = number(), let appendedCount = number(), let hasAnniversary = number(),
                hasAnniversary <= 1, let fixed = texts(fixedCount), let emails = texts(emailCount),
                let phones = texts(phoneCount), let urls = texts(urlCount), let addresses = texts(addressCount),
                let messaging = texts(messagingCount), emailCount % 2 == 0, phoneCount % 2 == 0, urlCount % 2 == 0,
                addressCount % Self.addressWidth == 0, messagingCount % 3 == 0
            else { return nil }
            self.fixed = fixed
            self.emails = emails
            self.phones = phones
            self.urls = urls
            self.addresses = addresses
            self.messaging = messaging
            if hasAnniversary == 1 {
                guard let anniversary = text() else { return nil }
                self.anniversary = anniversary
            } else {
                anniversary = nil
            }
            var appended: [Appended] = []
            for _ in 0..<appendedCount {
                guard let header = text(), let occurrence = number(), let value = text() else { return nil }
                appended.append(Appended(slot: GoogleWriter.Slot(header: header, occurrence: occurrence), text: value))
            }
            guard offset == bytes.count else { return nil }
            self.appended = appended
        }
    }
}
