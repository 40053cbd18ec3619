import ContactMatching
import ContactModel
import Foundation
import Utilities
import VCardFormat
import VCardSyntax

/// Where a contacts file's bytes are read from: in order once, to find its cards, then again by range, for a card
/// a merge needs whole and for the bytes copied around the cards an update rewrites. A file on disk is read there
/// each time (`RandomAccessFile` in UserFiles), so a book is never held in memory; standard input is held.
public protocol ContactsFileBytes: Sendable {
    /// The bytes of `range`: fewer when the file ends within it, none past its end.
    /// - Throws: when they cannot be read.
    func read(_ range: Range<Int>) throws -> [UInt8]
}

/// Bytes held in memory, as a `ContactsFileBytes`.
public struct BytesInMemory: ContactsFileBytes {
    /// The bytes.
    public let bytes: [UInt8]

    /// The bytes `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func read(_ range: Range<Int>) -> [UInt8] {
        Array(bytes[min(range.lowerBound, bytes.count)..<min(range.upperBound, bytes.count)])
    }
}

/// A contacts file as read for an in-place update: where each card's bytes are and what identifies it, so an
/// update rewrites only the cards that changed and leaves every other byte as it was. Only each card's match keys
/// are kept in memory, not the file: a whole card is read again from its bytes when a merge needs it, and the
/// bytes between rewritten cards are copied from the file as the new one is written.
public struct ContactsFile: Sendable {
    /// One card of the file.
    public struct Card: Sendable {
        /// Where its bytes are in the file.
        public var byteRange: Range<Int>
        /// Its BEGIN:VCARD line.
        public var beginLine: Int
        /// 4.0 or 3.0 (2.1 and 3.0 cards are rewritten as 3.0, which every reader of 2.1 also reads).
        public var version: VCardVersion
        /// What identifies the person, read from UID, FN, N, ORG, EMAIL, TEL and BDAY as a full read gives them.
        public var keys: MatchKeys
        /// The card's name as reports show it.
        public var displayName: String
    }

    /// The name used in messages.
    public var name: String
    /// Where the file's bytes are read from.
    public let source: any ContactsFileBytes
    /// How many bytes the file had when it was read, and their `ContentDigest`: the bytes copied into a new
    /// file must be these, and an in-place update's target must still hold them when it is replaced.
    public let byteCount: Int
    package let contentDigest: UInt64
    /// A card read again that could not be (a read error, a file cut short meanwhile): no new file is written.
    private let rereadFailure = RereadFailure()
    /// The cards, in file order.
    public var cards: [Card]
    /// The country code national phone numbers in `keys` were read with.
    public var countryCode: Int?
    /// `\r\n`, or `\n` when the file's first line ends so: merged and added cards are written the same way.
    public var lineEnding: [UInt8]
    /// What the file says about its charsets (a CHARSET declared on another card, the detector's choice for
    /// the whole file), so a card read again alone decodes its 8-bit text as the whole file did.
    public var charsetEvidence: CharsetEvidence

    /// Why a file cannot be updated in place.
    public struct Unreadable: Error, CustomStringConvertible, Sendable {
        /// The problems, each naming the file and line.
        public var diagnostics: [Diagnostic]
        /// A problem with the file as a whole.
        public var reason: String?
        public var description: String {
            ([reason].compactMap { $0 } + diagnostics.map(\.description)).joined(separator: "\n")
        }
    }

    /// Reads `bytes`; see `init(source:name:countryCode:)`.
    /// - Throws: `Unreadable`.
    public init(bytes: [UInt8], name: String, countryCode: Int? = nil) throws {
        try self.init(source: BytesInMemory(bytes), name: name, countryCode: countryCode)
    }

    /// Reads the file `source` gives (on several threads when it is large), reading national phone numbers with
    /// `countryCode` or, when it is nil, with the code most of the file's international numbers use. Any error in
    /// any card stops here, because rewriting a file we did not fully understand could lose what we failed to read.
    /// - Throws: `Unreadable`.
    public init(source: any ContactsFileBytes, name: String, countryCode: Int? = nil) throws {
        let head: [UInt8]
        do {
            head = try source.read(0..<max(CharsetEvidence.surveyedBytes, Self.sampledBytes))
        } catch {
            throw Unreadable(diagnostics: [], reason: "\(error)")
        }
        if head.count >= 2 && ((head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF)) {
            throw Unreadable(
                diagnostics: [],
                reason: "\(name): error: the file is UTF-16; convert it to UTF-8 first (vcf convert \(name) -o OUT)")
        }
        var cards: [Card] = []
        var errors: [Diagnostic] = []
        // Kept for `contact(at:)`, and given to the reader so the file is surveyed once.
        charsetEvidence = head.withUnsafeBufferPointer {
            CharsetEvidence.survey(UnsafeBufferPointer(rebasing: $0.prefix(CharsetEvidence.surveyedBytes)))
        }
        // Read without a country code, a card's national numbers wait for the code most of the book's
        // international numbers use, known only once every card is read; reading them then took a pass over every
        // card's keys after the read (a tenth of a dedupe's read of a large book). The code the file's first
        // cards prevail with is a guess that is nearly always that code: each card's national numbers are read
        // with it while its keys are at hand, and the few cards read with a guess that proves wrong are read again.
        let guess = countryCode == nil ? Self.likelyCountryCode(head, evidence: charsetEvidence) : nil
        var counts: [Int: Int] = [:]
        var readWith: [Int32] = []
        // The bytes are read once in order, and fingerprinted as they go by.
        var read = 0
        var digest = ContentDigest()
        // Whether the first line ends with CR LF (nil until a line end is read; the first line may be a photo's).
        var firstLineCRLF: Bool?
        var lastByte: UInt8?
        do {
            // Keys are worked out on the reader's threads, while each card's bytes are at hand.
            var reader = ParallelCardReader()
            reader.evidence = charsetEvidence
            // Only the lines the keys are made from are copied into each card: the rest are parsed and left.
            reader.selection = VCardReader.identityLines
            try reader.readRaw(
                chunks: { carry, wanted in
                    let chunk = try source.read(read..<read + wanted)
                    chunk.withUnsafeBytes { digest.update($0) }
                    if firstLineCRLF == nil, let lf = chunk.firstIndex(of: 0x0A) {
                        firstLineCRLF = (lf > 0 ? chunk[lf - 1] : lastByte) == 0x0D
                    }
                    lastByte = chunk.last ?? lastByte
                    read += chunk.count
                    carry.append(contentsOf: chunk)
                    return !chunk.isEmpty
                }, name: name,
                transform: { raw in
                    let identity = VCardReader.identity(from: raw)
                    let keys = MatchKeys(identity, countryCode: countryCode)
                    let (codes, readWith) = Self.readNationalNumbers(keys, countryCode: countryCode, guess: guess)
                    let card = Card(
                        byteRange: raw.byteRange, beginLine: raw.beginLine, version: Self.version(of: raw),
                        keys: keys, displayName: AddressBookMerge.displayName(identity))
                    return (card: card, codes: codes, readWith: readWith)
                },
                body: {
                    // The file is refused at its first error; reading on only made the keys of every card after it
                    // (a 20 MB file of BEGIN lines with no END held 1 GB before it was refused).
                    guard errors.count < Self.errorsRead else { throw StoppedReading() }
                    cards.append($0.card)
                    for code in $0.codes { counts[code, default: 0] += 1 }
                    if countryCode == nil { readWith.append($0.readWith) }
                },
                diagnostics: { found in errors += found.filter { $0.severity == .error } })
        } catch is StoppedReading {
            // The errors found so far are reported below.
        } catch {
            throw Unreadable(diagnostics: [], reason: "\(error)")
        }
        guard errors.isEmpty else {
            throw Unreadable(diagnostics: errors.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        if countryCode == nil {
            let code = Matcher.prevailingCountryCode(counts: counts)
            do {
                try Self.settleNationalNumbers(
                    &cards, readWith: readWith, code: code, source: source, evidence: charsetEvidence)
            } catch {
                throw Unreadable(diagnostics: [], reason: "\(error)")
            }
            self.countryCode = code
        } else {
            self.countryCode = countryCode
        }
        self.name = name
        self.source = source
        byteCount = read
        contentDigest = digest.value
        self.cards = cards
        lineEnding = firstLineCRLF ?? true ? [0x0D, 0x0A] : [0x0A]
    }

    /// How many errors a read finds before it stops: as many as the lexer reports of one problem in a row.
    package static let errorsRead = VCardLexer.repeatedDiagnosticLimit + 1

    private struct StoppedReading: Error {}

    /// How much of a file's beginning `likelyCountryCode` reads.
    package static let sampledBytes = 256 << 10

    /// The country code most international numbers of the cards in the file's first `sampledBytes` use, as
    /// `Matcher.prevailingCountryCode` counts them; nil when they name none.
    package static func likelyCountryCode(_ bytes: [UInt8], evidence: CharsetEvidence) -> Int? {
        let sample = Array(bytes.prefix(sampledBytes))
        let cards = VCardDocument.read(sample, evidence: evidence).cards
        return Matcher.prevailingCountryCode(cards.lazy.flatMap { $0.contact.phones.lazy.map(\.value) })
    }

    /// For a card read without a country code: the country codes of its international numbers (what
    /// `Matcher.prevailingCountryCode` counts), and the code its national numbers were read with in place
    /// (`guess`), -1 when it has some left unread (no guess), 0 when it has none.
    private static func readNationalNumbers(_ keys: MatchKeys, countryCode: Int?, guess: Int?) -> (
        codes: [Int], readWith: Int32
    ) {
        guard countryCode == nil else { return ([], 0) }
        let codes = keys.phones.compactMap(\.key.countryCode)
        guard keys.phones.contains(where: \.key.isNational) else { return (codes, 0) }
        guard let guess else { return (codes, -1) }
        // The keys were made here and no other thread holds them yet.
        keys.resolveNationalNumbers(countryCode: guess)
        return (codes, Int32(guess))
    }

    /// Gives every card's national numbers the book's own `code`, as reading them all without one and then
    /// with it does: the cards left unread are read with it, and the cards read with another guess are read
    /// again from their bytes (their keys without a code, then with it).
    private static func settleNationalNumbers(
        _ cards: inout [Card], readWith: [Int32], code: Int?, source: any ContactsFileBytes, evidence: CharsetEvidence
    ) throws {
        let settled = Int32(code ?? 0)
        let positions = readWith.indices.filter { readWith[$0] != 0 && readWith[$0] != settled }
        guard !positions.isEmpty else { return }
        let wrong = positions.filter { readWith[$0] > 0 }
        let ranges = wrong.map { cards[$0].byteRange }
        let fresh = Concurrently.map(ranges, chunk: 64) { range -> Result<MatchKeys, any Error> in
            Result {
                // Read without error once already: there is a card here, and the file's evidence decodes it alike.
                let card = VCardDocument.read(try source.read(range), evidence: evidence).cards.first
                return MatchKeys(card.map { VCardReader.identity(from: $0.raw) } ?? Contact(), countryCode: nil)
            }
        }
        for (k, p) in wrong.enumerated() { cards[p].keys = try fresh[k].get() }
        guard let code else { return }
        // Each card's keys were made by this read and no other thread holds them yet.
        let keys = cards.map(\.keys)
        _ = Concurrently.map(positions, chunk: 1_024) { keys[$0].resolveNationalNumbers(countryCode: code) }
    }

    /// The whole card at `position`, read again from its bytes. When they cannot be read again (a read error, the
    /// file cut short by another program meanwhile), an empty card, and no new file is written from this one
    /// (`writeRendered` throws).
    public func contact(at position: Int) -> Contact {
        let range = cards[position].byteRange
        let bytes: [UInt8]
        do {
            bytes = try source.read(range)
        } catch {
            rereadFailure.record(error)
            return Contact()
        }
        // These bytes were read once already without an error, so there is a card to find, unless another program
        // changed them meanwhile. Alone, they could say another charset than the file does (the CHARSET was
        // declared on another card).
        guard bytes.count == range.count, let card = VCardDocument.read(bytes, evidence: charsetEvidence).cards.first
        else {
            rereadFailure.record(ChangedSinceRead(name: name))
            return Contact()
        }
        return card.contact
    }

    /// The bytes of the file differ from those read first: another program changed it meanwhile.
    public struct ChangedSinceRead: Error, CustomStringConvertible, Sendable {
        /// The file's name in messages.
        public var name: String
        public var description: String { "\(name): error: changed by another program while vcf worked on it" }
    }

    /// The first error of reading a card again, shared by every copy of the file (the engine reads cards on
    /// several threads).
    private final class RereadFailure: @unchecked Sendable {
        private let lock = NSLock()
        private var first: (any Error)?

        func record(_ error: any Error) {
            lock.lock()
            defer { lock.unlock() }
            if first == nil { first = error }
        }

        var error: (any Error)? {
            lock.lock()
            defer { lock.unlock() }
            return first
        }
    }

    /// The cards for a merge to match against: keys in memory, whole cards read when needed.
    public var existingCards: ExistingCards {
        let file = self
        return ExistingCards(
            keys: cards.map(\.keys), names: cards.map(\.displayName), countryCode: countryCode,
            card: { file.contact(at: $0) })
    }

    /// The BEGIN:VCARD line of each card.
    public var lines: [Int] { cards.map(\.beginLine) }

    /// The file with the cards at `replaced` positions rewritten, those in `removed` taken out, and `added`
    /// appended; every other byte as it was. Rewritten cards keep their version (2.1 is written as 3.0, which
    /// every reader of 2.1 also reads); added cards take the version most cards in the file have.
    /// - Throws: what `writeRendered` throws.
    public func rendered(replacing replaced: [Int: Contact], removing removed: Set<Int> = [], adding added: [Contact])
        throws -> [UInt8]
    {
        var out: [UInt8] = []
        try writeRendered(replacing: replaced, removing: removed, adding: added) { out += $0 }
        return out
    }

    /// The pieces of `rendered`, each non-empty, handed to `sink` as the new cards are written, a batch at a time,
    /// and as the bytes between them are read again from the file, a megabyte at a time (a few megabytes ahead):
    /// a large book is never held in memory on its way to disk.
    /// - Throws: `ChangedSinceRead` when the file's bytes are not those first read (another program changed
    ///   them), or a card could not be read again; the error of reading the file; what `sink` throws.
    public func writeRendered(
        replacing replaced: [Int: Contact], removing removed: Set<Int> = [], adding added: [Contact],
        to sink: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        if let error = rereadFailure.error { throw error }
        let changed = Set(replaced.keys).union(removed).sorted()
        let rewritten = changed.filter { !removed.contains($0) }
        let file = self
        let version = prevailingVersion
        var lastByte: UInt8?
        func emit(_ part: ArraySlice<UInt8>) throws {
            guard let last = part.last else { return }
            lastByte = last
            try sink(part)
        }
        // The file is read again in order from its start, every byte of it (those of the cards left out too), and
        // fingerprinted on the way, so what is copied is what was read. It is read and fingerprinted on a thread of
        // its own, a few megabytes ahead of the copy.
        let source = self.source
        let reader = ReadAhead(byteCount: byteCount, chunkBytes: Self.copiedBytes) { try source.read($0) }
        defer { reader.stop() }
        var position = 0
        var chunk: [UInt8] = []
        var used = 0
        func pass(to end: Int, copying: Bool) throws {
            while position < end {
                if used == chunk.count {
                    guard let next = try reader.next(), !next.isEmpty else { throw ChangedSinceRead(name: name) }
                    (chunk, used) = (next, 0)
                }
                let count = min(end - position, chunk.count - used)
                if copying { try emit(chunk[used..<used + count]) }
                used += count
                position += count
            }
        }
        var nextChanged = 0
        // The file's bytes up to `limit`, skipping the cards removed before it.
        func copyRemoved(before limit: Int) throws {
            while nextChanged < changed.count && changed[nextChanged] < limit {
                let range = cards[changed[nextChanged]].byteRange
                try pass(to: range.lowerBound, copying: true)
                try pass(to: range.upperBound, copying: false)
                nextChanged += 1
            }
        }
        // The rest of the file, and a line break before the added cards when the file ends without one.
        func finishFile() throws {
            try copyRemoved(before: Int.max)
            try pass(to: byteCount, copying: true)
            // Nothing after what was read, and the same bytes: the file is as it was read.
            guard try source.read(byteCount..<byteCount + 1).isEmpty, reader.fingerprint == contentDigest else {
                throw ChangedSinceRead(name: name)
            }
            if !added.isEmpty, let lastByte, lastByte != 0x0A { try emit(lineEnding[...]) }
        }
        let total = rewritten.count + added.count
        // The new cards are written on every processor (a merge into a large book rewrites thousands), a batch
        // at a time, so only one batch of them is held at once. The rewritten cards come in batches of their own,
        // so that the copy waits only for them. (Writing the added cards on another thread during the copy was
        // tried: it took the processors the copy needed, and the copy is what the rest waits for.)
        let batch = 4_096
        let batches =
            stride(from: 0, to: rewritten.count, by: batch).map { $0..<min(rewritten.count, $0 + batch) }
            + stride(from: rewritten.count, to: total, by: batch).map { $0..<min(total, $0 + batch) }
        // By index: a list of the cards with their versions copied every card (retaining each of its values)
        // only to write it, and an import writes every card of a book.
        let written: @Sendable (Int) -> [UInt8] = { i in
            guard i < rewritten.count else { return file.written(added[i - rewritten.count], version: version) }
            let position = rewritten[i]
            return file.written(replaced[position]!, version: file.cards[position].version)
        }
        for range in batches {
            if range.lowerBound == rewritten.count { try finishFile() }
            for (offset, card) in Concurrently.map(Array(range), chunk: 64, written).enumerated() {
                let i = range.lowerBound + offset
                if i < rewritten.count {
                    let position = rewritten[i]
                    try copyRemoved(before: position)
                    try pass(to: cards[position].byteRange.lowerBound, copying: true)
                    try emit(card[...])
                    try pass(to: cards[position].byteRange.upperBound, copying: false)
                    nextChanged += 1
                } else {
                    try emit(card[...])
                }
            }
        }
        if added.isEmpty { try finishFile() }
    }

    /// How much of the file is read again at a time to be copied.
    static let copiedBytes = 1 << 20

    private static func version(of raw: RawCard) -> VCardVersion {
        raw.withView { view in
            for i in 0..<view.count where view[i].nameIs("VERSION") {
                return VCardVersion(versionValue: view[i].value) == .v4_0 ? .v4_0 : .v3_0
            }
            return .v3_0
        }
    }

    private var prevailingVersion: VCardVersion {
        var four = 0
        for i in cards.indices where cards[i].version == .v4_0 { four += 1 }
        return four * 2 > cards.count ? .v4_0 : .v3_0
    }

    private func written(_ card: Contact, version: VCardVersion) -> [UInt8] {
        var out: [UInt8] = []
        VCardWriter(version: version).write(card, into: &out)
        guard lineEnding == [0x0A] else { return out }
        var lf: [UInt8] = []
        lf.reserveCapacity(out.count)
        for (i, b) in out.enumerated() where !(b == 0x0D && i + 1 < out.count && out[i + 1] == 0x0A) { lf.append(b) }
        return lf
    }
}
