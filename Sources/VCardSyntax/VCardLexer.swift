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

    private var pending: Pending?
    private var scratch: [UInt8] = []
    private var droppingContinuations = false

    private var parser = ContentLineParser()
    private var stack: [CardFrame] = []
    private var inJunk = false
    private var completed: [RawCard] = []
    private var newDiagnostics: [Diagnostic] = []

    private struct Pending {
        var inScratch: Bool
        var start: Int
        var end: Int
        var line: Int
        var absoluteStart: Int
        var absoluteEnd: Int
        var quotedPrintable: Bool?
        var base64: Bool?
        /// Where each quoted-printable continuation starts in `scratch`, and whether all were indented.
        var softBreaks: [Int] = []
        var softBreaksAllIndented = true
    }

    private struct CardFrame {
        var lines: [ContentLine] = []
        var beginLine: Int
        var group: String?
        var absoluteStart: Int
        var byteCount = 0
        var oversized = false
        var isAgent = false
    }

    /// Creates a lexer with the given limits.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

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
        flushPending()
        while !stack.isEmpty {
            let frame = stack[stack.count - 1]
            report(.error, .missingEnd, "card has no END:VCARD before the end of the input", line: frame.beginLine)
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
        if let pending, !pending.inScratch { keep = min(keep, pending.start) }
        guard keep > 0, keep >= buffer.count / 2 || keep > 1 << 20 else { return }
        buffer.removeFirst(keep)
        bufferBase += keep
        scanIndex -= keep
        if pending != nil, !pending!.inScratch {
            pending!.start -= keep
            pending!.end -= keep
        }
    }

    private mutating func scan(final: Bool) {
        let count = buffer.count
        while scanIndex < count {
            let lineStart = scanIndex
            let found: (end: Int, next: Int)? = buffer.withUnsafeBufferPointer { bytes in
                Self.findLineEnd(bytes, from: lineStart, final: final)
            }
            guard let (lineEnd, next) = found else {
                // No complete line yet: refuse to buffer an unbounded physical line.
                if count - lineStart > limits.maxLineBytes {
                    if !skippingLongPhysicalLine {
                        report(.error, .lineTooLong,
                               "line is longer than \(limits.maxLineBytes) bytes; it was skipped",
                               line: physicalLine + 1)
                        discardPendingForOverflow()
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
                report(.error, .lineTooLong, "line is longer than \(limits.maxLineBytes) bytes; it was skipped",
                       line: physicalLine)
                discardPendingForOverflow()
                continue
            }
            physical(start: lineStart, end: lineEnd, next: next)
        }
    }

    /// The end of the physical line starting at `from` and the start of the next one. A line ends at LF,
    /// at a run of CRs followed by LF (CR CR LF is one line end, as iOS writes it), or at a run of CRs.
    private static func findLineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, final: Bool)
        -> (Int, Int)?
    {
        let count = bytes.count
        var index = from
        while index < count {
            let byte = bytes[index]
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

    private mutating func physical(start: Int, end: Int, next: Int) {
        let absoluteEnd = bufferBase + next
        if pending != nil {
            if continuesPending(start: start, end: end) {
                pending!.absoluteEnd = absoluteEnd
                return
            }
            flushPending()
        }
        var first = start
        let leadingWhitespace = first < end && ASCII.isSpaceOrTab(buffer[first])
        if droppingContinuations && leadingWhitespace { return }
        droppingContinuations = false
        while first < end && ASCII.isSpaceOrTab(buffer[first]) { first += 1 }
        guard first < end else { return }
        pending = Pending(inScratch: false, start: first, end: end, line: physicalLine,
                          absoluteStart: bufferBase + start, absoluteEnd: absoluteEnd)
    }

    /// Appends the physical line to the pending logical line if it continues it, and says whether it did.
    private mutating func continuesPending(start: Int, end: Int) -> Bool {
        guard var p = pending else { return false }
        let lastByte = p.inScratch ? scratch.last : (p.end > p.start ? buffer[p.end - 1] : nil)
        // A quoted-printable soft line break: the next line is content as it stands, leading spaces included.
        if lastByte == ASCII.equals {
            if p.quotedPrintable == nil { p.quotedPrintable = pendingParametersContain("QUOTED-PRINTABLE") }
            pending = p
            if p.quotedPrintable == true {
                moveToScratch()
                scratch.removeLast()
                pending!.softBreaks.append(scratch.count)
                if !(start < end && ASCII.isSpaceOrTab(buffer[start])) { pending!.softBreaksAllIndented = false }
                append(start, end)
                return true
            }
        }
        if start < end && ASCII.isSpaceOrTab(buffer[start]) {
            moveToScratch()
            append(start + 1, end)
            return true
        }
        // Android writes a 2.1 line break inside a value as `\` at the end of the line, the value going on
        // at the start of the next line; a line with no colon after such a backslash continues the value.
        if lastByte == ASCII.backslash && start < end && !lineContainsColon(start, end) && endsWithOddBackslashes() {
            moveToScratch()
            scratch.append(UInt8(ascii: "n"))
            append(start, end)
            return true
        }
        // 2.1 base64 runs on over following lines until a blank line, indented or not.
        if start < end && isBase64Line(start, end) {
            if p.base64 == nil {
                p.base64 = pendingParametersContain("BASE64") || pendingParametersContain("ENCODING=B")
            }
            pending = p
            if p.base64 == true {
                moveToScratch()
                append(start, end)
                return true
            }
        }
        return false
    }

    private func lineContainsColon(_ start: Int, _ end: Int) -> Bool {
        for index in start..<end where buffer[index] == ASCII.colon { return true }
        return false
    }

    private func endsWithOddBackslashes() -> Bool {
        guard let p = pending else { return false }
        var run = 0
        if p.inScratch {
            var i = scratch.count - 1
            while i >= 0 && scratch[i] == ASCII.backslash { run += 1; i -= 1 }
        } else {
            var i = p.end - 1
            while i >= p.start && buffer[i] == ASCII.backslash { run += 1; i -= 1 }
        }
        return run % 2 == 1
    }

    private func isBase64Line(_ start: Int, _ end: Int) -> Bool {
        for index in start..<end {
            let byte = buffer[index]
            if !ASCII.isBase64(byte) && !ASCII.isSpaceOrTab(byte) { return false }
        }
        return true
    }

    private func pendingParametersContain(_ word: StaticString) -> Bool {
        guard let p = pending else { return false }
        let look: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Bool = { bytes, range in
            var end = range.lowerBound
            var quoted = false
            while end < range.upperBound {
                let byte = bytes[end]
                if byte == ASCII.quote { quoted.toggle() } else if byte == ASCII.colon && !quoted { break }
                end += 1
            }
            return ASCII.containsIgnoringCase(bytes, range.lowerBound..<end, word)
        }
        if p.inScratch { return scratch.withUnsafeBufferPointer { look($0, 0..<$0.count) } }
        return buffer.withUnsafeBufferPointer { look($0, p.start..<p.end) }
    }

    private mutating func moveToScratch() {
        guard let p = pending, !p.inScratch else { return }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: buffer[p.start..<p.end])
        pending!.inScratch = true
    }

    private mutating func append(_ start: Int, _ end: Int) {
        guard start < end else { return }
        if scratch.count + (end - start) > limits.maxLineBytes {
            report(.error, .lineTooLong, "line is longer than \(limits.maxLineBytes) bytes; it was skipped",
                   line: pending?.line ?? physicalLine)
            discardPendingForOverflow()
            return
        }
        scratch.append(contentsOf: buffer[start..<end])
    }

    private mutating func discardPendingForOverflow() {
        pending = nil
        scratch.removeAll()
        droppingContinuations = true
    }

    private mutating func flushPending() {
        guard let p = pending else { return }
        pending = nil
        if p.inScratch && !p.softBreaks.isEmpty && p.softBreaksAllIndented {
            // Some 2.1 writers indent every quoted-printable continuation as if folding; when all of them
            // are indented that space is layout, not content (a lone leading space stays content).
            for offset in p.softBreaks.reversed() where offset < scratch.count { scratch.remove(at: offset) }
        }
        if p.inScratch {
            let bytes = scratch
            bytes.withUnsafeBufferPointer { logical($0, 0..<$0.count, p) }
        } else {
            let bytes = buffer
            bytes.withUnsafeBufferPointer { logical($0, p.start..<p.end, p) }
        }
    }

    // MARK: Logical lines to cards

    private mutating func logical(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ p: Pending) {
        parser.parse(bytes, range, line: p.line, limits: limits)
        let nameIsBegin = parser.name.map { ASCII.equalsIgnoringCase(bytes, $0, "BEGIN") } ?? false
        let nameIsEnd = !nameIsBegin && (parser.name.map { ASCII.equalsIgnoringCase(bytes, $0, "END") } ?? false)
        if (nameIsBegin || nameIsEnd), let valueStart = parser.valueStart,
           isVCard(bytes, valueStart..<range.upperBound)
        {
            let group = parser.group.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
            if nameIsBegin { beginCard(group: group, p) } else { endCard(p) }
            return
        }
        if (nameIsBegin || nameIsEnd) && !stack.isEmpty {
            // BEGIN and END only delimit components; `END:INVALID` inside a card is no property.
            report(.warning, .invalidValue,
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
            report(.error, .cardTooLarge,
                   "card is larger than \(limits.maxCardBytes) bytes; the rest of it was skipped", line: p.line)
            return
        }
        if let line = parser.makeContentLine(bytes, range, diagnostics: &newDiagnostics) {
            stack[top].lines.append(line)
        }
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
            let previous = top.lines.last
            let nestsAsAgent = previous?.name == "AGENT" && previous?.value.isEmpty == true
            // vCard 2.1 lets a card hold whole cards; Android reads each as a contact of its own.
            let isV21 = top.lines.contains { $0.name == "VERSION" && $0.value.hasPrefix("2") }
            if !nestsAsAgent && !isV21 {
                report(.error, .missingEnd, "card has no END:VCARD before the next BEGIN:VCARD", line: top.beginLine)
                while !stack.isEmpty { closeCard(endLine: nil, absoluteEnd: p.absoluteStart) }
            } else if stack.count > limits.maxNestingDepth {
                report(.error, .nestingTooDeep,
                       "cards nested deeper than \(limits.maxNestingDepth) levels; the inner card was skipped",
                       line: p.line)
                stack[stack.count - 1].oversized = true
                return
            }
        }
        let nestsAsAgent = stack.last?.lines.last.map { $0.name == "AGENT" && $0.value.isEmpty } ?? false
        var frame = CardFrame(beginLine: p.line, group: group, absoluteStart: p.absoluteStart, isAgent: nestsAsAgent)
        frame.lines.reserveCapacity(32)
        stack.append(frame)
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
        let isV21 = frame.lines.contains { $0.name == "VERSION" && ($0.value.hasPrefix("2") || $0.value.hasPrefix("1")) }
        if !isV21 {
            for index in frame.lines.indices where frame.lines[index].parameters.contains(where: {
                $0.values.contains { $0.utf8.contains(ASCII.caret) }
            }) {
                for p in frame.lines[index].parameters.indices {
                    frame.lines[index].parameters[p].values = frame.lines[index].parameters[p].values.map(
                        ValueEscaping.decodeCaret)
                }
            }
        }
        if !stack.isEmpty && frame.isAgent {
            // An inline 2.1 card becomes the text value of the AGENT line it follows, as 3.0 writes it.
            var text = "BEGIN:VCARD\n"
            for line in frame.lines { text += ContentLineWriter.unfolded(line) + "\n" }
            text += "END:VCARD"
            let top = stack.count - 1
            if let agent = stack[top].lines.indices.last {
                stack[top].lines[agent].value = ValueEscaping.escapeText(text)
            }
            return
        }
        completed.append(RawCard(lines: frame.lines, beginLine: frame.beginLine, endLine: endLine,
                                 group: frame.group, byteRange: frame.absoluteStart..<absoluteEnd))
    }

    private mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String,
                                 line: Int, column: Int = 1)
    {
        newDiagnostics.append(Diagnostic(severity, code, message, line: line, column: column))
    }
}
