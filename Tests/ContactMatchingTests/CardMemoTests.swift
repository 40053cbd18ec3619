import ContactMerge
import ContactModel
import Foundation
import Testing

/// The cards a plan keeps once read: kept within the memo's budget, read again past it.
@Suite struct CardMemoTests {
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var positions: [Int] = []
        func add(_ position: Int) {
            lock.lock()
            positions.append(position)
            lock.unlock()
        }
    }

    /// A budget of three cards: the first three asked for are read once however often they are asked for, the
    /// others each time, and every answer is the card.
    @Test func cardsPastTheBudgetAreReadAgain() {
        let reads = Reads()
        let card: @Sendable (Int) -> Contact = { Contact(formattedName: "Person \($0)", note: "a note") }
        let budget = (0..<3).reduce(0) { $0 + CardMemo.estimatedSize(card($1)) }
        let memo = CardMemo(budget: budget) { position in
            reads.add(position)
            return card(position)
        }
        for _ in 0..<3 {
            for position in 0..<5 { #expect(memo.card(position) == card(position)) }
        }
        #expect(reads.positions == [0, 1, 2, 3, 4, 3, 4, 3, 4])
    }

    /// A card's estimated size grows with what it holds: a photograph's bytes count in full.
    @Test func aPhotographCountsInFull() {
        var card = Contact(formattedName: "Ann Lee")
        let bare = CardMemo.estimatedSize(card)
        card.photo = Photo(data: Data(count: 100_000), mediaType: "image/jpeg")
        #expect(CardMemo.estimatedSize(card) >= bare + 100_000)
    }
}
