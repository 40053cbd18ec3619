/// Where a logical line came from: the physical line it starts on and its byte offsets in the input, line end
/// included.
package struct LogicalLineOrigin: Equatable, Sendable {
    /// The 1-based physical line the logical line starts on.
    package var line: Int
    /// The input offset of its first byte (leading white space included).
    package var absoluteStart: Int
    /// The input offset just past the line end of its last physical line.
    package var absoluteEnd: Int
}

/// What the unfolder hands its logical lines to: the card assembler, or a test that collects them.
package protocol LogicalLineConsumer {
    /// Whether the card being read is vCard 2.1, where Android's backslash continuation applies and base64 runs on
    /// whatever follows.
    var inV21Card: Bool { get }
    /// Takes one logical line, `bytes[range]`, valid only during the call.
    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ origin: LogicalLineOrigin)
    /// Records a problem found while unfolding.
    mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String, line: Int)
}

/// The lexer's second stage: joins physical lines into logical lines by the continuation rules
/// (`ContinuationRule`), undoing folding on bytes before any text decoding.
///
/// A logical line that is one physical line is handed on as a range of the splitter's buffer; only a line joined
/// from several is copied, into one scratch buffer reused for every line. Each logical line is handed on when the
/// physical line after it shows that it has ended, so the unfolder holds at most one line.
package struct Unfolder {
    private let maxLineBytes: Int
    private let limits: Limits
    private var pending = Pending()
    /// Where each quoted-printable continuation of the pending line starts in `scratch`.
    private var softBreaks: [Int] = []
    private var scratch: [UInt8] = []
    /// After a line over the limit: drop what looks like its continuation.
    private var droppingContinuations = false
    /// After a quoted-printable value over the limit: drop the rest of it, up to its last soft line break.
    private var droppingSoftBreaks = false
    /// Reads a pending line's parameters for its transfer encoding.
    private var parser = ContentLineParser()

    /// The logical line being gathered: where it is (in the splitter's buffer, or in `scratch` once it has been
    /// joined with a continuation) and what is known about it so far.
    private struct Pending {
        var active = false
        var inScratch = false
        var start = 0
        var end = 0
        var origin = LogicalLineOrigin(line: 0, absoluteStart: 0, absoluteEnd: 0)
        var encoding = TransferEncoding.unread
        /// Whether every quoted-printable continuation was indented.
        var softBreaksAllIndented = true
        /// Where the last piece begins when it is an unindented base64 line in a 3.0 or 4.0 card (see
        /// `FoldedNameRule`).
        var unindentedRunOn: RunOn?
    }

    /// An unindented base64 line joined to the pending line: its offset in `scratch`, line and byte offset.
    private struct RunOn {
        var offset: Int
        var line: Int
        var absoluteStart: Int
    }

    /// Creates an unfolder that keeps logical lines up to `limits.maxLineBytes`.
    package init(limits: Limits) {
        self.limits = limits
        maxLineBytes = limits.maxLineBytes
    }

    /// The first offset of the splitter's buffer the pending line still points into, if any.
    package var retainedStart: Int? { pending.active && !pending.inScratch ? pending.start : nil }

    /// Shifts offsets into the splitter's buffer after it dropped `count` bytes from its front.
    package mutating func rebase(by count: Int) {
        guard pending.active, !pending.inScratch else { return }
        pending.start -= count
        pending.end -= count
    }

    /// Takes the splitter's next event; `bytes` is its buffer, which starts at input offset `base`.
    package mutating func take<Consumer: LogicalLineConsumer>(
        _ event: LineSplitter.Event, _ bytes: UnsafeBufferPointer<UInt8>, base: Int, lineNumber: Int,
        into consumer: inout Consumer
    ) {
        switch event {
        case .line(let start, let end, let next):
            physical(bytes, start: start, end: end, next: next, base: base, lineNumber: lineNumber, into: &consumer)
        case .overlongLine(let start, let end, let number):
            endPendingBeforeOverlongLine(bytes, start: start, end: end, into: &consumer)
            consumer.report(
                .error, .lineTooLong, "line is longer than \(maxLineBytes) bytes; it was skipped", line: number)
        case .endOfOverlongLine:
            droppingContinuations = true
        }
    }

    /// Hands on the pending line, at the end of the input.
    package mutating func flush<Consumer: LogicalLineConsumer>(
        _ bytes: UnsafeBufferPointer<UInt8>, into consumer: inout Consumer
    ) {
        flushPending(bytes, into: &consumer)
    }

    private mutating func physical<Consumer: LogicalLineConsumer>(
        _ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, next: Int, base: Int, lineNumber: Int,
        into consumer: inout Consumer
    ) {
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if droppingSoftBreaks && !SoftLineBreakRule.isEndOfCard(line) {
            // The rest of a quoted-printable value that went over the line limit: its soft line breaks carry it
            // on, and the first line without one (or the card's END) is its last.
            droppingSoftBreaks = line.last == ASCII.equals
            return
        }
        droppingSoftBreaks = false
        if pending.active {
            if let rule = continuation(bytes, line, into: &consumer) {
                join(rule, bytes, start: start, end: end, base: base, lineNumber: lineNumber, into: &consumer)
                pending.origin.absoluteEnd = base + next
                return
            }
            flushPending(bytes, into: &consumer)
        }
        var first = start
        let leadingWhiteSpace = FoldRule.continues(line)
        if droppingContinuations && leadingWhiteSpace { return }
        droppingContinuations = false
        while first < end && ASCII.isSpaceOrTab(bytes[first]) { first += 1 }
        guard first < end else { return }
        pending = Pending(
            active: true, start: first, end: end,
            origin: LogicalLineOrigin(line: lineNumber, absoluteStart: base + start, absoluteEnd: base + next))
    }

    /// The rule by which `line` continues the pending line, if one does.
    private mutating func continuation<Consumer: LogicalLineConsumer>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ line: UnsafeBufferPointer<UInt8>, into consumer: inout Consumer
    ) -> ContinuationRule? {
        let lastByte = pendingLastByte(bytes)
        if SoftLineBreakRule.mayApply(lastByte: lastByte) {
            classifyPending(bytes)
            if SoftLineBreakRule.applies(encoding: pending.encoding) {
                return SoftLineBreakRule.stops(at: line) ? nil : .quotedPrintableSoftBreak
            }
        }
        if FoldRule.continues(line) { return .fold }
        if lastByte == ASCII.backslash,
            BackslashContinuationRule.continues(
                trailingBackslashes: trailingBackslashes(bytes), inV21Card: consumer.inV21Card, line: line)
        {
            return .androidBackslash
        }
        if line.count > 0 && Base64RunOnRule.isBase64Line(line) {
            classifyPending(bytes)
            if Base64RunOnRule.continues(encoding: pending.encoding, line: line) { return .base64RunOn }
        }
        return nil
    }

    /// Joins the physical line `bytes[start..<end]` to the pending line by `rule`.
    private mutating func join<Consumer: LogicalLineConsumer>(
        _ rule: ContinuationRule, _ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, base: Int,
        lineNumber: Int, into consumer: inout Consumer
    ) {
        switch rule {
        case .quotedPrintableSoftBreak:
            moveToScratch(bytes)
            scratch.removeLast()
            softBreaks.append(scratch.count)
            if !FoldRule.continues(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                pending.softBreaksAllIndented = false
            }
            append(bytes, start, end, into: &consumer)
        case .fold:
            if let runOn = pending.unindentedRunOn { splitOff(runOn, bytes, into: &consumer) }
            moveToScratch(bytes)
            append(bytes, start + 1, end, into: &consumer)
        case .androidBackslash:
            moveToScratch(bytes)
            scratch.append(BackslashContinuationRule.joiner)
            append(bytes, start, end, into: &consumer)
        case .base64RunOn:
            moveToScratch(bytes)
            let runOn = RunOn(offset: scratch.count, line: lineNumber, absoluteStart: base + start)
            append(bytes, start, end, into: &consumer)
            if FoldedNameRule.mayBeFoldedName(inV21Card: consumer.inV21Card) { pending.unindentedRunOn = runOn }
        }
    }

    /// Ends the pending line before its last piece, an unindented base64 line that turned out to be folded, and
    /// makes that piece the pending line (`FoldedNameRule`).
    private mutating func splitOff<Consumer: LogicalLineConsumer>(
        _ runOn: RunOn, _ bytes: UnsafeBufferPointer<UInt8>, into consumer: inout Consumer
    ) {
        let piece = Array(scratch[runOn.offset...])
        scratch.removeSubrange(runOn.offset...)
        pending.origin.absoluteEnd = runOn.absoluteStart
        flushPending(bytes, into: &consumer)
        scratch = piece
        softBreaks.removeAll(keepingCapacity: true)
        pending = Pending(
            active: true, inScratch: true,
            origin: LogicalLineOrigin(
                line: runOn.line, absoluteStart: runOn.absoluteStart, absoluteEnd: runOn.absoluteStart))
    }

    private func pendingLastByte(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
        pending.inScratch ? scratch.last : (pending.end > pending.start ? bytes[pending.end - 1] : nil)
    }

    /// The number of backslashes the pending line ends with.
    private func trailingBackslashes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
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
        return run
    }

    /// Reads the pending line's parameters, once, for the transfer encoding they ask for: exactly as the parser
    /// will when it decodes the line, so that only lines it decodes are joined (a parameter value that merely
    /// holds `QUOTED-PRINTABLE`, or a property of that name, has no soft line breaks).
    private mutating func classifyPending(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard pending.encoding == .unread else { return }
        let encoding: (quotedPrintable: Bool, base64: Bool)
        if pending.inScratch {
            let joined = scratch
            encoding = joined.withUnsafeBufferPointer {
                parser.parse($0, 0..<$0.count, line: pending.origin.line, limits: limits)
                return parser.transferEncoding($0)
            }
        } else {
            parser.parse(bytes, pending.start..<pending.end, line: pending.origin.line, limits: limits)
            encoding = parser.transferEncoding(bytes)
        }
        // The parser decodes quoted-printable when a line asks for both.
        pending.encoding = encoding.quotedPrintable ? .quotedPrintable : encoding.base64 ? .base64 : .plain
    }

    private mutating func moveToScratch(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard pending.active, !pending.inScratch else { return }
        scratch.removeAll(keepingCapacity: true)
        softBreaks.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pending.start..<pending.end]))
        pending.inScratch = true
    }

    private mutating func append<Consumer: LogicalLineConsumer>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into consumer: inout Consumer
    ) {
        guard start < end else { return }
        if scratch.count + (end - start) > maxLineBytes {
            consumer.report(
                .error, .lineTooLong, "line is longer than \(maxLineBytes) bytes; it was skipped",
                line: pending.origin.line)
            // A quoted-printable value goes on while its lines end in a soft line break: drop all of it.
            let softBreakFollows = pending.encoding == .quotedPrintable && bytes[end - 1] == ASCII.equals
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
    private mutating func endPendingBeforeOverlongLine<Consumer: LogicalLineConsumer>(
        _ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, into consumer: inout Consumer
    ) {
        guard pending.active else {
            droppingContinuations = true
            return
        }
        // The same rules as `continuation`, on what can be seen without buffering the whole line.
        let folded = FoldRule.continues(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        if folded, let runOn = pending.unindentedRunOn { splitOff(runOn, bytes, into: &consumer) }
        let lastByte = pendingLastByte(bytes)
        classifyPending(bytes)
        let head = UnsafeBufferPointer(rebasing: bytes[start..<min(end, start + 4096)])
        let continues =
            folded
            || (SoftLineBreakRule.mayApply(lastByte: lastByte) && SoftLineBreakRule.applies(encoding: pending.encoding))
            || (lastByte == ASCII.backslash && consumer.inV21Card)
            || (start < end && pending.encoding == .base64 && Base64RunOnRule.isBase64Line(head))
        if continues {
            discardPendingForOverflow()
        } else {
            flushPending(bytes, into: &consumer)
            droppingContinuations = true
        }
    }

    private mutating func discardPendingForOverflow() {
        pending.active = false
        softBreaks.removeAll()
        scratch.removeAll()
        droppingContinuations = true
    }

    private mutating func flushPending<Consumer: LogicalLineConsumer>(
        _ bytes: UnsafeBufferPointer<UInt8>, into consumer: inout Consumer
    ) {
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
            joined.withUnsafeBufferPointer { consumer.consume($0, 0..<$0.count, p.origin) }
        } else {
            consumer.consume(bytes, p.start..<p.end, p.origin)
        }
    }
}
