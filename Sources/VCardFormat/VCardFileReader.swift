import ContactModel
import Foundation
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// One card read from an input: the contact, the raw lines it came from, and its problems.
public struct ReadCard: Sendable {
    /// The card's meaning.
    public var contact: Contact
    /// The content lines as read.
    public var raw: RawCard
    /// Problems found in this card.
    public var diagnostics: [Diagnostic]

    /// Creates a read card.
    public init(contact: Contact, raw: RawCard, diagnostics: [Diagnostic]) {
        self.contact = contact
        self.raw = raw
        self.diagnostics = diagnostics
    }
}

/// Reads a vCard file or stream card by card: memory stays bounded by the largest card, not the file.
public final class VCardFileReader {
    /// The name used in diagnostics (a path, or `-` for standard input).
    public let name: String
    private let handle: FileHandle
    private let closesHandle: Bool
    private let limits: Limits
    private let charset: Charset?
    /// Made once the start of the input has been surveyed for its charset evidence.
    private var lexer: VCardLexer?
    private var prefix: [UInt8]
    private var ready: [RawCard] = []
    private var pendingDiagnostics: [Diagnostic] = []
    private var finished = false
    /// Whether the input has been read to its end (what is left is in `unfed`).
    private var inputEnded = false
    /// Bytes read but not yet fed to the lexer, from `unfedStart` on.
    private var unfed: [UInt8] = []
    private var unfedStart = 0
    private let chunkSize: Int
    private lazy var lineRun = LineRunLimit()
    /// The lexer gets at most this many bytes at a time, so the cards read but not yet taken stay few even
    /// when they are tiny (each costs its line records, however short).
    package static let feedBytes = 64 << 10

    /// Opens `path` (`-` for standard input); `charset` is the charset of text that is not UTF-8 and declares
    /// none (`--charset`), nil to decide it (see `DecodingOptions`).
    /// - Throws: `VCardInputError` when the file cannot be opened.
    public init(path: String, limits: Limits = .default, charset: Charset? = nil, chunkSize: Int = 1 << 20) throws {
        name = path
        self.chunkSize = chunkSize
        self.limits = limits
        self.charset = charset
        prefix = []
        handle = try Self.open(path)
        closesHandle = path != "-"
    }

    /// The handle for `path`, standard input for `-`.
    /// - Throws: `VCardInputError` when there is no such file, it is a directory, or it cannot be opened.
    static func open(_ path: String) throws -> FileHandle {
        if path == "-" { return FileHandle.standardInput }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw VCardInputError(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw VCardInputError(path: path, reason: "is a directory") }
        guard let opened = FileHandle(forReadingAtPath: path) else {
            throw VCardInputError(path: path, reason: "cannot be opened for reading")
        }
        return opened
    }

    /// Reads from an open handle, after `prefix` (bytes already taken from it to sniff the format).
    public init(
        handle: FileHandle, name: String, prefix: [UInt8] = [], closesHandle: Bool = false,
        limits: Limits = .default, charset: Charset? = nil, chunkSize: Int = 1 << 20
    ) {
        self.name = name
        self.handle = handle
        self.closesHandle = closesHandle
        self.chunkSize = chunkSize
        self.limits = limits
        self.charset = charset
        self.prefix = prefix
    }

    deinit {
        if closesHandle { try? handle.close() }
    }

    /// Diagnostics found outside any card (junk, stray END), in input order, since the last call.
    public func takeFileDiagnostics() -> [Diagnostic] {
        defer { pendingDiagnostics.removeAll() }
        return pendingDiagnostics
    }

    private func readChunk() throws -> Data {
        let chunk: Data
        do {
            chunk = try handle.read(upToCount: chunkSize) ?? Data()
        } catch {
            throw VCardInputError(path: name, reason: "read failed: \(error.localizedDescription)")
        }
        guard chunk.withUnsafeBytes({ lineRun.take($0) }) else { throw lineRun.error(name) }
        return chunk
    }

    /// Reads the start of the input (up to `CharsetEvidence.surveyedBytes`), gathers its charset evidence, and
    /// lexes it: every reader of the same bytes gives each card the same file-level evidence.
    private func startLexing() throws -> VCardLexer {
        var start = prefix
        prefix = []
        var ended = false
        while start.count < CharsetEvidence.surveyedBytes {
            let chunk = try readChunk()
            if chunk.isEmpty {
                ended = true
                break
            }
            start += chunk
        }
        let evidence = start.withUnsafeBufferPointer {
            CharsetEvidence.survey(
                UnsafeBufferPointer(rebasing: $0.prefix(CharsetEvidence.surveyedBytes)), limits: limits)
        }
        unfed = start
        unfedStart = 0
        inputEnded = ended
        return VCardLexer(limits: limits, decoding: DecodingOptions(charset: charset, file: evidence))
    }

    /// The next raw card, or nil at the end of the input.
    package func nextRaw() throws -> RawCard? {
        // `ready` is kept in reverse so that each card is moved out with popLast, not copied.
        if lexer == nil {
            lexer = try startLexing()
        }
        while ready.isEmpty {
            if finished { return nil }
            if unfedStart == unfed.count && !inputEnded {
                let chunk = try readChunk()
                unfed.removeAll(keepingCapacity: true)
                unfed.append(contentsOf: chunk)
                unfedStart = 0
                inputEnded = chunk.isEmpty
            }
            if unfedStart < unfed.count {
                let end = min(unfed.count, unfedStart + Self.feedBytes)
                ready = unfed.withUnsafeBufferPointer {
                    lexer!.feed(UnsafeBufferPointer(rebasing: $0[unfedStart..<end]))
                }
                unfedStart = end
            } else {
                finished = true
                ready = lexer!.finish()
            }
            ready.reverse()
            collectDiagnostics()
        }
        return ready.popLast()
    }

    private func collectDiagnostics() {
        for var diagnostic in lexer!.takeDiagnostics() {
            diagnostic.file = name
            pendingDiagnostics.append(diagnostic)
        }
    }

    /// The next card with its meaning, or nil at the end of the input.
    public func next() throws -> ReadCard? {
        guard let raw = try nextRaw() else { return nil }
        let (contact, diagnostics) = VCardReader.contact(from: raw)
        return ReadCard(
            contact: contact, raw: raw,
            diagnostics: diagnostics.map {
                var d = $0
                d.file = name
                return d
            })
    }
}

/// An input that could not be read at all.
public struct VCardInputError: Error, CustomStringConvertible, Sendable {
    /// The path, or `-`.
    public var path: String
    /// Why, in a few words.
    public var reason: String

    /// Creates the error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): error: \(reason)" }
}

/// Reads a whole in-memory input: cards and every diagnostic, in order.
public enum VCardDocument {
    /// Parses `bytes` into contacts and diagnostics (file-level ones included). `charset` is the charset of text
    /// that is not UTF-8 and declares none (nil: decide it); `evidence` what the file says about that (nil:
    /// survey `bytes`, as every reader does; pass the evidence of the whole file when `bytes` is part of one).
    public static func read(
        _ bytes: [UInt8], name: String? = nil, limits: Limits = .default, charset: Charset? = nil,
        evidence: CharsetEvidence? = nil
    )
        -> (cards: [ReadCard], diagnostics: [Diagnostic])
    {
        read(bytes, name: name, limits: limits, charset: charset, evidence: evidence, keepsLines: true)
    }

    /// `read`, with each card's content lines dropped as soon as its contact is made when `keepsLines` is false:
    /// its `raw` then says only where the card was (lines and bytes). A reader that needs only the contacts (the
    /// incoming cards of a merge) then holds less: for the merge benchmark's 10,000 cards, 78 MB at the end of the
    /// read instead of 135 MB, and 16,900 page faults instead of 31,900.
    package static func read(
        _ bytes: [UInt8], name: String? = nil, limits: Limits = .default, charset: Charset? = nil,
        evidence: CharsetEvidence? = nil, keepsLines: Bool
    )
        -> (cards: [ReadCard], diagnostics: [Diagnostic])
    {
        let evidence =
            evidence
            ?? bytes.withUnsafeBufferPointer {
                CharsetEvidence.survey(
                    UnsafeBufferPointer(rebasing: $0.prefix(CharsetEvidence.surveyedBytes)), limits: limits)
            }
        let decoding = DecodingOptions(charset: charset, file: evidence)
        if bytes.count >= parallelThreshold, ParallelCardReader.processors > 1,
            let read = readInParallel(bytes, name: name, limits: limits, decoding: decoding, keepsLines: keepsLines)
        {
            return read
        }
        // Lexed a slice at a time and each card read as it ends, so a reader that drops the lines never holds
        // more than a slice's cards lexed (a merge of 40,000 tiny incoming cards held them all, 5 KB each).
        var lexer = VCardLexer(limits: limits, decoding: decoding)
        var cardDiagnostics: [Diagnostic] = []
        var cards: [ReadCard] = []
        func read(_ raws: [RawCard]) {
            for raw in raws {
                let (contact, found) = VCardReader.contact(from: raw)
                cards.append(ReadCard(contact: contact, raw: keepsLines ? raw : raw.position, diagnostics: found))
                cardDiagnostics += found
            }
        }
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(buffer.count, start + sequentialSliceBytes)
                read(lexer.feed(UnsafeBufferPointer(rebasing: buffer[start..<end])))
                start = end
            }
        }
        read(lexer.finish())
        // The lexer's first, then the cards', as one whole read gave them (the sort keeps ties in this order).
        var diagnostics = lexer.takeDiagnostics() + cardDiagnostics
        diagnostics.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        if let name { for index in diagnostics.indices { diagnostics[index].file = name } }
        return (cards, diagnostics)
    }

    /// The slice `read` lexes at a time on one thread.
    package static let sequentialSliceBytes = 64 << 10

    /// From this many bytes `read` uses several threads (below it, one thread is done before several start).
    package static let parallelThreshold = 2 << 20

    /// `read` on several threads (`ParallelCardReader` gives the cards and diagnostics of one sequential read).
    private static func readInParallel(
        _ bytes: [UInt8], name: String?, limits: Limits, decoding: DecodingOptions, keepsLines: Bool
    ) -> (cards: [ReadCard], diagnostics: [Diagnostic])? {
        var cards: [ReadCard] = []
        var diagnostics: [Diagnostic] = []
        do {
            var reader = ParallelCardReader(limits: limits, charset: decoding.charset)
            reader.evidence = decoding.file
            try reader.readRaw(
                bytes, name: name ?? "",
                transform: { raw in
                    let (contact, found) = VCardReader.contact(from: raw)
                    return ReadCard(contact: contact, raw: keepsLines ? raw : raw.position, diagnostics: found)
                },
                body: { card in
                    cards.append(card)
                    diagnostics += card.diagnostics
                }, diagnostics: { diagnostics += $0 })
        } catch {
            return nil
        }
        diagnostics.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        for index in diagnostics.indices { diagnostics[index].file = name }
        return (cards, diagnostics)
    }
}
