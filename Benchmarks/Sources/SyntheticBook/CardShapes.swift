// Over 400 lines on purpose: one writer per client export style (Apple, Google, Outlook, Android...), each a
// short table of how that client spells a card; they are easiest to compare side by side.

/// The clients whose export style a card imitates.
enum Shape: Int, Sendable {
    /// iPhone / macOS Contacts, vCard 3.0: item groups with X-ABLabel, UID, PRODID.
    case apple
    /// Google Contacts, vCard 3.0: FN first, TYPE=INTERNET, no UID.
    case google
    /// Outlook, vCard 2.1: bare types, quoted-printable for non-ASCII, REV.
    case outlook
    /// Android Contacts, vCard 3.0: N first, X-ANDROID-CUSTOM nickname.
    case android
    /// vCard 4.0 (Nextcloud / sabre-dav style): tel: URIs, urn:uuid UID, N optional.
    case vcard4

    var hasUID: Bool { self == .apple || self == .vcard4 }

    /// Whether the client writes dates in the basic format (`19800102`) rather than the extended (`1980-01-02`).
    var basicDates: Bool { self == .outlook || self == .vcard4 }

    /// A shape with a realistic share: Apple 30%, Google 25%, Outlook 15%, Android 15%, 4.0 15%.
    static func draw(_ random: inout SplitMix64) -> Shape {
        let roll = random.below(100)
        return roll < 30 ? .apple : roll < 55 ? .google : roll < 70 ? .outlook : roll < 85 ? .android : .vcard4
    }
}

enum EmailKind { case home, work, family, other }
/// How a date is written: `19800102`, `1980-01-02`, or without the year, `--0102`.
enum DateFormat { case basic, extended, noYear }
enum PhoneKind { case cell, home, work, other }
enum AddressKind { case home, work }

/// What one card says, before it is written in a client's dialect.
struct CardContent {
    var shape: Shape
    /// One of the six phone styles (ignored by vCard 4.0, which writes tel: URIs).
    var phoneFormat: Int
    /// Random bits for small stylistic choices.
    var style: UInt64
    var uid: String?
    var prefix = ""
    var given = ""
    var middle = ""
    var family = ""
    var suffix = ""
    var formattedName = ""
    var includeN = true
    var nickname: String?
    var org: String?
    var title: String?
    var emails: [(address: String, kind: EmailKind)] = []
    var phones: [(number: Phone, kind: PhoneKind)] = []
    var addresses: [(address: Address, kind: AddressKind)] = []
    var birthday: Birthday?
    /// The birthday's format when not the client's own.
    var birthdayFormat: DateFormat?
    var note: String?
    var categories: [String] = []
    var revision: String?

    init(shape: Shape, phoneFormat: Int, style: UInt64) {
        self.shape = shape
        self.phoneFormat = phoneFormat
        self.style = style
    }
}

/// Writes cards into one growing string: CRLF line ends, folding at 75 octets on character boundaries,
/// RFC 6350 escaping (3.0, 4.0) and quoted-printable with soft line breaks (2.1).
struct CardWriter {
    var text = ""
    let countryCode: Int

    init(countryCode: Int, capacity: Int) {
        self.countryCode = countryCode
        text.reserveCapacity(capacity)
    }

    // MARK: Lines

    /// Appends a content line, folded with CRLF + space so no physical line exceeds 75 octets.
    mutating func line(_ content: String) {
        if content.utf8.count <= 75 {
            text += content
            text += "\r\n"
            return
        }
        var used = 0
        for scalar in content.unicodeScalars {
            let width = UTF8.width(scalar)
            if used + width > 75 {
                text += "\r\n "
                used = 1
            }
            text.unicodeScalars.append(scalar)
            used += width
        }
        text += "\r\n"
    }

    /// Appends a 2.1 quoted-printable line: `=XX` for non-ASCII, `=`, controls and line breaks (as `=0D=0A`),
    /// with `=` soft line breaks so no physical line exceeds 76 octets.
    mutating func quotedPrintableLine(_ head: String, _ value: String) {
        text += head
        var used = head.utf8.count
        let bytes = Array(value.utf8)
        for (index, byte) in bytes.enumerated() {
            let token: String
            if byte == 0x0A {
                token = "=0D=0A"
            } else if byte >= 0x80 || byte < 0x20 || byte == 0x3D
                || (byte == 0x20 && (index == bytes.count - 1 || used == 0))
            {
                token = "=" + Digits.hex(UInt64(byte), 2, uppercase: true)
            } else {
                token = String(UnicodeScalar(byte))
            }
            if used + token.utf8.count > 75 {
                text += "=\r\n"
                used = 0
            }
            // A space that would now open a continuation line is encoded, so no reader mistakes it for folding.
            if used == 0 && byte == 0x20 {
                text += "=20"
                used = 3
            } else {
                text += token
                used += token.utf8.count
            }
        }
        text += "\r\n"
    }

    /// A 2.1 property: quoted-printable with CHARSET when the value is not plain one-line ASCII.
    mutating func line21(_ head: String, _ value: String) {
        if Folding.isASCII(value) && !value.utf8.contains(0x0A) {
            line(head + ":" + value)
        } else {
            quotedPrintableLine(head + ";CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:", value)
        }
    }

    // MARK: Values

    /// RFC 6350 text escaping: backslash, comma, semicolon, newline.
    static func escape(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x2C || $0 == 0x3B || $0 == 0x0A }) else { return value }
        var out = ""
        out.reserveCapacity(value.utf8.count + 8)
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// vCard 2.1 escaping as Outlook does it: backslash and semicolon only; commas stay, and line breaks
    /// stay raw for quoted-printable to carry.
    static func escape21(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x3B }) else { return value }
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            default: out.append(character)
            }
        }
        return out
    }

    private func escape(_ value: String, _ shape: Shape) -> String {
        shape == .outlook ? CardWriter.escape21(value) : CardWriter.escape(value)
    }

    private func structured(_ parts: [String], _ shape: Shape) -> String {
        parts.map { escape($0, shape) }.joined(separator: ";")
    }

    /// The number in one of the six national styles, or as a tel: URI for vCard 4.0.
    func format(_ phone: Phone, _ style: Int, uri: Bool) -> String {
        let area = String(phone.area)
        let exchange = String(phone.exchange)
        let line = Digits.padded(phone.line, 4)
        let code = String(countryCode)
        if uri { return "tel:+\(code)-\(area)-\(exchange)-\(line)" }
        switch style {
        case 0: return "+\(code) (\(area)) \(exchange)-\(line)"
        case 1: return "\(area)-\(exchange)-\(line)"
        case 2: return "(\(area)) \(exchange)-\(line)"
        case 3: return "\(area).\(exchange).\(line)"
        case 4: return "+\(code)\(area)\(exchange)\(line)"
        default: return "\(code)-\(area)-\(exchange)-\(line)"
        }
    }

    private func date(_ birthday: Birthday, dashes: Bool) -> String {
        let year = Digits.padded(birthday.year, 4)
        let month = Digits.padded(birthday.month, 2)
        let day = Digits.padded(birthday.day, 2)
        return dashes ? "\(year)-\(month)-\(day)" : year + month + day
    }

    /// The card's birthday in its own format, or else in the client's (`basicDates`).
    private func birthdayText(_ card: CardContent) -> String? {
        guard let birthday = card.birthday else { return nil }
        switch card.birthdayFormat ?? (card.shape.basicDates ? .basic : .extended) {
        case .basic: return date(birthday, dashes: false)
        case .extended: return date(birthday, dashes: true)
        case .noYear: return "--" + Digits.padded(birthday.month, 2) + Digits.padded(birthday.day, 2)
        }
    }

    private func address(_ address: Address, country: String, _ shape: Shape) -> String {
        let (extended, street) = address.inExtended ? (address.street, "") : ("", address.street)
        return structured(["", extended, street, address.city, address.state, address.zip, country], shape)
    }

    // MARK: Cards

    mutating func write(_ card: CardContent) {
        switch card.shape {
        case .apple: writeApple(card)
        case .google: writeGoogle(card)
        case .outlook: writeOutlook(card)
        case .android: writeAndroid(card)
        case .vcard4: writeVCard4(card)
        }
    }

    private func nameValue(_ card: CardContent, middleDot: Bool) -> String {
        let middle = card.middle.isEmpty ? "" : middleDot ? card.middle + "." : card.middle
        return structured([card.family, card.given, middle, card.prefix, card.suffix], card.shape)
    }

    private mutating func writeApple(_ card: CardContent) {
        line("BEGIN:VCARD")
        line("VERSION:3.0")
        line("PRODID:-//Apple Inc.//iPhone OS 17.0//EN")
        line("N:" + nameValue(card, middleDot: true))
        line("FN:" + CardWriter.escape(card.formattedName))
        if let nickname = card.nickname { line("NICKNAME:" + CardWriter.escape(nickname)) }
        if let org = card.org { line("ORG:" + CardWriter.escape(org) + ";") }
        if let title = card.title { line("TITLE:" + CardWriter.escape(title)) }
        var item = 0
        for (index, email) in card.emails.enumerated() {
            let pref = index == 0 ? ";type=pref" : ""
            switch email.kind {
            case .home: line("EMAIL;type=INTERNET;type=HOME\(pref):\(email.address)")
            case .work: line("EMAIL;type=INTERNET;type=WORK\(pref):\(email.address)")
            case .family, .other:
                item += 1
                line("item\(item).EMAIL;type=INTERNET\(pref):\(email.address)")
                line("item\(item).X-ABLabel:" + (email.kind == .family ? "Family" : "_$!<Other>!$_"))
            }
        }
        var seenCell = false
        for phone in card.phones {
            let number = format(phone.number, card.phoneFormat, uri: false)
            switch phone.kind {
            case .cell:
                item += 1
                line("item\(item).TEL;type=CELL\(seenCell ? "" : ";type=pref"):\(number)")
                line("item\(item).X-ABLabel:_$!<Mobile>!$_")
                seenCell = true
            case .home: line("TEL;type=HOME;type=VOICE:\(number)")
            case .work: line("TEL;type=WORK;type=VOICE:\(number)")
            case .other:
                item += 1
                line("item\(item).TEL:\(number)")
                line("item\(item).X-ABLabel:_$!<Other>!$_")
            }
        }
        for (index, entry) in card.addresses.enumerated() {
            item += 1
            let type = entry.kind == .home ? "HOME" : "WORK"
            line(
                "item\(item).ADR;type=\(type)\(index == 0 ? ";type=pref" : ""):"
                    + address(entry.address, country: "United States", .apple))
            line("item\(item).X-ABADR:us")
        }
        if let birthday = birthdayText(card) { line("BDAY;value=date:" + birthday) }
        if let note = card.note { line("NOTE:" + CardWriter.escape(note)) }
        if let uid = card.uid { line("UID:" + uid) }
        line("END:VCARD")
    }

    private mutating func writeGoogle(_ card: CardContent) {
        line("BEGIN:VCARD")
        line("VERSION:3.0")
        line("FN:" + CardWriter.escape(card.formattedName))
        line("N:" + nameValue(card, middleDot: false))
        if let nickname = card.nickname { line("NICKNAME:" + CardWriter.escape(nickname)) }
        var item = 0
        for email in card.emails {
            switch email.kind {
            case .home: line("EMAIL;TYPE=INTERNET;TYPE=HOME:\(email.address)")
            case .work: line("EMAIL;TYPE=INTERNET;TYPE=WORK:\(email.address)")
            case .family:
                item += 1
                line("item\(item).EMAIL;TYPE=INTERNET:\(email.address)")
                line("item\(item).X-ABLabel:Family")
            case .other: line("EMAIL;TYPE=INTERNET:\(email.address)")
            }
        }
        for phone in card.phones {
            let number = format(phone.number, card.phoneFormat, uri: false)
            switch phone.kind {
            case .cell: line("TEL;TYPE=CELL:\(number)")
            case .home: line("TEL;TYPE=HOME:\(number)")
            case .work: line("TEL;TYPE=WORK:\(number)")
            case .other: line("TEL:\(number)")
            }
        }
        for entry in card.addresses {
            line("ADR;TYPE=\(entry.kind == .home ? "HOME" : "WORK"):" + address(entry.address, country: "US", .google))
        }
        if let org = card.org { line("ORG:" + CardWriter.escape(org)) }
        if let title = card.title { line("TITLE:" + CardWriter.escape(title)) }
        if let birthday = birthdayText(card) { line("BDAY:" + birthday) }
        if let note = card.note { line("NOTE:" + CardWriter.escape(note)) }
        if !card.categories.isEmpty {
            line("CATEGORIES:" + card.categories.map(CardWriter.escape).joined(separator: ","))
        }
        line("END:VCARD")
    }

    private mutating func writeOutlook(_ card: CardContent) {
        line("BEGIN:VCARD")
        line("VERSION:2.1")
        let name = nameValue(card, middleDot: true)
        if Folding.isASCII(name) && card.style & 1 == 0 {
            line("N;LANGUAGE=en-us:" + name)
        } else {
            line21("N", name)
        }
        line21("FN", CardWriter.escape21(card.formattedName))
        if let org = card.org { line21("ORG", CardWriter.escape21(org)) }
        if let title = card.title { line21("TITLE", CardWriter.escape21(title)) }
        if let note = card.note { line21("NOTE", CardWriter.escape21(note)) }
        for phone in card.phones {
            let number = format(phone.number, card.phoneFormat, uri: false)
            switch phone.kind {
            case .cell: line("TEL;CELL;VOICE:\(number)")
            case .home: line("TEL;HOME;VOICE:\(number)")
            case .work: line("TEL;WORK;VOICE:\(number)")
            case .other: line("TEL;VOICE:\(number)")
            }
        }
        for (index, entry) in card.addresses.enumerated() {
            let head = "ADR;\(entry.kind == .home ? "HOME" : "WORK")\(index == 0 ? ";PREF" : "")"
            line21(head, address(entry.address, country: "United States of America", .outlook))
        }
        for (index, email) in card.emails.enumerated() {
            line("EMAIL;\(index == 0 ? "PREF;" : "")INTERNET:\(email.address)")
        }
        if let birthday = birthdayText(card) { line("BDAY:" + birthday) }
        if !card.categories.isEmpty { line21("CATEGORIES", card.categories.joined(separator: ",")) }
        if let revision = card.revision { line("REV:" + revision) }
        line("END:VCARD")
    }

    private mutating func writeAndroid(_ card: CardContent) {
        line("BEGIN:VCARD")
        line("VERSION:3.0")
        line("N:" + nameValue(card, middleDot: false))
        line("FN:" + CardWriter.escape(card.formattedName))
        if let nickname = card.nickname {
            line("X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;" + CardWriter.escape(nickname) + ";1;;;;;;;;;;;;;")
        }
        for phone in card.phones {
            let number = format(phone.number, card.phoneFormat, uri: false)
            switch phone.kind {
            case .cell: line("TEL;TYPE=CELL:\(number)")
            case .home: line("TEL;TYPE=HOME:\(number)")
            case .work: line("TEL;TYPE=WORK:\(number)")
            case .other: line("TEL;TYPE=VOICE:\(number)")
            }
        }
        for email in card.emails {
            switch email.kind {
            case .home, .family: line("EMAIL;TYPE=HOME:\(email.address)")
            case .work: line("EMAIL;TYPE=WORK:\(email.address)")
            case .other: line("EMAIL:\(email.address)")
            }
        }
        if let org = card.org { line("ORG:" + CardWriter.escape(org)) }
        if let title = card.title { line("TITLE:" + CardWriter.escape(title)) }
        for entry in card.addresses {
            line("ADR;TYPE=\(entry.kind == .home ? "HOME" : "WORK"):" + address(entry.address, country: "", .android))
        }
        if let birthday = birthdayText(card) { line("BDAY:" + birthday) }
        if let note = card.note { line("NOTE:" + CardWriter.escape(note)) }
        if !card.categories.isEmpty {
            line("CATEGORIES:" + card.categories.map(CardWriter.escape).joined(separator: ","))
        }
        line("END:VCARD")
    }

    private mutating func writeVCard4(_ card: CardContent) {
        line("BEGIN:VCARD")
        line("VERSION:4.0")
        line("PRODID:-//Sabre//Sabre VObject 4.5.4//EN")
        if let uid = card.uid { line("UID:" + uid) }
        line("FN:" + CardWriter.escape(card.formattedName))
        if card.includeN { line("N:" + nameValue(card, middleDot: false)) }
        if let nickname = card.nickname { line("NICKNAME:" + CardWriter.escape(nickname)) }
        for (index, email) in card.emails.enumerated() {
            let pref = index == 0 ? ";PREF=1" : ""
            switch email.kind {
            case .home, .family: line("EMAIL;TYPE=home\(pref):\(email.address)")
            case .work: line("EMAIL;TYPE=work\(pref):\(email.address)")
            case .other: line("EMAIL\(pref):\(email.address)")
            }
        }
        for phone in card.phones {
            let number = format(phone.number, card.phoneFormat, uri: true)
            switch phone.kind {
            case .cell: line("TEL;VALUE=uri;TYPE=cell:\(number)")
            case .home: line("TEL;VALUE=uri;TYPE=\"voice,home\":\(number)")
            case .work: line("TEL;VALUE=uri;TYPE=\"voice,work\":\(number)")
            case .other: line("TEL;VALUE=uri;TYPE=voice:\(number)")
            }
        }
        for entry in card.addresses {
            line("ADR;TYPE=\(entry.kind == .home ? "home" : "work"):" + address(entry.address, country: "USA", .vcard4))
        }
        if let org = card.org { line("ORG:" + CardWriter.escape(org)) }
        if let title = card.title { line("TITLE:" + CardWriter.escape(title)) }
        if let birthday = birthdayText(card) { line("BDAY:" + birthday) }
        if let note = card.note { line("NOTE:" + CardWriter.escape(note)) }
        if !card.categories.isEmpty {
            line("CATEGORIES:" + card.categories.map(CardWriter.escape).joined(separator: ","))
        }
        if let revision = card.revision { line("REV:" + revision) }
        line("END:VCARD")
    }
}
