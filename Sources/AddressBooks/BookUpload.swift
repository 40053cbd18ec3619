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

    /// A card to create, waiting to be written with others (`flush`).
    private struct Waiting {
        var uid: String
        var bytes: [UInt8]
        var source: String
        var name: String
    }

    /// Cards to create, written together when there are `batch` of them, and before anything that must see them
    /// written: a folder's files are written on every processor at once (`Vdir.create(all:)`).
    private var waiting: [Waiting] = []
    private var waitingUIDs: Set<String> = []
    /// How many cards are created together: 64 for a folder, 1 for a server (each sent as it comes, as before).
    private let batch: Int

    /// An upload into `book`.
    public init(book: StoredBook) {
        self.book = book
        batch = book.store is VdirStore ? 64 : 1
        merger = ContactMerger(countryCode: book.countryCode)
        for position in book.cards.indices {
            if let uid = book.cards[position].uid, byUID[uid] == nil { byUID[uid] = .stored(position) }
        }
        takenNames = Set(book.items.map { BookUpdate.lastSegment($0.id).lowercased() })
    }

    /// Adds `contact`, written as `bytes`, read from `source` (`file:line`, for messages). A new card may be
    /// written later, with others (`flush`).
    /// - Throws: what the store throws when it cannot be reached or written at all.
    public mutating func add(_ contact: Contact, bytes: [UInt8], source: String) throws {
        let name = AddressBookMerge.displayName(contact)
        guard let uid = contact.uid, uid.contains(where: { !$0.isWhitespace }) else {
            // The cards before it are written first, so what was refused is reported in the cards' order.
            try flush()
            report.refused.append((source, name, Self.noUID))
            return
        }
        if waitingUIDs.contains(uid) { try flush() }
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
            try flush()
            report.refused.append((source, name, reason))
            return
        }
        waiting.append(Waiting(uid: uid, bytes: bytes, source: source, name: name))
        waitingUIDs.insert(uid)
        if waiting.count >= batch { try flush() }
    }

    /// Writes the cards `add` left waiting, in order, each under the first of its names that is free (named from
    /// its UID, then numbered).
    /// - Throws: what the store throws when it cannot be written at all; the cards before are written, and none
    ///   after.
    package mutating func flush() throws { try flush(refusing: false) }

    /// `flush`; when `refusing`, a store that cannot be written is no error, and each card not written is
    /// reported refused with the store's reason.
    private mutating func flush(refusing: Bool) throws {
        guard !waiting.isEmpty else { return }
        let cards = waiting
        waiting = []
        waitingUIDs = []
        // Each card's first free name, and the number to go on from if another program took it meanwhile.
        let names = cards.map { freeName(UIDFileName.stem(for: $0.uid), from: 1) }
        let (results, error) = book.store.createInOrder(
            cards.indices.compactMap { k in names[k].map { ($0.file, cards[k].bytes) } })
        // The store's first failure; every card written is recorded all the same.
        var failure = error
        var position = 0
        for (k, card) in cards.enumerated() {
            guard let name = names[k] else {
                report.refused.append((card.source, card.name, "no free name in \(book.store.name)"))
                continue
            }
            defer { position += 1 }
            do {
                // From the card the store failed at on, nothing was written.
                guard position < results.count else { throw error! }
                try settle(card, results[position], next: name.next)
            } catch {
                failure = failure ?? error
                if refusing { report.refused.append((card.source, card.name, "\(error)")) }
            }
        }
        if let failure, !refusing { throw failure }
    }

    /// The first name from number `number` on not taken yet, taken now, with the number after it; nil when the
    /// first 99 are taken.
    private mutating func freeName(_ stem: String, from number: Int) -> (file: String, next: Int)? {
        var number = number
        while number < 100 {
            let file = number == 1 ? "\(stem).vcf" : "\(stem)-\(number).vcf"
            number += 1
            if takenNames.insert(file.lowercased()).inserted { return (file, number) }
        }
        return nil
    }

    /// Records what became of `card`; under a name another program took meanwhile, it is created under the next
    /// free one.
    private mutating func settle(
        _ card: Waiting, _ result: (id: String, location: String, outcome: StoreWrite), next: Int
    ) throws {
        var (result, next) = (result, next)
        while true {
            switch result.outcome {
            case .written:
                byUID[card.uid] = .created(result.id)
                createdCount += 1
                if listsEachCard { report.created.append(result.location) }
                return
            case .refused(let reason):
                report.refused.append((card.source, card.name, reason))
                return
            case .conflict:
                guard let name = freeName(UIDFileName.stem(for: card.uid), from: next) else {
                    report.refused.append((card.source, card.name, "no free name in \(book.store.name)"))
                    return
                }
                next = name.next
                result = try book.store.create(name.file, card.bytes)
            }
        }
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

    /// Writes the cards still waiting, makes the writes durable and returns what was done; cards that could not
    /// be written, the store failing, are reported refused with the reason (`flush` throws it instead).
    public mutating func finish() -> Report {
        try? flush(refusing: true)
        book.store.sync()
        report.writes = book.store.writes
        return report
    }

    static let noUID = "the card has no UID (vcf convert --ensure-uid gives each card one made from its content)"
}
