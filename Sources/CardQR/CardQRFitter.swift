import ContactModel
import QRCode
import VCardFormat

/// Fits a card into a QR code that phones scan reliably: vCard 3.0 text from `VCardWriter`, unfolded, without
/// the photo; when that is too large for `maxVersion` at `level`, the fields never dropped (`QRDropTier`) are
/// kept and every other field, from the most important tier to the least, is kept if it still fits.
public struct CardQRFitter: Sendable {
    /// The largest version allowed: 20 (97 x 97 modules) by default, about the densest a phone camera reads
    /// quickly from a screen or a printed card.
    public var maxVersion: Int
    /// The error correction level: M (15%) by default.
    public var level: ErrorCorrection

    /// Creates a fitter; `maxVersion` is clamped to 1...40.
    public init(maxVersion: Int = 20, level: ErrorCorrection = .medium) {
        self.maxVersion = min(max(maxVersion, 1), 40)
        self.level = level
    }

    /// The card fitted and encoded.
    /// - Throws: `CardQRError` `.nothingToShare` when nothing but the photo, labels, UID, REV and the like has a
    ///   value;
    ///   `.doesNotFit` when even the fields never dropped are too large; `.encoder` when libqrencode fails.
    public func fit(_ contact: Contact) throws(CardQRError) -> CardQRFit {
        var base = contact
        base.photo = nil
        base.extensions.removeAll { $0.name.uppercased() == "PHOTO" }
        let photoDropped = contact.photo != nil || base.extensions.count != contact.extensions.count
        let hasRawFN = base.extensions.contains { $0.name.uppercased() == "FN" }
        if base.formattedName == nil && !hasRawFN {
            // The name the writer would make up, fixed now, so dropping ORG cannot change it.
            base.formattedName = base.derivedDisplayName
        }
        let items = base.qrItems
        // An empty FN is left as written (exporters write `FN:` beside an N or ORG, and phones then show
        // those). A card is refused only when nothing with a value is left but labels, bookkeeping (UID,
        // REV) and media: a code that adds an empty contact helps nobody.
        let shareable: Set<QRDropTier?> = Set(QRDropTier.allCases).subtracting([.labels, .metadata, .binary])
            .union([nil])
        guard items.contains(where: { !$0.isEmpty && shareable.contains($0.tier) }) else {
            throw CardQRError.nothingToShare(photoOnly: contact.photo != nil)
        }
        let capacity = QRCapacity(maxVersion: maxVersion, level: level)
        let full = Self.text(of: base)
        if capacity.holds(full) {
            return try finish(base, text: full, capacity: capacity, kept: nil, items: items, photo: photoDropped)
        }
        var kept = Set(items.filter { $0.tier == nil }.map(\.location))
        var text = Self.text(of: base.keeping(kept))
        guard capacity.holds(text) else {
            throw doesNotFit(base, core: kept, items: items, capacity: capacity)
        }
        // Most important first; within a tier, as the card writes them. A label waits for its value: one whose
        // value is not kept by the labels' turn stays out.
        let droppable = items.filter { $0.tier != nil }.sorted { ($0.tier!, $0.position) < ($1.tier!, $1.position) }
        for item in droppable {
            // ASCII text has the larger capacity, so this room is the most any candidate can have.
            let room = capacity.asciiBytes - text.count
            // No property line is shorter than four bytes (`N:` and CRLF): nothing more can fit.
            if room < 4 { break }
            if item.minimumBytes > room { continue }
            if let owner = item.owner, !kept.contains(owner) { continue }
            var with = kept
            with.insert(item.location)
            let candidate = Self.text(of: base.keeping(with))
            if capacity.holds(candidate) {
                kept = with
                text = candidate
            }
        }
        return try finish(
            base.keeping(kept), text: text, capacity: capacity, kept: kept, items: items, photo: photoDropped)
    }

    /// `kept` is nil when nothing was dropped but the photo.
    private func finish(
        _ card: Contact, text: [UInt8], capacity: QRCapacity, kept: Set<CardItem.Location>?, items: [CardItem],
        photo: Bool
    ) throws(CardQRError) -> CardQRFit {
        let code: QRCode
        do { code = try QRCode(utf8: text, level: level) } catch { throw .encoder(error) }
        // The capacity came from the same encoder, so this holds; checked so a mismatch can never go out.
        guard code.version <= maxVersion else {
            throw .encoder(QRCodeError(code: .failed, message: "version \(code.version) made for \(maxVersion)"))
        }
        return CardQRFit(
            contact: card, text: text, code: code, capacity: capacity.bytes(for: text),
            dropped: Self.report(kept: kept, items: items, photo: photo), kept: kept)
    }

    /// What was left out, grouped by the name a person is shown, in tier order (most important first).
    static func report(kept: Set<CardItem.Location>?, items: [CardItem], photo: Bool) -> [DroppedField] {
        var result: [DroppedField] = photo ? [DroppedField(name: "PHOTO", count: 1, total: 1, tier: nil)] : []
        guard let kept else { return result }
        let sorted = items.filter { $0.tier != nil }.sorted { ($0.tier!, $0.position) < ($1.tier!, $1.position) }
        for item in sorted where !kept.contains(item.location) {
            // A label dropped with its value is not worth a mention.
            if let owner = item.owner, !kept.contains(owner) { continue }
            let name = DroppedField.shownName(item.property)
            if let index = result.firstIndex(where: { $0.name == name }) {
                result[index].count += 1
            } else {
                let total = items.filter { DroppedField.shownName($0.property) == name }.count
                result.append(DroppedField(name: name, count: 1, total: total, tier: item.tier))
            }
        }
        return result
    }

    /// Why the fields never dropped do not fit, and what would have to go for them to.
    private func doesNotFit(
        _ base: Contact, core: Set<CardItem.Location>, items: [CardItem], capacity: QRCapacity
    ) -> CardQRError {
        let coreText = Self.text(of: base.keeping(core))
        // Least important of the protected fields first; FN is always written, so it cannot go.
        let order: [(property: String, shown: String)] = [
            ("EMAIL", "the first EMAIL"), ("TEL", "the first TEL"), ("N", "N"),
        ]
        var wouldHaveToGo: [String] = []
        var left = core
        var fitsWithout = false
        for (property, shown) in order {
            guard let item = items.first(where: { $0.tier == nil && $0.property == property }) else { continue }
            wouldHaveToGo.append(shown)
            left.remove(item.location)
            if capacity.holds(Self.text(of: base.keeping(left))) {
                fitsWithout = true
                break
            }
        }
        let needed = (try? QRCode(utf8: coreText, level: level))?.version
        let atLevelL = level == .low ? false : QRCapacity(maxVersion: maxVersion, level: .low).holds(coreText)
        return CardQRError(
            code: .doesNotFit, coreBytes: coreText.count, capacity: capacity.bytes(for: coreText),
            maxVersion: maxVersion, level: level, wouldHaveToGo: fitsWithout ? wouldHaveToGo : nil,
            smallestVersion: needed, fitsAtLevelL: atLevelL)
    }

    /// The card as vCard 3.0 with its long lines unfolded.
    ///
    /// Unfolded because a QR code has no 75-octet line limit to meet: the folds would cost three bytes each,
    /// and an unfolded line is what every reader handles (RFC 6350 3.2 only says lines SHOULD be folded, and
    /// readers must unfold before anything else). `VCardWriter` ends lines only with CRLF and writes every
    /// line break inside a value as `\n`, so a CRLF followed by a space is always one of its folds.
    static func text(of card: Contact) -> [UInt8] {
        let folded = VCardWriter(version: .v3_0).bytes([card])
        var out: [UInt8] = []
        out.reserveCapacity(folded.count)
        var index = 0
        while index < folded.count {
            if folded[index] == 0x0D, index + 2 < folded.count, folded[index + 1] == 0x0A, folded[index + 2] == 0x20 {
                index += 3
                continue
            }
            out.append(folded[index])
            index += 1
        }
        return out
    }
}

/// A card fitted into a QR code.
public struct CardQRFit: Sendable {
    /// The card as encoded: without its photo and without the dropped fields.
    public var contact: Contact
    /// The vCard 3.0 text in the code, unfolded, CRLF line ends.
    public var text: [UInt8]
    /// The QR code.
    public var code: QRCode
    /// Bytes the allowed versions hold for text like this one (less for UTF-8, which needs a designator).
    public var capacity: Int
    /// What was left out, the photo first, then by tier.
    public var dropped: [DroppedField]
    /// The items kept when some were dropped, for tests that check the choice.
    var kept: Set<CardItem.Location>?
}

/// Fields of one kind left out of a card.
public struct DroppedField: Hashable, Sendable, CustomStringConvertible {
    /// The property name (`NOTE`, `ADR`), or `X- property`, `other property` or `X-ABLabel`: names written in the
    /// card are not repeated, since they are the card's data.
    public var name: String
    /// How many were left out.
    public var count: Int
    /// How many the card had.
    public var total: Int
    /// The tier; nil for the photo, which is always left out.
    public var tier: QRDropTier?

    /// `NOTE`, `2 of 3 ADR`, `4 X- properties`.
    public var description: String {
        let plural = count == 1 ? name : name.replacingSuffix("property", with: "properties")
        if total <= 1 { return plural }
        return count == total ? "\(count) \(plural)" : "\(count) of \(total) \(plural)"
    }

    /// Names from the vCard RFCs and the vendor properties this module knows by name; anything else is shown as
    /// a kind, so a name from the card never reaches the terminal.
    static let knownNames: Set<String> = [
        "FN", "N", "NICKNAME", "BDAY", "ANNIVERSARY", "X-ANNIVERSARY", "ADR", "LABEL", "TEL", "EMAIL", "MAILER",
        "TZ", "GEO", "TITLE", "ROLE", "LOGO", "AGENT", "ORG", "CATEGORIES", "NOTE", "PRODID", "REV", "SORT-STRING",
        "SOUND", "UID", "URL", "CLASS", "KEY", "NAME", "PROFILE", "SOURCE", "IMPP", "KIND", "GENDER", "LANG",
        "RELATED", "MEMBER", "XML", "FBURL", "CALADRURI", "CALURI", "CLIENTPIDMAP", "BIRTHPLACE", "DEATHPLACE",
        "DEATHDATE", "EXPERTISE", "HOBBY", "INTEREST", "ORG-DIRECTORY", "X-SOCIALPROFILE", "X-ABLabel",
    ]

    static func shownName(_ property: String) -> String {
        if knownNames.contains(property) { return property }
        return property.hasPrefix("X-") ? "X- property" : "other property"
    }
}

extension String {
    fileprivate func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}

/// Why a card cannot be shared as a QR code.
public struct CardQRError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, for callers that branch on it.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Too large even with only the fields never dropped.
        public static let doesNotFit = Code(rawValue: "does-not-fit")
        /// Nothing with a value but the photo, labels, bookkeeping (UID, REV) or media.
        public static let nothingToShare = Code(rawValue: "nothing-to-share")
        /// libqrencode failed.
        public static let encoder = Code(rawValue: "encoder")
    }

    /// The kind of failure.
    public var code: Code
    /// For `.doesNotFit`: the bytes of the card with only the fields never dropped.
    public var coreBytes = 0
    /// For `.doesNotFit`: the bytes the allowed versions hold for that text.
    public var capacity = 0
    /// The largest version that was allowed.
    public var maxVersion = 0
    /// The level that was asked for.
    public var level = ErrorCorrection.medium
    /// For `.doesNotFit`: the protected fields whose loss would make it fit (`the first EMAIL`), least important
    /// first; nil when even FN alone is too large.
    public var wouldHaveToGo: [String]?
    /// For `.doesNotFit`: the smallest version holding the card at `level`, nil when none does.
    public var smallestVersion: Int?
    /// For `.doesNotFit`: whether level L would hold it at `maxVersion`.
    public var fitsAtLevelL = false
    /// For `.nothingToShare`: whether the card held a photo.
    public var photoOnly = false
    /// For `.encoder`: the encoder's error.
    public var encoderError: QRCodeError?

    static func nothingToShare(photoOnly: Bool) -> CardQRError {
        var error = CardQRError(code: .nothingToShare)
        error.photoOnly = photoOnly
        return error
    }

    static func encoder(_ error: QRCodeError) -> CardQRError {
        var result = CardQRError(code: .encoder)
        result.encoderError = error
        return result
    }

    public var description: String {
        switch code {
        case .nothingToShare:
            return photoOnly
                ? "the card holds nothing to share but a photo, which a QR code cannot carry"
                : "the card holds nothing to share: every field is empty, or only UID, REV or media"
        case .doesNotFit:
            var text =
                "the card takes \(coreBytes) bytes even with only its name, first phone and first email, but a QR code"
                + " of version \(maxVersion) at level \(level) holds \(capacity)"
            if let wouldHaveToGo {
                text += "; it would fit only without \(wouldHaveToGo.joined(separator: " and ")), which vcf never drops"
            }
            return text
        default:
            return "the QR encoder failed: \(encoderError?.message ?? "unknown error")"
        }
    }
}
