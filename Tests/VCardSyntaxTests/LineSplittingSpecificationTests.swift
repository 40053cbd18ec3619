import Testing
import VCardSyntax

/// The lexer's first stage, bytes to physical lines: line ends, byte order marks and UTF-16, NUL, the line
/// limit and input that stops short. Each test states the logical lines and diagnostics exactly.
@Suite struct LineSplittingSpecificationTests {
    @Test(arguments: ["\r\n", "\n", "\r", "\r\r\n"])
    func everyLineEndEndsALine(_ end: String) {
        let lexed = Lexed(card("VERSION:3.0", "FN:A", end: end))
        #expect(lexed.cards == [["2 VERSION:3.0", "3 FN:A"]])
        #expect(lexed.bounds == [[1, 4]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func mixedLineEndsCountOneLineEach() {
        // LF, CR LF, CR CR LF and a lone CR: four line ends, four lines.
        let lexed = Lexed("BEGIN:VCARD\nVERSION:3.0\r\nFN:A\r\r\nNOTE:b\rEND:VCARD")
        #expect(lexed.cards == [["2 VERSION:3.0", "3 FN:A", "4 NOTE:b"]])
        #expect(lexed.bounds == [[1, 5]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func aRunOfCRsNotFollowedByLFIsOneLineEnd() {
        let lexed = Lexed("BEGIN:VCARD\r\r\rFN:A\r\nEND:VCARD\r\n")
        #expect(lexed.cards == [["2 FN:A"]])
        #expect(lexed.bounds == [[1, 3]])
    }

    @Test func blankLinesAreSkippedButCounted() {
        // A line of white space only is a fold: it adds its spaces but one to the line before.
        let lexed = Lexed("\r\n\r\nBEGIN:VCARD\r\n\r\nFN:A\r\n   \r\nEND:VCARD\r\n\r\n")
        #expect(lexed.cards == [["5 FN:A  "]])
        #expect(lexed.bounds == [[3, 7]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func utf8ByteOrderMarkIsSkipped() {
        let lexed = Lexed([0xEF, 0xBB, 0xBF] + Array(card("FN:Zoë").utf8))
        #expect(lexed.cards == [["2 FN:Zoë"]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test(arguments: [false, true])
    func utf16WithByteOrderMarkIsTranscoded(_ bigEndian: Bool) {
        let lexed = Lexed(Self.utf16(card("FN:Zoë 😀"), bigEndian: bigEndian, mark: true))
        #expect(lexed.cards == [["2 FN:Zoë 😀"]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test(arguments: [false, true])
    func utf16WithoutByteOrderMarkIsRecognisedByItsZeros(_ bigEndian: Bool) {
        let lexed = Lexed(Self.utf16(card("FN:Zoë"), bigEndian: bigEndian, mark: false))
        #expect(lexed.cards == [["2 FN:Zoë"]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func utf16ThatEndsWithHalfACodeUnitStillEndsTheCard() {
        let bytes = Self.utf16(card("FN:A"), bigEndian: false, mark: true) + [0x41]
        let lexed = Lexed(bytes)
        #expect(lexed.cards == [["2 FN:A"]])
    }

    @Test func inputShorterThanAByteOrderMarkIsRead() {
        #expect(Lexed("FN").cards.isEmpty)
        #expect(Lexed("FN").diagnostics == ["1 text-outside-card"])
        #expect(Lexed("").cards.isEmpty)
        #expect(Lexed("").diagnostics.isEmpty)
    }

    @Test func nulIsContentNotALineEnd() {
        let lexed = Lexed(Array(card("NOTE:a\u{0}b", "FN:A").utf8))
        #expect(lexed.cards == [["2 NOTE:a\u{0}b", "3 FN:A"]])
        #expect(lexed.diagnostics.isEmpty)
    }

    @Test func lineOverTheLimitIsSkippedAndTheCardGoesOn() {
        let limits = Limits(maxLineBytes: 32)
        let long = "NOTE:" + String(repeating: "x", count: 40)
        let lexed = Lexed(card("FN:A", long, " folded-tail", "TEL:1"), limits: limits)
        #expect(lexed.cards == [["2 FN:A", "5 TEL:1"]])
        #expect(lexed.diagnostics == ["3 line-too-long"])
        #expect(lexed.bounds == [[1, 6]])
    }

    @Test func lineOverTheLimitWithNoLineEndYetIsSkippedWithoutBeingBuffered() {
        // Fed in pieces, the long line is refused before its end has arrived.
        let limits = Limits(maxLineBytes: 32)
        let text = card("FN:A", "NOTE:" + String(repeating: "y", count: 100), "TEL:1")
        var lexer = VCardLexer(limits: limits)
        var cards: [RawCard] = []
        for byte in Array(text.utf8) { cards += lexer.feed([byte]) }
        cards += lexer.finish()
        #expect(cards.map { $0.lines.map(Lexed.render) } == [["2 FN:A", "4 TEL:1"]])
        #expect(lexer.takeDiagnostics().map { "\($0.line) \($0.code.rawValue)" } == ["3 line-too-long"])
    }

    @Test func unfoldedLineOverTheLimitIsSkippedWholeButTheLineBeforeItIsKept() {
        let limits = Limits(maxLineBytes: 32)
        let lexed = Lexed(
            card("FN:A", "NOTE:" + String(repeating: "z", count: 20), " " + String(repeating: "z", count: 20), "TEL:1"),
            limits: limits)
        #expect(lexed.cards == [["2 FN:A", "5 TEL:1"]])
        #expect(lexed.diagnostics == ["3 line-too-long"])
    }

    @Test func cardOverTheLimitKeepsItsFirstLines() {
        let limits = Limits(maxCardBytes: 20)
        let lexed = Lexed(card("FN:Alpha", "NOTE:0123456789", "TEL:1"), limits: limits)
        #expect(lexed.cards == [["2 FN:Alpha"]])
        #expect(lexed.diagnostics == ["3 card-too-large"])
        #expect(lexed.bounds == [[1, 5]])
    }

    @Test func inputThatStopsInsideACardEndsItWithAnError() {
        let lexed = Lexed("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A")
        #expect(lexed.cards == [["2 VERSION:3.0", "3 FN:A"]])
        #expect(lexed.bounds == [[1, nil]])
        #expect(lexed.diagnostics == ["1 missing-end"])
    }

    @Test func inputThatStopsInsideAFoldKeepsWhatWasFolded() {
        let lexed = Lexed("BEGIN:VCARD\r\nNOTE:ab\r\n c")
        #expect(lexed.cards == [["2 NOTE:abc"]])
        #expect(lexed.diagnostics == ["1 missing-end"])
    }

    @Test func inputThatStopsInsideASoftLineBreakKeepsTheValue() {
        let lexed = Lexed("BEGIN:VCARD\r\nVERSION:2.1\r\nNOTE;ENCODING=QUOTED-PRINTABLE:a=\r\n")
        #expect(lexed.cards == [["2 VERSION:2.1", "3 NOTE:a"]])
        // The `=` with nothing after it is no escape.
        #expect(lexed.diagnostics == ["3 invalid-quoted-printable", "1 missing-end"])
    }

    @Test func textOutsideCardsIsReportedOncePerRun() {
        let lexed = Lexed("junk\r\nmore junk\r\n" + card("FN:A") + "trailer\r\n")
        #expect(lexed.cards == [["4 FN:A"]])
        #expect(lexed.diagnostics == ["1 text-outside-card", "6 text-outside-card"])
    }

    @Test func endWithoutBeginAndBeginWithoutEnd() {
        let lexed = Lexed("END:VCARD\r\nBEGIN:VCARD\r\nFN:A\r\nBEGIN:VCARD\r\nFN:B\r\nEND:VCARD\r\n")
        #expect(lexed.cards == [["3 FN:A"], ["5 FN:B"]])
        #expect(lexed.bounds == [[2, nil], [4, 6]])
        #expect(lexed.diagnostics == ["1 unexpected-end", "2 missing-end"])
    }

    @Test func theSameProblemOnManyLinesIsReportedAHundredTimesAndOnceMore() {
        let lines = (0..<150).map { "no colon \($0)" }
        let lexed = Lexed(card(lines.joined(separator: "\r\n")))
        #expect(lexed.diagnostics.count == VCardLexer.repeatedDiagnosticLimit + 1)
        #expect(Set(lexed.diagnostics.map { $0.split(separator: " ")[1] }) == ["missing-colon"])
    }

    /// A card whose lines hold an error knows it, reported or not: past the hundredth report of one problem, a
    /// card cannot be told from one read whole by the diagnostics, and a merge must still leave it out.
    @Test func aCardKnowsItHeldAnErrorPastTheReportedHundred() {
        let text = String(repeating: card("FN:B", "no colon"), count: 150) + card("FN:A")
        let (raw, found) = VCardLexer.parse(Array(text.utf8))
        #expect(found.count == VCardLexer.repeatedDiagnosticLimit + 1)
        #expect(raw.map(\.hadErrors) == Array(repeating: true, count: 150) + [false])
        #expect(raw.map(\.position.hadErrors) == raw.map(\.hadErrors))
    }

    static func utf16(_ text: String, bigEndian: Bool, mark: Bool) -> [UInt8] {
        var units = Array(text.utf16)
        if mark { units.insert(0xFEFF, at: 0) }
        return units.flatMap { unit -> [UInt8] in
            let high = UInt8(unit >> 8)
            let low = UInt8(unit & 0xFF)
            return bigEndian ? [high, low] : [low, high]
        }
    }
}
