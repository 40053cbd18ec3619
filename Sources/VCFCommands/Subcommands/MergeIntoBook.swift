import AddressBooks
import ContactMatching
import ContactMerge
import ContactModel
import Foundation
import UserFiles
import VCardFormat
import VCardSyntax
import Vdir

/// `vcf merge INCOMING... --into DIR/` or `--into https://HOST/PATH/`, and `vcf dedupe DIR` or `URL`: the merge
/// and dedupe of `Merge` with a vdir or a CardDAV collection as the address book, written back item by item
/// (`BookUpdate`).
enum MergeIntoBook {
    static func merge(
        _ paths: [UserPath], into place: Place, settings: Merge.Settings, parsed: Arguments, io: CommandIO
    ) throws -> Int32 {
        try refuseFileOnlyOptions(settings)
        let access = PlaceAccess(io: io, user: parsed.option(.user))
        let book: StoredBook
        do {
            // A dry run into a folder that is not there yet plans against an empty book and creates nothing.
            let store: any CardStore
            if settings.dryRun, case .folder(let path) = place, !FileManager.default.fileExists(atPath: path) {
                store = AbsentFolderStore(path: path)
            } else {
                store = try access.store(place, create: true)
            }
            book = try StoredBook(store: store, countryCode: settings.engine.countryCode)
        } catch {
            return access.report(error)
        }
        defer { book.store.close() }
        reportUnreadable(book, io: io)
        guard let (read, skipped, _) = try Merge.readIncoming(paths, parsed: parsed, io: io) else {
            return ExitCode.ioFailure
        }
        let incoming = book.recognisingContentUIDs(read)
        let result = settings.engine.merge(incoming, into: book.existingCards)
        var update = BookUpdate(book: book, engine: settings.engine, dryRun: settings.dryRun)
        let report: BookUpdate.Report
        do {
            report = try update.applyMerge(result, incoming: incoming)
        } catch {
            return access.report(error)
        }
        var entries = result.entries + skipped
        entries.sort { ($0.file, $0.line) < ($1.file, $1.line) }
        show(entries, result: result, book: book, isDedupe: false, settings: settings, io: io)
        return finish(report, entries: entries, result: result, book: book, isDedupe: false, settings: settings, io: io)
    }

    static func dedupe(_ place: Place, settings: Merge.Settings, user: String?, io: CommandIO) throws -> Int32 {
        try refuseFileOnlyOptions(settings)
        let access = PlaceAccess(io: io, user: user)
        let book: StoredBook
        do {
            book = try StoredBook(store: access.store(place, create: false), countryCode: settings.engine.countryCode)
        } catch {
            return access.report(error)
        }
        defer { book.store.close() }
        reportUnreadable(book, io: io)
        var result = settings.engine.dedupe(book.existingCards, file: book.store.name, lines: book.lines)
        // Entries by card position: name each by its item, so reports point at the file or URL that holds it.
        for i in result.entries.indices where i < book.cards.count {
            result.entries[i].file = book.items[book.cards[i].item].location
        }
        var update = BookUpdate(book: book, engine: settings.engine, dryRun: settings.dryRun)
        let report: BookUpdate.Report
        do {
            report = try update.applyDedupe(result)
        } catch {
            return access.report(error)
        }
        let entries = result.entries.filter { $0.outcome == .merged }
        show(entries, result: result, book: book, isDedupe: true, settings: settings, io: io)
        return finish(report, entries: entries, result: result, book: book, isDedupe: true, settings: settings, io: io)
    }

    /// Options that only a contacts file supports: a backup copy, and the review with its decisions file.
    static func refuseFileOnlyOptions(_ settings: Merge.Settings) throws {
        if settings.backup { throw UsageError("--backup keeps a copy of a contacts file; a folder or server has none") }
        if settings.review || settings.accept != nil {
            throw UsageError(
                "--review and --accept work on a contacts file; for a folder or a server, merge into a file first")
        }
    }

    /// Items of the book that cannot be read: left as they are, and matched against nothing.
    static func reportUnreadable(_ book: StoredBook, io: CommandIO) {
        for (item, diagnostics) in book.unreadable {
            let first = diagnostics.first
            io.error(
                "\(book.items[item].location):\(first?.line ?? 1):\(first?.column ?? 1): error: "
                    + "\(first?.message ?? "cannot be read"); this card is left as it is and not matched")
        }
    }

    /// The plan (`-n`), the reasons (`--explain`) or the JSON report (`--json`) on standard output.
    static func show(
        _ entries: [MergeEntry], result: MergeResult, book: StoredBook, isDedupe: Bool, settings: Merge.Settings,
        io: CommandIO
    ) {
        func existing(_ position: Int) -> String {
            "\(book.location(of: position)) \(Merge.oneLine(book.cards[position].displayName))"
        }
        if settings.json {
            io.write(BookMergeReport(book: book, entries: entries, result: result, dryRun: settings.dryRun).json())
            return
        }
        guard settings.dryRun || settings.explain else { return }
        for entry in entries {
            let target = entry.existing.map(existing) ?? "?"
            var text = "\(entry.file):\(entry.line) \(Merge.oneLine(entry.name)): "
            switch entry.outcome {
            case .merged: text += "merge into \(target)"
            case .unchanged: text += "already in \(target)"
            case .added: text += "add"
            case .possible: text += "add; possible duplicate of \(target)"
            case .skipped: text += "skip: \(entry.problem ?? "unreadable")"
            }
            if !entry.changes.isEmpty {
                text += " (" + entry.changes.map { "\($0.field) \($0.action.rawValue)" }.joined(separator: ", ") + ")"
            }
            if settings.explain, let decision = entry.decision {
                text += "\n    " + decision.explanation
                if let score = decision.scoreExplanation { text += "\n    " + score }
            }
            io.write(text + "\n")
        }
        // A merge's possible duplicates are its entries; a dedupe's are pairs of the book's own cards.
        for suggestion in result.suggestions.prefix(Merge.reportLimit) where isDedupe {
            io.write(
                "\(existing(suggestion.first)) and \(existing(suggestion.second)): "
                    + "\(result.explain(suggestion).explanation)\n")
        }
    }

    /// What went wrong item by item, and the summary; the exit code.
    static func finish(
        _ report: BookUpdate.Report, entries: [MergeEntry], result: MergeResult, book: StoredBook, isDedupe: Bool,
        settings: Merge.Settings, io: CommandIO
    ) -> Int32 {
        for (location, name, reason) in report.refused {
            io.error("\(location): error: \(Merge.oneLine(name)) was not written: \(reason)")
        }
        for location in report.remerged {
            io.error("\(location): note: changed meanwhile; read again and merged again")
        }
        for (location, reason) in report.unresolved { io.error("\(location): warning: \(reason)") }
        if !settings.json && !settings.dryRun && !settings.explain {
            let possible = entries.filter { $0.outcome == .possible }
            for entry in possible.prefix(Merge.noteLimit) {
                io.error(
                    "\(entry.file):\(entry.line): note: \(Merge.oneLine(entry.name)) may be the same person as "
                        + "\(entry.existing.map(book.location(of:)) ?? "?"); added, not merged (--explain says why)")
            }
            if isDedupe {
                for suggestion in result.suggestions.prefix(Merge.noteLimit) {
                    io.error(
                        "\(book.location(of: suggestion.second)): note: may be the same person as "
                            + "\(book.location(of: suggestion.first)); left alone (--explain says why)")
                }
            }
        }
        let counts = entries.outcomeCounts
        func count(_ outcome: MergeEntry.Outcome) -> Int { counts[outcome] ?? 0 }
        let possible = result.suggestions.count
        var parts = [
            "\(count(.added) + count(.possible)) added", "\(count(.merged)) merged", "\(count(.unchanged)) unchanged",
        ]
        if !result.removed.isEmpty { parts = ["\(result.removed.count) merged into other cards"] }
        parts.append("\(possible) possible duplicate\(possible == 1 ? "" : "s") left alone")
        if count(.skipped) > 0 { parts.append("\(count(.skipped)) skipped") }
        if !report.refused.isEmpty { parts.append("\(report.refused.count) not written") }
        let isFolder = !(book.store is CardDAVStore)
        let unit = isFolder ? "file" : "request"
        let verb: String
        if settings.dryRun {
            let planned = report.created.count + report.rewritten.count + report.removed.count
            verb = "would write \(planned) \(isFolder ? "file" : "card")\(planned == 1 ? "" : "s") (dry run)"
        } else if report.writes == 0 {
            verb = "unchanged"
        } else {
            verb =
                "updated (\(report.created.count) new, \(report.rewritten.count) rewritten"
                + (report.removed.isEmpty ? "" : ", \(report.removed.count) removed")
                + "; \(report.writes) \(unit)\(report.writes == 1 ? "" : "s") \(isFolder ? "written" : "sent"))"
        }
        io.error("\(book.store.name): \(parts.joined(separator: ", ")); \(verb)")
        let problems =
            count(.skipped) > 0 || !report.refused.isEmpty || !report.unresolved.isEmpty || !book.unreadable.isEmpty
        return problems ? ExitCode.problems : ExitCode.success
    }
}

/// The `--json` report of a merge into a vdir or collection: as `MergeReport`, with each existing card named by
/// the file or URL that holds it.
struct BookMergeReport: Encodable {
    struct Card: Encodable {
        var file: String
        var line: Int
        var name: String
        var outcome: String
        var existing: Existing?
        var rule: String?
        var evidence: [String]?
        var changes: [FieldChange]?
        var problem: String?
    }
    struct Existing: Encodable {
        var file: String
        var line: Int
        var name: String
    }
    var contacts: String
    var dryRun: Bool
    var countryCode: Int?
    var summary: [String: Int]
    var cards: [Card]

    init(book: StoredBook, entries: [MergeEntry], result: MergeResult, dryRun: Bool) {
        contacts = book.store.name
        self.dryRun = dryRun
        countryCode = result.countryCode
        var summary: [String: Int] = [:]
        for o in ["merged", "unchanged", "added", "possible", "skipped"] { summary[o] = 0 }
        for e in entries { summary[e.outcome.rawValue, default: 0] += 1 }
        self.summary = summary
        cards = entries.map { e in
            Card(
                file: e.file, line: e.line, name: e.name, outcome: e.outcome.rawValue,
                existing: e.existing.map {
                    Existing(
                        file: book.items[book.cards[$0].item].location, line: book.cards[$0].beginLine,
                        name: book.cards[$0].displayName)
                },
                rule: e.decision?.rule, evidence: e.decision.map { $0.evidence.map(\.description) },
                changes: e.changes.isEmpty ? nil : e.changes, problem: e.problem)
        }
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }
}
