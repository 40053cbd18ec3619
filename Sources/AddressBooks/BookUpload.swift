import CardIdentity
import ContactMerge
import ContactModel
import VCardFormat

/// Adds cards to a stored book as they are (`vcf convert ... --to-vdir DIR`, `vcf convert ... -o URL`): each
/// card becomes a new item named from its UID, never over an item there. A card whose UID the book already
/// holds is left alone: it is already there when that card holds everything it has (so converting and uploading
/// the same export again adds nothing), and reported as differing otherwise (`vcf merge` is the command that
/// merges; some servers also rewrite what they store, which shows here).
public struct BookUpload {
    /// What became of the cards.
    public struct Report: Sendable {
        /// New items, by location.
        public var created: [String] = []
        /// Cards already there, by where they came from.
        public var unchanged: [String] = []
        /// Cards whose UID is there on a card that lacks some of their data (changed there since, or rewritten
        /// by the server when it stored it): left as they are, by where they came from and name.
        public var differing: [(source: String, name: String)] = []
        /// Cards not written: where they came from, their name, and why.
        public var refused: [(source: String, name: String, reason: String)] = []
        /// How many writes the store made.
        public var writes = 0
    }

    /// The book written to.
    public let book: StoredBook
    /// Where the card first seen with each UID is, so a card given again is compared with it and not stored twice.
    private var byUID: [String: Holder] = [:]
    private var takenNames: Set<String>
    private let merger: ContactMerger
    private(set) var report = Report()
    /// Whether `report` lists each created and unchanged card, or only counts them (`createdCount`,
    /// `unchangedCount`): a conversion of a million cards into a folder held a million paths only to count them.
    package var listsEachCard = true
    /// How many items were created.
    package private(set) var createdCount = 0
    /// How many cards were already there.
    package private(set) var unchangedCount = 0

    /// Where a card with a UID is, read whole only when another card with its UID comes: a conversion into a
    /// folder kept every card it wrote, read back whole, so its memory grew by about 4 KB a card.
    private enum Holder {
        /// A card of the book, by position.
        case stored(Int)
        /// An item this upload created, by id.
        case created(String)
    }

    /// An upload into `book`.
    public init(book: StoredBook) {
        self.book = book
        merger = ContactMerger(countryCode: book.countryCode)
        for position in book.cards.indices {
            if let uid = book.cards[position].uid, byUID[uid] == nil { byUID[uid] = .stored(position) }
        }
        takenNames = Set(book.items.map { BookUpdate.lastSegment($0.id).lowercased() })
    }

    /// Adds `contact`, written as `bytes`, read from `source` (`file:line`, for messages).
    /// - Throws: what the store throws when it cannot be reached or written at all.
    public mutating func add(_ contact: Contact, bytes: [UInt8], source: String) throws {
        let name = AddressBookMerge.displayName(contact)
        guard let uid = contact.uid, uid.contains(where: { !$0.isWhitespace }) else {
            report.refused.append((source, name, Self.noUID))
            return
        }
        if let holder = byUID[uid], let there = try card(holder, uid: uid) {
            // Compared as written, so what the writer normalises (a 2.1 label, a charset) is no difference.
            let written = VCardDocument.read(bytes).cards.first?.contact ?? contact
            if merger.merge(written, into: there).changes.isEmpty {
                unchangedCount += 1
                if listsEachCard { report.unchanged.append(source) }
            } else {
                report.differing.append((source, name))
            }
            return
        }
        if let reason = book.store.refusal(of: bytes) {
            report.refused.append((source, name, reason))
            return
        }
        let stem = UIDFileName.stem(for: uid)
        var number = 1
        while number < 100 {
            let file = number == 1 ? "\(stem).vcf" : "\(stem)-\(number).vcf"
            number += 1
            guard takenNames.insert(file.lowercased()).inserted else { continue }
            let (id, location, outcome) = try book.store.create(file, bytes)
            switch outcome {
            case .written:
                byUID[uid] = .created(id)
                createdCount += 1
                if listsEachCard { report.created.append(location) }
                return
            case .refused(let reason):
                report.refused.append((source, name, reason))
                return
            case .conflict:
                continue
            }
        }
        report.refused.append((source, name, "no free name in \(book.store.name)"))
    }

    /// The card `holder` names, as the book holds it or as the store gives back the item this upload created
    /// (nil when that item is gone or holds no card with `uid`).
    private func card(_ holder: Holder, uid: String) throws -> Contact? {
        switch holder {
        case .stored(let position):
            return book.contact(at: position)
        case .created(let id):
            guard let item = try book.store.reload(id) else { return nil }
            return VCardDocument.read(item.bytes).cards.lazy.map(\.contact).first { $0.uid == uid }
        }
    }

    /// Makes the writes durable and returns what was done.
    public mutating func finish() -> Report {
        book.store.sync()
        report.writes = book.store.writes
        return report
    }

    static let noUID = "the card has no UID (vcf convert --ensure-uid gives each card one made from its content)"
}
