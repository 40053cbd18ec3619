import ContactModel

/// Turns one CSV record into a contact, column by column, for one layout.
///
/// A column the model names fills its field; a second non-empty column for a field already filled, and every
/// non-empty column the model does not name, is kept as `X-CSV-FIELD;X-COLUMN=<header>` in column order.
struct RecordReader {
    let layout: ContactCSV.Layout
    /// The header names, trimmed: what `X-COLUMN` records.
    let header: [String]
    let columns: [Column]
    /// Whether the file's slashed dates are day first (`15/04/1985`): Outlook writes them in the order of the
    /// computer's locale, which the file does not name (see `DateOrder`).
    var dayFirst = false

    /// Google's separator between several values in one cell.
    static let multiValueSeparator = " ::: "

    init(header: [String], layout: ContactCSV.Layout) {
        self.layout = layout
        self.header = header.map(trimmed)
        columns = Column.columns(header, layout: layout)
    }

    /// Whether the layout writes dates with slashes in the locale's order, and the file has such a column.
    var readsSlashedDates: Bool { layout == .outlook && columns.contains { $0 == .birthday || $0 == .anniversary } }

    /// Counts in `order` what the row's date cells show.
    func see(_ row: CSVSyntax.Row, into order: inout ContactCSV.DateOrder) {
        for (index, value) in row.fields.enumerated()
        where index < columns.count && (columns[index] == .birthday || columns[index] == .anniversary) {
            order.see(value)
        }
    }

    /// The cells of one Google numbered group, by part, with the column each came from.
    private typealias GroupCells = [Column.GroupPart: (column: Int, value: String)]
    private struct GroupKey: Hashable, Comparable {
        var kind: Column.GroupKind
        var index: Int
        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.kind, lhs.index) < (rhs.kind, rhs.index) }
    }

    func contact(from row: CSVSyntax.Row, problems: inout [ContactCSV.Problem]) -> Contact {
        var contact = Contact()
        var name = StructuredName()
        var organizationName: String?
        var units: [String] = []
        var formattedName: String?
        var kept: [(column: Int, ext: Extension)] = []
        var groups: [GroupKey: GroupCells] = [:]
        var addresses: [Column.OutlookAddress: [Column.GroupPart: (column: Int, value: String)]] = [:]
        var addressOrder: [Column.OutlookAddress] = []
        var birthParts: [Column.DatePart: (column: Int, value: String)] = [:]
        let google = layout == .google || layout == .googleLegacy

        if row.fields.count > columns.count,
            let extra = row.fields.indices.dropFirst(columns.count).first(where: { !row.fields[$0].isEmpty })
        {
            problems.append(
                .extraFields(
                    line: row.positions[extra].line, column: row.positions[extra].column,
                    fields: row.fields.count, columns: columns.count))
        }
        for (index, value) in row.fields.enumerated() where !value.isEmpty {
            func keep() {
                let header = index < self.header.count ? self.header[index] : "Column \(index + 1)"
                kept.append((index, KeptColumn.extensionFor(header: header, text: value)))
            }
            /// Fills an empty list field, or keeps the column when the field is already filled.
            func fill(_ list: inout [String], with values: [String]) {
                if list.isEmpty { list = values } else { keep() }
            }
            func fill(_ field: inout String?, with text: String) {
                if field == nil { field = text } else { keep() }
            }
            guard index < columns.count else {
                keep()
                continue
            }
            switch columns[index] {
            case .given: fill(&name.given, with: [value])
            case .additional: fill(&name.additional, with: [value])
            case .family: fill(&name.family, with: [value])
            case .prefix: fill(&name.prefixes, with: [value])
            case .suffix: fill(&name.suffixes, with: [value])
            case .nickname: fill(&contact.nicknames, with: google ? Self.split(value) : [value])
            case .formattedName: fill(&formattedName, with: value)
            case .organization: fill(&organizationName, with: value)
            case .department: fill(&units, with: google ? Self.split(value) : [value])
            case .title: fill(&contact.title, with: value)
            case .notes: fill(&contact.note, with: value)
            case .photo: if contact.photo == nil { contact.photo = Photo(uri: value) } else { keep() }
            case .birthday, .anniversary:
                let field: WritableKeyPath<Contact, String?> = columns[index] == .birthday ? \.birthday : \.anniversary
                guard contact[keyPath: field] == nil else {
                    keep()
                    continue
                }
                var date: String? = value
                if !google {
                    switch OutlookDate(value, dayFirst: dayFirst) {
                    case .unset: date = nil
                    case .date(let normalised): date = normalised
                    case .other:
                        problems.append(
                            .invalidDate(
                                header: header[index], line: row.positions[index].line,
                                column: row.positions[index].column))
                    }
                }
                contact[keyPath: field] = date
            case .categories:
                contact.categories += google ? Self.googleCategories(value) : Self.outlookCategories(value)
            case .group(let kind, let groupIndex, let part):
                let key = GroupKey(kind: kind, index: groupIndex)
                if groups[key]?[part] != nil { keep() } else { groups[key, default: [:]][part] = (index, value) }
            case .email(let pref):
                contact.emails.append(LabeledValue(value, pref: pref))
            case .phone(let label):
                contact.phones.append(LabeledValue(value, types: label.types, label: label.label, pref: label.pref))
            case .url(let types):
                contact.urls.append(LabeledValue(value, types: types))
            case .address(let which, let part):
                if addresses[which] == nil { addressOrder.append(which) }
                if addresses[which]?[part] != nil {
                    keep()
                } else {
                    addresses[which, default: [:]][part] = (index, value)
                }
            case .birthPart(let part):
                if birthParts[part] != nil { keep() } else { birthParts[part] = (index, value) }
            case .outlookDefault(let unset):
                if value != unset { keep() }
            case .phonetic(let property):
                if kept.contains(where: { $0.ext.name == property }) {
                    keep()
                } else {
                    kept.append((index, Extension(name: property, value: Extension.escape(value))))
                }
            case .unmapped:
                keep()
            }
        }

        for key in groups.keys.sorted() {
            let cells = groups[key]!
            switch key.kind {
            case .email, .phone, .website:
                let label = GoogleLabel(reading: cells[.label]?.value ?? "")
                // One cell may hold several values of one label; `* ` marks the first of them preferred.
                for (offset, value) in Self.split(cells[.value]?.value ?? "").enumerated() {
                    let item = LabeledValue(
                        value, types: label.types, label: label.label,
                        pref: offset == 0 ? label.pref : nil)
                    switch key.kind {
                    case .email: contact.emails.append(item)
                    case .phone: contact.phones.append(item)
                    default: contact.urls.append(item)
                    }
                }
            case .address:
                contact.addresses += Self.googleAddresses(cells)
                if let cell = cells[.formatted], Self.formattedSaysMore(cells.mapValues(\.value)) {
                    kept.append((cell.column, KeptColumn.extensionFor(header: header[cell.column], text: cell.value)))
                }
            case .event:
                let label = trimmed(cells[.label]?.value ?? "")
                if label.lowercased() == "anniversary", contact.anniversary == nil, let value = cells[.value] {
                    contact.anniversary = value.value
                } else {
                    // Other events (and a second anniversary) have no field: keep their cells as they were.
                    for part in [Column.GroupPart.label, .value] {
                        if let cell = cells[part] {
                            kept.append(
                                (
                                    cell.column,
                                    KeptColumn.extensionFor(
                                        header: header[cell.column],
                                        text: cell.value)
                                ))
                        }
                    }
                }
            case .messaging:
                let label = GoogleLabel(reading: cells[.label]?.value ?? "")
                let service = cells[.service]?.value ?? ""
                let values = Self.split(cells[.value]?.value ?? "")
                contact.instantMessaging += values.enumerated().map { offset, value in
                    MessagingColumns.address(service: service, value: value, label: label, first: offset == 0)
                }
                if values.isEmpty {
                    // A label or service without a value: kept as it was.
                    for part in [Column.GroupPart.label, .service] {
                        if let cell = cells[part] {
                            kept.append(
                                (cell.column, KeptColumn.extensionFor(header: header[cell.column], text: cell.value)))
                        }
                    }
                }
            case .organization:
                // The older layout's first organisation; its name, title or department fills the field unless a
                // column already did.
                for (part, cell) in cells.sorted(by: { $0.value.column < $1.value.column }) {
                    let taken: Bool
                    switch part {
                    case .name:
                        taken = organizationName != nil
                        if !taken { organizationName = cell.value }
                    case .title:
                        taken = contact.title != nil
                        if !taken { contact.title = cell.value }
                    default:
                        taken = !units.isEmpty
                        if !taken { units = Self.split(cell.value) }
                    }
                    if taken {
                        kept.append(
                            (cell.column, KeptColumn.extensionFor(header: header[cell.column], text: cell.value)))
                    }
                }
            }
        }
        for which in addressOrder {
            let cells = addresses[which]!
            contact.addresses += Self.outlookAddress(cells.mapValues(\.value), types: which.types).map { [$0] } ?? []
            if let cell = cells[.formatted], Self.formattedSaysMore(cells.mapValues(\.value)) {
                kept.append((cell.column, KeptColumn.extensionFor(header: header[cell.column], text: cell.value)))
            }
        }
        if !birthParts.isEmpty {
            if contact.birthday == nil, let date = Self.birthday(birthParts.mapValues(\.value)) {
                contact.birthday = date
            } else {
                for cell in birthParts.values {
                    kept.append((cell.column, KeptColumn.extensionFor(header: header[cell.column], text: cell.value)))
                }
                let columns = birthParts.values.map(\.column).sorted()
                if contact.birthday == nil, let first = columns.first {
                    problems.append(
                        .invalidDateParts(
                            headers: columns.map { header[$0] }, line: row.positions[first].line,
                            column: row.positions[first].column))
                }
            }
        }

        if !name.isEmpty { contact.name = name }
        if organizationName != nil || !units.isEmpty {
            contact.organization = Organization(name: organizationName ?? "", units: units)
        }
        contact.formattedName = formattedName ?? ContactCSV.derivedFormattedName(contact)
        contact.extensions = kept.enumerated().sorted {
            ($0.element.column, $0.offset) < ($1.element.column, $1.offset)
        }
        .map(\.element.ext)
        return contact
    }

    /// The values of a Google cell: split on ` ::: `, empty pieces dropped.
    static func split(_ cell: String) -> [String] {
        guard mayHoldSeveral(cell), cell.contains(multiValueSeparator) else { return cell.isEmpty ? [] : [cell] }
        return cell.split(separator: multiValueSeparator).map(String.init)
    }

    /// Whether `cell` may hold ` ::: ` (it has a colon): most cells hold one value, which is told without the
    /// text search that cost a fifth of reading a large export.
    static func mayHoldSeveral(_ cell: String) -> Bool { cell.utf8.contains(UInt8(ascii: ":")) }

    /// Google `Labels` / `Group Membership`: ` ::: `-separated; `* ` marks a system group, whose name is kept
    /// without it (`* starred` is `starred`, the older `* Starred` is `Starred`), except `* myContacts` (older:
    /// `* My Contacts`), which every contact has and which is dropped.
    static func googleCategories(_ cell: String) -> [String] {
        split(cell).compactMap { label in
            var name = trimmed(label)
            if name.hasPrefix("* ") {
                name = trimmed(String(name.dropFirst(2)))
                if name == "myContacts" || name == "My Contacts" { return nil }
            }
            return name.isEmpty ? nil : name
        }
    }

    /// Outlook `Categories`: `;`-separated.
    static func outlookCategories(_ cell: String) -> [String] {
        cell.split(separator: ";").map { trimmed(String($0)) }.filter { !$0.isEmpty }
    }

    /// A Google address group: each component cell may hold several addresses joined by ` ::: `. `Formatted`
    /// is Google's rendering of the components and is used only when every component is empty (as the street).
    private static func googleAddresses(_ cells: GroupCells) -> [Address] {
        let label = GoogleLabel(reading: cells[.label]?.value ?? "")
        func parts(_ part: Column.GroupPart) -> [String] {
            guard let cell = cells[part]?.value else { return [] }
            guard mayHoldSeveral(cell) else { return [cell] }
            return cell.split(separator: multiValueSeparator, omittingEmptySubsequences: false).map(String.init)
        }
        let components: [Column.GroupPart] = [.poBox, .extended, .street, .locality, .region, .postalCode, .country]
        let values = components.map(parts)
        let formatted = parts(.formatted)
        let count = max(values.map(\.count).max() ?? 0, formatted.count)
        var addresses: [Address] = []
        for entry in 0..<count {
            var fields = values.map { entry < $0.count ? $0[entry] : "" }
            if fields.allSatisfy(\.isEmpty) {
                guard entry < formatted.count, !formatted[entry].isEmpty else { continue }
                fields[2] = formatted[entry]
            }
            addresses.append(
                Address(
                    poBox: fields[0], extended: fields[1], street: fields[2], locality: fields[3],
                    region: fields[4], postalCode: fields[5], country: fields[6],
                    types: label.types, label: label.label,
                    pref: addresses.isEmpty ? label.pref : nil))
        }
        return addresses
    }

    /// Whether a whole address written in one cell (`parts[.formatted]`) holds more than the address's other
    /// parts: an exporter's whole address is those parts written out, and is left out; anything more is kept, not
    /// lost. Without any other part the whole address is the street, and nothing is lost either.
    static func formattedSaysMore(_ parts: [Column.GroupPart: String]) -> Bool {
        guard let formatted = parts[.formatted] else { return false }
        // Longest first, so a short part ("US") is not taken out of a longer one ("Industrial Pkwy") first.
        // (A Google cell may hold several addresses' parts, joined by ` ::: `: each is taken out on its own.)
        let others = parts.filter { $0.key != .formatted && $0.key != .label }.values
            .flatMap { $0.lowercased().split(separator: multiValueSeparator).map(String.init) }
            .filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        guard !others.isEmpty else { return false }
        // Parts are taken out as text, not as words: Chinese or Japanese addresses have no spaces between them.
        var rest = formatted.lowercased()
        for part in others { rest = rest.replacing(part, with: " ") }
        return rest.contains { $0.isLetter || $0.isNumber }
    }

    /// Thunderbird's birthday from its year, month and day columns: `YYYY-MM-DD`, or `--MM-DD` without a year;
    /// nil when the month or day is missing or any part is not a number in its range.
    static func birthday(_ parts: [Column.DatePart: String]) -> String? {
        func number(_ part: Column.DatePart, _ range: ClosedRange<Int>) -> Int?? {
            guard let text = parts[part].map(trimmed), !text.isEmpty else { return .some(nil) }
            guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), text.utf8.count <= 4, let value = Int(text),
                range.contains(value)
            else { return nil }
            return .some(value)
        }
        guard let year = number(.year, 1...9999), let month = number(.month, 1...12), let day = number(.day, 1...31),
            let month, let day
        else { return nil }
        let monthDay = OutlookDate.padded(month, 2) + "-" + OutlookDate.padded(day, 2)
        return year.map { OutlookDate.padded($0, 4) + "-" + monthDay } ?? "--" + monthDay
    }

    /// An Outlook address: `Street`, `Street 2` and `Street 3` are the lines of one street.
    private static func outlookAddress(_ parts: [Column.GroupPart: String], types: [String]) -> Address? {
        var street = [parts[.street], parts[.street2], parts[.street3]].compactMap { $0 }.joined(separator: "\n")
        let others: [Column.GroupPart] = [.poBox, .locality, .region, .postalCode, .country]
        if street.isEmpty && others.allSatisfy({ parts[$0] == nil }) {
            guard let formatted = parts[.formatted] else { return nil }
            street = formatted
        }
        return Address(
            poBox: parts[.poBox] ?? "", street: street, locality: parts[.locality] ?? "",
            region: parts[.region] ?? "", postalCode: parts[.postalCode] ?? "",
            country: parts[.country] ?? "", types: types)
    }
}

/// An Outlook date cell: `4/15/1985` (month/day/year, or day/month/year where the file's dates are day first)
/// becomes `1985-04-15`; `0/0/00` and `1/1/4501`, which Outlook writes for "none", mean no date. ISO dates pass
/// unchanged; anything else is kept as written.
enum OutlookDate: Equatable {
    case unset
    case date(String)
    case other

    /// The two numbers before the year of a slashed date (`4/15/1985` gives 4 and 15), when it is one.
    static func leadingParts(_ text: String) -> (Int, Int)? {
        let parts = trimmed(text).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigitCharacter) }),
            parts[2].count == 4, let first = Int(parts[0]), let second = Int(parts[1])
        else { return nil }
        return (first, second)
    }

    init(_ text: String, dayFirst: Bool = false) {
        let text = trimmed(text)
        if text == "0/0/00" || text == "1/1/4501" {
            self = .unset
            return
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if let (first, second) = Self.leadingParts(text), let year = Int(parts[2]),
            case (let month, let day) = dayFirst ? (second, first) : (first, second),
            (1...12).contains(month), (1...31).contains(day)
        {
            self = .date(Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2))
            return
        }
        let isoShape =
            text.count == 10
            && text.enumerated().allSatisfy { offset, character in
                offset == 4 || offset == 7 ? character == "-" : character.isASCIIDigitCharacter
            }
        self = isoShape ? .date(text) : .other
    }

    static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}

extension ContactCSV {
    /// Which way round a file's slashed dates are. Outlook writes `Birthday` and `Anniversary` in the short date
    /// form of the computer's locale: `4/15/1985` in the United States, `15/04/1985` in Britain, India or
    /// Australia, under the same English header names. A date whose first number is above 12 can only be day
    /// first, one whose second is can only be month first; the file's dates are read the way they show, and month
    /// first (Outlook's own default) when none shows a way or they disagree.
    package struct DateOrder: Sendable, Equatable {
        private var dayFirst = 0
        private var monthFirst = 0

        /// No date seen yet.
        package init() {}

        /// Counts what a date cell shows.
        package mutating func see(_ cell: String) {
            guard let (first, second) = OutlookDate.leadingParts(cell) else { return }
            if first > 12 && (1...12).contains(second) { dayFirst += 1 }
            if second > 12 && (1...12).contains(first) { monthFirst += 1 }
        }

        /// Whether the dates seen are day first.
        package var isDayFirst: Bool { dayFirst > 0 && monthFirst == 0 }
    }
}
