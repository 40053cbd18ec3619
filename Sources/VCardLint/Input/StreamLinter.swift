import Utilities
import VCardFormat
import VCardSyntax

/// Lints a vCard file as it is read, a few cards at a time, with the findings `Linter.lint` gives for the
/// whole file, so memory stays bounded by the largest card whatever the file's size.
///
/// The input is cut where a card begins (`CardBoundary`); each part is linted alone with the file's charset
/// evidence, its lines numbered as the file's. A part whose last card has not ended (a cut inside a
/// card) is read again together with what follows; where no card ends in the most a card may hold (a card larger
/// than that, or text outside cards), one lexer reads on in order, and the lines it skips of such a card are held as
/// their lengths (`LintSource.Gap`). The one check across cards, `--carddav`'s duplicate UIDs,
/// keeps each UID's first line as the parts come. UTF-16 input is turned into UTF-8 as it comes, as the
/// whole-file linter turns the whole file, and its parts linted as that file's.
public struct StreamLinter {
    private let file: String
    private let options: LintOptions
    private var evidence: CharsetEvidence?
    private var carry: [UInt8] = []
    private var line = 0
    private var cards = 0
    private var lineRun = LineRunLimit()
    /// Set once the input has a stretch with no place to cut between its cards (BEGIN lines with no END): from
    /// there on one lexer reads in order, and its cards are linted as they come.
    private var sequential: SequentialPart?
    /// With `--carddav`, the line of the first card with each UID so far.
    private var firstUIDLines: [String: Int] = [:]
    /// The first bytes, held until they tell whether the file is UTF-16 (`UTF16Text.byteOrder(of:)` reads four).
    private var head: [UInt8] = []
    /// Set for a UTF-16 file: what turns its bytes into UTF-8 as they come.
    private var transcoder: UTF16Transcoder?
    /// Whether the encoding is known (the first four bytes, or a byte order mark, have been fed).
    private var decided = false
    /// The most bytes held while waiting for a card to end: past it the part is linted as it stands, as
    /// the lexer has cut the card short by then.
    private static let maxHeldBytes = Limits.default.maxCardBytes + partBytes

    /// What `StreamFixer` and its UID survey do with each part's cards instead of linting them.
    struct PartHandler {
        /// What is done with a part's cards, given a way to read the part again.
        typealias Read = @Sendable (LintInput, _ again: @escaping @Sendable () -> LintInput) -> any Sendable
        /// Done with a part's cards on the thread that read them (on every processor when several parts are
        /// held), so a part's cards are made and freed on one thread.
        var read: Read
        /// Done with what `read` gave, on the caller's thread, in file order (what is done with a card may
        /// depend on the cards before it).
        var take: (any Sendable) -> Void
    }

    /// Set by `StreamFixer` and its UID survey.
    var partHandler: PartHandler?

    /// More bytes than a card may hold with no card ending in them (a card too large, or text outside cards),
    /// met while the part handler needed every card whole.
    package struct CardTooLarge: Error, CustomStringConvertible {
        /// The file's name in messages.
        package var file: String
        /// About where the card begins: the first line of what was held.
        package var line: Int
        package var description: String {
            "\(file):\(line): error: no card ends in the \(Limits.default.maxCardBytes >> 20) MiB from here (a card larger "
                + "than a card may be, or that much text outside cards), more than a repair in parts holds to keep "
                + "it as written"
        }
    }

    /// Set, and the rest of the input ignored, when a card outgrew what is held while `partHandler` was set: cut
    /// there, the card would have lost its END to the repair (removed as an END closing no card).
    package private(set) var cardTooLarge: CardTooLarge?

    /// How many cards have been read so far.
    var cardsRead: Int { cards }

    /// How many bytes of the input are held, for the tests of what is held.
    var heldByteCount: Int { head.count + carry.count + (sequential?.held.count ?? 0) }

    /// Bytes gathered before a part is linted: small, so a part of tiny cards stays small.
    static let partBytes = 64 << 10

    /// Whether a file starting with `prefix` linted with `options` gives the same findings streamed as whole:
    /// always, now that UTF-16 is turned into UTF-8 as it is read (a 1 GB UTF-16 file was read whole).
    public static func canStream(prefix: [UInt8], options: LintOptions) -> Bool { true }

    /// A linter of the file named `file` in diagnostics.
    public init(file: String, options: LintOptions = LintOptions()) {
        self.file = file
        self.options = options
    }

    /// Takes the next bytes of the file and returns the findings of the cards they complete, in order.
    /// - Throws: `VCardInputError` when a line grows past the longest a reader takes (no line ends at all).
    public mutating func feed(_ bytes: [UInt8]) throws -> [Diagnostic] {
        var found: [Diagnostic] = []
        try feed(bytes) { found += $0 }
        return found
    }

    /// Takes the next bytes of the file and hands the findings of the cards they complete to `emit`, a few
    /// cards' at a time: the file's first megabytes, held until the charset survey, never make one large batch
    /// (a million tiny cards with two findings each held 175,000 findings at once).
    /// - Throws: `VCardInputError` when a line grows past the longest a reader takes (no line ends at all).
    public mutating func feed(_ bytes: [UInt8], emit: ([Diagnostic]) -> Void) throws {
        try feedUTF8(decoded(bytes, final: false), emit: emit)
    }

    /// `bytes` as UTF-8: as they are, or turned from UTF-16; held (empty) until the encoding is known.
    private mutating func decoded(_ bytes: [UInt8], final: Bool) -> [UInt8] {
        var bytes = bytes
        if !decided {
            head += bytes
            let mark = head.count >= 2 && (head[0] == 0xFF && head[1] == 0xFE || head[0] == 0xFE && head[1] == 0xFF)
            guard head.count >= 4 || mark || final else { return [] }
            decided = true
            bytes = head
            head = []
            if let order = UTF16Text.byteOrder(of: bytes) {
                transcoder = UTF16Transcoder(bigEndian: order == .bigEndian)
                // The byte order mark is no text.
                if mark { bytes.removeFirst(2) }
            }
        }
        guard transcoder != nil else { return bytes }
        var out: [UInt8] = []
        bytes.withUnsafeBufferPointer { transcoder!.transcode($0, into: &out) }
        if final { transcoder!.finish(into: &out) }
        return out
    }

    /// Whether the file is UTF-16 (its parts are linted as that file's, turned into UTF-8).
    private var transcoded: Bool { transcoder != nil }

    private mutating func feedUTF8(_ bytes: [UInt8], emit: ([Diagnostic]) -> Void) throws {
        if let cardTooLarge { throw cardTooLarge }
        guard bytes.withUnsafeBytes({ lineRun.take($0) }) else { throw lineRun.error(file) }
        if sequential != nil {
            feedSequentially(bytes, emit: emit)
            return
        }
        carry += bytes
        if evidence == nil {
            guard carry.count >= CharsetEvidence.surveyedBytes else { return }
            survey()
        }
        lintParts(emit: emit)
        if let cardTooLarge { throw cardTooLarge }
    }

    /// Lints the parts of what is held that end where a card ends, leaving the rest.
    private mutating func lintParts(emit: ([Diagnostic]) -> Void) {
        var start = 0
        defer { carry.removeFirst(start) }
        while carry.count - start >= Self.partBytes {
            // The parts ahead, cut where the serial way below cuts first, linted (or read for the part handler)
            // on every processor and used in order for as long as each ends where a card ends.
            let ahead = partsAhead(from: start)
            if ahead.count > 1, let partHandler {
                var used = 0
                for (range, result) in zip(ahead, readConcurrently(ahead, partHandler.read)) {
                    guard let result else { break }
                    partHandler.take(result.value)
                    cards += result.cards
                    line += carry.withUnsafeBufferPointer { CardBoundary.countLineEnds($0, range) }
                    start = range.upperBound
                    used += 1
                }
                if used > 0 { continue }
            } else if ahead.count > 1 {
                var used = 0
                for (range, result) in zip(ahead, lintConcurrently(ahead)) {
                    guard let result else { break }
                    emit(take(result))
                    start = range.upperBound
                    used += 1
                }
                if used > 0 { continue }
            }
            // A part of about `partBytes`, or a longer one when a card goes on past it or the first cut
            // proves to be inside a card (nested 2.1 cards).
            let cuts = carry.withUnsafeBufferPointer { buffer in
                [
                    CardBoundary.lastCut(in: buffer, start..<start + Self.partBytes),
                    CardBoundary.lastCut(in: buffer, start..<buffer.count),
                ]
            }
            var done: Int?
            for case let cut? in cuts where cut > start {
                if let part = lint(Array(carry[start..<cut]), last: false) {
                    emit(part)
                    done = cut
                    break
                }
            }
            guard let done else {
                // Several cards with no cut between them would be held, and then linted, all at once (a 20 MB
                // file of BEGIN lines took 11 GB): they are read in order from here, as they come.
                let begins = carry.withUnsafeBufferPointer { CardBoundary.countBeginLines($0, start..<$0.count) }
                // No card ends in what is held: one card is larger than a card may be (the lexer has cut it
                // short by now), or that much text lies outside cards. Checked only now: a large card that has
                // ended is cut after, as any other. Linted as a part of its own, it gave a card without END, then
                // its rest as text outside cards and an END closing none; it is read in order too, its skipped
                // lines held as their lengths.
                let outgrown = carry.count - start > Self.maxHeldBytes
                if begins > 1 || outgrown && partHandler == nil {
                    // Moved, not copied: it may be all a card may hold.
                    carry.removeFirst(start)
                    start = 0
                    startSequentially()
                    swap(&carry, &sequential!.held)
                    feedSequentially([], emit: emit)
                } else if outgrown {
                    cardTooLarge = CardTooLarge(file: file, line: line + 1)
                    start = carry.count
                }
                break
            }
            start = done
        }
    }

    /// One lexer reading on from where the input could no longer be cut, the bytes it has read that are not yet
    /// linted, and its cards and problems not yet linted.
    private struct SequentialPart {
        var lexer: VCardLexer
        var held: [UInt8] = []
        /// The lexer's offset of `held`'s first byte.
        var heldStart = 0
        /// How many bytes the lexer has read: `held` holds those it has not read yet after them.
        var fed = 0
        var raws: [RawCard] = []
        var syntax: [Diagnostic] = []
        /// Lines left out of `held` (`elideSkippedLines`): each with the lexer's offset of its first byte and its
        /// bytes' count, in order.
        var gaps: [(start: Int, byteCount: Int, lines: LintSource.Gap)] = []

        /// Where the lexer's offset `offset` (not inside a gap) is in `held`.
        func local(_ offset: Int) -> Int {
            offset - heldStart - gaps.reduce(0) { $0 + ($1.start < offset ? $1.byteCount : 0) }
        }

        /// The lexer's offset just past what is held.
        var heldEnd: Int { heldStart + held.count + gaps.reduce(0) { $0 + $1.byteCount } }
    }

    private mutating func startSequentially() {
        // The survey has been made by now: parts are cut only after it.
        let decoding = DecodingOptions(charset: options.charset, file: evidence!)
        sequential = SequentialPart(
            lexer: line == 0
                ? VCardLexer(decoding: decoding)
                : VCardLexer(decoding: decoding, continuingAfterLine: line, offset: 0))
    }

    /// Feeds `bytes` to the lexer a part at a time, linting the cards of each part before reading on.
    private mutating func feedSequentially(_ bytes: [UInt8], emit: ([Diagnostic]) -> Void) {
        sequential!.held += bytes
        while true {
            // What is held past what the lexer has read: what is cut or left out lies before it.
            let from = sequential!.local(sequential!.fed)
            let end = min(sequential!.held.count, from + Self.partBytes)
            guard from < end else { break }
            let slice = Array(sequential!.held[from..<end])
            sequential!.fed += slice.count
            sequential!.raws += sequential!.lexer.feed(slice)
            sequential!.syntax += sequential!.lexer.takeDiagnostics()
            if partHandler == nil { elideSkippedLines() }
            lintSequential(final: false, emit: emit)
        }
    }

    /// Leaves out of what is held the lines the card still open skipped because it outgrew the largest a card may
    /// be (`VCardLexer.skippedRun`), keeping their number and lengths, which is all the rules read of them: held
    /// whole, a file that is one card of a gigabyte was held whole. A repair copies each card's bytes, so it
    /// holds them (and refuses such a card).
    private mutating func elideSkippedLines() {
        guard var part = sequential, let run = part.lexer.skippedRun else { return }
        sequential = nil
        defer { sequential = part }
        let elided = part.gaps.last.map { $0.start + $0.byteCount } ?? 0
        let from = max(run.lowerBound, elided)
        guard run.upperBound - from >= Self.partBytes else { return }
        let range = part.local(from)..<part.local(run.upperBound)
        let lines = part.held.withUnsafeBufferPointer { LintSource.Gap($0, range, offset: 0) }
        part.held.removeSubrange(range)
        if from == elided, !part.gaps.isEmpty {
            part.gaps[part.gaps.count - 1].byteCount += range.count
            part.gaps[part.gaps.count - 1].lines.append(lines)
        } else {
            part.gaps.append((from, range.count, lines))
        }
    }

    /// Lints the cards read so far that lie before the card still open (2.1 cards nest), with the lines up to
    /// that card's BEGIN line; all that is held when `final`.
    private mutating func lintSequential(final: Bool, emit: ([Diagnostic]) -> Void) {
        guard var part = sequential else { return }
        sequential = nil
        defer { sequential = part }
        // Where the part ends, as the lexer counts bytes.
        let end: Int
        if final {
            end = part.heldEnd
        } else if let open = part.lexer.openCardStart {
            end = open
        } else if partHandler == nil {
            // Nothing open: up to the end of the last line read (what follows may be half a line), so that text
            // outside cards is not held to the next card, however long it runs.
            end = part.lexer.consumedEnd
        } else {
            // A repair cuts after the last card: text outside cards is removed as one stretch.
            end = part.raws.map(\.byteRange.upperBound).max() ?? part.heldStart
        }
        guard end > part.heldStart else { return }
        let cut = part.local(end)
        let count = final ? part.raws.count : part.raws.prefix { $0.byteRange.lowerBound < end }.count
        let bytes = Array(part.held[..<cut])
        let gapCount = part.gaps.prefix { $0.start < end }.count
        let gaps = part.gaps.prefix(gapCount).map { gap in
            var lines = gap.lines
            lines.offset = part.local(gap.start)
            return lines
        }
        let lineEnds =
            bytes.withUnsafeBufferPointer { CardBoundary.countLineEnds($0, 0..<$0.count) }
            + gaps.reduce(0) { $0 + $1.lines }
        let lastLine = line + lineEnds
        let syntax = final ? part.syntax : part.syntax.filter { $0.line <= lastLine }
        if final { part.syntax = [] } else { part.syntax.removeAll { $0.line <= lastLine } }
        // The lexer counts bytes from where it began; the part's own bytes start at `heldStart`. A repair copies
        // each card's bytes by its range, and crashed past the first part of such a stretch. (A card with
        // lines left out keeps its size: the rules read it, and no repair meets one.)
        var raws = Array(part.raws[..<count])
        for index in raws.indices {
            let range = raws[index].byteRange
            raws[index].byteRange = range.lowerBound - part.heldStart..<range.upperBound - part.heldStart
        }
        let input = LintInput(
            source: LintSource(bytes, firstLine: line, transcoded: transcoded, gaps: gaps), raws: raws,
            syntax: syntax)
        if let partHandler {
            partHandler.take(partHandler.read(input) { input })
            cards += input.cards.count
            line += lineEnds
        } else {
            emit(take(Self.findings(of: input, bytes: bytes, lineEnds: lineEnds, file: file, options: options)))
        }
        part.raws.removeFirst(count)
        part.held.removeFirst(cut)
        part.gaps.removeFirst(gapCount)
        part.heldStart = end
    }

    /// The parts the loop of `lintParts` would cut first from `start` on, while it would cut them: each about
    /// `partBytes`, ending where the last card that begins inside it begins.
    private func partsAhead(from start: Int) -> [Range<Int>] {
        carry.withUnsafeBufferPointer { buffer in
            var parts: [Range<Int>] = []
            var from = start
            while buffer.count - from >= Self.partBytes, buffer.count - from <= Self.maxHeldBytes,
                let cut = CardBoundary.lastCut(in: buffer, from..<from + Self.partBytes), cut > from
            {
                parts.append(from..<cut)
                from = cut
            }
            return parts
        }
    }

    /// The line before each of `parts` of what is held, counted as the serial way counts them.
    private func firstLines(of parts: [Range<Int>]) -> [Int] {
        var firstLines: [Int] = []
        var next = line
        carry.withUnsafeBufferPointer { buffer in
            for range in parts {
                firstLines.append(next)
                next += CardBoundary.countLineEnds(buffer, range)
            }
        }
        return firstLines
    }

    /// What linting each of `parts` of what is held gives, linted on every processor; the line each starts on
    /// is counted first, as the serial way counts it.
    private func lintConcurrently(_ parts: [Range<Int>]) -> [PartResult?] {
        let results = ChunkResults<PartResult?>(count: parts.count)
        let held = carry
        let (file, options, evidence, transcoded) = (file, options, evidence, transcoded)
        let starts = firstLines(of: parts)
        Concurrently.forEach(parts.count) { index in
            let result = Self.lint(
                Array(held[parts[index]]), last: false, firstLine: starts[index], file: file, options: options,
                evidence: evidence, transcoded: transcoded)
            results.set(index, [result])
        }
        return results.joined()
    }

    /// What the part handler's `read` gives for each of `parts` of what is held, read on its own as
    /// `lint(_:last: false)` reads it, on every processor, with its number of cards: nil for a part whose last
    /// card has not ended.
    private func readConcurrently(_ parts: [Range<Int>], _ read: @escaping PartHandler.Read) -> [(
        value: any Sendable, cards: Int
    )?] {
        let results = ChunkResults<(value: any Sendable, cards: Int)?>(count: parts.count)
        let held = carry
        let (charset, evidence, transcoded) = (options.charset, evidence, transcoded)
        let starts = firstLines(of: parts)
        Concurrently.forEach(parts.count) { index in
            let bytes = Array(held[parts[index]])
            let again: @Sendable () -> LintInput = {
                LintInput(bytes, charset: charset, evidence: evidence, firstLine: starts[index], transcoded: transcoded)
            }
            let input = again()
            let ended = input.cards.last.map { $0.raw.endLine != nil } ?? true
            results.set(index, [ended ? (read(input, again), input.cards.count) : nil])
        }
        return results.joined()
    }

    /// Lints what is left and returns its findings, then the file's own (no cards at all).
    public mutating func finish() -> [Diagnostic] {
        var found: [Diagnostic] = []
        finish { found += $0 }
        return found
    }

    /// Lints what is left and hands its findings to `emit`, a few cards' at a time, then the file's own.
    public mutating func finish(emit: ([Diagnostic]) -> Void) {
        // What the encoding's decision or the UTF-16 decoder still held (a few bytes: no line to outgrow).
        let rest = decoded([], final: true)
        if !rest.isEmpty { try? feedUTF8(rest, emit: emit) }
        if evidence == nil { survey() }
        lintParts(emit: emit)
        if cardTooLarge != nil { return }
        if sequential != nil {
            sequential!.raws += sequential!.lexer.finish()
            sequential!.syntax += sequential!.lexer.takeDiagnostics()
            lintSequential(final: true, emit: emit)
        } else {
            emit(lint(carry, last: true) ?? [])
        }
        carry = []
        if cards == 0 {
            emit(
                Linter.finish(
                    [Diagnostic(.warning, .noCards, FileMessages.noCards, line: 1)], file: file, options: options))
        }
    }

    private mutating func survey() {
        evidence = carry.withUnsafeBufferPointer {
            CharsetEvidence.survey(UnsafeBufferPointer(rebasing: $0.prefix(CharsetEvidence.surveyedBytes)))
        }
    }

    /// The findings of `part`, its lines numbered from the file's; nil when its last card has not ended and
    /// more is to come.
    private mutating func lint(_ part: [UInt8], last: Bool) -> [Diagnostic]? {
        if let partHandler {
            let input = LintInput(
                part, charset: options.charset, evidence: evidence, firstLine: line, transcoded: transcoded)
            if !last, let final = input.cards.last, final.raw.endLine == nil { return nil }
            partHandler.take(partHandler.read(input) { input })
            cards += input.cards.count
            line += part.withUnsafeBufferPointer { CardBoundary.countLineEnds($0, 0..<$0.count) }
            return []
        }
        guard
            let result = Self.lint(
                part, last: last, firstLine: line, file: file, options: options, evidence: evidence,
                transcoded: transcoded)
        else { return nil }
        return take(result)
    }

    /// What linting one part gives: its findings, its cards, the line ends in it, and (with `--carddav`) each
    /// card's UID with the card's first line, in order.
    private struct PartResult: Sendable {
        var findings: [Diagnostic]
        var cards: Int
        var lineEnds: Int
        var uids: [(uid: String, line: Int)] = []
    }

    /// Counts the part `result` describes as read and returns its findings, with a duplicate-UID finding for
    /// each card whose UID a card before it has, placed as the whole file's linter places it: after the other
    /// findings on the card's first line.
    private mutating func take(_ result: PartResult) -> [Diagnostic] {
        cards += result.cards
        line += result.lineEnds
        var findings = result.findings
        for (uid, line) in result.uids {
            guard let first = firstUIDLines[uid] else {
                firstUIDLines[uid] = line
                continue
            }
            let duplicate = Linter.finish(
                [CardDAVRule.duplicateUID(line: line, firstLine: first)], file: file, options: options)[0]
            let at = findings.firstIndex { ($0.line, $0.column) > (line, duplicate.column) } ?? findings.count
            findings.insert(duplicate, at: at)
        }
        return findings
    }

    /// `lint` of one part on its own: nil when its last card has not ended and more is to come.
    private static func lint(
        _ part: [UInt8], last: Bool, firstLine: Int, file: String, options: LintOptions, evidence: CharsetEvidence?,
        transcoded: Bool
    ) -> PartResult? {
        let input = LintInput(
            part, charset: options.charset, evidence: evidence, firstLine: firstLine, transcoded: transcoded)
        if !last, let final = input.cards.last, final.raw.endLine == nil { return nil }
        return findings(of: input, bytes: part, file: file, options: options)
    }

    /// What the rules find in `input`, read from `bytes`.
    private static func findings(
        of input: LintInput, bytes: [UInt8], lineEnds: Int? = nil, file: String, options: LintOptions
    ) -> PartResult {
        var found = Linter.fileFindings(input).filter { $0.code != .noCards }
        let context = RuleContext(source: input.source, options: options)
        for card in input.cards { found += Linter.cardFindings(card, context) }
        return PartResult(
            findings: Linter.finish(found, file: file, options: options), cards: input.cards.count,
            lineEnds: lineEnds ?? bytes.withUnsafeBufferPointer { CardBoundary.countLineEnds($0, 0..<$0.count) },
            uids: options.carddav == nil ? [] : input.cards.compactMap(CardDAVRule.uid(of:)))
    }
}
