import CardIdentity
import ContactMatching
import ContactMerge
import ContactModel
import Foundation
import TerminalText
import UserFiles
import Utilities
import VCardFormat
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// `vcf merge INCOMING... --into CONTACTS.vcf` and `vcf dedupe CONTACTS.vcf`: wiring of `AddressBookMerge` to files.
enum Merge {
    static let configuration = CommandConfiguration(
        name: "merge",
        abstract: "add cards to a contacts file, vdir folder or CardDAV address book without duplicates",
        options: [mergeSpec], help: { Help.merge }, run: { try run($0, io: $1) })
    static let dedupeConfiguration = CommandConfiguration(
        name: "dedupe", abstract: "merge the duplicates within one contacts file, vdir or address book",
        options: [dedupeSpec], help: { Help.dedupe }, run: { try dedupe($0, io: $1) })

    static let mergeSpec = Arguments.Spec(
        flags: [.help, .dryRun, .json, .explain, .backup, .force, .review],
        options: [.into, .prefer, .countryCode, .charset, .accept, .user],
        aliases: ["-h": .help, "-n": .dryRun])
    static let dedupeSpec = Arguments.Spec(
        flags: [.help, .dryRun, .json, .explain, .backup, .force, .review],
        options: [.output, .prefer, .countryCode, .accept, .user],
        aliases: ["-h": .help, "-n": .dryRun, "--output": .output])

    struct Settings {
        var engine = AddressBookMerge()
        var dryRun = false, json = false, explain = false, backup = false, review = false
        var accept: UserPath?

        init(_ parsed: Arguments) throws {
            dryRun = parsed.flags.contains(.dryRun)
            json = parsed.flags.contains(.json)
            explain = parsed.flags.contains(.explain)
            backup = parsed.flags.contains(.backup)
            review = parsed.flags.contains(.review)
            accept = parsed.path(.accept)
            if let prefer = parsed.option(.prefer) {
                guard let value = MergePreference(rawValue: prefer) else {
                    throw UsageError("--prefer takes existing, incoming or newer, not \(prefer)")
                }
                engine.preference = value
            }
            if let code = parsed.option(.countryCode) {
                let digits = code.hasPrefix("+") ? String(code.dropFirst()) : code
                guard let value = Int(digits), (1...999).contains(value) else {
                    throw UsageError("--country-code takes a calling code such as 1, 44 or 49, not \(code)")
                }
                engine.countryCode = value
            }
        }
    }

    /// What one pass of the engine decided, for the report.
    struct Decisions {
        var file: ContactsFile
        var entries: [MergeEntry]
        var result: MergeResult
        var changed: Bool
        /// The possible duplicates, ranked, as the report shows them.
        var suggestions: MergeSuggestions
    }

    static func run(_ arguments: [[UInt8]], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: mergeSpec)
        if parsed.flags.contains(.help) {
            io.write(Help.merge)
            return ExitCode.success
        }
        guard let target = parsed.path(.into) else { throw UsageError("merge needs --into CONTACTS.vcf") }
        guard !target.isStandardStream else { throw UsageError("--into names the contacts file to update, not -") }
        guard !parsed.positionals.isEmpty else { throw UsageError("merge needs at least one incoming file") }
        let settings = try Settings(parsed)
        if settings.review && parsed.positionals.contains(where: \.isStandardStream) {
            throw UsageError("--review reads its answers from standard input; give the incoming cards as a file")
        }
        // A vdir folder (or a path ending in /) or a CardDAV collection URL is written card by card.
        try Place.checkWritableFolder(target, doing: "cannot be updated")
        let place = Place(target)
        if place.isStoredBook {
            return try MergeIntoBook.merge(
                parsed.positionals, into: place, settings: settings, parsed: parsed, io: io)
        }

        let progress = Self.progress(io: io, paths: [target] + parsed.positionals)
        defer { progress?.finish() }
        // The incoming cards first, in any format convert reads: when one cannot be read, or holds no card,
        // nothing is written.
        PhaseClock.mark("start")
        progress?.phase("reading \(parsed.positionals.count == 1 ? "\(parsed.positionals[0])" : "incoming files")…")
        guard let (incoming, skipped, reader) = try readIncoming(parsed.positionals, parsed: parsed, io: io) else {
            return ExitCode.ioFailure
        }
        let update = ContactsFileUpdate(
            source: target, destination: nil, missingIsEmpty: true, dryRun: settings.dryRun,
            countryCode: settings.engine.countryCode, options: WriteOptions.from(parsed, io: io), io: io)
        guard let reviewed = Review.decisions(for: target, io: io) else { return ExitCode.ioFailure }
        let decisions: Decisions
        let committed: FileReplacement.Committed?
        // The last pass's plan (the index of every card's keys, the groups, the possible pairs), freed by the
        // exit rather than before the file is written: freeing it there held the write up by tens of
        // milliseconds. A pass done again (the file changed meanwhile) frees the plan before it first.
        var lastPlan: MergePlan?
        do {
            PhaseClock.mark("read incoming cards")
            progress?.phase("reading \(target)…")
            (decisions, committed) = try update.run { file in
                lastPlan = nil
                PhaseClock.mark("read contacts file")
                progress?.phase(
                    "matching \(ProgressLine.grouped(incoming.count)) cards against "
                        + "\(ProgressLine.grouped(file.cards.count))…")
                let plan = settings.engine.plan(incoming, into: file.existingCards, decisions: reviewed)
                PhaseClock.mark("plan: suggestions")
                progress?.finish()
                guard let answers = Review.answers(plan, file: file, incoming: incoming, settings: settings, io: io)
                else { throw ContactsFileUpdate.Refused() }
                var result = settings.engine.apply(plan, answers: answers)
                lastPlan = plan
                PhaseClock.mark("apply")
                // Entries are in file and line order already unless cards were skipped: copying and sorting
                // them moved every entry of a large import twice for nothing.
                var entries = skipped.isEmpty ? result.entries : result.entries + skipped
                if !Self.inFileOrder(entries) { entries.sort { ($0.file, $0.line) < ($1.file, $1.line) } }
                let changed = !result.replaced.isEmpty || !result.added.isEmpty
                if changed { Self.giveUIDs(&result.added, in: file, taken: plan.existingCardHas) }
                PhaseClock.mark("UIDs given")
                if changed && !settings.dryRun { progress?.phase("writing \(target)…") }
                return (
                    ContactsFileUpdate.Outcome(
                        file: file, replaced: result.replaced, added: result.added, changed: changed),
                    Decisions(
                        file: file, entries: entries, result: result, changed: changed,
                        suggestions: MergeSuggestions(file: file, incoming: incoming, result: result, isDedupe: false))
                )
            }
        } catch is ContactsFileUpdate.Refused {
            return ExitCode.ioFailure
        }
        PhaseClock.mark("render and write")
        progress?.finish()
        report(decisions, target: InputReader.name(target), committed: committed, settings: settings, io: io)
        guard saveKeptApart(decisions, reviewed: reviewed, for: target, settings: settings, io: io) else {
            return ExitCode.ioFailure
        }
        io.keepUntilExit?((decisions, incoming, lastPlan))
        return skipped.isEmpty && reader.errorCount == 0 ? ExitCode.success : ExitCode.problems
    }

    static func dedupe(_ arguments: [[UInt8]], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: dedupeSpec)
        if parsed.flags.contains(.help) {
            io.write(Help.dedupe)
            return ExitCode.success
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            throw UsageError("dedupe takes one contacts file")
        }
        let settings = try Settings(parsed)
        try Place.checkWritableFolder(path, doing: "cannot be updated")
        if let text = path.text, case let place = Place(text), place.isStoredBook {
            if parsed.path(.output) != nil {
                throw UsageError("dedupe of a folder or an address book on a server works in place; drop -o")
            }
            return try MergeIntoBook.dedupe(place, settings: settings, user: parsed.option(.user), io: io)
        }
        // Standard input cannot be updated in place: the result goes to standard output unless -o says where.
        var destination = parsed.path(.output) ?? (path.isStandardStream ? UserPath.standardStream : nil)
        if let output = destination, !output.isStandardStream, !path.isStandardStream,
            let input = FileIdentity.of(path), let existing = FileIdentity.of(output), input.isSameFile(as: existing)
        {
            destination = nil
        }
        if destination?.isStandardStream == true && settings.json {
            throw UsageError("--json writes the report to standard output; give -o FILE for the cards")
        }
        if destination != nil && settings.backup {
            throw UsageError("--backup keeps the previous file when dedupe changes it in place; drop -o")
        }
        if settings.review && path.isStandardStream {
            throw UsageError("--review reads its answers from standard input; give the contacts as a file")
        }
        guard let reviewed = Review.decisions(for: path, io: io) else { return ExitCode.ioFailure }
        let progress = Self.progress(io: io, paths: [path])
        defer { progress?.finish() }
        let update = ContactsFileUpdate(
            source: path, destination: destination, missingIsEmpty: false, dryRun: settings.dryRun,
            countryCode: settings.engine.countryCode, options: WriteOptions.from(parsed, io: io), io: io)
        let decisions: Decisions
        let committed: FileReplacement.Committed?
        // The last pass's plan, freed by the exit (see `run`).
        var lastPlan: MergePlan?
        do {
            PhaseClock.mark("start")
            progress?.phase("reading \(path)…")
            (decisions, committed) = try update.run { file in
                lastPlan = nil
                PhaseClock.mark("read contacts file")
                progress?.phase("looking for duplicates among \(ProgressLine.grouped(file.cards.count)) cards…")
                let plan = settings.engine.planDedupe(
                    file.existingCards, file: file.name, lines: file.lines, decisions: reviewed)
                PhaseClock.mark("plan: suggestions")
                progress?.finish()
                guard let answers = Review.answers(plan, file: file, incoming: [], settings: settings, io: io) else {
                    throw ContactsFileUpdate.Refused()
                }
                let result = settings.engine.apply(plan, answers: answers)
                lastPlan = plan
                PhaseClock.mark("apply")
                let changed = !result.replaced.isEmpty || !result.removed.isEmpty || destination != nil
                return (
                    ContactsFileUpdate.Outcome(
                        file: file, replaced: result.replaced, removed: result.removed, changed: changed),
                    Decisions(
                        file: file, entries: result.entries.filter { $0.outcome == .merged }, result: result,
                        changed: changed,
                        suggestions: MergeSuggestions(file: file, incoming: [], result: result, isDedupe: true))
                )
            }
        } catch is ContactsFileUpdate.Refused {
            return ExitCode.ioFailure
        }
        PhaseClock.mark("render and write")
        progress?.finish()
        let target = destination.map { $0.isStandardStream ? "standard output" : InputReader.name($0) }
        report(
            decisions, target: target ?? InputReader.name(path), committed: committed, settings: settings, io: io)
        guard saveKeptApart(decisions, reviewed: reviewed, for: path, settings: settings, io: io)
        else { return ExitCode.ioFailure }
        io.keepUntilExit?((decisions, lastPlan))
        return ExitCode.success
    }

    /// The added cards, each without a UID given one made from its content (as `lint --fix` and
    /// `convert --ensure-uid` make it), none already in `file`.
    /// The incoming cards of every input (a file, `-`, a vdir, a collection URL), in any format convert reads;
    /// cards with errors are skipped and reported. Nil after a message when an input cannot be read or holds no
    /// card: then nothing is written.
    static func readIncoming(_ paths: [UserPath], parsed: Arguments, io: CommandIO) throws
        -> (cards: [IncomingCard], skipped: [MergeEntry], reader: InputReader)?
    {
        var incoming: [IncomingCard] = []
        var skipped: [MergeEntry] = []
        var reader = InputReader(io: io, charset: try InputReader.charset(parsed))
        // Every card is held: an endless pipe must stop at the read limits.
        reader.readsPipesWhole = true
        reader.writesVCard = true
        reader.printsWarnings = false
        reader.refusesTextWithoutCards = false  // every input without a card is refused below
        reader.user = parsed.option(.user)
        // Admitted on the reading threads, as the file is read: the cards are held, the file's bytes are not.
        let admit: @Sendable (ReadCard) -> IncomingCard.Admission = { IncomingCard.admit($0, file: "") }
        try reader.forEachCard(in: paths, preparing: admit) { admission, path in
            let name = InputReader.name(path)
            switch admission {
            case .admitted(var admitted):
                admitted.file = name
                incoming.append(admitted)
            case .skipped(var entry):
                entry.file = name
                skipped.append(entry)
                // As many as the lexer reports of one problem: a file of a million broken cards printed a
                // million notes. The rest are counted, and `--json` lists them all.
                if skipped.count <= VCardLexer.repeatedDiagnosticLimit {
                    io.error("\(name):\(max(entry.line, 1)): note: the card has errors and was skipped")
                }
            }
        }
        let unnamed = skipped.count - VCardLexer.repeatedDiagnosticLimit
        if unnamed > 0 {
            io.error(
                "note: \(unnamed) more card\(unnamed == 1 ? "" : "s") with errors \(unnamed == 1 ? "was" : "were") "
                    + "skipped; --json lists them all")
        }
        for empty in reader.emptyInputs {
            io.error(
                "\(empty): error: no cards found (vcf merge reads vCard, jCard, Contact JSON and Google, Outlook or "
                    + "Thunderbird CSV); nothing was changed")
        }
        guard reader.ioFailures == 0 && reader.emptyInputs.isEmpty else { return nil }
        return (incoming, skipped, reader)
    }

    /// Whether `entries` are in file and line order.
    static func inFileOrder(_ entries: [MergeEntry]) -> Bool {
        for i in entries.indices.dropFirst()
        where (entries[i].file, entries[i].line) < (entries[i - 1].file, entries[i - 1].line) {
            return false
        }
        return true
    }

    /// The cards a merge adds, each given a UID made from its content when it has none, so merging the same
    /// export again finds them instead of adding them twice; `taken` says whether a UID is an existing card's.
    static func withUIDs(_ added: [Contact], in file: ContactsFile, taken: (String) -> Bool) -> [Contact] {
        var cards = added
        giveUIDs(&cards, in: file, taken: taken)
        return cards
    }

    /// `withUIDs` in place: the cards of a merge's result are changed where they are, not copied first.
    static func giveUIDs(_ added: inout [Contact], in file: ContactsFile, taken: (String) -> Bool) {
        // Worked out in a function of its own, so nothing else holds the list when the UIDs are written into it
        // (a second holder would make that write copy every card).
        let (needing, uids) = madeUIDs(for: added, in: file, taken: taken)
        for (k, i) in needing.enumerated() { added[i].uid = uids[k] }
    }

    /// The positions of the cards without a UID, and the UID `withUIDs` gives each, in that order.
    private static func madeUIDs(for cards: [Contact], in file: ContactsFile, taken: (String) -> Bool) -> (
        needing: [Int], uids: [String]
    ) {
        // Each card's own UID (its content written and hashed, the work of giving UIDs) made on every processor
        // first; only telling copies of one content apart is done in order. An import of 200,000 cards without
        // UIDs spent a second here on one thread.
        let needing = cards.indices.filter { ContentUIDs.needsUID(cards[$0]) }
        guard !needing.isEmpty else { return ([], []) }
        let bases = Concurrently.map(needing, chunk: 256) { ContentUIDs.base(of: cards[$0]) }
        // The UIDs each card without one is given, in the order of `needing`.
        func made(around existing: Set<String>) -> [String] {
            var uids = ContentUIDs(existing: existing)
            var made: [String] = []
            var next = 0
            for i in cards.indices {
                if next < needing.count && needing[next] == i {
                    made.append(uids.uid(base: bases[next]))
                    next += 1
                } else if let uid = cards[i].uid {
                    uids.reserve(uid)
                }
            }
            return made
        }
        // A file's UIDs are held as match keys (a UUID without `urn:uuid:`, in lower case), and a made UID is a
        // `urn:uuid:` URN: both are compared as keys. The UIDs are made first without the file's, each looked
        // up with `taken` (a large book's hundred thousand UIDs are not gathered, nor read one by one); only
        // when one is taken (a card given its UID from the same content before) are they made again around them.
        let first = made(around: [])
        guard first.contains(where: taken) else { return (needing, first) }
        var existing = Set<String>()
        for card in file.cards {
            guard let uid = card.keys.uid else { continue }
            existing.insert(uid)
            existing.insert("urn:uuid:" + uid)
        }
        return (needing, made(around: existing))
    }

    /// A line saying which step a merge is in, for books large enough (8 MB, some 10,000 cards) that a step
    /// takes a noticeable time; merging works on whole files at once, so steps rather than cards are shown.
    static func progress(io: CommandIO, paths: [UserPath]) -> ProgressLine? {
        let bytes = paths.reduce(0) { total, path in total + Int(FileIdentity.of(path)?.size ?? 0) }
        return bytes >= 8 << 20 ? ProgressLine(io: io, totalBytes: bytes) : nil
    }

    /// Records the pairs a review kept apart in the decisions file beside `contacts`, so later runs keep them
    /// apart too; false after a message when it cannot be written.
    static func saveKeptApart(
        _ decisions: Decisions, reviewed: ReviewDecisions, for contacts: UserPath, settings: Settings, io: CommandIO
    ) -> Bool {
        guard !settings.dryRun, !decisions.result.keptApart.isEmpty, !contacts.isStandardStream else { return true }
        var all = reviewed
        for (a, b) in decisions.result.keptApart { all.record(keepApart: a, b) }
        return Review.save(all, for: contacts, io: io)
    }

    /// The plan (`-n`, `--explain`), the JSON report, the summary and the notes of a merge or dedupe.
    static func report(
        _ decisions: Decisions, target: String, committed: FileReplacement.Committed?, settings: Settings,
        io: CommandIO
    ) {
        let file = decisions.file
        let entries = decisions.entries
        let result = decisions.result
        let suggestions = decisions.suggestions
        let lines = file.lines
        if settings.json {
            MergeReport.writeJSON(
                file: file, entries: entries, result: result, dryRun: settings.dryRun,
                incoming: suggestions.incoming, isDedupe: suggestions.isDedupe, to: io.write)
        } else if settings.dryRun || settings.explain {
            var text = ""
            for entry in entries {
                text += describe(entry, file: file, lines: lines, explain: settings.explain) + "\n"
            }
            for line in suggestions.lines(limit: reportLimit, explain: settings.explain) { text += line + "\n" }
            if settings.explain {
                if let note = suggestions.cappedNote { text += note + "\n" }
                text +=
                    "\(result.candidatePairs) candidate pairs compared: cards sharing a UID, email, phone, name, "
                    + "Soundex-and-initial, birthday or postal code and house number\n"
            }
            io.writeText(text)
        }
        if let committed, let backup = committed.backup, committed.backupIsNumbered {
            io.error("\(target): note: earlier backups were kept; this one is \(backup)")
        }
        io.error(
            summary(
                entries, result: result, target: target, dryRun: settings.dryRun, changed: decisions.changed,
                isDedupe: suggestions.isDedupe))
        if !settings.json && !settings.dryRun && !settings.explain {
            // The strongest few help; thousands (a large book full of common names) would bury the summary.
            for line in suggestions.lines(limit: noteLimit, explain: false) { io.error(line) }
            if let note = suggestions.cappedNote { io.error(note) }
        }
    }

    /// A card's name on one line, shown safely: a name holding a line break or escape cannot fake a line of
    /// the report or act on the terminal.
    static func oneLine(_ text: String) -> String { TerminalText.sanitized(text) }

    /// How many possible-duplicate notes go to stderr after a merge.
    static let noteLimit = 10
    /// How many possible duplicates `--dry-run` and `--explain` list (`--json` lists all).
    static let reportLimit = 100

    static func describe(_ entry: MergeEntry, file: ContactsFile, lines: [Int], explain: Bool) -> String {
        let target = entry.existing.map { "\(file.name):\(lines[$0]) \(oneLine(file.cards[$0].displayName))" }
        var text = "\(entry.file):\(entry.line) \(oneLine(entry.name)): "
        switch entry.outcome {
        case .merged:
            if let first = entry.intoIncoming {
                text += "merge with the new card of card \(first + 1) of the incoming cards"
            } else {
                text += "merge into \(target ?? "?")"
            }
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

    static func summary(
        _ entries: [MergeEntry], result: MergeResult, target: String, dryRun: Bool, changed: Bool, isDedupe: Bool
    ) -> String {
        let counts = entries.outcomeCounts
        func count(_ o: MergeEntry.Outcome) -> Int { counts[o] ?? 0 }
        let possible = result.suggestions.count
        var parts = [
            "\(count(.added) + count(.possible)) added", "\(count(.merged)) merged", "\(count(.unchanged)) unchanged",
        ]
        // A dedupe adds nothing and has no incoming cards, however little it merged.
        if isDedupe || !result.removed.isEmpty { parts = ["\(result.removed.count) merged into other cards"] }
        parts.append("\(possible) possible duplicate\(possible == 1 ? "" : "s") left alone")
        if count(.skipped) > 0 { parts.append("\(count(.skipped)) skipped") }
        let verb = dryRun ? "would change nothing yet (dry run)" : (changed ? "updated" : "unchanged")
        return "\(target): \(parts.joined(separator: ", ")); \(verb)"
    }
}

extension [MergeEntry] {
    /// How many entries have each outcome, counted in place in one pass: filtering the list for each outcome
    /// copied every entry it kept (a dedupe of a large book has one for each of its cards), retaining each of
    /// its values.
    var outcomeCounts: [MergeEntry.Outcome: Int] {
        var counts: [MergeEntry.Outcome: Int] = [:]
        withUnsafeBufferPointer { entries in
            for i in entries.indices { counts[entries[i].outcome, default: 0] += 1 }
        }
        return counts
    }
}
