import ContactModel

/// What a preview shows of one card, in the order a receiving app shows it: photo, name, title and company,
/// then nicknames and the phonetic name, phones, emails, addresses (laid out as in their country), links,
/// profiles, related people, dates and the note. Text and HTML both draw from it, so
/// the two never disagree on what a card holds.
public struct CardView: Sendable {
    /// One labelled entry: a phone, an email, an address (several lines), a date, the note.
    public struct Row: Sendable, Equatable {
        /// What the value is, so HTML can link it.
        public enum Kind: Sendable, Equatable {
            case phone, email, url, other
        }

        /// The label as the card gives it (`Mobile`, `work`, `email *` for a preferred one).
        public var label: String
        /// The value's lines; most values have one, addresses and notes may have several.
        public var lines: [String]
        /// What the value is.
        public var kind: Kind
    }

    /// The name to show: FN, else one derived from the name parts, organisation, email or phone.
    public var name: String
    /// Title, role and organisation, each present one once.
    public var headline: [String]
    /// The photo, summarised.
    public var photo: PhotoSummary?
    /// Everything else, in display order.
    public var rows: [Row]

    /// The view of `contact`; `photo` replaces the summary the contact alone can give (it lacks pixel sizes).
    public init(_ contact: Contact, photo: PhotoSummary? = nil) {
        // A name, organisation or title kept with its parameters (`N;LANGUAGE=en-us`) is shown where it belongs.
        let contact = contact.promotingKeptFields()
        let formatted = contact.formattedName.flatMap { $0.isEmpty ? nil : $0 }
        name = formatted ?? contact.derivedDisplayName
        let organization = contact.organization.map {
            ([$0.name] + $0.units).filter { !$0.isEmpty }.joined(separator: ", ")
        }
        headline = [contact.title, contact.role, organization].compactMap { $0 }.filter { !$0.isEmpty }
        self.photo = photo ?? contact.photo.map { PhotoSummary($0) }
        rows = Self.rows(contact)
    }

    private static func rows(_ contact: Contact) -> [Row] {
        var rows: [Row] = []
        let others = OtherFields.fields(contact)
        func append(_ place: OtherFields.Place) {
            for field in others where field.place == place {
                rows.append(
                    Row(
                        label: field.label,
                        lines: field.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                        kind: .other))
            }
        }
        append(.phonetic)
        if !contact.nicknames.isEmpty {
            rows.append(Row(label: "nickname", lines: [contact.nicknames.joined(separator: ", ")], kind: .other))
        }
        append(.name)
        for phone in contact.phones {
            rows.append(Row(label: label(phone, default: "phone"), lines: [phone.value], kind: .phone))
        }
        for email in contact.emails {
            rows.append(
                Row(label: label(email, default: "email", skip: ["internet"]), lines: [email.value], kind: .email))
        }
        for address in contact.addresses {
            rows.append(
                Row(
                    label: (address.label ?? (address.types.first ?? "address")) + (address.pref == 1 ? " *" : ""),
                    lines: AddressLayout.lines(address, in: contact), kind: .other))
        }
        for url in contact.urls { rows.append(Row(label: label(url, default: "url"), lines: [url.value], kind: .url)) }
        for im in contact.instantMessaging {
            // The service an address is on (`X-SERVICE-TYPE=WhatsApp`) names it when no label does.
            let service = im.parameters.first { $0.name.uppercased() == "X-SERVICE-TYPE" }?.values.first
            rows.append(Row(label: label(im, default: service ?? "im"), lines: [im.value], kind: .other))
        }
        for profile in contact.socialProfiles {
            rows.append(Row(label: label(profile, default: "social"), lines: [profile.value], kind: .url))
        }
        append(.person)
        if let birthday = contact.birthday {
            rows.append(Row(label: "birthday", lines: [OtherFields.readableDate(birthday)], kind: .other))
        }
        if let anniversary = contact.anniversary {
            rows.append(Row(label: "anniversary", lines: [OtherFields.readableDate(anniversary)], kind: .other))
        }
        append(.date)
        if !contact.categories.isEmpty {
            rows.append(Row(label: "categories", lines: [contact.categories.joined(separator: ", ")], kind: .other))
        }
        if let note = contact.note {
            rows.append(
                Row(
                    label: "note",
                    lines: note.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                    kind: .other))
        }
        append(.rest)
        return rows
    }

    /// The label an app shows: the free-text label, else the kinds (without the implied `voice`), with a star
    /// for the preferred value.
    private static func label(_ item: LabeledValue, default fallback: String, skip: Set<String> = []) -> String {
        if let label = item.label { return label }
        let types = item.types.filter { !skip.contains($0) && $0 != "voice" }
        let base = types.isEmpty ? fallback : types.joined(separator: ",")
        return item.pref == 1 ? base + " *" : base
    }
}

/// A photo as a preview describes it: its type, pixel size and byte count, or its link.
public struct PhotoSummary: Sendable, Equatable, Codable {
    /// The media type, such as `image/jpeg`, when known.
    public var mediaType: String?
    /// Pixel width as displayed (after EXIF orientation), when the image could be read.
    public var width: Int?
    /// Pixel height as displayed, when the image could be read.
    public var height: Int?
    /// The embedded image's size in bytes.
    public var bytes: Int?
    /// The link, for a photo that is not embedded.
    public var uri: String?

    /// Creates a summary.
    public init(mediaType: String?, width: Int? = nil, height: Int? = nil, bytes: Int? = nil, uri: String? = nil) {
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.bytes = bytes
        self.uri = uri
    }

    /// What the card itself says of its photo, without decoding it.
    public init(_ photo: Photo) {
        self.init(mediaType: photo.mediaType, bytes: photo.data?.count, uri: photo.data == nil ? photo.uri : nil)
    }

    /// `image/jpeg, 64x64, 310 bytes`, or the link.
    public var text: String {
        if let uri { return uri }
        var parts = [mediaType ?? "unknown type"]
        if let width, let height { parts.append("\(width)x\(height)") }
        if let bytes { parts.append("\(bytes) bytes") }
        return parts.joined(separator: ", ")
    }
}
