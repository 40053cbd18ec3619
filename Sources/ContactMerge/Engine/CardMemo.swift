import ContactModel
import Foundation

/// The whole cards a plan read, kept for the rest of the merge: a book's card is read again from its bytes
/// (about 110,000 instructions each), and planning reads the cards of every group it makes, which applying the
/// plan then reads again. Only cards some step needed are kept, so memory grows with the cards that merge, not
/// with the book, and only up to `budget`: a book full of copies makes a group of every card, and kept them all
/// (about 3.4 KB each, 340 MB for 100,000 cards); past it, a card asked for again is read again.
package final class CardMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var cards: [Int: Contact] = [:]
    private var kept = 0
    private let budget: Int
    private let read: @Sendable (Int) -> Contact

    /// About how many bytes of cards are kept, as `estimatedSize` counts them.
    package static let budget = 64 << 20

    package init(budget: Int = CardMemo.budget, reading read: @escaping @Sendable (Int) -> Contact) {
        self.budget = budget
        self.read = read
    }

    /// The card at `position`, read once while the budget lasts. Two threads asking at once may both read it,
    /// and keep the same card.
    package func card(_ position: Int) -> Contact {
        lock.lock()
        let known = cards[position]
        lock.unlock()
        if let known { return known }
        let card = read(position)
        let size = Self.estimatedSize(card)
        lock.lock()
        if kept + size <= budget && cards[position] == nil {
            cards[position] = card
            kept += size
        }
        lock.unlock()
        return card
    }

    /// Roughly how much memory a card holds: its texts, and for each value a fixed cost for the strings and lists
    /// that hold them.
    package static func estimatedSize(_ card: Contact) -> Int {
        func texts(_ values: [LabeledValue]) -> Int {
            values.reduce(0) { $0 + 160 + $1.value.utf8.count + ($1.label?.utf8.count ?? 0) }
        }
        var size = 1_024 + (card.note?.utf8.count ?? 0) + (card.photo?.data?.count ?? 0)
        size += texts(card.emails) + texts(card.phones) + texts(card.urls) + texts(card.instantMessaging)
        size += texts(card.socialProfiles)
        size += card.addresses.reduce(0) { $0 + 320 + $1.components.reduce(0) { $0 + $1.utf8.count } }
        size += card.extensions.reduce(0) { $0 + 160 + $1.value.utf8.count }
        size += (card.nicknames + card.categories).reduce(0) { $0 + 32 + $1.utf8.count }
        return size
    }
}

extension ExistingCards {
    /// These cards with each whole card read once however often a merge asks for it, while `CardMemo.budget`
    /// lasts.
    func remembered() -> ExistingCards {
        let memo = CardMemo(reading: card)
        var out = self
        out.card = { memo.card($0) }
        return out
    }
}
