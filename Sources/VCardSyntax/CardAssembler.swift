/// The lexer's third stage: turns logical lines into cards, parsing each line into the card being read.
///
/// It keeps a stack of open cards, because vCard 2.1 nests whole cards after `AGENT:`; reports text outside
/// cards, an END without a BEGIN and a card without an END; enforces the card size and nesting limits; and, when
/// a card ends, decides the charset of its undeclared 8-bit values and decodes RFC 6868 carets.
struct CardAssembler: LogicalLineConsumer {
    private let limits: Limits
    private let decoding: DecodingOptions
    /// Set when the lexer only gathers a file's charset evidence (`CharsetEvidence.survey`).
    private(set) var surveyor: CharsetSurveyor?
    /// The diagnostics of every stage, in input order.
    var log = DiagnosticLog()
    /// The lines kept in cards; nil keeps every line.
    var selection: LineSelection?

    private var parser = ContentLineParser()
    private var stack: [CardFrame] = []
    private var inJunk = false
    private var completed: [RawCard] = []
    /// The size of the last card, to reserve storage for the next.
    private var lastCardBytes = 1024
    /// Where the last logical line read ends, in the input's bytes.
    private(set) var consumedEnd = 0
    /// The input's bytes of the lines read in a row, up to the last, that the only card open skipped because it
    /// outgrew `maxCardBytes`: what they hold is in no card and no diagnostic, so a reader that keeps the input
    /// (the streamed linter) needs only their line ends.
    private(set) var skippedRun: Range<Int>?

    private struct CardFrame {
        var card: RawCard
        var absoluteStart: Int
        var byteCount = 0
        var oversized = false
        var isAgent = false
        var isV21 = false
        /// The log's error count when the card began.
        var errorsBefore = 0
        /// Whether the card's last line was left out by the selection, so its last kept line is not the last read.
        var lastLineLeftOut = false
    }

    init(limits: Limits, decoding: DecodingOptions, surveying: Bool) {
        self.limits = limits
        self.decoding = decoding
        if surveying { surveyor = CharsetSurveyor() }
    }

    var inV21Card: Bool { stack.last?.isV21 == true }

    /// Where the outermost card still open began, in the input's bytes; nil when none is open.
    var openCardStart: Int? { stack.first?.absoluteStart }

    mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String, line: Int) {
        log.report(severity, code, message, line: line)
    }

    /// The cards completed since the last call.
    mutating func takeCompleted() -> [RawCard] {
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }

    /// Closes the cards still open at the end of the input, each with a missing-END error, and says whether there
    /// were any.
    mutating func finish(absoluteEnd: Int) -> Bool {
        let endedInsideCard = !stack.isEmpty
        while !stack.isEmpty {
            let frame = stack[stack.count - 1]
            log.report(
                .error, .missingEnd, "card has no END:VCARD before the end of the input", line: frame.card.beginLine)
            closeCard(endLine: nil, absoluteEnd: absoluteEnd)
        }
        return endedInsideCard
    }

    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ origin: LogicalLineOrigin) {
        consumedEnd = origin.absoluteEnd
        let runBefore = skippedRun
        skippedRun = nil
        parser.parse(bytes, range, line: origin.line, limits: limits)
        // Trimmed as the parser trims names, so that ` END` is END here as it would be as a property.
        let name = parser.name.map { ContentLineParser.trimmed(bytes, $0) }
        let nameIsBegin = name.map { ASCII.equalsIgnoringCase(bytes, $0, "BEGIN") } ?? false
        let nameIsEnd = !nameIsBegin && (name.map { ASCII.equalsIgnoringCase(bytes, $0, "END") } ?? false)
        if nameIsBegin || nameIsEnd, let valueStart = parser.valueStart,
            isVCard(bytes, valueStart..<range.upperBound)
        {
            let group = parser.group.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
            if nameIsBegin { beginCard(group: group, origin) } else { endCard(origin) }
            return
        }
        if (nameIsBegin || nameIsEnd) && !stack.isEmpty {
            // BEGIN and END only delimit components; `END:INVALID` inside a card is no property.
            log.report(
                .warning, .invalidValue,
                "\(nameIsBegin ? "BEGIN" : "END") of something other than VCARD inside a card was ignored",
                line: origin.line)
            return
        }
        guard !stack.isEmpty else {
            if !inJunk {
                log.report(
                    .warning, .textOutsideCard, "text outside BEGIN:VCARD ... END:VCARD was ignored",
                    line: origin.line)
                inJunk = true
            }
            return
        }
        let top = stack.count - 1
        stack[top].byteCount += range.count
        if stack[top].oversized {
            if top == 0 { skippedRun = (runBefore?.lowerBound ?? origin.absoluteStart)..<origin.absoluteEnd }
            return
        }
        if stack[top].byteCount > limits.maxCardBytes {
            stack[top].oversized = true
            log.report(
                .error, .cardTooLarge,
                "card is larger than \(limits.maxCardBytes) bytes; the rest of it was skipped", line: origin.line)
            if top == 0 { skippedRun = origin.absoluteStart..<origin.absoluteEnd }
            return
        }
        if let selection, !stack[top].isAgent, leavesOut(bytes, range, name: name, selection) {
            stack[top].lastLineLeftOut = true
            return
        }
        stack[top].lastLineLeftOut = false
        let reported = log.diagnostics.count
        // The line read is the card's VERSION when it is named so: a name that had to be cleaned holds a dash.
        if parser.emit(bytes, range, into: &stack[top].card, diagnostics: &log.diagnostics),
            !stack[top].isV21, let name, ASCII.equalsIgnoringCase(bytes, name, "VERSION")
        {
            stack[top].isV21 = stack[top].card.lastValueStarts(with: UInt8(ascii: "2"))
        }
        if log.diagnostics.count > reported { log.admit(from: reported) }
    }

    /// Whether the parsed line is one `selection` leaves out: ungrouped, not named by the selection, read without
    /// a diagnostic (a line with an error or a warning is kept, to be reported as before), and with nothing that
    /// could change how the card's other lines decode.
    private func leavesOut(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, name: Range<Int>?, _ selection: LineSelection
    ) -> Bool {
        guard parser.valueStart != nil, parser.group == nil, let name, !name.isEmpty,
            !selection.keeps(bytes, name: name)
        else { return false }
        return parser.emitsQuietly(bytes, name: name) && !parser.declaresCharsetOrQuotedPrintable(bytes)
            && !LineSelection.hasEightBitByte(bytes, range)
    }

    private func isVCard(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        ASCII.equalsIgnoringCase(bytes, ContentLineParser.trimmed(bytes, range), "VCARD")
    }

    private mutating func beginCard(group: String?, _ origin: LogicalLineOrigin) {
        inJunk = false
        if let top = stack.last {
            let nestsAsAgent = !top.lastLineLeftOut && top.card.lastLineIsEmpty("AGENT")
            // vCard 2.1 lets a card hold whole cards; Android reads each as a contact of its own.
            if !nestsAsAgent && !top.isV21 {
                log.report(
                    .error, .missingEnd, "card has no END:VCARD before the next BEGIN:VCARD",
                    line: top.card.beginLine)
                while !stack.isEmpty { closeCard(endLine: nil, absoluteEnd: origin.absoluteStart) }
            } else if stack.count > limits.maxNestingDepth {
                log.report(
                    .error, .nestingTooDeep,
                    "cards nested deeper than \(limits.maxNestingDepth) levels; the inner card was skipped",
                    line: origin.line)
                stack[stack.count - 1].oversized = true
                return
            }
        }
        let nestsAsAgent = stack.last.map { !$0.lastLineLeftOut && $0.card.lastLineIsEmpty("AGENT") } ?? false
        if stack.isEmpty { log.watchErrors() }
        let card = RawCard(beginLine: origin.line, group: group, capacity: lastCardBytes + lastCardBytes / 2)
        stack.append(
            CardFrame(
                card: card, absoluteStart: origin.absoluteStart, isAgent: nestsAsAgent, errorsBefore: log.errorCount))
    }

    private mutating func endCard(_ origin: LogicalLineOrigin) {
        guard !stack.isEmpty else {
            log.report(.error, .unexpectedEnd, "END:VCARD without a BEGIN:VCARD", line: origin.line)
            return
        }
        closeCard(endLine: origin.line, absoluteEnd: origin.absoluteEnd)
    }

    private mutating func closeCard(endLine: Int?, absoluteEnd: Int) {
        var frame = stack.removeLast()
        if surveyor != nil {
            // A survey only gathers evidence; its cards are thrown away undecided.
            surveyor!.add(frame.card)
        } else if !frame.card.undecided.isEmpty {
            let decided = frame.card.decideCharsets(decoding)
            if !decided.isEmpty {
                let start = log.diagnostics.count
                log.diagnostics += decided
                log.admit(from: start)
            }
        }
        frame.card.hadErrors = log.errorCount > frame.errorsBefore
        if stack.isEmpty && frame.card.hadErrors { frame.card.firstError = log.firstWatchedError }
        // RFC 6868 caret escapes update both 3.0 and 4.0; 2.1 predates them.
        if frame.card.parameterValuesHoldCaret && !frame.card.versionStartsWith21 {
            frame.card.decodeCaretsInParameters()
        }
        if !stack.isEmpty && frame.isAgent {
            // An inline 2.1 card becomes the text value of the AGENT line it follows, as 3.0 writes it.
            var text = "BEGIN:VCARD\n"
            for line in frame.card.lines { text += ContentLineWriter.unfolded(line) + "\n" }
            text += "END:VCARD"
            let top = stack.count - 1
            if stack[top].card.count > 0 {
                stack[top].card.setValue(stack[top].card.count - 1, ValueEscaping.escapeText(text))
            }
            return
        }
        frame.card.endLine = endLine
        frame.card.byteRange = frame.absoluteStart..<absoluteEnd
        lastCardBytes = min(max(frame.card.bytes.count, 256), 1 << 20)
        completed.append(frame.card)
    }
}
