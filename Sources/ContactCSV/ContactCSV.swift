import ContactModel
import Utilities

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Contacts as CSV: reads Google Contacts (current and older) and Outlook exports, writes Google's current layout.
///
/// The CSV layer knows nothing of vCard: it maps columns to the neutral `Contact`, and keeps every non-empty
/// column it does not map as an `X-CSV-FIELD` extension whose `X-COLUMN` parameter is the header, so the
/// writer can put it back under that header.
///
/// Reading maps: the name parts (Outlook's `Title` is the honorific prefix, `Job Title` the title), nickname,
/// organisation name, department and title, birthday and anniversary (Google's `Event N` labelled
/// `Anniversary`; Outlook's `M/D/YYYY` becomes `YYYY-MM-DD`, its `0/0/00` means none), notes, categories
/// (Google's ` ::: `-separated `Labels` or `Group Membership` without `* myContacts`, `* starred` as
/// `starred`; Outlook's `;`-separated `Categories`), a photo link, and emails, phones, addresses and web
/// addresses: Google's numbered groups to any count, a cell holding several values joined by ` ::: ` giving
/// several values of one label, and Outlook's fixed columns (`E-mail 2 Address`, `Mobile Phone`,
/// `Home Street 2`...). Outlook's "not set" defaults (`Gender` `Unspecified`, `Priority` and `Sensitivity`
/// `Normal`, `Private` `False`) count as empty. A name's reading (Google's `Phonetic First Name`, `Phonetic
/// Middle Name` and `Phonetic Last Name`, its older layout's `Given Name Yomi`, `Additional Name Yomi` and
/// `Family Name Yomi`, Outlook's `Given Yomi` and `Surname Yomi`) becomes the extension Apple Contacts and
/// Android keep it in, `X-PHONETIC-FIRST-NAME`, `X-PHONETIC-MIDDLE-NAME` or `X-PHONETIC-LAST-NAME`. Google's
/// `IM N - Label`, `- Service` and `- Value` become messaging addresses (see `MessagingColumns`).
///
/// Google labels and kinds: `Home` home, `Work` work, `Mobile` cell, `Main` main, `Pager` pager, `Other`
/// other, `Home Fax` / `Work Fax` / `Other Fax` home / work / other and fax, `Fax` fax, `Car` car, `ISDN` isdn,
/// matched without regard to case; a leading `* ` means preferred (`pref` 1); any other label is kept as
/// written in `label`. Writing uses `label` when there is one, else this table (ignoring the default kinds
/// `voice` and `internet`), else the kinds as a label (`video` is `Video`).
///
/// The display name is not a column of the Google layout: reading derives it (see `derivedFormattedName`),
/// except from the older layout's `Name`.
///
/// What the Google layout carries, and so what survives `read(write(contacts))`: the name parts (each part one
/// entry; several are joined with a space), nicknames, organisation name and units, title, birthday,
/// anniversary, note, categories, a photo link, emails, phones, addresses, web addresses and messaging
/// addresses with their kinds, label and `pref` 1 (and each messaging address's service), the phonetic name
/// parts, and the kept `X-CSV-FIELD` columns. A display name that differs from the derivation is lost, except
/// that a card with no name parts gets it as its first name. Not carried: UID, role, social profiles, revision,
/// embedded photos, value groups and extra parameters, kinds beside a label (the label wins), `pref` other
/// than 1, and every other extension.
public enum ContactCSV {
    /// One contact and the physical line its record began on.
    public struct Record: Hashable, Sendable {
        /// The 1-based line of the record's first field.
        public var line: Int
        /// The contact.
        public var contact: Contact
    }

    /// What `read` found: the layout, the contacts with their lines, and the problems.
    public struct ReadResult: Sendable {
        /// The layout told from the header row; nil when the header was not recognised.
        public var layout: Layout?
        /// One record per data row, in file order.
        public var records: [Record]
        /// Errors and warnings, by line.
        public var problems: [Problem]

        /// The contacts, in file order.
        public var contacts: [Contact] { records.map(\.contact) }
    }

    /// Reads a whole CSV file: a Google Contacts (current or older) or Outlook export, in UTF-8, Windows-1252
    /// or UTF-16, its fields separated by commas, or by semicolons or tabs as its header row shows.
    ///
    /// Never throws: an unrecognised header gives no contacts and an error; an unterminated quote gives the
    /// records before it and an error naming the line where the field began; a short row reads as if padded
    /// with empty fields.
    /// - Complexity: O(n) in the size of the file.
    public static func read(_ bytes: [UInt8]) -> ReadResult {
        let bytes = UTF16Text.utf8(fromUTF16: bytes) ?? bytes
        let table = CSVSyntax.parse(bytes, separator: separator(bytes))
        var problems = table.problems
        guard let header = table.rows.first, let layout = Layout.detect(header.fields) else {
            problems.append(.unknownHeader(found: table.rows.first?.fields ?? []))
            return ReadResult(layout: nil, records: [], problems: sorted(problems))
        }
        var reader = RecordReader(header: header.fields, layout: layout)
        if reader.readsSlashedDates {
            var order = DateOrder()
            for row in table.rows.dropFirst() { reader.see(row, into: &order) }
            reader.dayFirst = order.isDayFirst
        }
        let records = table.rows.dropFirst().map { row in
            Record(line: row.line, contact: reader.contact(from: row, problems: &problems))
        }
        return ReadResult(layout: layout, records: records, problems: sorted(problems))
    }

    /// Whether the first bytes of a file look like a contacts CSV: its first row holds at least three header
    /// names of the Google, Outlook or Thunderbird layouts.
    public static func looksLikeCSV(_ prefix: [UInt8]) -> Bool {
        let prefix = UTF16Text.utf8(fromUTF16: prefix) ?? prefix
        return CSVSyntax.firstRow(prefix, separator: separator(prefix)).filter(Layout.isKnownHeader).count >= 3
    }

    /// The byte between the fields of a file: a comma, unless its first row splits into more known header names
    /// at a semicolon or a tab (a spreadsheet's export in a locale whose list separator is `;`, or as "Unicode
    /// Text"). A header name never holds one of these, so the right separator is the one that finds the most.
    static func separator(_ bytes: [UInt8]) -> UInt8 {
        var best = (separator: CSVByte.comma, known: 0)
        for separator in [CSVByte.comma, CSVByte.semicolon, CSVByte.tab] {
            // Only the first row is read: the bytes up to its end, or 64 KiB.
            let known = CSVSyntax.firstRow(Array(bytes.prefix(64 << 10)), separator: separator)
                .filter(Layout.isKnownHeader).count
            if known > best.known { best = (separator, known) }
        }
        return best.separator
    }

    /// Writes contacts as CSV in Google Contacts' current layout.
    ///
    /// The header is Google's fixed columns, then as many numbered `E-mail`, `Phone`, `Address` and `Website`
    /// groups as the contact with the most needs (at least one of each), as many `IM` groups (none when no
    /// contact has a messaging address; see `MessagingColumns` for the service and handle), an `Event` group
    /// labelled `Anniversary` when a contact has one (numbered above every kept `Event` column, so the two never
    /// share a column), then the headers of kept `X-CSV-FIELD` columns, in an order that keeps each contact's kept
    /// columns in its own order. An `X-PHONETIC-FIRST-NAME`, `-MIDDLE-NAME` or `-LAST-NAME` extension (or a
    /// kept column of that header) fills Google's `Phonetic ... Name` column of that part, and a kept `File As`
    /// column Google's `File As`. Several values go in separate groups, never joined by ` ::: `; nicknames and
    /// organisation units are joined by ` ::: `; the category `starred` is written `* starred`. Rows end with CRLF; fields are quoted only
    /// when they hold a comma, quote or line break; UTF-8 without a byte order mark.
    ///
    /// Formula guard: a field starting with `=`, `+`, `-`, `@`, TAB or CR is written with a leading `'` so a
    /// spreadsheet shows it as text rather than running it (OWASP's advice for CSV injection). So a phone number
    /// `+1 555 0100` is written `'+1 555 0100`, and a birthday without a year `--04-15` is written `'--04-15`.
    /// A field that already starts with `'` (or several) before one of those characters gets one more `'`.
    /// `read` takes exactly one `'` off such fields, so it gives back the exact original values.
    public static func write(_ contacts: [Contact]) -> [UInt8] {
        GoogleWriter.bytes(contacts)
    }

    /// The display name the Google, Outlook and Thunderbird layouts imply: the one a contacts app shows for a card without
    /// FN (`Contact.derivedDisplayName`: the name parts, else the organisation, email, phone or nickname);
    /// nil when there is none.
    package static func derivedFormattedName(_ contact: Contact) -> String? {
        let name = contact.derivedDisplayName
        return name.isEmpty ? nil : name
    }

    /// The properties of `contact` that the Google CSV `write` gives does not carry, by their vCard names
    /// (`UID`, `ROLE`, `X-ABDATE`), each once: a CSV of the card leaves them out, which a command should say.
    package static func leftOut(_ contact: Contact) -> [String] {
        let contact = contact.promotingKeptFields()
        var names: [String] = []
        if !(contact.uid ?? "").isEmpty { names.append("UID") }
        if let name = contact.name, !name.isEmpty, let formatted = contact.formattedName, !formatted.isEmpty,
            formatted != derivedFormattedName(contact)
        {
            names.append("FN")
        }
        if !(contact.role ?? "").isEmpty { names.append("ROLE") }
        if !contact.socialProfiles.isEmpty { names.append("X-SOCIALPROFILE") }
        if let photo = contact.photo, photo.uri == nil { names.append("PHOTO") }
        if !(contact.revision ?? "").isEmpty { names.append("REV") }
        for ext in contact.extensions where KeptColumn.column(of: ext) == nil {
            let name = ext.name.uppercased()
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Counts, by property name, the cards whose properties `leftOut` names.
    package struct LeftOut: Sendable {
        private(set) var cards: [String: Int] = [:]

        package init() {}

        /// Counts the properties `leftOut` gives for one card.
        package mutating func add(_ names: [String]) {
            for name in names { cards[name, default: 0] += 1 }
        }

        /// `UID (1,000 cards), X-ABDATE (3 cards)`, most cards first, at most eight names; nil when nothing was
        /// left out.
        package var summary: String? {
            guard !cards.isEmpty else { return nil }
            let ranked = cards.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            var parts = ranked.prefix(8).map { "\($0.key) (\($0.value) card\($0.value == 1 ? "" : "s"))" }
            if ranked.count > 8 { parts.append("\(ranked.count - 8) more") }
            return parts.joined(separator: ", ")
        }
    }

    static func sorted(_ problems: [Problem]) -> [Problem] {
        problems.enumerated()
            .sorted {
                ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
            }
            .map(\.element)
    }
}
