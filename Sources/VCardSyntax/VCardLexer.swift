/// Splits a byte stream into cards of content lines, reporting problems as diagnostics.
///
/// Feed it chunks of any size; it returns each card as soon as its END line has been read, so memory is
/// bounded by the largest card, not the file. The same bytes give the same cards whether fed whole, byte
/// by byte or in random chunks.
///
/// It reads what real clients write: CRLF, LF and CR CR LF line ends; folding with a space or a tab,
/// undone on bytes before any text decoding; vCard 2.1 quoted-printable soft line breaks, CHARSET, bare
/// parameters and base64 that runs on until a blank line; UTF-8 and UTF-16 byte order marks; junk and
/// blank lines between cards; groups; and 2.1 cards nested inline after `AGENT:`.
public struct VCardLexer {
    /// The limits in force.
    public let limits: Limits

    private var buffer: [UInt8] = []
    private var scanIndex = 0
    private var bufferBase = 0
    private var physicalLine = 0
    private var sniffed = false
    private var transcoder: UTF16Transcoder?
    private var skippingLongPhysicalLine = false

    private var pending = Pending()
    /// Where each quoted-printable continuation of the pending line starts in `scratch`.
    private var softBreaks: [Int] = []
    private var scratch: [UInt8] = []
    /// The size of the last card, to reserve storage for the next.
    private var lastCardBytes = 1024
    private var droppingContinuations = false
    private var droppingSoftBreaks = false
    /// The code of the last diagnostic and how many times in a row it has come (see `admitDiagnostics`).
    private var repeatedCode: DiagnosticCode?
    private var repeatCount = 0

    private var parser = ContentLineParser()
    private var stack: [CardFrame] = []
    private var inJunk = false
    private var completed: [RawCard] = []
    private var newDiagnostics: [Diagnostic] = []

    /// The logical line being gathered: where it is (in `buffer`, or in `scratch` once it has been joined
    /// with a continuation) and what is known about it so far.
    private struct Pending {
        var active = false
        var inScratch = false
        var start = 0
        var end = 0
        var line = 0
        var absoluteStart = 0
        var absoluteEnd = 0
        /// Whether the parameters ask for quoted-printable or base64 (0 not read yet, 1 no, 2 yes).
        var quotedPrintable: UInt8 = 0
        var base64: UInt8 = 0
        /// Whether every quoted-printable continuation was indented.
        var softBreaksAllIndented = true
        /// Where the last piece begins when it is an unindented base64 line in a 3.0 or 4.0 card (see
        /// `continuesPending`).
        var unindentedRunOn: RunOn?
    }

    /// An unindented base64 line joined to the pending line: its offset in `scratch`, line and byte offset.
    private struct RunOn {
        var offset: Int
        var line: Int
        var absoluteStart: Int
    }

    private struct CardFrame {
        var card: RawCard
        var absoluteStart: Int
        var byteCount = 0
        var oversized = false
        var isAgent = false
        var isV21 = false
    }

    /// Creates a lexer with the given limits.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Creates a lexer for input that continues a stream at a card boundary (see `CardBoundary`): line
    /// numbers and byte offsets count from `line` lines and `offset` bytes already read, and no byte order
    /// mark is looked for.
    public init(limits: Limits = .default, continuingAfterLine line: Int, offset: Int) {
        self.limits = limits
        physicalLine = line
        bufferBase = offset
        sniffed = true
    }

    /// Whether a card was still open when `finish` was called (and was closed with a missing-END error).
    public private(set) var endedInsideCard = false

    /// Reads a whole input at once.
    public static func parse(_ bytes: some Sequence<UInt8>, limits: Limits = .default)
        -> (cards: [RawCard], diagnostics: [Diagnostic])
    {
        var lexer = VCardLexer(limits: limits)
        let array = Array(bytes)
        var cards = lexer.feed(array)
        cards += lexer.finish()
        return (cards, lexer.takeDiagnostics())
    }

    /// Diagnostics found since the last call, in input order.
    public mutating func takeDiagnostics() -> [Diagnostic] {
        defer { newDiagnostics.removeAll() }
        return newDiagnostics
    }

    /// Adds the next chunk of input and returns the cards it completed.
    public mutating func feed(_ chunk: [UInt8]) -> [RawCard] {
        chunk.withUnsafeBufferPointer { feed($0) }
    }

    /// Adds the next chunk of input and returns the cards it completed.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> [RawCard] {
        compact()
        if let transcoder {
            var copy = transcoder
            copy.transcode(chunk, into: &buffer)
            self.transcoder = copy
        } else {
            buffer.append(contentsOf: chunk)
        }
        if !sniffed {
            guard buffer.count >= 4 else { return takeCompleted() }
            sniff()
        }
        scan(final: false)
        return takeCompleted()
    }

    /// Ends the input and returns the cards still open or pending; an unterminated card is reported.
    public mutating func finish() -> [RawCard] {
        if !sniffed { sniff() }
        if var transcoder {
            transcoder.finish(into: &buffer)
            self.transcoder = transcoder
        }
        scan(final: true)
        let bytes = buffer
        bytes.withUnsafeBufferPointer { flushPending($0) }
        endedInsideCard = !stack.isEmpty
        while !stack.isEmpty {
            let frame = stack[stack.count - 1]
            report(.error, .missingEnd, "card has no END:VCARD before the end of the input", line: frame.card.beginLine)
            closeCard(endLine: nil, absoluteEnd: bufferBase + buffer.count)
        }
        return takeCompleted()
    }

    private mutating func takeCompleted() -> [RawCard] {
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }

    // MARK: Bytes to physical lines

    private mutating func sniff() {
        sniffed = true
        if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
            scanIndex = 3
            return
        }
        var bigEndian: Bool?
        var skip = 0
        if buffer.count >= 2 && buffer[0] == 0xFF && buffer[1] == 0xFE {
            bigEndian = false
            skip = 2
        } else if buffer.count >= 2 && buffer[0] == 0xFE && buffer[1] == 0xFF {
            bigEndian = true
            skip = 2
        } else if buffer.count >= 4 && buffer[0] != 0 && buffer[1] == 0 && buffer[2] != 0 && buffer[3] == 0 {
            bigEndian = false
        } else if buffer.count >= 4 && buffer[0] == 0 && buffer[1] != 0 && buffer[2] == 0 && buffer[3] != 0 {
            bigEndian = true
        }
        guard let bigEndian else { return }
        // Offsets then count UTF-8 bytes of the transcoded text, not bytes of the file.
        var transcoder = UTF16Transcoder(bigEndian: bigEndian)
        let raw = Array(buffer[skip...])
        buffer.removeAll(keepingCapacity: true)
        raw.withUnsafeBufferPointer { transcoder.transcode($0, into: &buffer) }
        if buffer.first == 0xEF && buffer.count >= 3 && buffer[1] == 0xBB && buffer[2] == 0xBF { scanIndex = 3 }
        self.transcoder = transcoder
    }

    private mutating func compact() {
        var keep = scanIndex
        if pending.active, !pending.inScratch { keep = min(keep, pending.start) }
        guard keep > 0, keep >= buffer.count / 2 || keep > 1 << 20 else { return }
        buffer.removeFirst(keep)
        bufferBase += keep
        scanIndex -= keep
        if pending.active, !pending.inScratch {
            pending.start -= keep
            pending.end -= keep
        }
    }

    private mutating func scan(final: Bool) {
        // The buffer is not changed while scanning, so one pointer serves every line.
        let bytes = buffer
        bytes.withUnsafeBufferPointer { scan($0, final: final) }
    }

    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) {
        let count = bytes.count
        while scanIndex < count {
            let lineStart = scanIndex
            guard let (lineEnd, next) = Self.findLineEnd(bytes, from: lineStart, final: final) else {
                // No complete line yet: refuse to buffer an unbounded physical line.
                if count - lineStart > limits.maxLineBytes {
                    if !skippingLongPhysicalLine {
                        endPendingBeforeOverlongLine(bytes, start: lineStart, end: count)
                        report(
                            .error, .lineTooLong,
                            "line is longer than \(limits.maxLineBytes) bytes; it was skipped",
                            line: physicalLine + 1)
                    }
                    skippingLongPhysicalLine = true
                    scanIndex = count
                }
                return
            }
            physicalLine += 1
            scanIndex = next
            if skippingLongPhysicalLine {
                skippingLongPhysicalLine = false
                droppingContinuations = true
                continue
            }
            if lineEnd - lineStart > limits.maxLineBytes {
                endPendingBeforeOverlongLine(bytes, start: lineStart, end: lineEnd)
                report(
                    .error, .lineTooLong, "line is longer than \(limits.maxLineBytes) bytes; it was skipped",
                    line: physicalLine)
                continue
            }
            physical(bytes, start: lineStart, end: lineEnd, next: next)
        }
    }

    /// The end of the physical line starting at `from` and the start of the next one. A line ends at LF,
    /// at a run of CRs followed by LF (CR CR LF is one line end, as iOS writes it), or at a run of CRs.
    @inline(__always)
    private static func findLineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, final: Bool)
        -> (Int, Int)?
    {
        let count = bytes.count
        var index = from
        while index < count {
            let byte = bytes[index]
            if byte > ASCII.cr {
                index += 1
                continue
            }
            if byte == ASCII.lf { return (index, index + 1) }
            if byte == ASCII.cr {
                var after = index + 1
                while after < count && bytes[after] == ASCII.cr { after += 1 }
                if after == count { return final ? (index, count) : nil }
                if bytes[after] == ASCII.lf { return (index, after + 1) }
                return (index, after)
            }
            index += 1
        }
        return final && from < count ? (count, count) : nil
    }

    // MARK: Physical lines to logical lines

    private mutating func physical(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, next: Int) {
        let absoluteEnd = bufferBase + next
        if droppingSoftBreaks {
            // The rest of a quoted-printable value that went over the line limit: its soft line breaks
            // carry it on, and the first line without one is its last.
            droppingSoftBreaks = end > start && bytes[end - 1] == ASCII.equals
            return
        }
        if pending.active {
            if continuesPending(bytes, start: start, end: end) {
                pending.absoluteEnd = absoluteEnd
                return
            }
            flushPending(bytes)
        }
        var first = start
        let leadingWhitespace = first < end && ASCII.isSpaceOrTab(bytes[first])
        if droppingContinuations && leadingWhitespace { return }
        droppingContinuations = false
        while first < end && ASCII.isSpaceOrTab(bytes[first]) { first += 1 }
        guard first < end else { return }
        pending = Pending(
            active: true, start: first, end: end, line: physicalLine,
            absoluteStart: bufferBase + start, absoluteEnd: absoluteEnd)
    }

    /// Appends the physical line to the pending logical line if it continues it, and says whether it did.
    private mutating func continuesPending(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Bool {
        let startsWithSpace = start < end && ASCII.isSpaceOrTab(bytes[start])
        let lastByte = pending.inScratch ? scratch.last : (pending.end > pending.start ? bytes[pending.end - 1] : nil)
        // A quoted-printable soft line break: the next line is content as it stands, leading spaces included.
        if lastByte == ASCII.equals {
            classifyPending(bytes)
            if pending.quotedPrintable == 2 {
                moveToScratch(bytes)
                scratch.removeLast()
                softBreaks.append(scratch.count)
                if !startsWithSpace { pending.softBreaksAllIndented = false }
                append(bytes, start, end)
                return true
            }
        }
        if startsWithSpace {
            if let runOn = pending.unindentedRunOn { splitOff(runOn, bytes) }
            moveToScratch(bytes)
            append(bytes, start + 1, end)
            return true
        }
        // Android writes a 2.1 line break inside a value as `\` at the end of the line, the value going on
        // at the start of the next line; in a 2.1 card, a line with no colon after such a backslash continues
        // the value. Only in 2.1: a 3.0 or 4.0 writer folds long lines, so the colon may be on the next line.
        if lastByte == ASCII.backslash && stack.last?.isV21 == true && start < end
            && !Self.contains(bytes, start, end, ASCII.colon)
            && endsWithOddBackslashes(bytes)
        {
            moveToScratch(bytes)
            scratch.append(UInt8(ascii: "n"))
            append(bytes, start, end)
            return true
        }
        // 2.1 base64 runs on over following lines until a blank line, indented or not. 3.0 and 4.0 go on only on
        // folded lines, but hand-written generators wrap base64 there too (`chunk_split`), so it is read the same
        // way; there a line of letters may also be a long property name folded before its colon, which the fold
        // that follows it shows (`splitOff`).
        if start < end && Self.isBase64Line(bytes, start, end) {
            classifyPending(bytes)
            if pending.base64 == 2 {
                moveToScratch(bytes)
                let runOn = RunOn(offset: scratch.count, line: physicalLine, absoluteStart: bufferBase + start)
                append(bytes, start, end)
                if stack.last?.isV21 != true { pending.unindentedRunOn = runOn }
                return true
            }
        }
        return false
    }

    /// Ends the pending line before its last piece, an unindented base64 line that turned out to be folded, and
    /// makes that piece the pending line: a line followed by a fold begins a logical line of its own.
    private mutating func splitOff(_ runOn: RunOn, _ bytes: UnsafeBufferPointer<UInt8>) {
        let piece = Array(scratch[runOn.offset...])
        scratch.removeSubrange(runOn.offset...)
        pending.absoluteEnd = runOn.absoluteStart
        flushPending(bytes)
        scratch = piece
        softBreaks.removeAll(keepingCapacity: true)
        pending = Pending(
            active: true, inScratch: true, line: runOn.line, absoluteStart: runOn.absoluteStart,
            absoluteEnd: runOn.absoluteStart)
    }

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ byte: UInt8) -> Bool {
        for index in start..<end where bytes[index] == byte { return true }
        return false
    }

    private func endsWithOddBackslashes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var run = 0
        if pending.inScratch {
            var i = scratch.count - 1
            while i >= 0 && scratch[i] == ASCII.backslash {
                run += 1
                i -= 1
            }
        } else {
            var i = pending.end - 1
            while i >= pending.start && bytes[i] == ASCII.backslash {
                run += 1
                i -= 1
            }
        }
        return run % 2 == 1
    }

    private static func isBase64Line(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        for index in start..<end {
            let byte = bytes[index]
            if !ASCII.isBase64(byte) && !ASCII.isSpaceOrTab(byte) { return false }
        }
        return true
    }

    /// Reads the pending line's parameters, once, for the transfer encoding they ask for: exactly as the parser
    /// will when it decodes the line, so that only lines it decodes are joined (a parameter value that merely
    /// holds `QUOTED-PRINTABLE`, or a property of that name, has no soft line breaks).
    private mutating func classifyPending(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard pending.quotedPrintable == 0 else { return }
        let encoding: (quotedPrintable: Bool, base64: Bool)
        if pending.inScratch {
            let joined = scratch
            encoding = joined.withUnsafeBufferPointer {
                parser.parse($0, 0..<$0.count, line: pending.line, limits: limits)
                return parser.transferEncoding($0)
            }
        } else {
            parser.parse(bytes, pending.start..<pending.end, line: pending.line, limits: limits)
            encoding = parser.transferEncoding(bytes)
        }
        pending.quotedPrintable = encoding.quotedPrintable ? 2 : 1
        // The parser decodes quoted-printable when a line asks for both.
        pending.base64 = encoding.base64 && !encoding.quotedPrintable ? 2 : 1
    }

    private mutating func moveToScratch(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard pending.active, !pending.inScratch else { return }
        scratch.removeAll(keepingCapacity: true)
        softBreaks.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pending.start..<pending.end]))
        pending.inScratch = true
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        guard start < end else { return }
        if scratch.count + (end - start) > limits.maxLineBytes {
            report(
                .error, .lineTooLong, "line is longer than \(limits.maxLineBytes) bytes; it was skipped",
                line: pending.active ? pending.line : physicalLine)
            // A quoted-printable value goes on while its lines end in a soft line break: drop all of it.
            let softBreakFollows = pending.quotedPrintable == 2 && bytes[end - 1] == ASCII.equals
            discardPendingForOverflow()
            droppingSoftBreaks = softBreakFollows
            return
        }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    /// Before a physical line too long to keep: if it would continue the pending logical line, that whole
    /// logical line is over the limit and goes; otherwise the pending line is complete and is kept (a 200 MB
    /// NOTE must not take the FN before it along). Either way what follows the long line and looks like its
    /// continuation is dropped with it.
    private mutating func endPendingBeforeOverlongLine(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        guard pending.active else {
            droppingContinuations = true
            return
        }
        if start < end && ASCII.isSpaceOrTab(bytes[start]), let runOn = pending.unindentedRunOn {
            splitOff(runOn, bytes)
        }
        let lastByte = pending.inScratch ? scratch.last : (pending.end > pending.start ? bytes[pending.end - 1] : nil)
        // The same tests as continuesPending, on what can be seen without buffering the whole line.
        classifyPending(bytes)
        let head = min(end, start + 4096)
        let continues =
            (start < end && ASCII.isSpaceOrTab(bytes[start]))
            || (lastByte == ASCII.equals && pending.quotedPrintable == 2)
            || (lastByte == ASCII.backslash && stack.last?.isV21 == true)
            || (start < end && pending.base64 == 2 && Self.isBase64Line(bytes, start, head))
        if continues {
            discardPendingForOverflow()
        } else {
            flushPending(bytes)
            droppingContinuations = true
        }
    }

    private mutating func discardPendingForOverflow() {
        pending.active = false
        softBreaks.removeAll()
        scratch.removeAll()
        droppingContinuations = true
    }

    private mutating func flushPending(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard pending.active else { return }
        let p = pending
        pending.active = false
        if p.inScratch {
            if !softBreaks.isEmpty && p.softBreaksAllIndented {
                // Some 2.1 writers indent every quoted-printable continuation as if folding; when all of them
                // are indented that space is layout, not content (a lone leading space stays content).
                for offset in softBreaks.reversed() where offset < scratch.count { scratch.remove(at: offset) }
            }
            let joined = scratch
            joined.withUnsafeBufferPointer { logical($0, 0..<$0.count, p) }
        } else {
            logical(bytes, p.start..<p.end, p)
        }
    }

    // MARK: Logical lines to cards

    private mutating func logical(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ p: Pending) {
        parser.parse(bytes, range, line: p.line, limits: limits)
        // Trimmed as the parser trims names, so that ` END` is END here as it would be as a property.
        let name = parser.name.map { ContentLineParser.trimmed(bytes, $0) }
        let nameIsBegin = name.map { ASCII.equalsIgnoringCase(bytes, $0, "BEGIN") } ?? false
        let nameIsEnd = !nameIsBegin && (name.map { ASCII.equalsIgnoringCase(bytes, $0, "END") } ?? false)
        if nameIsBegin || nameIsEnd, let valueStart = parser.valueStart,
            isVCard(bytes, valueStart..<range.upperBound)
        {
            let group = parser.group.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
            if nameIsBegin { beginCard(group: group, p) } else { endCard(p) }
            return
        }
        if (nameIsBegin || nameIsEnd) && !stack.isEmpty {
            // BEGIN and END only delimit components; `END:INVALID` inside a card is no property.
            report(
                .warning, .invalidValue,
                "\(nameIsBegin ? "BEGIN" : "END") of something other than VCARD inside a card was ignored",
                line: p.line)
            return
        }
        guard !stack.isEmpty else {
            if !inJunk {
                report(.warning, .textOutsideCard, "text outside BEGIN:VCARD ... END:VCARD was ignored", line: p.line)
                inJunk = true
            }
            return
        }
        let top = stack.count - 1
        stack[top].byteCount += range.count
        if stack[top].oversized { return }
        if stack[top].byteCount > limits.maxCardBytes {
            stack[top].oversized = true
            report(
                .error, .cardTooLarge,
                "card is larger than \(limits.maxCardBytes) bytes; the rest of it was skipped", line: p.line)
            return
        }
        let reported = newDiagnostics.count
        if parser.emit(bytes, range, into: &stack[top].card, diagnostics: &newDiagnostics),
            !stack[top].isV21, stack[top].card.lastLineIs("VERSION")
        {
            stack[top].isV21 = stack[top].card.lastValueStarts(with: UInt8(ascii: "2"))
        }
        if newDiagnostics.count > reported { admitDiagnostics(from: reported) }
    }

    private func isVCard(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper && ASCII.isSpaceOrTab(bytes[lower]) { lower += 1 }
        while upper > lower && ASCII.isSpaceOrTab(bytes[upper - 1]) { upper -= 1 }
        return ASCII.equalsIgnoringCase(bytes, lower..<upper, "VCARD")
    }

    private mutating func beginCard(group: String?, _ p: Pending) {
        inJunk = false
        if let top = stack.last {
            let nestsAsAgent = top.card.lastLineIsEmpty("AGENT")
            // vCard 2.1 lets a card hold whole cards; Android reads each as a contact of its own.
            if !nestsAsAgent && !top.isV21 {
                report(
                    .error, .missingEnd, "card has no END:VCARD before the next BEGIN:VCARD",
                    line: top.card.beginLine)
                while !stack.isEmpty { closeCard(endLine: nil, absoluteEnd: p.absoluteStart) }
            } else if stack.count > limits.maxNestingDepth {
                report(
                    .error, .nestingTooDeep,
                    "cards nested deeper than \(limits.maxNestingDepth) levels; the inner card was skipped",
                    line: p.line)
                stack[stack.count - 1].oversized = true
                return
            }
        }
        let nestsAsAgent = stack.last?.card.lastLineIsEmpty("AGENT") ?? false
        let card = RawCard(beginLine: p.line, group: group, capacity: lastCardBytes + lastCardBytes / 2)
        stack.append(CardFrame(card: card, absoluteStart: p.absoluteStart, isAgent: nestsAsAgent))
    }

    private mutating func endCard(_ p: Pending) {
        guard !stack.isEmpty else {
            report(.error, .unexpectedEnd, "END:VCARD without a BEGIN:VCARD", line: p.line)
            return
        }
        closeCard(endLine: p.line, absoluteEnd: p.absoluteEnd)
    }

    private mutating func closeCard(endLine: Int?, absoluteEnd: Int) {
        var frame = stack.removeLast()
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

    private mutating func report(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String,
        line: Int, column: Int = 1
    ) {
        newDiagnostics.append(Diagnostic(severity, code, message, line: line, column: column))
        admitDiagnostics(from: newDiagnostics.count - 1)
    }

    /// The same problem on line after line is reported this many times, then once more to say the rest are
    /// not: a million lines without a colon give 101 diagnostics, not a million (nor the memory to hold them).
    public static let repeatedDiagnosticLimit = 100

    /// Passes the diagnostics from `start` on through the repeat limit.
    private mutating func admitDiagnostics(from start: Int) {
        var kept = start
        for index in start..<newDiagnostics.count {
            let diagnostic = newDiagnostics[index]
            if diagnostic.code == repeatedCode {
                repeatCount += 1
            } else {
                repeatedCode = diagnostic.code
                repeatCount = 1
            }
            if repeatCount <= Self.repeatedDiagnosticLimit {
                newDiagnostics[kept] = diagnostic
                kept += 1
            } else if repeatCount == Self.repeatedDiagnosticLimit + 1 {
                newDiagnostics[kept] = Diagnostic(
                    diagnostic.severity, diagnostic.code,
                    "the same problem repeats on the lines after this one; they are not reported",
                    line: diagnostic.line, column: diagnostic.column)
                kept += 1
            }
        }
        newDiagnostics.removeSubrange(kept...)
    }
}

extension RawCard {
    /// Whether the last line is named `upper`.
    func lastLineIs(_ upper: StaticString) -> Bool {
        guard let last = records.last else { return false }
        return bytes.withUnsafeBufferPointer {
            UnsafeBufferPointer(rebasing: $0[last.name.start..<last.name.end]).isEqual(to: upper)
        }
    }

    /// Whether the last line is named `upper` and has an empty value (an AGENT that a card follows).
    func lastLineIsEmpty(_ upper: StaticString) -> Bool {
        guard let last = records.last, last.value.count == 0 else { return false }
        return lastLineIs(upper)
    }

    /// Whether the last line's value starts with `byte`.
    func lastValueStarts(with byte: UInt8) -> Bool {
        guard let last = records.last, last.value.count > 0 else { return false }
        return bytes[last.value.start] == byte
    }

    /// Whether the first VERSION line says 2.x or 1.x (the reader too goes by the first).
    var versionStartsWith21: Bool {
        withView { view in
            for index in 0..<view.count where view[index].nameIs("VERSION") {
                let value = view[index].valueBytes
                return value.first == UInt8(ascii: "2") || value.first == UInt8(ascii: "1")
            }
            return false
        }
    }

    /// Decodes RFC 6868 `^` escapes in every parameter value, in place (the decoded form is never longer).
    mutating func decodeCaretsInParameters() {
        for index in parameterValues.indices {
            let span = parameterValues[index]
            var read = span.start
            while read < span.end && bytes[read] != ASCII.caret { read += 1 }
            if read == span.end { continue }
            var write = read
            while read < span.end {
                let byte = bytes[read]
                read += 1
                guard byte == ASCII.caret, read < span.end else {
                    bytes[write] = byte
                    write += 1
                    continue
                }
                let next = bytes[read]
                read += 1
                switch next {
                case UInt8(ascii: "n"), UInt8(ascii: "N"):
                    bytes[write] = ASCII.lf
                    write += 1
                case ASCII.caret:
                    bytes[write] = ASCII.caret
                    write += 1
                case UInt8(ascii: "'"):
                    bytes[write] = ASCII.quote
                    write += 1
                default:
                    bytes[write] = byte
                    bytes[write + 1] = next
                    write += 2
                }
            }
            parameterValues[index].end = write
        }
    }
}
