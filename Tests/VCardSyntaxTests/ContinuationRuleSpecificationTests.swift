import Testing
import VCardSyntax

/// The lexer's second stage, physical lines to logical lines: each rule by which a line continues the one before
/// it, and where each stops. Each test states the logical lines and diagnostics exactly.
@Suite struct ContinuationRuleSpecificationTests {
    // MARK: RFC folding

    @Test(arguments: [" ", "\t"])
    func foldedLineLosesOneLeadingWhiteSpace(_ indent: String) {
        let lexed = Lexed(card("VERSION:3.0", "NOTE:abc", indent + "def", indent + " ghi"))
        #expect(lexed.cards == [["2 VERSION:3.0", "3 NOTE:abcdef ghi"]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func foldInsideAParameterOrTheName() {
        let lexed = Lexed(card("VERSION:4.0", "TE", " L;TY", " PE=work:1", "item1.", " EMAIL:a@b"))
        #expect(lexed.cards == [["2 VERSION:4.0", "3 TEL;TYPE=work:1", "6 item1.EMAIL:a@b"]])
    }

    @Test func foldBetweenMultiByteCharacterBytesIsUndoneBeforeDecoding() {
        // "é" is C3 A9; a writer that folds at a byte count may split it.
        let bytes =
            Array("BEGIN:VCARD\r\nFN:Ren".utf8) + [0xC3, 0x0D, 0x0A, 0x20, 0xA9]
            + Array("\r\nEND:VCARD\r\n".utf8)
        #expect(Lexed(bytes).cards == [["2 FN:René"]])
    }

    @Test func foldedLineAfterASkippedLineIsSkippedToo() {
        let lexed = Lexed(card("FN:A", " stray fold with no line before it is a continuation of FN"))
        #expect(lexed.cards == [["2 FN:Astray fold with no line before it is a continuation of FN"]])
    }

    @Test func leadingWhiteSpaceWithNoLineBeforeItIsNotAFold() {
        let lexed = Lexed("\r\n  BEGIN:VCARD\r\nFN:A\r\nEND:VCARD\r\n")
        #expect(lexed.cards == [["3 FN:A"]])
        #expect(lexed.bounds == [[2, 4]])
    }

    @Test func indentedLineAfterTheBeginLineFoldsIntoIt() {
        // `BEGIN:VCARD FN:A` is no BEGIN of a card, so the card's lines are text outside a card.
        let lexed = Lexed("BEGIN:VCARD\r\n  FN:A\r\nEND:VCARD\r\n")
        #expect(lexed.cards.isEmpty)
        #expect(lexed.diagnostics == ["1 text-outside-card", "3 unexpected-end"])
    }

    // MARK: Quoted-printable soft line breaks

    @Test func softLineBreakJoinsTheNextLineAsItStands() {
        let lexed = Lexed(card("VERSION:2.1", "NOTE;ENCODING=QUOTED-PRINTABLE:a=", "b =", " c"))
        // The parser decodes the value and drops the ENCODING parameter it has undone.
        #expect(lexed.cards == [["2 VERSION:2.1", "3 NOTE:ab  c"]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func softLineBreaksAllIndentedLoseTheirIndentation() {
        let lexed = Lexed(card("VERSION:2.1", "NOTE;QUOTED-PRINTABLE:a=", " b=", " c"))
        #expect(lexed.cards == [["2 VERSION:2.1", "3 NOTE:abc"]])
    }

    @Test func softLineBreakNeverTakesTheEndOfTheCard() {
        let lexed = Lexed(
            card("VERSION:2.1", "NOTE;ENCODING=QUOTED-PRINTABLE:a=") + card("VERSION:2.1", "FN:B"))
        #expect(lexed.cards == [["2 VERSION:2.1", "3 NOTE:a"], ["6 VERSION:2.1", "7 FN:B"]])
        #expect(lexed.bounds == [[1, 4], [5, 8]])
    }

    @Test(arguments: ["END:VCARD", "end:vcard", "  END:VCARD  ", "\tEnd:VCard"])
    func softLineBreakStopsAtEveryFormOfTheEndLine(_ endLine: String) {
        let text =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nNOTE;ENCODING=QUOTED-PRINTABLE:a=\r\n\(endLine)\r\nBEGIN:VCARD\r\nFN:B\r\nEND:VCARD\r\n"
        let lexed = Lexed(text)
        #expect(lexed.cards.count == 2)
        #expect(lexed.bounds.first == [1, 4])
    }

    @Test func lineEndingInEqualsWithoutQuotedPrintableIsNotJoined() {
        let lexed = Lexed(card("VERSION:2.1", "NOTE:a=", "FN:B"))
        #expect(lexed.cards == [["2 VERSION:2.1", "3 NOTE:a=", "4 FN:B"]])
    }

    @Test func quotedPrintableValueOverTheLimitIsDroppedWithAllItsSoftBreaks() {
        let limits = Limits(maxLineBytes: 40)
        let lexed = Lexed(
            card(
                "VERSION:2.1", "FN:A", "NOTE;ENCODING=QUOTED-PRINTABLE:" + String(repeating: "q", count: 8) + "=",
                String(repeating: "r", count: 30) + "=", "s=", "t", "TEL:1"),
            limits: limits)
        #expect(lexed.cards == [["2 VERSION:2.1", "3 FN:A", "8 TEL:1"]])
        #expect(lexed.diagnostics == ["4 line-too-long"])
    }

    // MARK: Android backslash continuation

    @Test func backslashAtTheEndOfA21LineContinuesTheValueOnTheNextLine() {
        let lexed = Lexed(card("VERSION:2.1", "NOTE:first\\", "second", "FN:A"))
        #expect(lexed.cards == [["2 VERSION:2.1", "3 NOTE:first\\nsecond", "5 FN:A"]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func evenBackslashesOrAColonOnTheNextLineDoNotContinue() {
        let lexed = Lexed(card("VERSION:2.1", "NOTE:first\\\\", "second", "NOTE:x\\", "TEL:1"))
        // A line with no colon is kept as a property with no value, and reported.
        #expect(lexed.cards == [["2 VERSION:2.1", "3 NOTE:first\\\\", "4 SECOND:", "5 NOTE:x\\", "6 TEL:1"]])
        #expect(lexed.diagnostics == ["4 missing-colon"])
    }

    @Test(arguments: ["3.0", "4.0"])
    func backslashContinuationIsOnlyFor21(_ version: String) {
        let lexed = Lexed(card("VERSION:" + version, "NOTE:first\\", "second", "FN:A"))
        #expect(lexed.cards == [["2 VERSION:" + version, "3 NOTE:first\\", "4 SECOND:", "5 FN:A"]])
        #expect(lexed.diagnostics == ["4 missing-colon"])
    }

    // MARK: Base64 run-on lines

    @Test func base64In21RunsOnUntilABlankLine() {
        // The indented line is a fold; the parser drops the white space inside base64.
        let lexed = Lexed(
            card("VERSION:2.1", "PHOTO;ENCODING=BASE64;TYPE=JPEG:QUJD", "REVG", "  R0hJ", "", "FN:A"))
        #expect(
            lexed.cards == [["2 VERSION:2.1", "3 PHOTO;ENCODING=BASE64;TYPE=JPEG:QUJDREVGR0hJ", "7 FN:A"]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test(arguments: [0, 1, 7, 8, 9, 17])
    func whiteSpaceLeftInsideBase64AfterUnfoldingIsSqueezedOut(_ leading: Int) {
        // Wherever it falls against the eight-byte words the squeeze skips over.
        let head = String(repeating: "QUJD", count: leading)
        let lexed = Lexed(card("VERSION:3.0", "PHOTO;ENCODING=b:" + head + "REVG", "  R0hJ", " \tSktM"))
        #expect(lexed.cards == [["2 VERSION:3.0", "3 PHOTO;ENCODING=b:" + head + "REVGR0hJSktM"]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func base64RunOnStopsAtALineThatIsNotBase64() {
        let lexed = Lexed(card("VERSION:2.1", "PHOTO;ENCODING=BASE64:QUJD", "REVG", "FN:A"))
        #expect(lexed.cards == [["2 VERSION:2.1", "3 PHOTO;ENCODING=BASE64:QUJDREVG", "5 FN:A"]])
    }

    @Test func base64RunOnNeverTakesTheEndOfTheCard() {
        // END:VCARD has a colon, so it is no base64 line.
        let lexed = Lexed(card("VERSION:2.1", "PHOTO;ENCODING=BASE64:QUJD") + card("FN:B"))
        #expect(lexed.bounds == [[1, 4], [5, 7]])
    }

    @Test func base64ParameterValueThatIsNotTheEncodingDoesNotRunOn() {
        let lexed = Lexed(card("VERSION:2.1", "NOTE;X-NOTE=BASE64:QUJD", "REVG", "FN:A"))
        #expect(lexed.cards == [["2 VERSION:2.1", "3 NOTE;X-NOTE=BASE64:QUJD", "4 REVG:", "5 FN:A"]])
        #expect(lexed.diagnostics == ["4 missing-colon"])
    }

    // MARK: A name folded before its colon begins a logical line (3.0 and 4.0)

    @Test(arguments: ["3.0", "4.0"])
    func unindentedLetterLineFollowedByAFoldIsAPropertyNotBase64(_ version: String) {
        let lexed = Lexed(
            card("VERSION:" + version, "PHOTO;ENCODING=b:QUJD", "REVG", "X-LONG-NAME", " ;TYPE=a:v", "FN:A"))
        #expect(
            lexed.cards == [
                ["2 VERSION:" + version, "3 PHOTO;ENCODING=b:QUJDREVG", "5 X-LONG-NAME;TYPE=a:v", "7 FN:A"]
            ])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func in21AnUnindentedBase64LineFollowedByAFoldStaysBase64() {
        let lexed = Lexed(card("VERSION:2.1", "PHOTO;ENCODING=BASE64:QUJD", "REVG", "R0hJ", " SktM", "", "FN:A"))
        #expect(lexed.cards == [["2 VERSION:2.1", "3 PHOTO;ENCODING=BASE64:QUJDREVGR0hJSktM", "8 FN:A"]])
    }

    // MARK: Cards

    @Test func nested21CardAfterAgentBecomesItsValue() {
        let lexed = Lexed(
            card("VERSION:2.1", "FN:A", "AGENT:", "BEGIN:VCARD", "VERSION:2.1", "FN:B", "END:VCARD", "TEL:1"))
        #expect(
            lexed.cards == [
                ["2 VERSION:2.1", "3 FN:A", "4 AGENT:BEGIN:VCARD\\nVERSION:2.1\\nFN:B\\nEND:VCARD", "9 TEL:1"]
            ])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func groupOnTheBeginLineIsKept() {
        let (cards, _) = VCardLexer.parse(Array("home.BEGIN:VCARD\r\nFN:A\r\nhome.END:VCARD\r\n".utf8))
        #expect(cards.map(\.group) == ["home"])
    }

    @Test func beginOrEndOfSomethingElseInsideACardIsIgnoredWithAWarning() {
        let lexed = Lexed(card("FN:A", "BEGIN:VEVENT", "END:VEVENT", "TEL:1"))
        #expect(lexed.cards == [["2 FN:A", "5 TEL:1"]])
        #expect(lexed.diagnostics == ["3 invalid-value", "4 invalid-value"])
    }

    @Test func byteRangesCoverEachCardFromBeginToItsLineEnd() {
        let text = "junk\n" + card("FN:A") + "\n" + card("FN:B", end: "\n")
        let (cards, _) = VCardLexer.parse(Array(text.utf8))
        let first = card("FN:A").utf8.count
        #expect(
            cards.map(\.byteRange) == [5..<(5 + first), (6 + first)..<(6 + first + card("FN:B", end: "\n").utf8.count)])
    }
}
