import ContactCSV
import ContactFormats
import ContactModel
import Foundation
import UserFiles
import Utilities
import VCardFormat
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Reads every input named on the command line, card by card, whatever its format; diagnostics go to
/// stderr with the input's name. Commands see only contacts.
///
/// vCard is read as a stream (memory bounded by the largest card) unless `readsPipesWhole` is set; jCard, JSON
/// and CSV are read a card or record at a time from a regular file, and whole within `limits` from anything
/// else. An input that cannot be opened or read is reported with the system's reason and the others are still
/// read.
struct InputReader {
    let io: CommandIO
    var forcedFormat: ContactFormat?
    /// Read a vCard input that is not a regular file (standard input, a pipe) whole before parsing it, for a
    /// command that holds every card anyway (merge): an endless pipe then stops at `limits` like the other formats
    /// rather than filling memory with its cards, and its cards come without their content lines (each `raw` says
    /// only where the card was). A regular file is read as a stream either way, and stops where a whole read
    /// would: past its size when opened and the growth `limits` allow.
    var readsPipesWhole = false
    /// Bounds on inputs read whole.
    var limits = ReadLimits.default
    /// Work done on each card on the reading threads (`forEachCard(in:preparing:_:)`), for a vCard input read
    /// as a stream; nil reads on the calling thread alone.
    private var preparing: (@Sendable (ReadCard) -> any Sendable)?
    /// Whether warnings are printed (they are counted either way). A merge reports what it did with each card
    /// instead: a hundred thousand "card has no FN" lines would bury its summary.
    var printsWarnings = true
    /// `--charset`: the charset of vCard text that is not UTF-8 and declares none; nil decides it per card.
    var charset: Charset?
    /// The user named with `--user`, for collection URLs among the inputs.
    var user: String?
    /// Whether an input that holds text but no card is an input that could not be read (reported, and counted
    /// in `ioFailures`): it is most likely the wrong file, and converting it would write an empty output with
    /// only a warning. A merge says so itself, of empty inputs too.
    var refusesTextWithoutCards = true
    /// Whether the cards read are written as vCard (convert to vCard, merge): a contact from JSON, jCard or CSV
    /// that would be a vCard line or card no reader reads back is then refused (`WrittenSize`). Other outputs
    /// (JSON, a preview) hold it as it is.
    var writesVCard = false
    /// Whether the input being read had text outside a card.
    private var sawTextOutsideCard = false
    private(set) var errorCount = 0
    private(set) var warningCount = 0
    private(set) var ioFailures = 0
    /// The inputs that were read without a failure but held no card.
    private(set) var emptyInputs: [UserPath] = []

    init(io: CommandIO, forcedFormat: ContactFormat? = nil, charset: Charset? = nil) {
        self.io = io
        self.forcedFormat = forcedFormat
        self.charset = charset
    }

    /// How a reader reads, apart from where it reports: for the threads that read runs of small files.
    private struct Settings: Sendable {
        var forcedFormat: ContactFormat?
        var readsPipesWhole: Bool
        var limits: ReadLimits
        var preparing: (@Sendable (ReadCard) -> any Sendable)?
        var printsWarnings: Bool
        var charset: Charset?
        var user: String?
        var refusesTextWithoutCards: Bool
        var writesVCard: Bool
    }

    private var settings: Settings {
        Settings(
            forcedFormat: forcedFormat, readsPipesWhole: readsPipesWhole, limits: limits, preparing: preparing,
            printsWarnings: printsWarnings, charset: charset, user: user,
            refusesTextWithoutCards: refusesTextWithoutCards, writesVCard: writesVCard)
    }

    /// A reader reading as `settings` say, reporting to `io`.
    private init(io: CommandIO, settings: Settings) {
        self.init(io: io, forcedFormat: settings.forcedFormat, charset: settings.charset)
        readsPipesWhole = settings.readsPipesWhole
        limits = settings.limits
        preparing = settings.preparing
        printsWarnings = settings.printsWarnings
        user = settings.user
        refusesTextWithoutCards = settings.refusesTextWithoutCards
        writesVCard = settings.writesVCard
    }

    /// The charset `--charset NAME` names, nil when the option is not given.
    static func charset(_ parsed: Arguments) throws -> Charset? {
        guard let name = parsed.option(.charset) else { return nil }
        guard let charset = Charset(named: name) else {
            throw UsageError(
                "--charset takes one of \(Charset.knownNames.joined(separator: ", ")) (or an alias), not \(name)")
        }
        return charset
    }

    /// The name diagnostics give an input: its path shown safely, `-` for standard input.
    static func name(_ path: UserPath) -> String { path.description }

    /// Calls `body` with what `prepare` made of each card of each input, in order, and the input's path; as
    /// `forEachCard(in:_:)` otherwise. A vCard file or stream is read by `ParallelCardReader`: cards are read
    /// and prepared on every processor (so `prepare` must not depend on earlier cards), and handed to `body`
    /// in input order on this thread. Memory stays bounded by a few segments of the input in flight.
    mutating func forEachCard<T: Sendable>(
        in paths: [UserPath], preparing prepare: @escaping @Sendable (ReadCard) -> T,
        _ body: (T, UserPath) throws -> Void
    ) throws {
        preparing = { prepare($0) }
        defer { preparing = nil }
        try forEachCard(in: paths) { delivered, source in
            switch delivered {
            case .card(let card): try body(prepare(card), source)
            case .prepared(let prepared, _): try body(prepared as! T, source)
            }
        }
    }

    /// A card read on this thread, or what the reading threads prepared of one (and its diagnostics, reported
    /// by the reader): the card itself is let go on the reading thread.
    private enum Delivered: Sendable {
        case card(ReadCard)
        case prepared(any Sendable, diagnostics: [Diagnostic])
    }

    /// A card of a JSON input as the reading threads leave it: the card itself, or what `preparing` made of it,
    /// or the error of a card too large to write as vCard (see `readCards`), each with the card's diagnostics.
    private enum StreamedCard: Sendable {
        case card(ReadCard)
        case prepared(any Sendable, diagnostics: [Diagnostic])
        case tooLarge(line: Int, excess: String, diagnostics: [Diagnostic])

        var diagnostics: [Diagnostic] {
            switch self {
            case .card(let card): card.diagnostics
            case .prepared(_, let diagnostics), .tooLarge(_, _, let diagnostics): diagnostics
            }
        }

        /// What the reading threads make of a card: its size checked when it will be written as vCard (JSON has no
        /// line to limit), then prepared when the command prepares its cards.
        static func checking(writesVCard: Bool, preparing: (@Sendable (ReadCard) -> any Sendable)?)
            -> @Sendable (ReadCard) -> StreamedCard
        {
            { card in
                if writesVCard, let excess = WrittenSize.excess(of: card.contact) {
                    return .tooLarge(line: card.raw.beginLine, excess: excess, diagnostics: card.diagnostics)
                }
                guard let preparing else { return .card(card) }
                return .prepared(preparing(card), diagnostics: card.diagnostics)
            }
        }
    }

    /// Calls `body` with each card of each input in order, and the input's path. An input that cannot be read
    /// is reported and the others are still read. Reading stops early when standard output has ended.
    mutating func forEachCard(in paths: [UserPath], _ body: (ReadCard, UserPath) throws -> Void) throws {
        try forEachCard(in: paths) { (delivered: Delivered, source) in
            if case .card(let card) = delivered { try body(card, source) }
        }
    }

    private mutating func forEachCard(in paths: [UserPath], _ body: (Delivered, UserPath) throws -> Void) throws {
        // A vdir folder is read as its .vcf files; a collection URL as its cards.
        let paths = expandingFolders(paths.isEmpty ? [UserPath.standardStream] : paths)
        // The size of each regular file (nil for anything else: standard input, a pipe, a device, a URL).
        let regular = paths.map(Self.regularFileSize)
        let sizes = zip(paths, regular).map { path, size in size ?? (path.isStandardStream ? nil : 0) }
        let progress = ProgressLine(
            io: io, totalBytes: sizes.contains(where: { $0 == nil }) ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) })
        defer { progress.finish() }
        // What the command does with a card is not the input's doing: an output that cannot be written ends the
        // reading (it was reported as an unreadable input, once for each of a folder's 10,000 files).
        func deliver(_ card: Delivered, _ path: UserPath) throws {
            do { try body(card, path) } catch { throw CommandFailed(error: error) }
        }
        var cards = 0
        var bytesBefore = 0
        var index = paths.startIndex
        do {
            while index < paths.endIndex {
                if io.outputEnded() { return }
                let path = paths[index]
                let run = Self.smallFiles(from: index, sizes: regular, io: io)
                if run.count > 1 {
                    let files = Array(zip(paths[run], regular[run].map { $0 ?? 0 }))
                    guard
                        try readConcurrently(
                            files, progress: progress, cards: &cards, bytesBefore: &bytesBefore, deliver)
                    else { return }
                    index = run.upperBound
                    continue
                }
                index += 1
                defer { bytesBefore += sizes[index - 1] ?? 0 }
                if let url = Place.url(path) {
                    try readCollection(url, user: user) { card, source in
                        try deliver(.card(card), UserPath(source))
                        cards += 1
                        progress.update(cards: cards, bytesDone: bytesBefore)
                    }
                    continue
                }
                let before = cards
                let failuresBefore = ioFailures
                do {
                    let file = try InputFile.open(path)
                    defer { file.close() }
                    try read(file, progress: progress, cards: &cards, bytesBefore: bytesBefore, deliver)
                } catch let error as FileError {
                    io.error(error.description)
                    ioFailures += 1
                }
                if cards == before && ioFailures == failuresBefore { emptyInputs.append(path) }
            }
        } catch let failed as CommandFailed {
            throw failed.error
        }
    }

    /// An error the command threw for a card, carried out of the reading unchanged.
    private struct CommandFailed: Error {
        var error: any Error
    }

    /// Regular files at most this large, one after another, are read several at once: a vdir folder holds a
    /// file per card, and read one by one on one thread, its cards came at a quarter of the speed of the same
    /// cards in one file. Such a file is one segment of the parallel reader, which reads it on the calling thread.
    static let smallFileBytes = segmentBytes

    /// The size of the regular file at `path`; nil for anything else (standard input, a collection URL, a pipe,
    /// a device, a file that cannot be looked at).
    static func regularFileSize(_ path: UserPath) -> Int? {
        guard !path.isStandardStream, Place.url(path) == nil, let identity = FileIdentity.of(path),
            identity.isRegularFile
        else {
            return nil
        }
        return Int(identity.size)
    }

    /// The run of small regular files starting at `start` (`sizes` gives each input's size, nil for one that is not
    /// a regular file), at most 64 files and 4 MiB, so only a bounded part of the input is held at once; empty
    /// when `io` reads inputs in turn.
    static func smallFiles(from start: Int, sizes: [Int?], io: CommandIO) -> Range<Int> {
        guard !io.readsInputsInTurn else { return start..<start }
        var end = start
        var bytes = 0
        while end < sizes.count, end - start < 64, let size = sizes[end], size <= Self.smallFileBytes,
            bytes + size <= 4 << 20
        {
            bytes += size
            end += 1
        }
        return start..<end
    }

    /// What reading one file on another thread reported and delivered, in order.
    private struct RecordedRead: Sendable {
        enum Event: Sendable {
            case message(String)
            case card(Delivered)
        }
        var events: [Event] = []
        var errorCount = 0
        var warningCount = 0
        var ioFailures = 0
        var isEmpty = false
        /// What the reading threw that was not a file's error (nothing does today), thrown where it was.
        var thrown: (any Error)?
    }

    /// Reads `files` (paths with their sizes) on every processor, each read as this thread reads one alone,
    /// then reports and delivers what each read found, in order, as if read here. False when standard output
    /// has ended.
    private mutating func readConcurrently(
        _ files: [(path: UserPath, size: Int)], progress: ProgressLine, cards: inout Int, bytesBefore: inout Int,
        _ body: (Delivered, UserPath) throws -> Void
    ) throws -> Bool {
        let settings = self.settings
        let reads = Concurrently.map(files.map(\.path), chunk: 1) { Self.recordedRead($0, settings: settings) }
        for (file, read) in zip(files, reads) {
            for event in read.events {
                switch event {
                case .message(let text): io.relay(text)
                case .card(let card):
                    try body(card, file.path)
                    cards += 1
                    progress.update(cards: cards, bytesDone: bytesBefore)
                    if io.outputEnded() { return false }
                }
            }
            if let thrown = read.thrown { throw thrown }
            errorCount += read.errorCount
            warningCount += read.warningCount
            ioFailures += read.ioFailures
            if read.isEmpty { emptyInputs.append(file.path) }
            bytesBefore += file.size
        }
        return true
    }

    /// Reads the file at `path` as `forEachCard` reads one, recording what it reports and delivers.
    private static func recordedRead(_ path: UserPath, settings: Settings) -> RecordedRead {
        final class Recording: @unchecked Sendable {
            var events: [RecordedRead.Event] = []
        }
        let recording = Recording()
        let io = CommandIO(standardOutput: { _ in }, standardError: { recording.events.append(.message($0)) })
        var reader = InputReader(io: io, settings: settings)
        var cards = 0
        var thrown: (any Error)?
        do {
            let file = try InputFile.open(path)
            defer { file.close() }
            try reader.read(file, progress: ProgressLine(io: io, totalBytes: nil), cards: &cards, bytesBefore: 0) {
                card, _ in recording.events.append(.card(card))
            }
        } catch let error as FileError {
            io.error(error.description)
            reader.ioFailures += 1
        } catch {
            thrown = error
        }
        return RecordedRead(
            events: recording.events, errorCount: reader.errorCount, warningCount: reader.warningCount,
            ioFailures: reader.ioFailures, isEmpty: cards == 0 && reader.ioFailures == 0, thrown: thrown)
    }

    private mutating func read(
        _ file: InputFile, progress: ProgressLine, cards: inout Int, bytesBefore: Int,
        _ delivered: (Delivered, UserPath) throws -> Void
    ) throws {
        let before = (cards, ioFailures)
        let errorsBefore = errorCount
        sawTextOutsideCard = false
        try readCards(file, progress: progress, cards: &cards, bytesBefore: bytesBefore, delivered)
        guard refusesTextWithoutCards && (cards, ioFailures) == before && !io.outputEnded() else { return }
        if sawTextOutsideCard {
            io.error(
                "\(Self.name(file.path)): error: no cards found; this is not vCard, jCard, Contact JSON or a Google, "
                    + "Outlook or Thunderbird CSV export")
            ioFailures += 1
        } else if errorCount > errorsBefore {
            // Errors and not one card (JSON cut short, the wrong --from, a file of one line too long): the input
            // could not be read, and an output written from it would be empty, in place of what the file held.
            io.error("\(Self.name(file.path)): error: no card could be read from it (see the errors above)")
            ioFailures += 1
        }
    }

    private mutating func readCards(
        _ file: InputFile, progress: ProgressLine, cards: inout Int, bytesBefore: Int,
        _ delivered: (Delivered, UserPath) throws -> Void
    ) throws {
        let path = file.path
        let name = Self.name(path)
        let prefix = try file.read(upTo: 64 << 10)
        let format = forcedFormat ?? ContactFormat.detect(prefix)
        func body(_ card: ReadCard, _ source: UserPath) throws {
            // JSON, jCard and CSV have no line to limit: a contact that would be a vCard line or card no reader
            // reads back (a 20 MB note) is refused here, as the vCard reader refuses such a line.
            if writesVCard && format != .vcard, let excess = WrittenSize.excess(of: card.contact) {
                refuse(line: card.raw.beginLine, excess)
                return
            }
            try delivered(.card(card), source)
        }
        func refuse(line: Int, _ excess: String) {
            io.error("\(name):\(max(line, 1)): error: \(excess); the contact was skipped")
            errorCount += 1
        }
        // A card of a JSON input as the reading threads left it, as `body` gives a card (measured already).
        func handOn(_ card: StreamedCard) throws {
            switch card {
            case .card(let card): try delivered(.card(card), path)
            case .prepared(let prepared, let diagnostics):
                try delivered(.prepared(prepared, diagnostics: diagnostics), path)
            case .tooLarge(let line, let excess, _): refuse(line: line, excess)
            }
        }
        switch format {
        case .jcard:
            var given = 0
            func deliver(_ card: ReadCard) throws {
                report(card.diagnostics)
                try body(card, path)
                given += 1
                cards += 1
                progress.update(cards: cards, bytesDone: bytesBefore)
            }
            // Streamed, each card is read, measured and prepared on every processor, and told and given here in
            // order, as `deliver` does.
            let checked = StreamedCard.checking(writesVCard: writesVCard, preparing: preparing)
            func deliverStreamed(_ card: StreamedCard) throws {
                report(card.diagnostics)
                try handOn(card)
                given += 1
                cards += 1
                progress.update(cards: cards, bytesDone: bytesBefore)
            }
            // A card that is not jCard is told and skipped; those after it are read.
            var failures = 0
            func fail(_ error: JCardError) {
                io.error("\(error.description); the card was skipped")
                errorCount += 1
                failures += 1
            }
            guard
                let all = try document(
                    of: file, prefix: prefix,
                    stream: {
                        try JCard.forEachCard(more: $0, name: name, failed: fail, transform: checked, deliverStreamed)
                            == .done
                    })
            else { return }
            do {
                for card in try JCard.read(all, name: name).dropFirst(given + failures) { try deliver(card) }
            } catch let error as JCardError {
                io.error(error.description)
                errorCount += 1
            }
        case .csv where UTF16Text.byteOrder(of: prefix) == nil:
            // A file is read again rather than held: once to tell its encoding, as the whole file decides it, then
            // a record at a time. A pipe, read once, is held (within `limits`) and read so from memory: decoding
            // it all at once held every card (1.6 GB for a 130 MB export).
            let held = file.identity.isRegularFile ? nil : try file.readRestInPieces(after: prefix, limits: limits)
            var piece: () throws -> [UInt8] = { try file.read(upTo: Self.csvPieceBytes) }
            func rewind() throws {
                if let held { piece = Self.pieces(of: held) } else { try file.rewind() }
            }
            var check = ContactCSV.EncodingCheck()
            if held == nil {
                check.feed(prefix)
            } else {
                try rewind()
            }
            while case let bytes = try piece(), !bytes.isEmpty { check.feed(bytes) }
            check.finish()
            try rewind()
            // (An Outlook file with dates is read once more for the order of its dates, also decided by them all.)
            let dayFirst = try ContactCSV.RecordStream.datesAreDayFirst(check: check) { try piece() }
            try rewind()
            var stream = ContactCSV.RecordStream(check: check, dayFirst: dayFirst) { try piece() }
            while let item = try stream.next() {
                for problem in item.before { reportCSV(problem, name: name) }
                try body(
                    ReadCard(
                        contact: item.record.contact, raw: RawCard(lines: [], beginLine: item.record.line),
                        diagnostics: item.errors.map { Self.diagnostic($0, name: name) }),
                    path)
                cards += 1
                progress.update(cards: cards, bytesDone: bytesBefore)
                if io.outputEnded() { return }
            }
            for problem in stream.rest() { reportCSV(problem, name: name) }
        case .csv:
            let result = ContactCSV.read(try file.readRest(after: prefix, limits: limits))
            var problems = result.problems[...]
            for (index, record) in result.records.enumerated() {
                // Each problem is told before the first card read after it, so stderr follows the file.
                while let problem = problems.first, problem.line <= record.line {
                    reportCSV(problem, name: name)
                    problems = problems.dropFirst()
                }
                // An error within the record's lines goes with its card, so a merge can skip the card.
                let end = index + 1 < result.records.count ? result.records[index + 1].line : Int.max
                let errors = result.problems.filter { $0.severity == .error && $0.line >= record.line && $0.line < end }
                let diagnostics = errors.map { Self.diagnostic($0, name: name) }
                try body(
                    ReadCard(
                        contact: record.contact, raw: RawCard(lines: [], beginLine: record.line),
                        diagnostics: diagnostics),
                    path)
                cards += 1
                progress.update(cards: cards, bytesDone: bytesBefore)
            }
            for problem in problems { reportCSV(problem, name: name) }
        case .json:
            var given = 0
            func deliver(_ contact: Contact, line: Int) throws {
                try body(ReadCard(contact: contact, raw: RawCard(lines: [], beginLine: line), diagnostics: []), path)
                given += 1
                cards += 1
                progress.update(cards: cards, bytesDone: bytesBefore)
            }
            // Streamed, each contact is measured and prepared on every processor (see the jCard case above).
            let checked = StreamedCard.checking(writesVCard: writesVCard, preparing: preparing)
            func deliverStreamed(_ card: StreamedCard) throws {
                try handOn(card)
                given += 1
                cards += 1
                progress.update(cards: cards, bytesDone: bytesBefore)
            }
            // A key the model has no place for is said, not dropped in silence (a misspelt "notes"): by merge
            // too, which keeps other warnings to itself, since the value never reaches the book.
            var unknown: [ContactJSON.UnknownKey] = []
            func collect(_ key: ContactJSON.UnknownKey) { unknown.append(key) }
            func sayUnknown() {
                for key in unknown {
                    let dot = key.path.lastIndex(of: ".")
                    let within = dot.map { " in \(key.path[..<$0])" } ?? ""
                    let last = dot.map { String(key.path[key.path.index(after: $0)...]) } ?? key.path
                    warningCount += 1
                    io.report(
                        Diagnostic(
                            .warning, DiagnosticCode(rawValue: "unknown-key"),
                            "\"\(last)\"\(within) is not a Contact JSON key; its value was left out",
                            line: key.line, column: key.column, file: name))
                }
                unknown = []
            }
            // A contact that cannot be decoded is told and skipped; those after it are read.
            var failures = 0
            func fail(_ error: ContactJSON.DecodeError) {
                io.error("\(name):\(error.line):\(error.column): error: \(error.message); the contact was skipped")
                errorCount += 1
                failures += 1
            }
            guard
                let all = try document(
                    of: file, prefix: prefix,
                    stream: {
                        try ContactJSON.forEachContact(
                            more: $0, unknownKeys: collect, failed: fail,
                            transform: { contact, line in
                                checked(
                                    ReadCard(
                                        contact: contact, raw: RawCard(lines: [], beginLine: line), diagnostics: []))
                            }
                        ) { card in
                            sayUnknown()
                            try deliverStreamed(card)
                        } == .done
                    })
            else { return }
            unknown = []
            // The document is one contact, or its array's grammar broke after the contacts given.
            let streamed = given + failures
            do {
                let contacts = try ContactJSON.decode(all) { if $0.contact >= streamed { collect($0) } }
                sayUnknown()
                for contact in contacts.dropFirst(streamed) { try deliver(contact, line: 1) }
            } catch let error as ContactJSON.DecodeError {
                sayUnknown()
                io.error("\(name):\(error.line):\(error.column): error: \(error.message)")
                errorCount += 1
            }
        case .vcard where readsPipesWhole && !file.identity.isRegularFile:
            let all = try file.readRest(after: prefix, limits: limits)
            let (read, diagnostics) = VCardDocument.read(all, name: name, charset: charset, keepsLines: false)
            report(diagnostics)
            // The lexer's errors (a card without END, a line without a colon) are the file's, not the card's:
            // each card gets those within its lines, so a command can tell a card that was not read whole.
            // Both lists are in line order, so one pass pairs them.
            let errors = diagnostics.filter { $0.severity == .error }
            var next = 0
            for var card in read {
                let end = card.raw.endLine ?? Int.max
                while next < errors.count && errors[next].line < card.raw.beginLine { next += 1 }
                var index = next
                var found = card.diagnostics
                while index < errors.count && errors[index].line <= end {
                    let error = errors[index]
                    if !found.contains(where: {
                        ($0.line, $0.column, $0.code) == (error.line, error.column, error.code)
                    }) {
                        found.append(error)
                    }
                    index += 1
                }
                card.diagnostics = found.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
                try body(card, path)
                cards += 1
                progress.update(cards: cards, bytesDone: bytesBefore + card.raw.byteRange.upperBound)
            }
        case .vcard where preparing != nil:
            // A pipe too: its reads return what has been sent, the reader asks again until a segment is full, and
            // the output is written in buffered blocks anyway, so reading ahead delays nothing a reader of the
            // output would see (`cat book.vcf | vcf convert -` was read on one thread, at half the speed).
            let handle = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: false)
            let prepare = preparing!
            // Segments of 256 KiB: with a few in flight, and their output, the reader holds a few MB at once.
            let reader = ParallelCardReader(segmentBytes: Self.segmentBytes, charset: charset)
            // A command that holds every card (`readsPipesWhole`) must not hold those of a file that grows without
            // end while it is read: it stops where reading the file whole would.
            let readsTo =
                readsPipesWhole && file.identity.isRegularFile
                ? max(Int(file.identity.size), 0) + limits.maxUnsizedBytes : Int.max
            do {
                try reader.read(
                    handle, name: name, prefix: prefix,
                    transform: { card in
                        (
                            Delivered.prepared(prepare(card), diagnostics: card.diagnostics),
                            card.raw.byteRange.upperBound
                        )
                    },
                    body: { (card: Delivered, end: Int) in
                        guard end <= readsTo else {
                            throw FileError(
                                file.path, "is too large to read whole",
                                detail: InputFile.limitDetail(limits, sized: true))
                        }
                        if case .prepared(_, let diagnostics) = card { report(diagnostics) }
                        try delivered(card, path)
                        cards += 1
                        progress.update(cards: cards, bytesDone: bytesBefore + end)
                        if io.outputEnded() { throw OutputEnded() }
                    },
                    diagnostics: { report($0) })
            } catch let error as VCardInputError {
                io.error(error.description)
                ioFailures += 1
            } catch is OutputEnded {
                return
            }
        case .vcard:
            let handle = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: false)
            let reader = VCardFileReader(handle: handle, name: name, prefix: prefix, charset: charset)
            do {
                while let card = try reader.next() {
                    report(reader.takeFileDiagnostics())
                    report(card.diagnostics)
                    try body(card, path)
                    cards += 1
                    progress.update(cards: cards, bytesDone: bytesBefore + card.raw.byteRange.upperBound)
                    if io.outputEnded() { return }
                }
                report(reader.takeFileDiagnostics())
            } catch let error as VCardInputError {
                io.error(error.description)
                ioFailures += 1
            }
        }
    }

    /// The size of the segments a vCard file is cut into for the reading threads.
    static let segmentBytes = 256 << 10

    /// Thrown out of a parallel read once standard output has ended.
    private struct OutputEnded: Error {}

    /// The pieces a CSV, Contact JSON or jCard file is read in, a record or card at a time.
    static let csvPieceBytes = 1 << 20

    /// The JSON document of `file` (`prefix` read already) for its whole-document reader, or nil when `stream`
    /// read it all: an array in a file that can be read twice is read a card at a time by `stream` from the
    /// pieces it is given (it says whether it read the whole document), and anything else (one object, a
    /// broken document, whose error the whole-document reader tells as ever) read again whole afterwards.
    private func document(
        of file: InputFile, prefix: [UInt8], stream: (@escaping () throws -> [UInt8]) throws -> Bool
    ) throws -> [UInt8]? {
        guard file.identity.isRegularFile && UTF16Text.byteOrder(of: prefix) == nil else {
            guard UTF16Text.byteOrder(of: prefix) == nil else {
                // UTF-16 (Windows PowerShell writes it) is read whole, and streamed as UTF-8 from memory, so a bad
                // element is skipped there too.
                let whole = try file.readRest(after: prefix, limits: limits)
                let text = UTF16Text.utf8(fromUTF16: whole) ?? whole
                if try stream(Self.pieces(of: [text])) { return nil }
                return text
            }
            // A pipe is read once, so it is held (within `limits`, in the pieces it came in), but its cards are
            // still decoded one at a time: decoding them all at once held every card (1 GB for a 103 MB jCard).
            let held = try file.readRestInPieces(after: prefix, limits: limits)
            if try stream(Self.pieces(of: held)) { return nil }
            return Array(held.joined())
        }
        var first = prefix
        let pieces: () throws -> [UInt8] = {
            if first.isEmpty { return try file.read(upTo: Self.csvPieceBytes) }
            defer { first = [] }
            return first
        }
        if try stream(pieces) { return nil }
        try file.rewind()
        return try file.readRest(limits: limits)
    }

    /// `held` a piece at a time, then empty pieces: what the streaming readers take from a file.
    private static func pieces(of held: [[UInt8]]) -> () -> [UInt8] {
        var next = 0
        return {
            guard next < held.count else { return [] }
            defer { next += 1 }
            return held[next]
        }
    }

    /// A CSV error as the diagnostic its card carries.
    private static func diagnostic(_ problem: ContactCSV.Problem, name: String) -> Diagnostic {
        Diagnostic(
            .error, DiagnosticCode(rawValue: problem.code.rawValue), problem.message, line: problem.line,
            column: problem.column, file: name)
    }

    private mutating func reportCSV(_ problem: ContactCSV.Problem, name: String) {
        if problem.severity == .error { errorCount += 1 } else { warningCount += 1 }
        if problem.severity == .error || printsWarnings { io.error("\(name):\(problem.description)") }
    }

    /// Counts an input that could not be read (reported by the caller).
    mutating func countFailure() { ioFailures += 1 }

    /// Reports and counts `diagnostics`.
    mutating func reportAll(_ diagnostics: [Diagnostic]) { report(diagnostics) }

    private mutating func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            if diagnostic.code == .textOutsideCard { sawTextOutsideCard = true }
            if diagnostic.severity == .error { errorCount += 1 } else { warningCount += 1 }
            if diagnostic.severity == .error || printsWarnings { io.report(diagnostic) }
        }
    }

    /// Reads one input whole (`-` for standard input), within `limits`; nil after reporting why not.
    static func readWhole(_ path: UserPath, io: CommandIO, limits: ReadLimits = .default) -> [UInt8]? {
        do {
            let file = try InputFile.open(path)
            defer { file.close() }
            return try file.readAll(limits: limits)
        } catch {
            io.error("\(error)")
            return nil
        }
    }
}
