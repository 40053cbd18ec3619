import ContactModel
import VCardSyntax

/// A single-valued text property (FN, TITLE, ROLE, NOTE, UID, REV, BDAY, ANNIVERSARY). A second
/// occurrence is not the model's and is kept raw, so nothing is dropped.
struct SingleTextScribe: PropertyScribe {
    let name: String
    let field: Contact.TextField
    /// The name written in 3.0 when it differs (3.0 has no ANNIVERSARY).
    var name3: String?
    /// Parameters that carry meaning we would lose: such a line is kept raw instead.
    var rawIfParameters = false
    /// For dates: RFC 6350 allows only ISO 8601's basic form (`19850415`), so a date read from 3.0 or JSON
    /// in the extended form (`1985-04-15`) is written in the basic form in 4.0.
    var dateType: JCardValueType?

    func read(_ line: RawCard.Line, into context: inout ReadContext) -> Bool {
        guard context.contact[field] == nil else { return false }
        guard readValue(line, into: &context) else { return false }
        // A labelled value (`item1.TITLE` with its `item1.X-ABLabel`) keeps its group.
        if let group = line.group { context.contact.spelling.groups[name] = group }
        return true
    }

    private func readValue(_ line: RawCard.Line, into context: inout ReadContext) -> Bool {
        var omittedYear: Substring?
        if rawIfParameters {
            for index in 0..<line.parameterCount {
                if dateType == .dateAndOrTime, line.parameterNameIs(index, "X-APPLE-OMIT-YEAR"),
                    line.parameterValueCount(index) == 1, omittedYear == nil
                {
                    omittedYear = Substring(String(decoding: line.parameterValueBytes(index, 0), as: UTF8.self))
                    continue
                }
                guard line.parameterNameIs(index, "VALUE"), line.parameterValueCount(index) > 0 else { return false }
                let type = line.parameterValueBytes(index, 0)
                let kept =
                    type.isEqualIgnoringCase(to: "DATE") || type.isEqualIgnoringCase(to: "DATE-TIME")
                    || type.isEqualIgnoringCase(to: "TIMESTAMP")
                if !kept { return false }
            }
        } else if line.parameterCount > 0 {
            // LANGUAGE, ALTID and friends would be lost in the model's plain string.
            return false
        }
        let value = ValueEscaping.unescapeText(line.valueBytes)
        if let omittedYear {
            // Apple's date without a year: the year it writes instead, which the model leaves out.
            guard let monthDay = Self.monthDay(of: value, inYear: omittedYear) else {
                // A date with a real year: the parameter says nothing more.
                guard Self.monthDay(of: value, inYear: nil) != nil else { return false }
                context.contact[field] = value
                return true
            }
            context.contact[field] = "--" + monthDay
            context.contact.spelling.omittedYear = String(omittedYear)
            return true
        }
        context.contact[field] = value
        // 3.0 has two names for the anniversary; the one a 2.1 or 3.0 card used is the one its readers know.
        if name3 != nil && context.version != .v4_0 { context.contact.spelling.anniversaryName = line.name }
        return true
    }

    /// `MM-DD` of a date `YYYY-MM-DD` or `YYYYMMDD` whose year is `year` (any year when nil); else nil.
    static func monthDay(of value: String, inYear year: Substring?) -> String? {
        let digits = value.utf8.filter { $0 != 0x2D }
        guard digits.count == 8, digits.allSatisfy({ (0x30...0x39).contains($0) }),
            value.utf8.count == 8
                || (value.utf8.count == 10 && Array(value.utf8)[4] == 0x2D && Array(value.utf8)[7] == 0x2D)
        else { return nil }
        let text = String(decoding: digits, as: UTF8.self)
        if let year, text.prefix(4) != year { return nil }
        let month = text.dropFirst(4).prefix(2)
        let day = text.suffix(2)
        guard let m = Int(month), let d = Int(day), (1...12).contains(m), (1...31).contains(d) else { return nil }
        return "\(month)-\(day)"
    }

    /// `MM-DD` of a date without a year (`--MM-DD` or `--MMDD`), else nil.
    static func yearless(_ value: String) -> String? {
        let bytes = Array(value.utf8)
        guard bytes.count >= 6, bytes[0] == 0x2D, bytes[1] == 0x2D else { return nil }
        let digits = bytes.dropFirst(2).filter { $0 != 0x2D }
        guard digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }),
            bytes.count == 6 || (bytes.count == 7 && bytes[4] == 0x2D)
        else { return nil }
        let text = String(decoding: digits, as: UTF8.self)
        return text.prefix(2) + "-" + text.suffix(2)
    }

    func write(_ contact: Contact, into context: inout WriteContext) {
        guard let value = contact[field] else { return }
        let group = contact.spelling.groups[name]
        let written =
            context.version == .v4_0 ? name : (name3.map { contact.spelling.anniversaryName ?? $0 } ?? name)
        if context.version != .v4_0, dateType == .dateAndOrTime, let year = contact.spelling.omittedYear,
            let monthDay = Self.yearless(value)
        {
            // A card from Apple gets its date without a year back in Apple's form.
            context.builder.start(group: group, name: written)
            context.builder.parameter("X-APPLE-OMIT-YEAR", [year])
            context.builder.beginValue()
            context.builder.appendText(year + "-" + monthDay)
            context.builder.finish()
            return
        }
        if context.version == .v4_0, let dateType {
            if let basic = VCardDates.basic(value, type: dateType) {
                context.appendText(written, basic, group: group)
            } else if dateType != .dateAndOrTime {
                // REV has no text form: it stays as it was.
                context.appendText(written, value, group: group)
            } else {
                // Not a date 4.0 can read (`02-10`, `circa 1980`): a reader would take it for a time or
                // drop it, so it says it is text, as RFC 6350 lets BDAY and ANNIVERSARY do.
                context.builder.start(group: group, name: written)
                context.builder.parameter("VALUE", ["text"])
                context.builder.beginValue()
                context.builder.appendText(value)
                context.builder.finish()
            }
        } else {
            context.appendText(written, value, group: group)
        }
    }
}

/// FN: required in 3.0 and 4.0, so a card without one gets the name a contacts app would show.
struct FormattedNameScribe: PropertyScribe {
    func read(_ line: RawCard.Line, into context: inout ReadContext) -> Bool {
        guard context.contact.formattedName == nil, line.parameterCount == 0, !line.hasGroup else { return false }
        context.contact.formattedName = ValueEscaping.unescapeText(line.valueBytes)
        return true
    }

    func write(_ contact: Contact, into context: inout WriteContext) {
        if contact.formattedName == nil && contact.extensions.contains(where: { $0.name == "FN" }) { return }
        context.appendText("FN", contact.formattedName ?? contact.derivedDisplayName)
    }
}

/// N: five components, each a comma list. Required in 3.0, so an empty one is written when unknown.
struct NameScribe: PropertyScribe {
    func read(_ line: RawCard.Line, into context: inout ReadContext) -> Bool {
        guard context.contact.name == nil, line.parameterCount == 0, !line.hasGroup else { return false }
        var name = StructuredName()
        var components = 0
        // A component holding one empty item is no name part; an empty item is only kept when another
        // item of its component follows, so empty components allocate nothing.
        var heldEmpty = false
        ValueEscaping.forEachStructuredItem(line.valueBytes) { component, item in
            if component + 1 != components {
                components = component + 1
                heldEmpty = false
            }
            guard component < 5 else { return }
            if item.isEmpty && !heldEmpty && name[component].isEmpty {
                heldEmpty = true
                return
            }
            if heldEmpty {
                name.append("", toComponent: component)
                heldEmpty = false
            }
            name.append(item, toComponent: component)
        }
        guard components <= 5 else { return false }
        if name.isEmpty { context.contact.spelling.emptyName = true } else { context.contact.name = name }
        return true
    }

    func write(_ contact: Contact, into context: inout WriteContext) {
        guard let name = contact.name else {
            // 3.0 requires N; 4.0 writes the empty one a card had, which its readers saw.
            let rawN = contact.extensions.contains { $0.name == "N" }
            if (context.version == .v3_0 || contact.spelling.emptyName) && !rawN {
                context.append(ContentLine(name: "N", value: ";;;;"))
            }
            return
        }
        context.builder.start(name: "N")
        context.builder.beginValue()
        for (index, component) in [name.family, name.given, name.additional, name.prefixes, name.suffixes].enumerated()
        {
            if index > 0 { context.builder.appendSeparator(UInt8(ascii: ";")) }
            for (itemIndex, item) in component.enumerated() {
                if itemIndex > 0 { context.builder.appendSeparator(UInt8(ascii: ",")) }
                context.builder.appendText(item)
            }
        }
        context.builder.finish()
    }
}

/// ORG: the organisation, then its units.
struct OrganizationScribe: PropertyScribe {
    func read(_ line: RawCard.Line, into context: inout ReadContext) -> Bool {
        guard context.contact.organization == nil, line.parameterCount == 0 else { return false }
        let parts = ValueEscaping.components(line.valueBytes)
        context.contact.organization = Organization(name: parts.first ?? "", units: Array(parts.dropFirst()))
        // A labelled organisation (`item1.ORG` with its `item1.X-ABLabel`) keeps its group.
        if let group = line.group { context.contact.spelling.groups["ORG"] = group }
        return true
    }

    func write(_ contact: Contact, into context: inout WriteContext) {
        guard let org = contact.organization else { return }
        context.builder.start(group: contact.spelling.groups["ORG"], name: "ORG")
        context.builder.beginValue()
        context.builder.appendText(org.name)
        for unit in org.units {
            context.builder.appendSeparator(UInt8(ascii: ";"))
            context.builder.appendText(unit)
        }
        context.builder.finish()
    }
}

/// Android's nickname: Android writes it as `X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Bob;1;;;...` in
/// 2.1, which has no NICKNAME (its export's default version), and reads NICKNAME in 3.0 and 4.0. Read as a
/// nickname, it reaches the formats and readers that know only NICKNAME (an iPhone, Google's CSV, every 4.0
/// reader) and is written back as NICKNAME. Android's other kinds of nickname (a maiden name, initials, a label
/// of the user's own) and every other `X-ANDROID-CUSTOM` line stay as they were written.
enum AndroidNicknameScribe {
    static let mimeType = "vnd.android.cursor.item/nickname"

    static func read(_ line: RawCard.Line, into context: inout ReadContext) -> Bool {
        guard line.parameterCount == 0, !line.hasGroup else { return false }
        let parts = ValueEscaping.components(line.valueBytes)
        // The value, then Android's kind (1 the default, 0 the user's own with the label after it).
        guard parts.count >= 2, parts[0] == mimeType, !parts[1].isEmpty,
            parts.count < 3 || parts[2].isEmpty || parts[2] == "1",
            parts.dropFirst(3).allSatisfy(\.isEmpty)
        else { return false }
        context.contact.append([parts[1]], to: .nicknames)
        return true
    }
}

/// NICKNAME and CATEGORIES: comma lists; several lines add up.
struct ListScribe: PropertyScribe {
    let name: String
    let field: Contact.ListField
    /// Each item on a line of its own. Readers disagree on NICKNAME's comma (RFC 2426 3.1.3 and RFC 6350 6.2.3 make
    /// it a list, Python vobject, and so Radicale, keeps the first item and drops the rest), and they all read
    /// several lines, which both RFCs allow, as several nicknames.
    var onePerLine = false

    func read(_ line: RawCard.Line, into context: inout ReadContext) -> Bool {
        // The model keeps neither group nor parameters for a list: such a line stays raw.
        guard line.parameterCount == 0, !line.hasGroup else { return false }
        let items = ValueEscaping.list(line.valueBytes).filter { !$0.isEmpty }
        guard !items.isEmpty else { return false }
        context.contact.append(items, to: field)
        if onePerLine { return true }
        // Several lines are several properties to a reader (Python vobject shows only the first): remember
        // how the items were split, and `VCardReader` forgets it when there was one line.
        context.contact.spelling.appendLine(of: items.count, to: field)
        return true
    }

    func write(_ contact: Contact, into context: inout WriteContext) {
        let items = contact[field]
        guard !items.isEmpty else { return }
        if onePerLine {
            for item in items { context.appendText(name, item) }
            return
        }
        var start = 0
        for count in Self.lineSizes(contact.spelling[lines: field], total: items.count) {
            context.builder.start(group: nil, name: name)
            context.builder.beginValue()
            for (index, item) in items[start..<(start + count)].enumerated() {
                if index > 0 { context.builder.appendSeparator(UInt8(ascii: ",")) }
                context.builder.appendText(item)
            }
            context.builder.finish()
            start += count
        }
    }

    /// How many items go on each line: as the source split them, with any items added since (a merge) on a
    /// line of their own; one line when the source had one, or the split no longer fits.
    static func lineSizes(_ recorded: [Int], total: Int) -> [Int] {
        let recordedTotal = recorded.reduce(0, +)
        guard recorded.count > 1, recorded.allSatisfy({ $0 > 0 }), recordedTotal <= total else { return [total] }
        return recordedTotal == total ? recorded : recorded + [total - recordedTotal]
    }
}

extension Contact {
    /// The single-valued text fields, reached with a switch rather than a key path (faster per line).
    enum TextField: Sendable {
        case birthday, anniversary, title, role, note, uid, revision
    }

    subscript(field: TextField) -> String? {
        get {
            switch field {
            case .birthday: birthday
            case .anniversary: anniversary
            case .title: title
            case .role: role
            case .note: note
            case .uid: uid
            case .revision: revision
            }
        }
        set {
            switch field {
            case .birthday: birthday = newValue
            case .anniversary: anniversary = newValue
            case .title: title = newValue
            case .role: role = newValue
            case .note: note = newValue
            case .uid: uid = newValue
            case .revision: revision = newValue
            }
        }
    }

    /// The list fields.
    enum ListField: Sendable {
        case nicknames, categories
    }

    /// Appends `items` to the list `field` in place: through the subscript, each line of a card with 100,000
    /// NICKNAME lines copied the whole list (31 s to read the card).
    mutating func append(_ items: [String], to field: ListField) {
        switch field {
        case .nicknames: nicknames += items
        case .categories: categories += items
        }
    }

    subscript(field: ListField) -> [String] {
        get {
            switch field {
            case .nicknames: nicknames
            case .categories: categories
            }
        }
        set {
            switch field {
            case .nicknames: nicknames = newValue
            case .categories: categories = newValue
            }
        }
    }
}

extension SourceSpelling {
    /// Records a line of `count` items of the list `field`, in place (see `Contact.append(_:to:)`).
    mutating func appendLine(of count: Int, to field: Contact.ListField) {
        switch field {
        case .nicknames: nicknameLines.append(count)
        case .categories: categoryLines.append(count)
        }
    }

    /// The recorded line sizes of a list field.
    subscript(lines field: Contact.ListField) -> [Int] {
        get {
            switch field {
            case .nicknames: nicknameLines
            case .categories: categoryLines
            }
        }
        set {
            switch field {
            case .nicknames: nicknameLines = newValue
            case .categories: categoryLines = newValue
            }
        }
    }
}

extension StructuredName {
    /// The component at vCard position `index` (family, given, additional, prefixes, suffixes).
    subscript(index: Int) -> [String] {
        switch index {
        case 0: family
        case 1: given
        case 2: additional
        case 3: prefixes
        default: suffixes
        }
    }

    /// Appends to the component at vCard position `index`, in place.
    mutating func append(_ item: String, toComponent index: Int) {
        switch index {
        case 0: family.append(item)
        case 1: given.append(item)
        case 2: additional.append(item)
        case 3: prefixes.append(item)
        default: suffixes.append(item)
        }
    }
}
