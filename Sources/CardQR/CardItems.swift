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
        func add(_ location: CardItem.Location, _ property: String) {
            let ordinal = ordinals[property, default: 0]
            ordinals[property] = ordinal + 1
            items.append(
                CardItem(
                    location: location, property: property,
                    tier: QRDropTier.of(property: property, ordinal: ordinal), position: items.count))
        }
        func addValues(_ values: [LabeledValue], _ field: CardItem.LabeledField, _ property: String) {
            for (index, value) in values.enumerated() {
                add(.value(field, index), property)
                if value.label != nil {
                    items.append(
                        CardItem(
                            location: .label(field, index), property: "X-ABLabel", tier: .labels,
                            position: items.count))
                }
            }
        }
        if formattedName != nil { add(.formattedName, "FN") }
        if name != nil { add(.name, "N") }
        if !nicknames.isEmpty { add(.nicknames, "NICKNAME") }
        if organization != nil { add(.organization, "ORG") }
        if title != nil { add(.title, "TITLE") }
        if role != nil { add(.role, "ROLE") }
        addValues(phones, .phone, "TEL")
        addValues(emails, .email, "EMAIL")
        for (index, address) in addresses.enumerated() {
            add(.value(.address, index), "ADR")
            if address.label != nil {
                items.append(
                    CardItem(
                        location: .label(.address, index), property: "X-ABLabel", tier: .labels,
                        position: items.count))
            }
        }
        addValues(urls, .url, "URL")
        addValues(instantMessaging, .impp, "IMPP")
        addValues(socialProfiles, .social, "X-SOCIALPROFILE")
        if birthday != nil { add(.birthday, "BDAY") }
        if anniversary != nil { add(.anniversary, "ANNIVERSARY") }
        if note != nil { add(.note, "NOTE") }
        if !categories.isEmpty { add(.categories, "CATEGORIES") }
        if uid != nil { add(.uid, "UID") }
        if revision != nil { add(.revision, "REV") }
        for (index, item) in extensions.enumerated() where item.name.uppercased() != "PHOTO" {
            add(.extensionProperty(index), item.name.uppercased())
        }
        return items
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
