import Testing
import VCardSyntax

/// A line ending in `=` joins the next only when its parameters ask for quoted-printable exactly as the parser
/// reads them, so that the lexer joins only lines the parser decodes (found by FuzzRoundTrip: a property named
/// `QUOTED-PRINTABLE`, and an ENCODING value that merely began with the word, swallowed the END line).
@Suite struct SoftLineBreakTests {
    @Test func propertyNamedQuotedPrintableHasNoSoftLineBreak() {
        let (cards, diagnostics) = VCardLexer.parse(Array("BEGIN:VCARD\r\nQUOTED-PRINTABLE:=\r\nEND:VCARD\r\n".utf8))
        #expect(cards.count == 1)
        #expect(cards.first?.endLine == 3)
        #expect(cards.first?.lines.map(\.value) == ["="])
        #expect(diagnostics.isEmpty)
    }

    @Test func encodingValueThatOnlyHoldsTheWordHasNoSoftLineBreak() {
        let text = "BEGIN:VCARD\r\nVERSION:2.1\r\nNOTE;ENCODING=QUOTED-PRINTABLEX:a=\r\nEND:VCARD\r\n"
        let (cards, _) = VCardLexer.parse(Array(text.utf8))
        #expect(cards.first?.lines.last?.value == "a=")
        #expect(cards.first?.endLine == 4)
    }

    @Test(arguments: [
        "ENCODING=QUOTED-PRINTABLE", "encoding=\"quoted-printable\"", "ENCODING=QP", "QUOTED-PRINTABLE",
        "CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE",
    ])
    func quotedPrintableParameterStillJoinsTheNextLine(_ parameter: String) {
        let text = "BEGIN:VCARD\r\nVERSION:2.1\r\nNOTE;\(parameter):a=\r\nb\r\nEND:VCARD\r\n"
        let (cards, _) = VCardLexer.parse(Array(text.utf8))
        #expect(cards.first?.lines.last?.value == "ab")
        #expect(cards.first?.endLine == 5)
    }

    @Test func base64ParameterStillRunsOnOverFollowingLines() {
        let text = "BEGIN:VCARD\r\nVERSION:2.1\r\nPHOTO;ENCODING=BASE64;TYPE=JPEG:QUJD\r\nREVG\r\n\r\nEND:VCARD\r\n"
        let (cards, _) = VCardLexer.parse(Array(text.utf8))
        #expect(cards.first?.lines.last?.value == "QUJDREVG")
    }

    @Test func unindentedBase64FollowedByAFoldBeginsAProperty() {
        // Found by FuzzRoundTrip: in 3.0 the next line was a long property name folded before its colon.
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nPHOTO;ENCODING=b:QUJD\r\nREVG\r\nABCD\r\n :x\r\nEND:VCARD\r\n"
        let (cards, diagnostics) = VCardLexer.parse(Array(text.utf8))
        #expect(cards.first?.lines.map(\.name) == ["VERSION", "PHOTO", "ABCD"])
        #expect(cards.first?.lines.map(\.value) == ["3.0", "QUJDREVG", "x"])
        #expect(cards.first?.lines.last?.line == 5)
        #expect(diagnostics.isEmpty)
    }

    @Test func unindentedBase64RunsOnIn30AsGeneratorsWrapIt() {
        // PHP's chunk_split and the like wrap base64 at 76 columns with no indentation, also in 3.0.
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nPHOTO;ENCODING=b;TYPE=JPEG:QUJD\r\nREVG\r\nRw==\r\nFN:A\r\nEND:VCARD\r\n"
        let (cards, diagnostics) = VCardLexer.parse(Array(text.utf8))
        #expect(cards.first?.lines.map(\.name) == ["VERSION", "PHOTO", "FN"])
        #expect(cards.first?.lines[1].value == "QUJDREVGRw==")
        #expect(diagnostics.isEmpty)
    }

    @Test func propertyNamedBase64DoesNotRunOnOverFollowingLines() {
        let text = "BEGIN:VCARD\r\nX-BASE64:QUJD\r\nTEL\r\nEND:VCARD\r\n"
        let (cards, _) = VCardLexer.parse(Array(text.utf8))
        #expect(cards.first?.lines.map(\.name) == ["X-BASE64", "TEL"])
    }
}

/// Android's 2.1 line break (`\` at the end of a line, the value going on on the next line if it has no colon)
/// is read in 2.1 cards only (found by FuzzRoundTrip: a 3.0 line folded before its colon was joined to a value
/// that ended with a backslash).
@Suite struct BackslashContinuationTests {
    static func values(_ text: String) -> [String] {
        VCardLexer.parse(Array(text.utf8)).cards.first?.lines.map(\.value) ?? []
    }

    @Test func backslashAtTheEndOfA21LineContinuesTheValue() {
        #expect(
            Self.values("BEGIN:VCARD\r\nVERSION:2.1\r\nADR;HOME:;;Street\\\r\n9999;Town\r\nEND:VCARD\r\n")
                == ["2.1", ";;Street\\n9999;Town"])
    }

    @Test func backslashAtTheEndOfA30LineDoesNot() {
        #expect(
            Self.values("BEGIN:VCARD\r\nVERSION:3.0\r\nX-A:\\\r\nX-B;X-P=\"a\"\r\n :\r\nEND:VCARD\r\n")
                == ["3.0", "\\", ""])
    }
}

/// A quoted-printable soft line break never crosses the line that ends a card (issue 18, item 12): a NOTE whose
/// encoded text ends in `=` right before `END:VCARD` loses only that `=`, and the cards after it stay cards.
@Suite struct SoftLineBreakBeforeEndTests {
    static func twelveCards(lineEnd: String = "\r\n", endSpelling: String = "END:VCARD") -> [UInt8] {
        var text = ""
        for index in 1...12 {
            text += "BEGIN:VCARD\(lineEnd)VERSION:2.1\(lineEnd)N:Person\(index);Ann\(lineEnd)"
            text += "NOTE;ENCODING=QUOTED-PRINTABLE:line one=0D=0Aends here=\(lineEnd)\(endSpelling)\(lineEnd)"
        }
        return Array(text.utf8)
    }

    @Test(arguments: ["\r\n", "\n", "\r\r\n"])
    func twelveCardsStayTwelve(_ lineEnd: String) {
        let (cards, diagnostics) = VCardLexer.parse(Self.twelveCards(lineEnd: lineEnd))
        #expect(cards.count == 12)
        #expect(cards.allSatisfy { $0.endLine != nil })
        #expect(cards.map { $0.lines.last?.value } == Array(repeating: "line one\r\nends here", count: 12))
        #expect(diagnostics.count == 12)
        #expect(diagnostics.allSatisfy { $0.code == .invalidQuotedPrintable && $0.severity == .warning })
        #expect(diagnostics.first?.message.contains("no line of the card after it") == true)
    }

    @Test(arguments: ["end:vcard", "  END:VCARD ", "End:VCard\t"])
    func endInAnyCaseAndSpacingEndsTheValue(_ spelling: String) {
        let (cards, _) = VCardLexer.parse(Self.twelveCards(endSpelling: spelling))
        #expect(cards.count == 12)
    }

    @Test func aSoftLineBreakBeforeAnyOtherLineStillJoinsIt() {
        let text = "BEGIN:VCARD\r\nVERSION:2.1\r\nNOTE;QUOTED-PRINTABLE:a=\r\nEND:VCARDS\r\nEND:VCARD\r\n"
        let (cards, _) = VCardLexer.parse(Array(text.utf8))
        #expect(cards.first?.lines.last?.value == "aEND:VCARDS")
        #expect(cards.count == 1)
    }

    @Test func sameCardsWholeByteByByteAndInChunks() {
        let bytes = Self.twelveCards()
        let whole = VCardLexer.parse(bytes)
        var lexer = VCardLexer()
        var cards: [RawCard] = []
        for byte in bytes { cards += lexer.feed([byte]) }
        cards += lexer.finish()
        #expect(cards == whole.cards)
        #expect(lexer.takeDiagnostics() == whole.diagnostics)
    }

    @Test func anOverlongValueEndingBeforeEndStillEndsTheCard() {
        let long = String(repeating: "=41", count: 100) + "="
        let text =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nNOTE;QUOTED-PRINTABLE:\(long)\r\nA=\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:B\r\nEND:VCARD\r\n"
        let (cards, _) = VCardLexer.parse(Array(text.utf8), limits: Limits(maxLineBytes: 64))
        #expect(cards.count == 2)
        #expect(cards.first?.endLine == 5)
    }
}
