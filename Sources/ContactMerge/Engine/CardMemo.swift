import ContactModel
import Foundation

/// The whole cards a plan read, kept for the rest of the merge: a book's card is read again from its bytes
/// (about 110,000 instructions each), and planning reads the cards of every group it makes, which applying the
/// plan then reads again. Only cards some step needed are kept, so memory grows with the cards that merge, not
/// with the book.
final class CardMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var cards: [Int: Contact] = [:]
    private let read: @Sendable (Int) -> Contact

    init(reading read: @escaping @Sendable (Int) -> Contact) { self.read = read }

    /// The card at `position`, read once. Two threads asking at once may both read it, and keep the same card.
    func card(_ position: Int) -> Contact {
        lock.lock()
        let known = cards[position]
        lock.unlock()
        if let known { return known }
        let card = read(position)
        lock.lock()
        cards[position] = card
        lock.unlock()
        return card
    }
}

extension ExistingCards {
    /// These cards with each whole card read once however often a merge asks for it.
    func remembered() -> ExistingCards {
        let memo = CardMemo(reading: card)
        var out = self
        out.card = { memo.card($0) }
        return out
    }
}
