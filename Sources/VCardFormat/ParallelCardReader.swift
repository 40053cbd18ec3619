import ContactModel
import Foundation
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Reads a vCard stream on several threads and hands each card back in input order.
///
/// The stream is cut into segments of about `segmentBytes` at `CardBoundary` cut points; worker threads
/// lex each segment, read its cards and apply `transform` (writing them, for a converter). A cut is only
/// trusted once the segment before it is known to have ended outside any card; if one did not (nested 2.1
/// cards, a quoted-printable value running over an `END:VCARD` line), reading goes on sequentially from
/// that segment, so the cards, diagnostics and line numbers are always those of one sequential read.
/// UTF-16 input, and stretches with no cut point (one huge card), are read sequentially too. Memory stays
/// bounded: a few segments are in flight at once.
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

    /// Creates a reader; `workers` defaults to the number of active processors.
    public init(
        limits: Limits = .default, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
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
        let chunks = { () throws -> [UInt8] in
            let chunk: [UInt8]
            do {
                chunk = [UInt8](try handle.read(upToCount: segmentBytes) ?? Data())
            } catch {
                throw VCardInputError(path: name, reason: "read failed: \(error.localizedDescription)")
            }
            guard chunk.withUnsafeBytes({ lineRun.take($0) }) else { throw lineRun.error(name) }
            return chunk
        }
        try withoutActuallyEscaping(body) { body in
            try withoutActuallyEscaping(diagnostics) { diagnostics in
                try read(
                    chunks, name: name, prefix: prefix, transform: { transform(ReadCard($0, name: name)) },
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
        let chunks = { () -> [UInt8] in
            let end = min(bytes.count, offset + segmentBytes)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }
        try withoutActuallyEscaping(body) { body in
            try withoutActuallyEscaping(diagnostics) { diagnostics in
                try read(
                    chunks, name: name, prefix: [], transform: transform, escapingBody: body, diagnostics: diagnostics)
            }
        }
    }

    private func read<T: Sendable>(
        _ nextChunk: () throws -> [UInt8], name: String, prefix: [UInt8],
        transform: @escaping @Sendable (RawCard) -> T,
        escapingBody body: @escaping (T) throws -> Void,
        diagnostics: @escaping ([Diagnostic]) -> Void
    ) throws {
        var carry = prefix
        // The start of the input is surveyed for its charset evidence before any segment is lexed, so every
        // segment's lexer decides as one sequential lexer would (see `CharsetEvidence`).
        var ended = false
        if evidence == nil {
            while carry.count < CharsetEvidence.surveyedBytes {
                let chunk = try nextChunk()
                if chunk.isEmpty {
                    ended = true
                    break
                }
                carry += chunk
            }
        }
        let decoding = DecodingOptions(
            charset: charset,
            file: evidence
                ?? carry.withUnsafeBufferPointer {
                    CharsetEvidence.survey(
                        UnsafeBufferPointer(rebasing: $0.prefix(CharsetEvidence.surveyedBytes)), limits: limits)
                })
        let pool = WorkerPool<T>(
            workers: workers, limits: limits, decoding: decoding, name: name, transform: transform)
        defer { pool.close() }
        var run = Run(
            pool: pool, limits: limits, decoding: decoding, name: name, transform: transform, body: body,
            diagnostics: diagnostics)
        var line = 0
        var offset = 0
        var first = true
        var sequentialTail = false
        var finished = false
        var needsMore = false
        // More segments in flight than workers keeps every worker busy while the caller consumes.
        let inFlight = workers * 2 + 1

        while !finished {
            // What the charset survey read ahead is cut into segments before more is read.
            let backlog = carry.count >= 2 * segmentBytes && !needsMore
            let chunk = ended || backlog ? [] : try nextChunk()
            finished = chunk.isEmpty && !backlog
            carry.append(contentsOf: chunk)
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
                if carry.count > maxSegmentBytes {
                    sequentialTail = true
                    try run.feedSequentially(carry, line: line, offset: offset, first: first)
                    first = false
                    carry.removeAll(keepingCapacity: true)
                }
                continue
            }
            let bytes = Array(carry[..<cut])
            carry.removeFirst(cut)
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

/// A part of the stream that starts at a cut point (or the start) and ends at one (or the end).
struct Segment: Sendable {
    var bytes: [UInt8]
    var line: Int
    var offset: Int
    var first: Bool
    var last: Bool

    func lexer(limits: Limits, decoding: DecodingOptions) -> VCardLexer {
        first
            ? VCardLexer(limits: limits, decoding: decoding)
            : VCardLexer(limits: limits, decoding: decoding, continuingAfterLine: line, offset: offset)
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
    let name: String
    let transform: @Sendable (RawCard) -> T
    let body: (T) throws -> Void
    let diagnostics: ([Diagnostic]) -> Void
    /// Submitted segments not yet delivered, oldest first, with their job numbers.
    var pending: [(job: Int, segment: Segment)] = []
    /// Set once reading has gone sequential; every later byte goes through it.
    var sequential: VCardLexer?

    init(
        pool: WorkerPool<T>, limits: Limits, decoding: DecodingOptions, name: String,
        transform: @escaping @Sendable (RawCard) -> T,
        body: @escaping (T) throws -> Void, diagnostics: @escaping ([Diagnostic]) -> Void
    ) {
        self.pool = pool
        self.limits = limits
        self.decoding = decoding
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
        if sequential == nil { sequential = segment.lexer(limits: limits, decoding: decoding) }
        try feed(segment.bytes)
    }

    /// Feeds bytes that come after every submitted segment to the sequential lexer.
    mutating func feedSequentially(_ bytes: [UInt8], line: Int, offset: Int, first: Bool) throws {
        while !pending.isEmpty { try deliverNext() }
        if sequential == nil {
            sequential = Segment(bytes: [], line: line, offset: offset, first: first, last: false).lexer(
                limits: limits, decoding: decoding)
        }
        try feed(bytes)
    }

    mutating func finishSequential() throws {
        guard var lexer = sequential else { return }
        let cards = lexer.finish()
        try deliver(cards, lexer.takeDiagnostics())
        sequential = lexer
    }

    private mutating func feed(_ bytes: [UInt8]) throws {
        let cards = sequential!.feed(bytes)
        try deliver(cards, sequential!.takeDiagnostics())
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

    init(
        workers: Int, limits: Limits, decoding: DecodingOptions, name: String,
        transform: @escaping @Sendable (RawCard) -> T
    ) {
        for _ in 0..<workers {
            let thread = Thread { [self] in
                while let (job, segment) = self.take() {
                    let result = Self.process(
                        segment, limits: limits, decoding: decoding, name: name, transform: transform)
                    self.condition.lock()
                    self.results[job] = result
                    self.condition.broadcast()
                    self.condition.unlock()
                }
            }
            thread.start()
        }
    }

    func submit(_ segment: Segment) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let job = nextJob
        nextJob += 1
        jobs.append((job, segment))
        condition.broadcast()
        return job
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

    private static func process(
        _ segment: Segment, limits: Limits, decoding: DecodingOptions, name: String,
        transform: @Sendable (RawCard) -> T
    ) -> SegmentResult<T> {
        var lexer = segment.lexer(limits: limits, decoding: decoding)
        // Fed a slice at a time and transformed as they come, so a segment of tiny cards never holds all of
        // them lexed at once (each card costs its line records, however short).
        var outputs: [T] = []
        segment.bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(buffer.count, start + VCardFileReader.feedBytes)
                outputs += lexer.feed(UnsafeBufferPointer(rebasing: buffer[start..<end])).map(transform)
                start = end
            }
        }
        outputs += lexer.finish().map(transform)
        return SegmentResult(
            outputs: outputs, fileDiagnostics: lexer.takeDiagnostics().map { $0.named(name) },
            endedInsideCard: lexer.endedInsideCard)
    }
}

extension ReadCard {
    /// Reads a raw card into a contact, naming `name` in its diagnostics.
    init(_ raw: RawCard, name: String) {
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
