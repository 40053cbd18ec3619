import CardIdentity
import ContactMerge
import ContactModel
import Foundation
import VCardFormat

/// Writes the result of a merge (or dedupe) back to a stored book, one item at a time: the items whose cards
/// changed are replaced, only if each is still the version read; new cards become new items named from their
/// UID (given one made from their content when they have none); cards merged away (dedupe) are removed only
/// after the card they were merged into is safely written. When an item changed meanwhile (a 412 from the
/// server, a file rewritten by another program), it is read again and the cards that were merged into it are
/// merged again, so nobody's change is overwritten. Items that do not change are never written.
public struct BookUpdate {
    /// What was done, item by item.
    public struct Report: Sendable {
        /// New items, by location.
        public var created: [String] = []
        /// Items written again, by location.
        public var rewritten: [String] = []
        /// Items removed (dedupe), by location.
        public var removed: [String] = []
        /// Cards not written, with the reason the store (server) or the checks before sending gave.
        public var refused: [(location: String, name: String, reason: String)] = []
        /// Items that changed meanwhile and were merged again, by location.
        public var remerged: [String] = []
        /// Changes left undone because of a change made meanwhile, and why.
        public var unresolved: [(location: String, reason: String)] = []
        /// How many new cards were given a UID.
        public var newUIDs = 0
        /// How many writes the store made (files changed, PUT and DELETE requests).
        public var writes = 0
    }

    /// The book written to.
    public let book: StoredBook
    /// The merge engine, for merging again after a change made meanwhile.
    public let engine: AddressBookMerge
    /// Whether only the plan is reported (nothing is written).
    public let dryRun: Bool
    /// How often one item is read and merged again before giving up on it.
    public var maxAttempts = 3
    private var uids: ContentUIDs
    private var takenNames: Set<String>
    private var report = Report()

    /// An update of `book`; `dryRun` writes nothing.
    public init(book: StoredBook, engine: AddressBookMerge, dryRun: Bool = false) {
        self.book = book
        self.engine = engine
        self.dryRun = dryRun
        uids = ContentUIDs(existing: book.uids)
        takenNames = Set(book.items.map { Self.lastSegment($0.id).lowercased() })
    }

    /// Writes `result`, the outcome of `engine.merge(incoming, into: book.existingCards)`.
    /// - Throws: what the store throws when it cannot be reached or written at all.
    public mutating func applyMerge(_ result: MergeResult, incoming: [IncomingCard]) throws -> Report {
        var contributions: [Int: [IncomingCard]] = [:]
        if result.entries.count == incoming.count {
            for (i, entry) in result.entries.enumerated() where entry.outcome == .merged {
                guard let position = entry.existing else { continue }
                contributions[book.cards[position].item, default: []].append(incoming[i])
            }
        }
        var replacedByItem: [Int: [Int: Contact]] = [:]
        for (position, contact) in result.replaced {
            replacedByItem[book.cards[position].item, default: [:]][book.cards[position].index] = contact
        }
        for item in replacedByItem.keys.sorted() {
            let bytes = book.rendered(item: item, replacing: replacedByItem[item]!, removing: [])
            _ = try write(bytes, over: book.items[item], contributions: contributions[item] ?? [], addUnmatched: true)
        }
        try create(result.added)
        if !dryRun { book.store.sync() }
        report.writes = book.store.writes
        return report
    }

    /// Writes `result`, the outcome of `engine.dedupe(book.existingCards, ...)` (entries by card position).
    /// - Throws: what the store throws when it cannot be reached or written at all.
    public mutating func applyDedupe(_ result: MergeResult) throws -> Report {
        var replacedByItem: [Int: [Int: Contact]] = [:]
        for (position, contact) in result.replaced {
            replacedByItem[book.cards[position].item, default: [:]][book.cards[position].index] = contact
        }
        var removedByItem: [Int: Set<Int>] = [:]
        var contributions: [Int: [IncomingCard]] = [:]
        var dependsOn: [Int: Set<Int>] = [:]
        for position in result.removed.sorted() {
            let card = book.cards[position]
            removedByItem[card.item, default: []].insert(card.index)
            guard position < result.entries.count, let representative = result.entries[position].existing else {
                continue
            }
            let target = book.cards[representative].item
            dependsOn[card.item, default: []].insert(target)
            contributions[target, default: []].append(
                IncomingCard(
                    contact: book.contact(at: position), file: book.items[card.item].location, line: card.beginLine))
        }
        let cardCount = Dictionary(grouping: book.cards, by: \.item).mapValues(\.count)
        let wholeItems = Set(removedByItem.filter { $0.value.count == cardCount[$0.key] }.keys)
        var failed = Set<Int>()
        var notAbsorbed = Set<String>()
        for item in Set(replacedByItem.keys).union(removedByItem.keys).subtracting(wholeItems).sorted() {
            let bytes = book.rendered(
                item: item, replacing: replacedByItem[item] ?? [:], removing: removedByItem[item] ?? [])
            let outcome = try write(
                bytes, over: book.items[item], contributions: contributions[item] ?? [], addUnmatched: false)
            if !outcome.written { failed.insert(item) }
            notAbsorbed.formUnion(outcome.notAbsorbed)
        }
        if !dryRun { book.store.sync() }
        for item in wholeItems.sorted() {
            let location = book.items[item].location
            if let blocker = dependsOn[item]?.first(where: failed.contains) {
                report.unresolved.append(
                    (location, "kept: the card it merges into (\(book.items[blocker].location)) was not written"))
                continue
            }
            if notAbsorbed.contains(location) {
                report.unresolved.append(
                    (location, "kept: the card it merged into changed meanwhile and no longer matches"))
                continue
            }
            if dryRun {
                report.removed.append(location)
                continue
            }
            switch try book.store.remove(book.items[item]) {
            case .written: report.removed.append(location)
            case .conflict: report.unresolved.append((location, "kept: it changed meanwhile; run dedupe again"))
            case .refused(let reason): report.refused.append((location, names(in: book.items[item]), reason))
            }
        }
        if !dryRun { book.store.sync() }
        report.writes = book.store.writes
        return report
    }

    /// Writes `bytes` over `item`; on a change made meanwhile, reads the item again and merges `contributions`
    /// into it again. Returns whether it ended written (or with nothing left to write) and which contributions
    /// (by location) no longer match the item.
    private mutating func write(
        _ bytes: [UInt8], over item: StoredItem, contributions: [IncomingCard], addUnmatched: Bool
    ) throws -> (written: Bool, notAbsorbed: Set<String>) {
        var bytes = bytes
        var current = item
        var notAbsorbed = Set<String>()
        for _ in 0..<maxAttempts {
            if let reason = book.store.refusal(of: bytes) {
                report.refused.append((current.location, names(in: current), reason))
                return (false, notAbsorbed)
            }
            if dryRun {
                report.rewritten.append(current.location)
                return (true, notAbsorbed)
            }
            switch try book.store.replace(current, bytes) {
            case .written:
                report.rewritten.append(current.location)
                return (true, notAbsorbed)
            case .refused(let reason):
                report.refused.append((current.location, names(in: current), reason))
                return (false, notAbsorbed)
            case .conflict:
                guard let fresh = try book.store.reload(current.id) else {
                    report.unresolved.append(
                        (current.location, "removed meanwhile; the cards merged into it were not written"))
                    return (false, notAbsorbed)
                }
                guard let parsed = StoredBook.parse(fresh), parsed.errors.isEmpty else {
                    report.unresolved.append(
                        (current.location, "changed meanwhile and cannot be read now; nothing written"))
                    return (false, notAbsorbed)
                }
                current = fresh
                report.remerged.append(fresh.location)
                let contacts = parsed.contacts
                let again = engine.merge(contributions, into: ExistingCards(contacts, countryCode: book.countryCode))
                for (i, entry) in again.entries.enumerated() where i < contributions.count {
                    if entry.outcome == .added || entry.outcome == .possible {
                        notAbsorbed.insert(contributions[i].file)
                    }
                }
                // A card that no longer matches the changed one is a card of its own (merge); dedupe keeps it
                // where it is.
                if addUnmatched { for added in again.added { try create(added) } }
                if again.replaced.isEmpty { return (true, notAbsorbed) }
                var byIndex: [Int: Contact] = [:]
                for (index, contact) in again.replaced { byIndex[index] = contact }
                bytes = parsed.rendered(replacing: byIndex, removing: [])
            }
        }
        report.unresolved.append((current.location, "kept changing while it was written; run the merge again"))
        return (false, notAbsorbed)
    }

    /// A new card ready to be written: given a UID, written as `bytes`, and named from `stem`.
    private struct NewCard {
        var card: Contact
        var bytes: [UInt8]
        var stem: String
        var name: String
    }

    /// Adds `contact` as a new item named from its UID (made when it has none).
    private mutating func create(_ contact: Contact) throws { try create([contact]) }

    /// Adds each of `contacts` as `create` adds one, in order: into a folder 64 at a time, their files written
    /// on every processor at once (`Vdir.create(all:)`); to a server one after another.
    private mutating func create(_ contacts: [Contact]) throws {
        let batch = book.store is VdirStore ? 64 : 1
        var start = 0
        while start < contacts.count {
            let end = min(contacts.count, start + batch)
            try createTogether(contacts[start..<end])
            start = end
        }
    }

    private mutating func createTogether(_ contacts: ArraySlice<Contact>) throws {
        var ready: [(new: NewCard, file: String, next: Int)] = []
        for contact in contacts {
            var card = contact
            if uids.ensure(&card) != nil { report.newUIDs += 1 }
            let new = NewCard(
                card: card, bytes: ParsedItem.written(card, version: book.versionForNewCards),
                stem: UIDFileName.stem(for: card.uid ?? ""), name: AddressBookMerge.displayName(card))
            if let reason = book.store.refusal(of: new.bytes) {
                report.refused.append(("\(book.store.name) (\(new.stem).vcf)", new.name, reason))
                continue
            }
            guard let (file, next) = freeName(new.stem, from: 1) else {
                report.unresolved.append(noFreeName(new))
                continue
            }
            if dryRun {
                report.created.append(book.store.name + (book.store.name.hasSuffix("/") ? "" : "/") + file)
                continue
            }
            ready.append((new, file, next))
        }
        guard !ready.isEmpty else { return }
        let (results, error) = book.store.createInOrder(ready.map { ($0.file, $0.new.bytes) })
        // Every card written is recorded before the store's failure ends the update.
        for (k, item) in ready.enumerated() where k < results.count {
            try settle(item.new, results[k], next: item.next)
        }
        if let error { throw error }
    }

    /// The first name from number `number` on (at most 20) not taken yet, taken now, with the number after it.
    private mutating func freeName(_ stem: String, from number: Int) -> (file: String, next: Int)? {
        var number = number
        while number <= 20 {
            let file = number == 1 ? "\(stem).vcf" : "\(stem)-\(number).vcf"
            number += 1
            if takenNames.insert(file.lowercased()).inserted { return (file, number) }
        }
        return nil
    }

    private func noFreeName(_ new: NewCard) -> (location: String, reason: String) {
        ("\(book.store.name) (\(new.stem).vcf)", "no free name for the new card \(new.name)")
    }

    /// Records what became of `new`. Under a name taken meanwhile by its own UID (another run, another client),
    /// it is merged into that item; by another card, it is created under the next free name.
    private mutating func settle(
        _ new: NewCard, _ result: (id: String, location: String, outcome: StoreWrite), next: Int
    ) throws {
        var (result, next) = (result, next)
        while true {
            switch result.outcome {
            case .written:
                report.created.append(result.location)
                return
            case .refused(let reason):
                report.refused.append((result.location, new.name, reason))
                return
            case .conflict:
                if let there = try book.store.reload(result.id), let parsed = StoredBook.parse(there),
                    parsed.errors.isEmpty,
                    parsed.identities.contains(where: { $0.uid == new.card.uid })
                {
                    let incoming = [IncomingCard(contact: new.card, file: result.location, line: 1)]
                    let contacts = parsed.contacts
                    let again = engine.merge(incoming, into: ExistingCards(contacts, countryCode: book.countryCode))
                    report.remerged.append(result.location)
                    guard !again.replaced.isEmpty else { return }
                    var byIndex: [Int: Contact] = [:]
                    for (index, contact) in again.replaced { byIndex[index] = contact }
                    _ = try write(
                        parsed.rendered(replacing: byIndex, removing: []), over: there, contributions: incoming,
                        addUnmatched: false)
                    return
                }
                guard let name = freeName(new.stem, from: next) else {
                    report.unresolved.append(noFreeName(new))
                    return
                }
                next = name.next
                result = try book.store.create(name.file, new.bytes)
            }
        }
    }

    private func names(in item: StoredItem) -> String {
        guard let parsed = StoredBook.parse(item) else { return "" }
        return parsed.identities.map(AddressBookMerge.displayName).joined(separator: ", ")
    }

    /// The last path segment of an href or file name, percent escapes decoded.
    static func lastSegment(_ id: String) -> String {
        let segment = id.split(separator: "/").last.map(String.init) ?? id
        return segment.removingPercentEncoding ?? segment
    }
}
