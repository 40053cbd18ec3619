import ContactMerge
import Testing
import VCardFormat
import VCardSyntax

/// Which read cards a merge takes: a card with an error on any line is left out with its first error; a card
/// with warnings only is taken.
@Suite struct IncomingAdmissionTests {
    static func cards(_ text: String) -> [ReadCard] { VCardDocument.read(Array(text.utf8)).cards }

    @Test func aCardWithAnErrorIsSkippedWithItsFirstError() throws {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nthis line has no colon\r\nEND:VCARD\r\n"
        // The document's reader reports the line's error beside the cards; the file readers give it to the card.
        let read = VCardDocument.read(Array(text.utf8))
        var card = try #require(read.cards.first)
        card.diagnostics = read.diagnostics
        let firstError = try #require(card.diagnostics.first { $0.severity == .error })
        guard case .skipped(let entry) = IncomingCard.admit(card, file: "in.vcf") else {
            Issue.record("a card with an error was admitted")
            return
        }
        #expect(entry.outcome == .skipped)
        #expect(entry.file == "in.vcf" && entry.line == 1 && entry.name == "Ann Lee")
        #expect(entry.problem == firstError.message)
    }

    /// A streaming reader reports the lexer's errors beside the cards, not on them: the card still says its own
    /// first one, even past the lexer's repeat limit, where it is no longer reported.
    @Test func aCardIsSkippedWithTheLexersErrorOnItsLinesEvenUnreported() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nthis line has no colon\r\nEND:VCARD\r\n"
        let count = 3 * VCardLexer.repeatedDiagnosticLimit
        let read = VCardDocument.read(Array(String(repeating: card, count: count).utf8))
        #expect(read.cards.count == count)
        #expect(read.diagnostics.count < count, "the lexer stopped reporting the repeated problem")
        let message = try #require(read.diagnostics.first { $0.severity == .error }?.message)
        for (index, card) in read.cards.enumerated() {
            #expect(!card.diagnostics.contains { $0.severity == .error })
            guard case .skipped(let entry) = IncomingCard.admit(card, file: "in.vcf") else {
                Issue.record("card \(index), with an error, was admitted")
                continue
            }
            #expect(entry.line == 1 + 5 * index)
            #expect(entry.problem == message, "card \(index)")
        }
    }

    @Test func aCardWithWarningsOnlyIsAdmittedWithItsPlace() throws {
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Ann;;;\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bo\r\nEND:VCARD\r\n"
        let cards = Self.cards(text)
        #expect(cards.count == 2)
        #expect(!cards[0].diagnostics.contains { $0.severity == .error })
        for (card, line) in zip(cards, [1, 5]) {
            guard case .admitted(let incoming) = IncomingCard.admit(card, file: "in.vcf") else {
                Issue.record("a card without errors was skipped")
                continue
            }
            #expect(incoming.file == "in.vcf" && incoming.line == line)
            #expect(incoming.contact == card.contact)
        }
    }
}
