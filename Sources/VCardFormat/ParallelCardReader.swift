import ContactModel
import Foundation
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
#if canImport(Glibc)
import Glibc

private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin

private let systemRead = Darwin.read
#endif

/// Reads a vCard stream on several threads and hands each card back in input order.
///
/// The stream is cut into segments of about `segmentBytes` at `CardBoundary` cut points; worker threads
/// lex each segment, read its cards and apply `transform` (writing them, for a converter). A cut is only
/// trusted once the segment before it is known to have ended outside any card; if one did not (nested 2.1
/// cards, a quoted-printable value running over an `END:VCARD` line), reading goes on sequentially from
/// that segment, so the cards, diagnostics and line numbers are always those of one sequential read.
/// UTF-16 input, and stretches with no cut point (a card larger than `maxSegmentBytes`, or several cards with no
/// boundary between them), are read sequentially too. Memory stays bounded: a few segments are in flight at once.
public struct ParallelCardReader: Sendable {
    /// The limits in force.
    public var limits: Limits
    /// How many threads lex and read.
    public var workers: Int
    /// The target segment size.
    public var segmentBytes: Int
    /// The most bytes kept while looking for a cut point before reading on sequentially.
    public var maxSegmentBytes: Int
    /// The charset of text that is not UTF-8 and declares none (`--charset`); nil to decide it.
    public var charset: Charset?
    /// What the file says about its charsets; nil to survey the start of the input (as every reader does).
    package var evidence: CharsetEvidence?
    /// The lines kept in the cards handed to `transform`; nil keeps every line (see `LineSelection`).
    package var selection: LineSelection?

    /// The number of active processors, asked once: Foundation reads the control group's files each time it is
    /// asked, eight system calls that a folder of 20,000 one-card files made for every file.
    @usableFromInline package static let processors = ProcessInfo.processInfo.activeProcessorCount

    /// Creates a reader; `workers` defaults to the number of active processors.
    public init(
        limits: Limits = .default, workers: Int = ParallelCardReader.processors,
        segmentBytes: Int = 1 << 20, maxSegmentBytes: Int = 16 << 20, charset: Charset? = nil
    ) {
        self.limits = limits
        self.workers = max(1, workers)
        self.segmentBytes = segmentBytes
        self.maxSegmentBytes = max(segmentBytes, maxSegmentBytes)
        self.charset = charset
    }

    /// Reads `handle` to its end (after `prefix`, bytes already taken from it). `transform` runs on worker
    /// threads; `body` receives the results in input order on the calling thread, and `diagnostics` the
    /// problems found outside cards (junk, stray END), in order. Diagnostics carry `name` as their file.
    /// - Throws: `VCardInputError` when reading fails, or what `body` throws.
    public func read<T: Sendable>(
        _ handle: FileHandle, name: String, prefix: [UInt8] = [],
        transform: @escaping @Sendable (ReadCard) -> T,
        body: (T) throws -> Void,
        diagnostics: ([Diagnostic]) -> Void
    ) throws {
        var lineRun = LineRunLimit()
        let descriptor = handle.fileDescriptor
        // Each chunk is read(2) straight into the array that holds the bytes not yet cut, so the file's bytes are
        // not copied from a Data into an array and again onto the carry.
        let appendChunk = { (carry: inout [UInt8], wanted: Int) throws -> Bool in
            let held = carry.count
            var failed = false
            let grown = [UInt8](unsafeUninitializedCapacity: held + wanted) { buffer, count in
                let base = buffer.baseAddress!
                carry.withUnsafeBufferPointer {
                    if let old = $0.baseAddress { base.initialize(from: old, count: held) }
                }
                var got = 0
                while got < wanted {
                    let n = systemRead(descriptor, base + held + got, wanted - got)
                    if n > 0 {
                        got += n
                    } else if n == 0 {
                        break
                    } else if errno != EINTR {
                        failed = true
                        break
                    }
                }
                count = held + got
            }
            if failed {
                // Asked again through FileHandle, which reports the failure as every other reader does.
                let more: Data
                do {
                    more = try handle.read(upToCount: wanted) ?? Data()
                } catch {
                    throw VCardInputError(path: name, reason: "read failed: \(error.localizedDescription)")
                }
                carry = grown
                carry.append(contentsOf: more)
            } else {
                carry = grown
            }
            guard carry.count > held else { return false }
            guard carry.withUnsafeBytes({ lineRun.take(UnsafeRawBufferPointer(rebasing: $0[held...])) }) else {
                throw lineRun.error(name)
            }
            return true
        }
        try withoutActuallyEscaping(body) { body in
            try withoutActuallyEscaping(diagnostics) { diagnostics in
                try read(
                    appendChunk, name: name, prefix: prefix, transform: { transform(ReadCard($0, name: name)) },
                    escapingBody: body, diagnostics: diagnostics)
            }
        }
    }

    /// Reads `bytes` already in memory, handing `transform` each card's content lines unread (for a caller that
    /// needs only some properties, or the byte ranges); otherwise as `read(_:name:prefix:transform:body:diagnostics:)`.
    package func readRaw<T: Sendable>(
        _ bytes: [UInt8], name: String, transform: @escaping @Sendable (RawCard) -> T,
        body: (T) throws -> Void, diagnostics: ([Diagnostic]) -> Void
    ) throws {
        var offset = 0
        try readRaw(
            chunks: { carry, wanted in
                let end = min(bytes.count, offset + wanted)
                defer { offset = end }
                carry.append(contentsOf: bytes[offset..<end])
                return end > offset
            }, name: name, transform: transform, body: body, diagnostics: diagnostics)
    }

    /// Reads the bytes `chunks` appends to the array it is given, up to the count asked for (false once the input
    /// has ended), handing `transform` each card's content lines unread; otherwise as `readRaw(_:name:...)`.
    package func readRaw<T: Sendable>(
        chunks appendChunk: (inout [UInt8], Int) throws -> Bool, name: String,
        transform: @escaping @Sendable (RawCard) -> T, body: (T) throws -> Void, diagnostics: ([Diagnostic]) -> Void
    ) throws {
        try withoutActuallyEscaping(body) { body in
            try withoutActuallyEscaping(diagnostics) { diagnostics in
                try read(
                    appendChunk, name: name, prefix: [], transform: { transform($0) }, escapingBody: body,
                    diagnostics: diagnostics)
            }
        }
    }

    /// Reads the chunks `appendChunk` appends to the bytes it is given, up to the count it is asked for (false
    /// once the input has ended).
    private func read<T: Sendable>(
        _ appendChunk: (inout [UInt8], Int) throws -> Bool, name: String, prefix: [UInt8],
        transform: @escaping @Sendable (consuming RawCard) -> T,
        escapingBody body: @escaping (T) throws -> Void,
        diagnostics: @escaping ([Diagnostic]) -> Void
    ) throws {
        // The start of the input is surveyed for its charset evidence before any segment is lexed, so every
        // segment's lexer decides as one sequential lexer would (see `CharsetEvidence`).
        var surveyed = prefix
        var ended = false
        if evidence == nil {
            while surveyed.count < CharsetEvidence.surveyedBytes {
                var chunk: [UInt8] = []
                if try !appendChunk(&chunk, segmentBytes) {
                    ended = true
                    break
                }
                surveyed += chunk
            }
        }
        let decoding = DecodingOptions(
            charset: charset,
            file: evidence
                ?? surveyed.withUnsafeBufferPointer {
                    CharsetEvidence.survey(
                        UnsafeBufferPointer(rebasing: $0.prefix(CharsetEvidence.surveyedBytes)), limits: limits)
                })
        // What the survey read goes to the carry a segment at a time, as the input would, so that no cut has the
        // rest of it to copy.
        var taken = 0
        func topUp(_ carry: inout [UInt8], _ wanted: Int) throws -> Bool {
            if taken < surveyed.count {
                let end = min(surveyed.count, taken + wanted)
                carry.append(contentsOf: surveyed[taken..<end])
                taken = end
                if taken == surveyed.count { surveyed = [] }
                return true
            }
            return ended ? false : try appendChunk(&carry, wanted)
        }
        var carry: [UInt8] = []
        let pool = WorkerPool<T>(
            workers: workers, limits: limits, decoding: decoding, selection: selection, name: name,
            transform: transform)
        defer { pool.close() }
        var run = Run(
            pool: pool, limits: limits, decoding: decoding, selection: selection, name: name, transform: transform,
            body: body,
            diagnostics: diagnostics)
        var line = 0
        var offset = 0
        var first = true
        var sequentialTail = false
        var finished = false
        var needsMore = false
        var begins = BeginLines()
        // More segments in flight than workers keeps every worker busy while the caller consumes.
        let inFlight = workers * 2 + 1

        while !finished {
            // The carry is topped up to one segment, so a cut leaves only the part of a card after it to copy into
            // the next (reading a whole segment more each time would keep a segment's worth to copy, every time).
            let wanted = needsMore ? segmentBytes : segmentBytes - carry.count
            let backlog = wanted <= 0
            let appended = backlog ? false : try topUp(&carry, wanted)
            finished = !appended && !backlog
            if first && carry.count >= 4 && Self.looksLikeUTF16(carry) { sequentialTail = true }
            if sequentialTail {
                // No more cutting: everything from here goes through one lexer, chunk by chunk.
                try run.feedSequentially(carry, line: line, offset: offset, first: first)
                first = false
                carry.removeAll(keepingCapacity: true)
                continue
            }
            guard carry.count >= segmentBytes || finished else { continue }
            let cut: Int? =
                finished
                ? carry.count
                : carry.withUnsafeBufferPointer {
                    CardBoundary.lastCut(in: $0, 0..<segmentBytes) ?? CardBoundary.lastCut(in: $0, 0..<$0.count)
                }
            // With no cut point in what is held (one long card), more must be read before the next try.
            needsMore = cut == nil || cut == 0
            guard let cut, cut > 0 else {
                // Several cards with no cut between them (BEGIN lines without END, cards run together) are read
                // on in order at once: held until a cut that may never come, they were one segment, lexed and
                // made whole before any was handed over (a 20 MB file of BEGIN lines took 7 GB).
                begins.count(in: carry)
                if carry.count > maxSegmentBytes || begins.found > 1 {
                    sequentialTail = true
                    try run.feedSequentially(carry, line: line, offset: offset, first: first)
                    first = false
                    carry.removeAll(keepingCapacity: true)
                }
                continue
            }
            // The segment keeps the array read into and the carry starts again from the few bytes after the cut,
            // rather than copying the segment out and moving the rest of the carry down.
            begins = BeginLines()
            var bytes: [UInt8] = []
            if cut < carry.count {
                let rest = Array(carry[cut...])
                carry.removeLast(carry.count - cut)
                swap(&bytes, &carry)
                carry = rest
            } else {
                swap(&bytes, &carry)
            }
            let segment = Segment(bytes: bytes, line: line, offset: offset, first: first, last: finished)
            if !finished {
                line += bytes.withUnsafeBufferPointer { CardBoundary.countLineEnds($0, 0..<$0.count) }
                offset += bytes.count
            }
            first = false
            try run.submit(segment)
            while run.pending.count >= inFlight { try run.deliverNext() }
        }
        while !run.pending.isEmpty { try run.deliverNext() }
        try run.finishSequential()
    }

    /// Reads the file at `path` (`-` for standard input); see `read(_:name:prefix:transform:body:diagnostics:)`.
    public func read<T: Sendable>(
        path: String, transform: @escaping @Sendable (ReadCard) -> T,
        body: (T) throws -> Void, diagnostics: ([Diagnostic]) -> Void
    ) throws {
        let handle = try VCardFileReader.open(path)
        defer { if path != "-" { try? handle.close() } }
        try read(handle, name: path, transform: transform, body: body, diagnostics: diagnostics)
    }

    static func looksLikeUTF16(_ bytes: [UInt8]) -> Bool {
        if bytes[0] == 0xFF && bytes[1] == 0xFE || bytes[0] == 0xFE && bytes[1] == 0xFF { return true }
        return (bytes[1] == 0 && bytes[3] == 0) || (bytes[0] == 0 && bytes[2] == 0)
    }
}

/// Counts the lines of a stretch with no cut point that begin a card, reading each byte once as the stretch grows.
private struct BeginLines {
    /// How many `BEGIN:VCARD` lines have been found.
    var found = 0
    /// How far the stretch has been read.
    private var scanned = 0

    mutating func count(in bytes: [UInt8]) {
        found += bytes.withUnsafeBufferPointer { CardBoundary.countBeginLines($0, scanned..<$0.count) }
        scanned = bytes.count
    }
}

/// A part of the stream that starts at a cut point (or the start) and ends at one (or the end).
struct Segment: Sendable {
    var bytes: [UInt8]
    var line: Int
    var offset: Int
    var first: Bool
    var last: Bool

    func lexer(limits: Limits, decoding: DecodingOptions, selection: LineSelection?) -> VCardLexer {
        var lexer =
            first
            ? VCardLexer(limits: limits, decoding: decoding)
            : VCardLexer(limits: limits, decoding: decoding, continuingAfterLine: line, offset: offset)
        if let selection { lexer.select(selection) }
        return lexer
    }
}

/// What a worker made of a segment.
struct SegmentResult<T: Sendable>: Sendable {
    var outputs: [T]
    var fileDiagnostics: [Diagnostic]
    /// Whether the segment ended inside a card, so its end was no card boundary.
    var endedInsideCard: Bool
}

/// The in-order consumer: delivers worker results, or reads sequentially once a cut proved false.
private struct Run<T: Sendable> {
    let pool: WorkerPool<T>
    let limits: Limits
    let decoding: DecodingOptions
    let selection: LineSelection?
    let name: String
    let transform: @Sendable (consuming RawCard) -> T
    let body: (T) throws -> Void
    let diagnostics: ([Diagnostic]) -> Void
    /// Submitted segments not yet delivered, oldest first, with their job numbers.
    var pending: [(job: Int, segment: Segment)] = []
    /// Set once reading has gone sequential; every later byte goes through it.
    var sequential: VCardLexer?

    init(
        pool: WorkerPool<T>, limits: Limits, decoding: DecodingOptions, selection: LineSelection?, name: String,
        transform: @escaping @Sendable (consuming RawCard) -> T,
        body: @escaping (T) throws -> Void, diagnostics: @escaping ([Diagnostic]) -> Void
    ) {
        self.pool = pool
        self.limits = limits
        self.decoding = decoding
        self.selection = selection
        self.name = name
        self.transform = transform
        self.body = body
        self.diagnostics = diagnostics
    }

    mutating func submit(_ segment: Segment) throws {
        if sequential != nil {
            try feed(segment.bytes)
            return
        }
        pending.append((pool.submit(segment), segment))
    }

    mutating func deliverNext() throws {
        let (job, segment) = pending.removeFirst()
        let result = pool.result(of: job)
        if sequential == nil && (!result.endedInsideCard || segment.last) {
            // The segment's problems outside cards come first, as a sequential reader reports a chunk's.
            diagnostics(result.fileDiagnostics)
            for output in result.outputs { try body(output) }
            return
        }
        // The cut after this segment was no boundary: read from its start on, in order, with one lexer.
        if sequential == nil { sequential = segment.lexer(limits: limits, decoding: decoding, selection: selection) }
        try feed(segment.bytes)
    }

    /// Feeds bytes that come after every submitted segment to the sequential lexer.
    mutating func feedSequentially(_ bytes: [UInt8], line: Int, offset: Int, first: Bool) throws {
        while !pending.isEmpty { try deliverNext() }
        if sequential == nil {
            sequential = Segment(bytes: [], line: line, offset: offset, first: first, last: false).lexer(
                limits: limits, decoding: decoding, selection: selection)
        }
        try feed(bytes)
    }

    mutating func finishSequential() throws {
        guard var lexer = sequential else { return }
        let cards = lexer.finish()
        try deliver(cards, lexer.takeDiagnostics())
        sequential = lexer
    }

    /// Feeds `bytes` a slice at a time, handing over each slice's cards before the next is lexed: a run of
    /// tiny cards is never held lexed all at once (a card's line records cost about 4 KB, however short it is).
    private mutating func feed(_ bytes: [UInt8]) throws {
        var start = 0
        repeat {
            let end = min(bytes.count, start + VCardFileReader.feedBytes)
            let cards = bytes.withUnsafeBufferPointer {
                sequential!.feed(UnsafeBufferPointer(rebasing: $0[start..<end]))
            }
            try deliver(cards, sequential!.takeDiagnostics())
            start = end
        } while start < bytes.count
    }

    private func deliver(_ cards: [RawCard], _ fileDiagnostics: [Diagnostic]) throws {
        diagnostics(fileDiagnostics.map { $0.named(name) })
        for raw in cards { try body(transform(raw)) }
    }
}

/// Worker threads that lex, read and transform segments.
private final class WorkerPool<T: Sendable>: @unchecked Sendable {
    // Every field below is guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [(Int, Segment)] = []
    private var results: [Int: SegmentResult<T>] = [:]
    private var nextJob = 0
    private var closed = false
    // What the threads are started with.
    private let workers: Int
    private let limits: Limits
    private let decoding: DecodingOptions
    private let selection: LineSelection?
    private let name: String
    private let transform: @Sendable (consuming RawCard) -> T
    /// Whether the threads run; only the submitting thread reads or sets it.
    private var started = false

    init(
        workers: Int, limits: Limits, decoding: DecodingOptions, selection: LineSelection?, name: String,
        transform: @escaping @Sendable (consuming RawCard) -> T
    ) {
        self.workers = workers
        self.limits = limits
        self.decoding = decoding
        self.selection = selection
        self.name = name
        self.transform = transform
    }

    /// Queues `segment`, or reads it at once on this thread when it is the whole input: the threads start with
    /// the first segment that has another after it. A folder of 20,000 one-card files started two threads for
    /// each file, and took 4.8 s to convert where reading the same cards as one file takes 0.2 s.
    func submit(_ segment: Segment) -> Int {
        let alone =
            !started && segment.first && segment.last
            ? Self.process(
                segment, limits: limits, decoding: decoding, selection: selection, name: name, transform: transform)
            : nil
        if alone == nil && !started { start() }
        condition.lock()
        defer { condition.unlock() }
        let job = nextJob
        nextJob += 1
        if let alone {
            results[job] = alone
        } else {
            jobs.append((job, segment))
            condition.broadcast()
        }
        return job
    }

    private func start() {
        started = true
        for _ in 0..<workers {
            let thread = Thread { [self] in
                while let (job, segment) = self.take() {
                    let result = Self.process(
                        segment, limits: self.limits, decoding: self.decoding, selection: self.selection,
                        name: self.name,
                        transform: self.transform)
                    self.condition.lock()
                    self.results[job] = result
                    self.condition.broadcast()
                    self.condition.unlock()
                }
            }
            thread.start()
        }
    }

    func result(of job: Int) -> SegmentResult<T> {
        condition.lock()
        defer { condition.unlock() }
        while results[job] == nil { condition.wait() }
        return results.removeValue(forKey: job)!
    }

    func close() {
        condition.lock()
        closed = true
        jobs.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func take() -> (Int, Segment)? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !closed { condition.wait() }
        if closed { return nil }
        return jobs.removeFirst()
    }

    /// Appends what `transform` makes of each card, handing it each card moved out of the list: a card borrowed
    /// from the list would be copied into what is made of it, retaining and releasing each of its arrays.
    private static func transform(
        _ cards: consuming [RawCard], _ transform: @Sendable (consuming RawCard) -> T, into outputs: inout [T]
    ) {
        var cards = cards
        cards.reverse()
        while let card = cards.popLast() { outputs.append(transform(card)) }
    }

    private static func process(
        _ segment: Segment, limits: Limits, decoding: DecodingOptions, selection: LineSelection?, name: String,
        transform: @Sendable (consuming RawCard) -> T
    ) -> SegmentResult<T> {
        var lexer = segment.lexer(limits: limits, decoding: decoding, selection: selection)
        // Fed a slice at a time and transformed as they come, so a segment of tiny cards never holds all of
        // them lexed at once (each card costs its line records, however short).
        var outputs: [T] = []
        segment.bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(buffer.count, start + VCardFileReader.feedBytes)
                Self.transform(
                    lexer.feed(UnsafeBufferPointer(rebasing: buffer[start..<end])), transform, into: &outputs)
                start = end
            }
        }
        Self.transform(lexer.finish(), transform, into: &outputs)
        return SegmentResult(
            outputs: outputs, fileDiagnostics: lexer.takeDiagnostics().map { $0.named(name) },
            endedInsideCard: lexer.endedInsideCard)
    }
}

extension ReadCard {
    /// Reads a raw card into a contact, naming `name` in its diagnostics; the card is kept without a copy.
    init(_ raw: consuming RawCard, name: String) {
        let (contact, diagnostics) = VCardReader.contact(from: raw)
        self.init(contact: contact, raw: raw, diagnostics: diagnostics.map { $0.named(name) })
    }
}

extension Diagnostic {
    /// The diagnostic with its file set.
    func named(_ name: String) -> Diagnostic {
        var copy = self
        copy.file = name
        return copy
    }
}
