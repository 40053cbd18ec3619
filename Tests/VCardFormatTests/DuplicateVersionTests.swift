import Testing
import VCardFormat

/// A card's first VERSION is its version; a second one is left out with a warning, since the writer writes its
/// own and a kept second one would make the card read as another version (found by FuzzRoundTrip).
@Suite struct DuplicateVersionTests {
    @Test func secondVersionIsLeftOutWithAWarning() {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nVERSION:2.1\r\nNOTE;X-Q=^':n\r\nEND:VCARD\r\n"
        let (cards, diagnostics) = VCardDocument.read(Array(text.utf8))
        #expect(cards.first?.contact.extensions.map(\.name) == ["NOTE"])
        #expect(
            diagnostics.map(\.message) == [
                "card has more than one VERSION; the first was used and this one was left out"
            ])
        #expect(diagnostics.map(\.line) == [4])
        // The first VERSION decides that RFC 6868 carets are decoded, for the lexer as for the reader.
        #expect(cards.first?.raw.lines.last?.parameters.first?.values == ["\""])
        let written = String(decoding: VCardWriter().bytes(cards.map(\.contact)), as: UTF8.self)
        #expect(written.components(separatedBy: "VERSION").count == 2)
    }
}
