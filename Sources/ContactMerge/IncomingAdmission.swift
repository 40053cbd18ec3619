import ContactModel
import VCardFormat
import VCardSyntax

extension IncomingCard {
    /// What a merge does with one card it read: take it, or leave it out and say why.
    public enum Admission: Sendable {
        /// The card joins the merge.
        case admitted(IncomingCard)
        /// The card is left out; the entry (outcome `skipped`) names its first error for the report.
        case skipped(MergeEntry)
    }

    /// Decides whether `card`, read from `file`, may join a merge: a card with an error on any of its lines is
    /// left out, since merging what was read of it could replace good values with half-read ones; warnings do not
    /// keep a card out.
    ///
    /// - Parameter file: Where the card came from, as the report names it.
    public static func admit(_ card: ReadCard, file: String) -> Admission {
        // The card's first error by line, its reader's or the lexer's (a line without a colon, a missing END).
        let errors = [card.diagnostics.first(where: { $0.severity == .error }), card.raw.firstError].compactMap { $0 }
        if let first = errors.min(by: { ($0.line, $0.column) < ($1.line, $1.column) }) {
            return .skipped(
                MergeEntry(
                    file: file, line: card.raw.beginLine, name: AddressBookMerge.displayName(card.contact),
                    outcome: .skipped, problem: first.message))
        }
        if card.raw.hadErrors {
            // The lexer reports one problem on a hundred lines in a row, then stops saying it.
            return .skipped(
                MergeEntry(
                    file: file, line: card.raw.beginLine, name: AddressBookMerge.displayName(card.contact),
                    outcome: .skipped,
                    problem: "the problem reported on the lines before it repeats on its lines (not reported again)"))
        }
        return .admitted(IncomingCard(contact: card.contact, file: file, line: card.raw.beginLine))
    }
}
