import CardIdentity
import ContactMatching
import ContactMerge
import ContactModel
import Utilities
import VCardFormat
import VCardSyntax

/// An address book kept card by card, read for a merge: every item's cards with their match keys, so the
/// merge engine sees it as it sees a file (`existingCards`), and each card's place (item and line) for reports
/// and for writing back only the items that change.
public final class StoredBook: @unchecked Sendable {
    /// One card of the book.
    public struct Card: Sendable {
        /// The item that holds it.
        public var item: Int
        /// Its place among the item's cards.
        public var index: Int
        /// Its BEGIN:VCARD line in the item.
        public var beginLine: Int
        /// What identifies the person.
        public var keys: MatchKeys
        /// Its name as reports show it.
        public var displayName: String
        /// Its UID, if any.
        public var uid: String?
    }

    /// The store it was read from.
    public let store: any CardStore
    /// The items, in the store's order.
    public private(set) var items: [StoredItem]
    /// The cards, item by item.
    public private(set) var cards: [Card]
    /// The country code national numbers in the keys were read with.
    public let countryCode: Int?
    /// Items that could not be read: they are left as they are and take no part in the merge.
    public private(set) var unreadable: [(item: Int, diagnostics: [Diagnostic])]
    private var parsed: [ParsedItem?]

    /// Reads every item of `store` (on several threads), reading national phone numbers with `countryCode` or,
    /// when nil, with the code most of the book's international numbers use.
    /// - Throws: what the store throws when it cannot be read.
    public init(store: any CardStore, countryCode: Int?) throws {
        self.store = store
        let items = try store.load()
        self.items = items
        // Each item's cards are read and given their keys on every processor; only the keys and where each card
        // is are kept (each card read whole, with its lexed lines, held about 14 KB a card of a folder).
        let read = Concurrently.map(items, chunk: 64) { item -> (ParsedItem, [Card])? in
            guard let (parsedItem, raws) = ParsedItem.reading(item) else { return nil }
            guard parsedItem.errors.isEmpty else { return (parsedItem, []) }
            let cards = raws.indices.map { index in
                let identity = VCardReader.identity(from: raws[index])
                return Card(
                    item: 0, index: index, beginLine: raws[index].beginLine,
                    keys: MatchKeys(identity, countryCode: countryCode),
                    displayName: AddressBookMerge.displayName(identity), uid: identity.uid)
            }
            return (parsedItem, cards)
        }
        parsed = read.map { $0?.0 }
        var cards: [Card] = []
        var unreadable: [(Int, [Diagnostic])] = []
        for (itemIndex, entry) in read.enumerated() {
            guard let (parsedItem, itemCards) = entry, parsedItem.errors.isEmpty else {
                var found = entry?.0.errors ?? []
                for i in found.indices { found[i].file = items[itemIndex].location }
                unreadable.append((itemIndex, found))
                continue
            }
            for var card in itemCards {
                card.item = itemIndex
                cards.append(card)
            }
        }
        if countryCode == nil {
            // The keys were made here and no other thread holds them yet.
            self.countryCode = MatchKeys.resolvePrevailingCountryCode(inPlace: cards.map(\.keys))
        } else {
            self.countryCode = countryCode
        }
        self.cards = cards
        self.unreadable = unreadable
    }

    /// The cards for the merge engine: keys in memory, whole cards read when needed.
    public var existingCards: ExistingCards {
        let book = self
        return ExistingCards(
            keys: cards.map(\.keys), names: cards.map(\.displayName), countryCode: countryCode,
            card: { book.contact(at: $0) })
    }

    /// The whole card at `position`.
    public func contact(at position: Int) -> Contact {
        let card = cards[position]
        return parsed[card.item]!.contact(at: card.index)
    }

    /// `file:line` of the card at `position`.
    public func location(of position: Int) -> String {
        "\(items[cards[position].item].location):\(cards[position].beginLine)"
    }

    /// The BEGIN:VCARD line of each card (for a report that takes lines).
    public var lines: [Int] { cards.map(\.beginLine) }

    /// The incoming cards, each one without a UID given the UID a card of this book has when that UID was made
    /// from the same content (`convert --ensure-uid` or an earlier merge gave it): the card is then found by its
    /// UID, whatever the server or the writer changed in its spelling (a second N written as X-N, an older REV
    /// left out), so merging an export again into what it was uploaded to adds no second card.
    public func recognisingContentUIDs(_ incoming: [IncomingCard]) -> [IncomingCard] {
        let held = Set(cards.compactMap { $0.uid.flatMap(MatchKeys.uidKey) })
        guard !held.isEmpty else { return incoming }
        return incoming.map { card in
            guard card.contact.uid?.contains(where: { !$0.isWhitespace }) != true else { return card }
            var fresh = ContentUIDs()
            let uid = fresh.uid(for: card.contact)
            guard let key = MatchKeys.uidKey(uid), held.contains(key) else { return card }
            var copy = card
            copy.contact.uid = uid
            return copy
        }
    }

    /// Every UID the book holds, unreadable items' included (so no new card takes one).
    public var uids: Set<String> {
        var all = Set(cards.compactMap(\.uid))
        for (item, _) in unreadable {
            for line in String(decoding: items[item].bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            where line.uppercased().hasPrefix("UID:") {
                all.insert(String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces))
            }
        }
        return all
    }

    /// The version new cards are written in: the one most of the book's cards have (4.0 only where the store
    /// takes it), else the store's default.
    public var versionForNewCards: VCardVersion {
        if let newCardVersion { return newCardVersion }
        var four = 0
        for card in cards where parsed[card.item]?.versions[card.index] == .v4_0 { four += 1 }
        let version =
            store.accepts4 && !cards.isEmpty && four * 2 > cards.count ? VCardVersion.v4_0 : store.defaultVersion
        newCardVersion = version
        return version
    }

    /// `versionForNewCards` once worked out, until an item is read again: a merge asks for it for each card it
    /// adds, and working it out reads every card's version (2,000 cards merged into a folder of 10,000 took
    /// 1.7 s on one core, nearly all of it here).
    private var newCardVersion: VCardVersion?

    /// Item `item` written again with the cards at `replaced` (by index in the item) rewritten and those at
    /// `removed` taken out; every other byte as it was.
    func rendered(item: Int, replacing replaced: [Int: Contact], removing removed: Set<Int>) -> [UInt8] {
        parsed[item]!.rendered(replacing: replaced, removing: removed)
    }

    /// Parses `item` the same way a read of the book does.
    static func parse(_ item: StoredItem) -> ParsedItem? { ParsedItem(item) }

    /// Replaces the record of item `index` after it was read again (a conflict).
    func update(item index: Int, with item: StoredItem) {
        items[index] = item
        parsed[index] = ParsedItem(item)
        newCardVersion = nil
    }
}

/// One item's cards, as read: where each is in the item's bytes, each read again in full only when a merge
/// needs it.
struct ParsedItem: Sendable {
    let bytes: [UInt8]
    /// Each card's bytes in `bytes`.
    let ranges: [Range<Int>]
    let versions: [VCardVersion]
    let errors: [Diagnostic]
    let lineEnding: [UInt8]

    init?(_ item: StoredItem) {
        guard let (parsed, _) = Self.reading(item) else { return nil }
        self = parsed
    }

    private init(
        bytes: [UInt8], ranges: [Range<Int>], versions: [VCardVersion], errors: [Diagnostic], lineEnding: [UInt8]
    ) {
        self.bytes = bytes
        self.ranges = ranges
        self.versions = versions
        self.errors = errors
        self.lineEnding = lineEnding
    }

    /// The item read, with its cards' lexed lines (for a caller that reads them now and lets them go).
    static func reading(_ item: StoredItem) -> (ParsedItem, [RawCard])? {
        let bytes = item.bytes
        let firstLF = bytes.firstIndex(of: 0x0A)
        let lineEnding: [UInt8] = firstLF.map { $0 > 0 && bytes[$0 - 1] == 0x0D } ?? true ? [0x0D, 0x0A] : [0x0A]
        if bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)) {
            let error = Diagnostic(.error, "utf16", "the file is UTF-16; convert it to UTF-8 first", line: 1)
            return (
                ParsedItem(bytes: bytes, ranges: [], versions: [], errors: [error], lineEnding: [0x0D, 0x0A]), []
            )
        }
        let (raws, diagnostics) = VCardLexer.parse(bytes)
        let versions = raws.map { raw -> VCardVersion in
            raw.withView { view in
                for i in 0..<view.count where view[i].nameIs("VERSION") {
                    return VCardVersion(versionValue: view[i].value) == .v4_0 ? .v4_0 : .v3_0
                }
                return .v3_0
            }
        }
        var errors = diagnostics.filter { $0.severity == .error }
        if raws.isEmpty { errors.append(Diagnostic(.error, "no-cards", "the file holds no card", line: 1)) }
        let parsed = ParsedItem(
            bytes: bytes, ranges: raws.map(\.byteRange), versions: versions, errors: errors, lineEnding: lineEnding)
        return (parsed, raws)
    }

    /// The identity of each card (what matching reads), read again.
    var identities: [Contact] { VCardLexer.parse(bytes).cards.map(VCardReader.identity(from:)) }

    /// Every card, read again whole.
    var contacts: [Contact] { VCardLexer.parse(bytes).cards.map { VCardReader.contact(from: $0).contact } }

    /// The card at `index`, read again from its bytes: read alone, with no evidence from the rest of the item, as
    /// the item's own read decided each card's charset.
    func contact(at index: Int) -> Contact {
        VCardDocument.read(Array(bytes[ranges[index]]), evidence: nil).cards.first?.contact ?? Contact()
    }

    func rendered(replacing replaced: [Int: Contact], removing removed: Set<Int>) -> [UInt8] {
        var out: [UInt8] = []
        var copied = 0
        for index in Set(replaced.keys).union(removed).sorted() {
            let range = ranges[index]
            out += bytes[copied..<range.lowerBound]
            if !removed.contains(index), let card = replaced[index] {
                out += written(card, version: versions[index])
            }
            copied = range.upperBound
        }
        out += bytes[copied...]
        return out
    }

    /// `card` written in `version` with this item's line ending.
    func written(_ card: Contact, version: VCardVersion) -> [UInt8] {
        Self.written(card, version: version, lineEnding: lineEnding)
    }

    static func written(_ card: Contact, version: VCardVersion, lineEnding: [UInt8] = [0x0D, 0x0A]) -> [UInt8] {
        var out: [UInt8] = []
        VCardWriter(version: version).write(card, into: &out)
        guard lineEnding == [0x0A] else { return out }
        var lf: [UInt8] = []
        lf.reserveCapacity(out.count)
        for (i, b) in out.enumerated() where !(b == 0x0D && i + 1 < out.count && out[i + 1] == 0x0A) { lf.append(b) }
        return lf
    }
}
