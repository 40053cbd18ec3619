import ContactModel

/// One thing a card writes that fitting can leave out: a property, or the custom label of one.
struct CardItem: Hashable {
    /// The multi-valued fields whose values carry a label.
    enum LabeledField: Hashable {
        case phone, email, address, url, impp, social
    }

    /// Where the item lives in a `Contact`.
    enum Location: Hashable {
        case formattedName, name, nicknames, organization, title, role
        case value(LabeledField, Int)
        case label(LabeledField, Int)
        case birthday, anniversary, note, categories, uid, revision
        case extensionProperty(Int)
    }

    var location: Location
    /// The property name as written (`TEL`, `X-ABDATE`); `X-ABLabel` for a label.
    var property: String
    /// nil for what is never dropped.
    var tier: QRDropTier?
    /// The position in the written card, so a tier keeps the card's own order.
    var position: Int
    /// At most the bytes the item adds to the written card: its value, a colon and CRLF, and the property name
    /// where the model fixes it. Groups, parameters and escapes only add to that, so the fitter can pass over
    /// an item longer than the room left without writing the card again.
    var minimumBytes: Int
    /// Whether every value of the item is empty (`NICKNAME:`, `TEL;TYPE=fax:`).
    var isEmpty: Bool

    /// The value a label belongs to.
    var owner: Location? {
        if case .label(let field, let index) = location { return .value(field, index) }
        return nil
    }
}

extension Contact {
    /// Every item of the card in the order `VCardWriter` writes them (its scribes' order, then extensions),
    /// each with its tier. The photo is not listed: it never goes into a QR code.
    var qrItems: [CardItem] {
        var items: [CardItem] = []
        var ordinals: [String: Int] = [:]
        /// `values` are the item's text parts; `named` when the written name is the property's own.
        func add(_ location: CardItem.Location, _ property: String, _ values: [String], named: Bool = true) {
            let ordinal = ordinals[property, default: 0]
            ordinals[property] = ordinal + 1
            items.append(
                CardItem(
                    location: location, property: property,
                    tier: QRDropTier.of(property: property, ordinal: ordinal), position: items.count,
                    minimumBytes: Self.minimumBytes(named ? property : "", values),
                    isEmpty: values.allSatisfy(\.isEmpty)))
        }
        func addLabel(_ label: String?, _ field: CardItem.LabeledField, _ index: Int) {
            guard let label else { return }
            items.append(
                CardItem(
                    location: .label(field, index), property: "X-ABLabel", tier: .labels, position: items.count,
                    minimumBytes: Self.minimumBytes("X-ABLabel", [label]), isEmpty: label.isEmpty))
        }
        func addValues(_ values: [LabeledValue], _ field: CardItem.LabeledField, _ property: String) {
            for (index, value) in values.enumerated() {
                add(.value(field, index), property, [value.value])
                addLabel(value.label, field, index)
            }
        }
        if let formattedName { add(.formattedName, "FN", [formattedName]) }
        if let name { add(.name, "N", name.family + name.given + name.additional + name.prefixes + name.suffixes) }
        if !nicknames.isEmpty { add(.nicknames, "NICKNAME", nicknames) }
        if let organization { add(.organization, "ORG", [organization.name] + organization.units) }
        if let title { add(.title, "TITLE", [title]) }
        if let role { add(.role, "ROLE", [role]) }
        addValues(phones, .phone, "TEL")
        addValues(emails, .email, "EMAIL")
        for (index, address) in addresses.enumerated() {
            let parts = [
                address.poBox, address.extended, address.street, address.locality, address.region,
                address.postalCode, address.country,
            ]
            add(.value(.address, index), "ADR", parts)
            addLabel(address.label, .address, index)
        }
        addValues(urls, .url, "URL")
        addValues(instantMessaging, .impp, "IMPP")
        addValues(socialProfiles, .social, "X-SOCIALPROFILE")
        if let birthday { add(.birthday, "BDAY", [birthday]) }
        // Written as X-ANNIVERSARY in 3.0: the shorter name keeps the bound a bound.
        if let anniversary { add(.anniversary, "ANNIVERSARY", [anniversary]) }
        if let note { add(.note, "NOTE", [note]) }
        if !categories.isEmpty { add(.categories, "CATEGORIES", categories) }
        if let uid { add(.uid, "UID", [uid]) }
        if let revision { add(.revision, "REV", [revision]) }
        for (index, item) in extensions.enumerated() where item.name.uppercased() != "PHOTO" {
            let name = item.name.uppercased()
            // The writer drops bytes a name cannot hold, and turns a LOGO, SOUND or KEY data: URI into shorter
            // base64: neither the name nor those values bound the written line.
            let binary = ["LOGO", "SOUND", "KEY"].contains(name)
            add(.extensionProperty(index), name, binary ? [] : [item.value], named: false)
            items[items.count - 1].isEmpty = item.value.isEmpty
        }
        return items
    }

    /// The value bytes, the separators between them, the name, a colon and CRLF.
    static func minimumBytes(_ name: String, _ values: [String]) -> Int {
        name.utf8.count + values.reduce(0) { $0 + $1.utf8.count } + max(values.count - 1, 0) + 3
    }

    /// The card with only the items at `kept` (and no photo). Built from the kept items alone, so it costs what
    /// they hold, however many the card has.
    func keeping(_ kept: Set<CardItem.Location>) -> Contact {
        var card = Contact()
        var values: [CardItem.LabeledField: [Int]] = [:]
        var extensionIndices: [Int] = []
        for location in kept {
            switch location {
            case .formattedName: card.formattedName = formattedName
            case .name: card.name = name
            case .nicknames: card.nicknames = nicknames
            case .organization: card.organization = organization
            case .title: card.title = title
            case .role: card.role = role
            case .value(let field, let index): values[field, default: []].append(index)
            case .label: break
            case .birthday: card.birthday = birthday
            case .anniversary: card.anniversary = anniversary
            case .note: card.note = note
            case .categories: card.categories = categories
            case .uid: card.uid = uid
            case .revision: card.revision = revision
            case .extensionProperty(let index): extensionIndices.append(index)
            }
        }
        func pick<T>(_ all: [T], _ field: CardItem.LabeledField, clearLabel: (inout T) -> Void) -> [T] {
            (values[field] ?? []).sorted().map { index in
                var value = all[index]
                if !kept.contains(.label(field, index)) { clearLabel(&value) }
                return value
            }
        }
        card.phones = pick(phones, .phone) { $0.label = nil }
        card.emails = pick(emails, .email) { $0.label = nil }
        card.addresses = pick(addresses, .address) { $0.label = nil }
        card.urls = pick(urls, .url) { $0.label = nil }
        card.instantMessaging = pick(instantMessaging, .impp) { $0.label = nil }
        card.socialProfiles = pick(socialProfiles, .social) { $0.label = nil }
        card.extensions = extensionIndices.sorted().map { extensions[$0] }
        return card
    }
}
