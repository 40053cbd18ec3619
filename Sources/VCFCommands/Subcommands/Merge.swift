import CardIdentity
import ContactMatching
import ContactMerge
import ContactModel
import Foundation
import VCardFormat
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// `vcf merge INCOMING... --into CONTACTS.vcf` and `vcf dedupe CONTACTS.vcf`: wiring of `AddressBookMerge` to files.
enum Merge {
    static let mergeSpec = Arguments.Spec(
        flags: ["--help", "--dry-run", "--json", "--explain", "--backup"],
        options: ["--into", "--prefer", "--country-code", "--user"],
        aliases: ["-h": "--help", "-n": "--dry-run"])
    static let dedupeSpec = Arguments.Spec(
        flags: ["--help", "--dry-run", "--json", "--explain", "--backup"],
        options: ["-o", "--prefer", "--country-code", "--user"],
        aliases: ["-h": "--help", "-n": "--dry-run", "--output": "-o"])

    struct Settings {
        var engine = AddressBookMerge()
        var dryRun = false, json = false, explain = false, backup = false

        init(_ parsed: Arguments) throws {
            dryRun = parsed.flags.contains("--dry-run")
            json = parsed.flags.contains("--json")
            explain = parsed.flags.contains("--explain")
            backup = parsed.flags.contains("--backup")
            if let prefer = parsed.options["--prefer"] {
                guard let value = MergePreference(rawValue: prefer) else {
                    throw UsageError("--prefer takes existing, incoming or newer, not \(prefer)")
                }
                engine.preference = value
            }
            if let code = parsed.options["--country-code"] {
                let digits = code.hasPrefix("+") ? String(code.dropFirst()) : code
                guard let value = Int(digits), (1...999).contains(value) else {
                    throw UsageError("--country-code takes a calling code such as 1, 44 or 49, not \(code)")
                }
                engine.countryCode = value
            }
        }
    }

    static func run(_ arguments: [String], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: mergeSpec)
        if parsed.flags.contains("--help") {
            io.write(Help.merge)
            return ExitCode.success
        }
        guard let target = parsed.options["--into"] else { throw UsageError("merge needs --into CONTACTS.vcf") }
        guard !parsed.positionals.isEmpty else { throw UsageError("merge needs at least one incoming file") }
        let settings = try Settings(parsed)
        // A vdir folder (or a path ending in /) or a CardDAV collection URL is written card by card.
        let place = Place(target)
        if place.isStoredBook {
            return try MergeIntoBook.merge(
                parsed.positionals, into: place, settings: settings, user: parsed.options["--user"], io: io)
        }

        let progress = Self.progress(io: io, paths: [target] + parsed.positionals)
        // The existing file first: if it cannot be read completely, nothing is written.
        progress?.phase("reading \(target)…")
        guard let file = readContacts(target, countryCode: settings.engine.countryCode, io: io, missingIsEmpty: true)
        else {
            progress?.finish()
            return ExitCode.ioFailure
        }
        var incoming: [IncomingCard] = []
        var skipped: [MergeEntry] = []
        for path in parsed.positionals {
            progress?.phase("reading \(path)…")
            guard let bytes = PhotoCommand.readFile(path, io: io) else {
                progress?.finish()
                return ExitCode.ioFailure
            }
            let name = path == "-" ? "<stdin>" : path
            let (cards, diagnostics) = VCardDocument.read(bytes, name: name)
            for card in cards {
                let end = card.raw.endLine ?? Int.max
                let errors = diagnostics.filter {
                    $0.severity == .error && $0.line >= card.raw.beginLine && $0.line <= end
                }
                if let first = errors.first {
                    skipped.append(
                        MergeEntry(
                            file: name, line: card.raw.beginLine, name: AddressBookMerge.displayName(card.contact),
                            outcome: .skipped, problem: first.message))
                    io.error("\(name):\(first.line):\(first.column): error: \(first.message); the card was skipped")
                } else {
                    incoming.append(IncomingCard(contact: card.contact, file: name, line: card.raw.beginLine))
                }
            }
        }
        progress?.phase(
            "matching \(ProgressLine.grouped(incoming.count)) cards against "
                + "\(ProgressLine.grouped(file.cards.count))…")
        let result = settings.engine.merge(incoming, into: file.existingCards)
        var entries = result.entries + skipped
        entries.sort { ($0.file, $0.line) < ($1.file, $1.line) }
        let output = file.renderedParts(replacing: result.replaced, adding: Self.withUIDs(result.added, in: file))
        return finish(
            file: file, output: output, outputPath: target, entries: entries, result: result,
            settings: settings, io: io, skippedAny: !skipped.isEmpty, progress: progress)
    }

    static func dedupe(_ arguments: [String], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: dedupeSpec)
        if parsed.flags.contains("--help") {
            io.write(Help.dedupe)
            return ExitCode.success
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            throw UsageError("dedupe takes one contacts file")
        }
        let settings = try Settings(parsed)
        let place = Place(path)
        if place.isStoredBook {
            if parsed.options["-o"] != nil {
                throw UsageError("dedupe of a folder or an address book on a server works in place; drop -o")
            }
            return try MergeIntoBook.dedupe(place, settings: settings, user: parsed.options["--user"], io: io)
        }
        let progress = Self.progress(io: io, paths: [path])
        progress?.phase("reading \(path)…")
        guard let file = readContacts(path, countryCode: settings.engine.countryCode, io: io, missingIsEmpty: false)
        else {
            progress?.finish()
            return ExitCode.ioFailure
        }
        progress?.phase("looking for duplicates among \(ProgressLine.grouped(file.cards.count)) cards…")
        let result = settings.engine.dedupe(file.existingCards, file: file.name, lines: file.lines)
        let output = file.renderedParts(replacing: result.replaced, removing: result.removed, adding: [])
        return finish(
            file: file, output: output, outputPath: parsed.options["-o"] ?? path,
            entries: result.entries.filter { $0.outcome == .merged }, result: result, settings: settings,
            io: io, skippedAny: false, progress: progress)
    }

    /// The added cards, each without a UID given one made from its content (as `lint --fix` and
    /// `convert --ensure-uid` make it), none already in `file`.
    static func withUIDs(_ added: [Contact], in file: ContactsFile) -> [Contact] {
        var uids = ContentUIDs(existing: Set(file.cards.compactMap(\.keys.uid)))
        return added.map { contact in
            var copy = contact
            uids.ensure(&copy)
            return copy
        }
    }

    /// A line saying which step a merge is in, for books large enough (8 MB, some 10,000 cards) that a step
    /// takes a noticeable time; merging works on whole files at once, so steps rather than cards are shown.
    static func progress(io: CommandIO, paths: [String]) -> ProgressLine? {
        let bytes = paths.reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        return bytes >= 8 << 20 ? ProgressLine(io: io, totalBytes: bytes) : nil
    }

    /// Reads the file to update; a missing file (for merge) is an empty book.
    static func readContacts(_ path: String, countryCode: Int?, io: CommandIO, missingIsEmpty: Bool) -> ContactsFile? {
        if missingIsEmpty && !FileManager.default.fileExists(atPath: path) {
            return try? ContactsFile(bytes: [], name: path, countryCode: countryCode)
        }
        guard let bytes = PhotoCommand.readFile(path, io: io) else { return nil }
        do {
            return try ContactsFile(bytes: bytes, name: path, countryCode: countryCode)
        } catch {
            io.error("\(error)")
            io.error(
                "\(path): error: the file has errors; nothing was changed (fix them, or run vcf convert to see them)")
            return nil
        }
    }

    static func finish(
        file: ContactsFile, output: [ArraySlice<UInt8>], outputPath: String, entries: [MergeEntry],
        result: MergeResult, settings: Settings, io: CommandIO, skippedAny: Bool,
        progress: ProgressLine? = nil
    ) -> Int32 {
        // The report and notes start on a clean line.
        defer { progress?.finish() }
        let lines = file.lines
        // A replaced card reads differently, so its bytes differ: comparing the whole file is not needed.
        let changed =
            !result.replaced.isEmpty || !result.removed.isEmpty || !result.added.isEmpty || outputPath != file.name
        if settings.json {
            io.write(MergeReport(file: file, entries: entries, result: result, dryRun: settings.dryRun).json())
        } else if settings.dryRun || settings.explain {
            for entry in entries {
                io.write(describe(entry, file: file, lines: lines, explain: settings.explain) + "\n")
            }
            for (a, b, decision) in result.possiblePairs {
                io.write(
                    "\(file.name):\(lines[a]) \(file.cards[a].displayName) and "
                        + "\(file.name):\(lines[b]) \(file.cards[b].displayName): "
                        + "\(decision.explanation)\n")
                if settings.explain, let score = decision.scoreExplanation { io.write("    " + score + "\n") }
            }
            if settings.explain {
                io.write(
                    "\(result.candidatePairs) candidate pairs compared: cards sharing a UID, email, phone, name, "
                        + "Soundex-and-initial, birthday or postal code and house number\n")
            }
        }
        if !settings.dryRun && changed {
            progress?.phase("writing \(outputPath)…")
            do {
                if settings.backup && !file.bytes.isEmpty && outputPath == file.name {
                    try AtomicFile.write(file.bytes, to: outputPath + ".bak")
                }
                try AtomicFile.write(parts: output, to: outputPath)
            } catch {
                io.error("\(error)")
                return ExitCode.ioFailure
            }
        }
        progress?.finish()
        io.error(summary(entries, result: result, target: outputPath, dryRun: settings.dryRun, changed: changed))
        if !settings.json && !settings.dryRun && !settings.explain {
            // A few notes help; thousands (a large book full of common names) would bury the summary.
            let possibleEntries = entries.filter { $0.outcome == .possible }
            var notes: [String] = possibleEntries.prefix(noteLimit).map { entry in
                "\(entry.file):\(entry.line): note: \(entry.name) may be the same person as "
                    + "\(file.name):\(entry.existing.map { lines[$0] } ?? 0); added, not merged (--explain says why)"
            }
            notes += result.possiblePairs.prefix(noteLimit).map { (a, b, _) in
                "\(file.name):\(lines[b]): note: may be the same person as line \(lines[a]); left alone (--explain says why)"
            }
            for note in notes.prefix(noteLimit) { io.error(note) }
            let possible = possibleEntries.count + result.possiblePairs.count
            if possible > noteLimit {
                io.error("note: \(possible - noteLimit) more possible duplicates; --explain or --json lists them all")
            }
        }
        return skippedAny ? ExitCode.problems : ExitCode.success
    }

    /// How many possible-duplicate notes go to stderr after a merge.
    static let noteLimit = 10

    static func describe(_ entry: MergeEntry, file: ContactsFile, lines: [Int], explain: Bool) -> String {
        let target = entry.existing.map { "\(file.name):\(lines[$0]) \(file.cards[$0].displayName)" }
        var text = "\(entry.file):\(entry.line) \(entry.name): "
        switch entry.outcome {
        case .merged: text += "merge into \(target ?? "?")"
        case .unchanged: text += "already in \(target ?? "?")"
        case .added: text += "add"
        case .possible: text += "add; possible duplicate of \(target ?? "?")"
        case .skipped: text += "skip: \(entry.problem ?? "unreadable")"
        }
        if !entry.changes.isEmpty {
            text += " (" + entry.changes.map { "\($0.field) \($0.action.rawValue)" }.joined(separator: ", ") + ")"
        }
        if explain, let decision = entry.decision {
            text += "\n    " + decision.explanation
            if let score = decision.scoreExplanation { text += "\n    " + score }
        }
        return text
    }

    static func summary(_ entries: [MergeEntry], result: MergeResult, target: String, dryRun: Bool, changed: Bool)
        -> String
    {
        func count(_ o: MergeEntry.Outcome) -> Int { entries.filter { $0.outcome == o }.count }
        let possible = count(.possible) + result.possiblePairs.count
        var parts = [
            "\(count(.added) + count(.possible)) added", "\(count(.merged)) merged", "\(count(.unchanged)) unchanged",
        ]
        if !result.removed.isEmpty { parts = ["\(result.removed.count) merged into other cards"] }
        parts.append("\(possible) possible duplicate\(possible == 1 ? "" : "s") left alone")
        if count(.skipped) > 0 { parts.append("\(count(.skipped)) skipped") }
        let verb = dryRun ? "would change nothing yet (dry run)" : (changed ? "updated" : "unchanged")
        return "\(target): \(parts.joined(separator: ", ")); \(verb)"
    }
}

/// The `--json` report: every incoming card, its decision, the existing card it matched, the fields that changed.
struct MergeReport: Encodable {
    struct Card: Encodable {
        var file: String
        var line: Int
        var name: String
        var outcome: String
        var existing: Existing?
        var rule: String?
        var evidence: [String]?
        var score: String?
        var fields: [String]?
        var veto: String?
        var changes: [FieldChange]?
        var problem: String?
    }
    struct Existing: Encodable {
        var line: Int
        var name: String
    }
    struct Pair: Encodable {
        var first: Existing
        var second: Existing
        var evidence: [String]
        var score: String?
        var fields: [String]?
        var veto: String?
    }
    var contacts: String
    var dryRun: Bool
    var countryCode: Int?
    var candidatePairs: Int
    var summary: [String: Int]
    var cards: [Card]
    var possibleDuplicates: [Pair]?

    init(file: ContactsFile, entries: [MergeEntry], result: MergeResult, dryRun: Bool) {
        let lines = file.lines
        func existing(_ p: Int) -> Existing { Existing(line: lines[p], name: file.cards[p].displayName) }
        contacts = file.name
        self.dryRun = dryRun
        countryCode = result.countryCode
        candidatePairs = result.candidatePairs
        var summary: [String: Int] = [:]
        for o in ["merged", "unchanged", "added", "possible", "skipped"] { summary[o] = 0 }
        for e in entries { summary[e.outcome.rawValue, default: 0] += 1 }
        self.summary = summary
        cards = entries.map { e in
            Card(
                file: e.file, line: e.line, name: e.name, outcome: e.outcome.rawValue,
                existing: e.existing.map(existing),
                rule: e.decision?.rule, evidence: e.decision.map { $0.evidence.map(\.description) },
                score: e.decision?.score.map { Scoring.points($0.total) },
                fields: e.decision?.score.map { $0.fields.map(\.description) },
                veto: e.decision?.score?.veto, changes: e.changes.isEmpty ? nil : e.changes, problem: e.problem)
        }
        possibleDuplicates =
            result.possiblePairs.isEmpty
            ? nil
            : result.possiblePairs.map {
                Pair(
                    first: existing($0.0), second: existing($0.1), evidence: $0.2.evidence.map(\.description),
                    score: $0.2.score.map { Scoring.points($0.total) },
                    fields: $0.2.score.map { $0.fields.map(\.description) },
                    veto: $0.2.score?.veto)
            }
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }
}
