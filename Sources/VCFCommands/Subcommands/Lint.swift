import CardPhoto
import ContactFormats
import Foundation
import UserFiles
import Utilities
import VCardFormat
import VCardLint
import VCardSyntax

/// `vcf lint`: checks vCard files and prints each finding, or repairs a file with `--fix -o OUT`.
enum Lint {
    static let configuration = CommandConfiguration(
        name: "lint", abstract: "check cards against RFC 2426/6350 and for known import problems; --fix repairs",
        options: [spec], help: { help }, run: { try run($0, io: $1) })

    static let spec = Arguments.Spec(
        flags: [.help, .strict, .json, .fix, .force, .carddav],
        options: [.maxBytes, .output, .charset, .user],
        aliases: ["-h": .help, "--output": .output])

    static let help = """
        vcf lint: check vCard files against RFC 2426 and RFC 6350, and for what other clients read badly.

        Examples:
          vcf lint contacts.vcf                          one finding a line, as editors and CI read them
          vcf lint a.vcf b.vcf --strict                  warnings count as errors too
          vcf lint export.vcf --max-bytes icloud         also cards and photos too large for iCloud
          vcf lint contacts.vcf --json > findings.json   a JSON array for programs
          vcf lint broken.vcf --fix -o fixed.vcf         repair what can be repaired, list each change
          vcf lint contacts.vcf --fix -o contacts.vcf    repair in place (through a temporary file)
          vcf lint ~/.contacts/friends/ --carddav        a vdir, checked for what CardDAV servers refuse

        Usage: vcf lint FILE...|DIR|URL|- [--strict] [--json] [--max-bytes N|PRESET] [--carddav] [--user NAME]
                        [--charset NAME]
               vcf lint FILE|- --fix -o OUT|- [--strict] [--max-bytes N|PRESET] [--charset NAME] [--force]

        Each finding is printed on standard output as
          file:line:col: severity: [code] message
        and a summary (2 files: 3 errors, 5 warnings) on stderr. Messages name lines and properties, never
        the values a card holds.

        Errors: missing-end, unexpected-end, missing-colon, missing-name (the card cannot be read whole);
          missing-version, unknown-version, missing-fn (3.0, 4.0), missing-n (2.1, 3.0); duplicate-property
          (4.0, and VERSION); invalid-date (BDAY, ANNIVERSARY, REV); invalid-base64 (undecodable);
          image-type-mismatch (the bytes are not the declared PHOTO or LOGO type); invalid-encoding (not
          UTF-8, in 3.0 and 4.0); version-not-second (4.0); nul-character (a NUL in a value).
        Warnings: version-not-second (2.1, 3.0); duplicate-property (2.1, 3.0); empty-fn; unknown-type
          (TEL, EMAIL, ADR, LABEL); unknown-image; long-line (over 75 octets); quoted-printable; missing-uid
          (importing the file again duplicates the card); record-too-large and photo-too-large (with
          --max-bytes); not-utf8 (a UTF-16 file); text-outside-card; control-character (other than tab
          and line breaks); nonstandard-name (kept as written); invalid-encoding (2.1 text that is not
          UTF-8 and declares no CHARSET: the charset chosen and why); and what the reader recovered from.

        Options:
          --strict          report every warning as an error
          --json            print the findings as a JSON array of {file, line, column, severity, code, message}
          --carddav         also what CardDAV servers refuse, as vcf checks before an upload: carddav-missing-uid,
                            carddav-duplicate-uid (across all the files given), carddav-multiple-uid,
                            carddav-multiple-rev, carddav-multiple-n, carddav-version (2.1; 4.0 is a
                            warning, as only some servers store it) and carddav-too-large (with --max-bytes)
          --user NAME       the CardDAV user, for an https:// URL (every card of the address book is checked)
          --max-bytes N     report cards over N bytes as written in the file; or a preset, which also bounds
                            the photo: cloudkit, icloud, exchange, nextcloud, baikal (as vcf convert reads
                            them). No limit by default.
          --charset NAME    the charset of text that is not UTF-8 and declares none (Windows-1251, KOI8-R,
                            Shift_JIS...); without it each card's is decided from its CHARSETs and letters
          --fix             write a repaired file: every readable card as clean vCard 3.0, 4.0 cards as 4.0
                            (folded, UTF-8, no quoted-printable), FN made from N, ORG or EMAIL, N from FN
                            (last word as family name), a UID made from the card's content (fixing twice
                            gives the same file), image types matching their data. Each finding is listed
                            on stderr as
                              file:line: fixed: [code] what was done
                              file:line: not fixed: [code] why
                            Repeated values are all kept. A card with a line that cannot be read is kept as
                            written, so no data is lost.
          -o, --output OUT  where --fix writes (required): a file, replaced atomically; - for standard output;
                            the input's own path to repair it in place (under a lock, done again if another
                            program changes the file meanwhile)
          --force           replace OUT even when it is read-only

        Exit codes: 0 no errors, 1 errors found (with --strict, any finding; with --fix, errors left unfixed),
        2 a file could not be read or written, 64 usage.

        """

    static func run(_ arguments: [[UInt8]], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: spec)
        if parsed.flags.contains(.help) {
            io.write(help)
            return ExitCode.success
        }
        var options = LintOptions(strict: parsed.flags.contains(.strict), charset: try InputReader.charset(parsed))
        if let text = parsed.option(.maxBytes) {
            guard let limit = RecordLimit(parsing: text) else {
                let presets = RecordLimit.presets.compactMap(\.name).joined(separator: ", ")
                throw UsageError("--max-bytes takes a byte count or one of \(presets), not \(text)")
            }
            options.maxRecordBytes = limit.recordBytes
            options.maxPhotoBytes = limit.photoByteBound
            options.limitName = limit.name
        }
        if parsed.flags.contains(.carddav) {
            options.carddav = CardDAVServer(maxBytes: options.maxRecordBytes, limitName: options.limitName)
        }
        let paths = parsed.positionals
        guard !paths.isEmpty else { throw UsageError("lint needs a FILE to check (- for standard input)") }
        if parsed.flags.contains(.fix) { return try fix(paths, parsed, options: options, io: io) }
        if parsed.path(.output) != nil {
            throw UsageError("-o is where --fix writes; findings go to standard output")
        }
        let json = parsed.flags.contains(.json)
        var errors = 0
        var warnings = 0
        var linted = 0
        var unreadable = 0
        // Each source with its bytes when already fetched, and the options for it: a collection's cards are
        // checked against what that server advertises (vCard 4.0, its size limit).
        var sources: [(UserPath, [UInt8]?, LintOptions)] = []
        var reader = InputReader(io: io)
        for path in reader.expandingFolders(paths) {
            if let url = Place.url(path) {
                // Each card of a collection is linted as the file the server holds.
                do {
                    let store = try PlaceAccess(io: io, user: parsed.option(.user)).collection(
                        url, maxBytes: options.maxRecordBytes, limitName: options.limitName)
                    var server = options
                    if server.carddav != nil { server.carddav = store.server }
                    sources += try store.load().map { (UserPath($0.location), $0.bytes, server) }
                } catch {
                    _ = PlaceAccess(io: io).report(error)
                    unreadable += 1
                }
            } else {
                sources.append((path, nil, options))
            }
        }
        unreadable += reader.ioFailures
        var uidsSeen: [String: String] = [:]
        var jsonCount = 0
        // Findings are printed as they are found; the JSON array is written an object at a time.
        func emit(_ findings: [Diagnostic]) {
            for finding in findings {
                if finding.severity == .error { errors += 1 } else { warnings += 1 }
            }
            guard !findings.isEmpty else { return }
            if json {
                var text = ""
                for finding in findings {
                    text += (jsonCount == 0 ? "[\n" : ",\n") + LintFormat.jsonObject(finding)
                    jsonCount += 1
                }
                io.write(text)
            } else {
                io.writeText(findings.map(LintFormat.line).joined(separator: "\n") + "\n")
            }
        }
        // One file checked on its own is read as a stream, in memory bounded by its largest card (with
        // `--carddav`, and each UID's first line). The files of a folder are checked as one address book with
        // `--carddav`: each read whole, one at a time.
        let streamed = sources.map { $0.1 == nil && ($0.2.carddav == nil || sources.count == 1) }
        let sizes = zip(sources, streamed).map { $1 ? InputReader.regularFileSize($0.0) : nil }
        var index = sources.startIndex
        while index < sources.endIndex && !io.outputEnded() {
            let (path, fetched, options) = sources[index]
            // Runs of small files (a vdir's) are checked several at once, and their findings told in file order.
            let run = InputReader.smallFiles(from: index, sizes: sizes, io: io)
            if run.count > 1 {
                let checked = Concurrently.map(Array(sources[run]), chunk: 1) {
                    Self.recordedStream($0.0, options: $0.2)
                }
                for file in checked {
                    for event in file.events {
                        switch event {
                        case .message(let text): io.relay(text)
                        case .findings(let findings): emit(findings)
                        }
                    }
                    if file.read { linted += 1 } else { unreadable += 1 }
                }
                index = run.upperBound
                continue
            }
            index += 1
            if streamed[index - 1] {
                if stream(path, options: options, io: io, emit: emit) { linted += 1 } else { unreadable += 1 }
                continue
            }
            guard let bytes = fetched ?? read(path, io: io) else {
                unreadable += 1
                continue
            }
            linted += 1
            var findings = Linter.lint(bytes, file: InputReader.name(path), options: options)
            if options.carddav != nil && sources.count > 1 {
                // One address book across the files of a folder or a collection: a UID is one card's.
                for (uid, line) in CardDAVCheck.uids(in: bytes) {
                    if let elsewhere = uidsSeen[uid], !elsewhere.hasPrefix(InputReader.name(path) + ":") {
                        var finding = CardDAVCheck.duplicateUID(line: line, elsewhere: elsewhere)
                        finding.file = InputReader.name(path)
                        finding.column = 1
                        if options.strict { finding.severity = .error }
                        findings.append(finding)
                    } else if uidsSeen[uid] == nil {
                        uidsSeen[uid] = "\(InputReader.name(path)):\(line)"
                    }
                }
                findings.sort { ($0.line, $0.column) < ($1.line, $1.column) }
            }
            emit(findings)
        }
        if json { io.write(jsonCount == 0 ? "[]\n" : "\n]\n") }
        var summary = LintFormat.summary(files: linted, errors: errors, warnings: warnings)
        if unreadable > 0 { summary += "; \(unreadable) \(unreadable == 1 ? "file" : "files") could not be read" }
        io.error(summary)
        if unreadable > 0 { return ExitCode.ioFailure }
        return errors > 0 ? ExitCode.problems : ExitCode.success
    }

    /// `--fix -o OUT`: one input, repaired, written atomically; the changes on stderr. When OUT is the input
    /// itself, the repair is a read-modify-write under the file's lock, done again if another program changes
    /// the file meanwhile.
    private static func fix(_ paths: [UserPath], _ parsed: Arguments, options: LintOptions, io: CommandIO) throws
        -> Int32
    {
        guard let output = parsed.path(.output) else {
            throw UsageError(
                "--fix needs -o OUT (- for standard output, or the input's own path to repair it in place)")
        }
        guard paths.count == 1 else { throw UsageError("--fix repairs one file at a time") }
        guard !parsed.flags.contains(.json) else { throw UsageError("--fix lists its changes as text; drop --json") }
        let path = paths[0]
        let writeOptions = WriteOptions.from(parsed, io: io)
        let name = InputReader.name(path)

        // `leftAlone`: repaired in place, the file already read as its repair (or holding no card), and was not
        // written.
        func report(_ result: LintFix, leftAlone: Bool = false) -> Int32 {
            // A file with no card left alone had nothing done to it, whatever its repair would have done.
            let noCard = leftAlone && result.cardsRewritten + result.cardsKept == 0
            let changes = noCard ? result.changes.filter { $0.outcome != .fixed } : result.changes
            for change in changes { io.error(change.description) }
            let fixed = changes.filter { $0.outcome == .fixed }.count
            let cards = result.cardsRewritten == 1 ? "1 card" : "\(result.cardsRewritten) cards"
            var summary = "\(name): \(fixed) fixed, \(changes.count - fixed) not fixed; "
            if noCard {
                summary += "no card to repair, the file was left as it was"
            } else if leftAlone {
                summary += "nothing to change, the file was left as it was"
            } else {
                summary += "\(cards) rewritten"
                if result.cardsKept > 0 { summary += ", \(result.cardsKept) kept as written" }
            }
            io.error(summary)
            return result.remainingErrors > 0 ? ExitCode.problems : ExitCode.success
        }

        if !path.isStandardStream, case .file(let given, let resolved) = try OutputTarget.resolve(output),
            let input = FileIdentity.of(path), input.isRegularFile, let existing = FileIdentity.of(resolved),
            input.isSameFile(as: existing)
        {
            var update = InPlaceUpdate(given: given, resolved: resolved, options: writeOptions, missingIsEmpty: false)
            // Read by parts: holding the file and its repair took 267 MB for a 109 MB book.
            update.readsWhole = false
            update.retrying = { io.error("\($0.path): note: changed by another program meanwhile; repairing again") }
            do {
                let (repair, committed) = try update.run { snapshot in
                    try planRepairInPlace(snapshot, path: path, name: name, options: options, io: io)
                }
                guard let result = repair.result else { throw LintRefused() }
                return report(result, leftAlone: committed == nil)
            } catch let nothing as NoCardToRepair {
                return report(nothing.result, leftAlone: true)
            } catch is LintRefused {
                return ExitCode.ioFailure
            }
        }
        var inParts = true
        if !path.isStandardStream {
            switch try fixAsRead(path, to: output, options: options, writeOptions: writeOptions, io: io) {
            case .repaired(let result): return report(result)
            case .refused: return ExitCode.ioFailure
            case .readWhole: break
            case .repairWhole: inParts = false
            }
        }
        guard let bytes = read(path, io: io) else { return ExitCode.ioFailure }
        let result =
            inParts
            ? Linter.fixInParts(bytes, file: name, options: options) : Linter.fix(bytes, file: name, options: options)
        try CommandOutput.write(result.bytes, to: output, io: io, options: writeOptions)
        return report(result)
    }

    /// What an in-place repair did, known once its new content is written (it is repaired as it is written).
    private final class InPlaceRepair {
        var result: LintFix?
    }

    /// The repair's output differs from the file: it is to be written.
    private struct RepairDiffers: Error {}

    /// The file holds no card: the repair could only have rewritten the text outside cards (its line ends), which
    /// it keeps as written, so the file is left alone.
    private struct NoCardToRepair: Error {
        var result: LintFix
    }

    /// One attempt of `lint --fix` in place on the file `snapshot` has open, read by parts so that memory stays
    /// bounded by the largest card: first the UIDs its cards have, then the repair compared with the file (which
    /// it nearly always leaves at its first card), and then, when it differs, the repair again into the new file.
    /// The file must read the same each time, or the work is done again (`TargetChanged`).
    private static func planRepairInPlace(
        _ snapshot: InPlaceUpdate.Snapshot, path: UserPath, name: String, options: LintOptions, io: CommandIO
    ) throws -> InPlaceUpdate.Plan<InPlaceRepair> {
        guard let file = snapshot.file else { throw FileError(path, "cannot be read", detail: "it does not exist") }
        let repair = InPlaceRepair()
        let prefix = try file.read(0..<(64 << 10))
        guard refusedJSON(prefix, path: path, io: io) != nil else { throw LintRefused() }
        func repairWhole(inParts: Bool) throws -> InPlaceUpdate.Plan<InPlaceRepair> {
            var bytes: [UInt8] = []
            let read = try readInOrder(file) { bytes += $0 }
            let result =
                inParts
                ? Linter.fixInParts(bytes, file: name, options: options)
                : Linter.fix(bytes, file: name, options: options)
            repair.result = result
            let unchanged = result.bytes == bytes
            return InPlaceUpdate.Plan(
                report: repair, write: unchanged ? nil : { try $0.write(result.bytes) }, read: read)
        }
        // `--carddav`: repaired whole.
        guard StreamFixer.canStream(prefix: prefix, options: options) else { return try repairWhole(inParts: true) }
        do {
            var survey = UIDSurvey(file: name, options: options)
            let read: (count: Int, digest: UInt64)
            let uids: Set<String>
            do {
                read = try readInOrder(file) { try survey.feed($0) }
                uids = try survey.finish()
            } catch let tooLarge as StreamLinter.CardTooLarge {
                // A card too large to hold while repairing in parts is kept as written by the repair of the whole
                // file, as a file read from a pipe is repaired, within the same limit.
                guard file.identity.size <= ReadLimits.default.maxUnsizedBytes else {
                    io.error(refusal(tooLarge))
                    throw LintRefused()
                }
                return try repairWhole(inParts: false)
            }
            var compared = 0
            do {
                var fixer = StreamFixer(file: name, options: options, existingUIDs: uids) { out in
                    guard try file.read(compared..<compared + out.count) == out else { throw RepairDiffers() }
                    compared += out.count
                }
                let again = try readInOrder(file) { try fixer.feed($0) }
                let result = try fixer.finish()
                if again == read && compared == read.count {
                    repair.result = result
                    return InPlaceUpdate.Plan(report: repair, write: nil)
                }
            } catch is RepairDiffers {
                // Written below.
            }
            return InPlaceUpdate.Plan(
                report: repair,
                write: { replacement in
                    do {
                        var fixer = StreamFixer(file: name, options: options, existingUIDs: uids) {
                            try replacement.write($0)
                        }
                        let again = try readInOrder(file) { try fixer.feed($0) }
                        let result = try fixer.finish()
                        repair.result = result
                        // The UIDs made must differ from those the file has: it must be the file surveyed.
                        guard again == read else { throw TargetChanged(path: path) }
                        if result.cardsRewritten + result.cardsKept == 0 { throw NoCardToRepair(result: result) }
                    } catch let error as VCardInputError {
                        io.error(error.description)
                        throw LintRefused()
                    }
                }, read: read)
        } catch let error as VCardInputError {
            io.error(error.description)
            throw LintRefused()
        }
    }

    /// Hands `body` the bytes of `file` in order, a megabyte at a time; how many there were and their
    /// `ContentDigest`.
    private static func readInOrder(_ file: RandomAccessFile, _ body: ([UInt8]) throws -> Void) throws -> (
        count: Int, digest: UInt64
    ) {
        var digest = ContentDigest()
        var offset = 0
        while true {
            let chunk = try file.read(offset..<offset + (1 << 20))
            guard !chunk.isEmpty else { break }
            chunk.withUnsafeBytes { digest.update($0) }
            offset += chunk.count
            try body(chunk)
        }
        return (offset, digest.value)
    }

    /// What repairing a file as it is read came to.
    private enum FixAsRead {
        case repaired(LintFix)
        /// Nothing was written, after a message.
        case refused
        /// The file is to be repaired whole (`--carddav`, or a pipe).
        case readWhole
        /// The file is to be repaired whole at once: it holds a card too large to repair in parts.
        case repairWhole
    }

    /// Repairs the file at `path` into `output` as it reads it, a part at a time, so memory stays bounded by the
    /// largest card: first the UIDs its cards have (a UID made for a card must be none of them), then the
    /// repair. A file that changes between the two readings is refused, and nothing is written.
    private static func fixAsRead(
        _ path: UserPath, to output: UserPath, options: LintOptions, writeOptions: FileReplacement.Options,
        io: CommandIO
    ) throws -> FixAsRead {
        let name = InputReader.name(path)
        // A pipe or a device (`<(cat book.vcf)`) cannot be read twice: it is read whole.
        guard let before = FileIdentity.of(path), before.isRegularFile else { return .readWhole }
        let uids: Set<String>
        do {
            let file = try InputFile.open(path)
            defer { file.close() }
            let prefix = try file.read(upTo: 64 << 10)
            guard refusedJSON(prefix, path: path, io: io) != nil else { return .refused }
            guard StreamFixer.canStream(prefix: prefix, options: options) else { return .readWhole }
            var survey = UIDSurvey(file: name, options: options)
            var chunk = prefix
            while !chunk.isEmpty {
                try survey.feed(chunk)
                chunk = try file.read(upTo: 1 << 20)
            }
            uids = try survey.finish()
        } catch let tooLarge as StreamLinter.CardTooLarge {
            // Kept as written by the repair of the whole file, as a pipe is repaired (within the same limit).
            guard before.size <= ReadLimits.default.maxUnsizedBytes else {
                io.error(refusal(tooLarge))
                return .refused
            }
            return .repairWhole
        } catch let error as VCardInputError {
            io.error(error.description)
            return .refused
        } catch let error as FileError {
            io.error(error.description)
            return .refused
        }
        let out = try CommandOutput.open(output, io: io, options: writeOptions)
        do {
            let file = try InputFile.open(path)
            defer { file.close() }
            var fixer = StreamFixer(file: name, options: options, existingUIDs: uids) { try out.write($0) }
            var chunk = try file.read(upTo: 1 << 20)
            while !chunk.isEmpty {
                try fixer.feed(chunk)
                chunk = try file.read(upTo: 1 << 20)
            }
            let result = try fixer.finish()
            guard let after = FileIdentity.of(path), after.isSameFile(as: before),
                (after.size, after.modified) == (before.size, before.modified)
            else {
                out.abandon()
                io.error("\(name): error: the file changed while it was repaired; nothing was written")
                return .refused
            }
            try out.commit()
            return .repaired(result)
        } catch let error as VCardInputError {
            out.abandon()
            io.error(error.description)
            return .refused
        } catch {
            out.abandon()
            throw error
        }
    }

    /// Lints `path` as it is read, handing each part's findings to `emit`; false after reporting why it could
    /// not be read. UTF-16 input is turned into UTF-8 as it is read, as the whole-file linter turns it.
    private static func stream(
        _ path: UserPath, options: LintOptions, io: CommandIO, emit: ([Diagnostic]) -> Void
    ) -> Bool {
        let name = InputReader.name(path)
        do {
            let file = try InputFile.open(path)
            defer { file.close() }
            let prefix = try file.read(upTo: 64 << 10)
            guard refusedJSON(prefix, path: path, io: io) != nil else { return false }
            var linter = StreamLinter(file: name, options: options)
            var chunk = prefix
            while !chunk.isEmpty {
                try linter.feed(chunk, emit: emit)
                // Nobody reads the findings any more (a closed pipe): the rest of the file is not read.
                if io.outputEnded() { return true }
                chunk = try file.read(upTo: 1 << 20)
            }
            linter.finish(emit: emit)
            return true
        } catch let error as VCardInputError {
            io.error(error.description)
        } catch {
            io.error("\(error)")
        }
        return false
    }

    /// What `stream` reported and found in one file on another thread, in order, and whether it read the file.
    private struct RecordedStream: Sendable {
        enum Event: Sendable {
            case message(String)
            case findings([Diagnostic])
        }
        var events: [Event]
        var read: Bool
    }

    /// `stream` of the file at `path`, recording its messages and findings to be told on the calling thread.
    private static func recordedStream(_ path: UserPath, options: LintOptions) -> RecordedStream {
        final class Recording: @unchecked Sendable {
            var events: [RecordedStream.Event] = []
        }
        let recording = Recording()
        let io = CommandIO(standardOutput: { _ in }, standardError: { recording.events.append(.message($0)) })
        let read = stream(path, options: options, io: io) { recording.events.append(.findings($0)) }
        return RecordedStream(events: recording.events, read: read)
    }

    /// Why a file that cannot be repaired in parts (`tooLarge`) is not repaired whole either.
    private static func refusal(_ tooLarge: StreamLinter.CardTooLarge) -> String {
        tooLarge.description + "; the file is larger than the \(ReadLimits.default.maxUnsizedBytes >> 20) MiB a repair "
            + "holds whole; nothing was written"
    }

    /// Thrown out of an in-place repair of a file that is not vCard; the reason is already reported.
    private struct LintRefused: Error {}

    /// `bytes`, or nil after saying that lint does not check Contact JSON.
    private static func refusedJSON(_ bytes: [UInt8], path: UserPath, io: CommandIO) -> [UInt8]? {
        if ContactFormat.detect(Array(bytes.prefix(64 << 10))) == .json {
            io.error("\(path): error: this is Contact JSON; lint checks vCard files (vcf convert turns it into one)")
            return nil
        }
        return bytes
    }

    /// The bytes of `path` (`-` for standard input), read whole within the read limits, or nil after
    /// reporting why not. Contact JSON is refused: lint checks vCard.
    private static func read(_ path: UserPath, io: CommandIO) -> [UInt8]? {
        guard let bytes = InputReader.readWhole(path, io: io) else { return nil }
        return refusedJSON(bytes, path: path, io: io)
    }
}
