import ContactCSV
import ContactModel
import Foundation
import VCardFormat
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// The formats an input can hold, detected from its first bytes.
enum InputFormat: String, CaseIterable {
    case vcard
    case jcard
    case json
    case csv
}

/// Reads every input named on the command line, card by card, whatever its format; diagnostics go to
/// stderr with the input's name. Commands see only contacts.
struct InputReader {
    let io: CommandIO
    var forcedFormat: InputFormat?
    /// The user named with `--user`, for collection URLs among the inputs.
    var user: String?
    private(set) var errorCount = 0
    private(set) var warningCount = 0
    private(set) var ioFailures = 0

    init(io: CommandIO, forcedFormat: InputFormat? = nil) {
        self.io = io
        self.forcedFormat = forcedFormat
    }

    /// Calls `body` with each card of each input in order, and the input's name (a path or `-`). An input that
    /// cannot be read is reported and the others are still read.
    mutating func forEachCard(in paths: [String], _ body: (ReadCard, String) throws -> Void) throws {
        // A vdir folder is read as its .vcf files; a collection URL as its cards.
        let paths = expandingFolders(paths.isEmpty ? ["-"] : paths)
        let sizes = paths.map {
            $0 == "-" || Place.isURL($0)
                ? nil : (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? 0
        }
        let progress = ProgressLine(
            io: io, totalBytes: sizes.contains(where: { $0 == nil }) ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) })
        defer { progress.finish() }
        var cards = 0
        var bytesBefore = 0
        for (path, size) in zip(paths, sizes) {
            defer { bytesBefore += size ?? 0 }
            if Place.isURL(path), let url = URL(string: path) {
                try readCollection(url, user: user) { card, source in
                    try body(card, source)
                    cards += 1
                    progress.update(cards: cards, bytesDone: bytesBefore)
                }
                continue
            }
            let handle: FileHandle
            if path == "-" {
                handle = FileHandle.standardInput
            } else {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    let opened = FileHandle(forReadingAtPath: path)
                else {
                    let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
                    io.error("\(path): error: \(reason)")
                    ioFailures += 1
                    continue
                }
                handle = opened
            }
            defer { if path != "-" { try? handle.close() } }
            let prefix = [UInt8]((try? handle.read(upToCount: 64 << 10)) ?? Data())
            let format = forcedFormat ?? Self.detect(prefix)
            switch format {
            case .jcard:
                let all = Self.readRest(of: handle, after: prefix)
                do {
                    for card in try JCard.read(all, name: path) {
                        report(card.diagnostics)
                        try body(card, path)
                        cards += 1
                        progress.update(cards: cards, bytesDone: bytesBefore)
                    }
                } catch let error as JCardError {
                    io.error(error.description)
                    errorCount += 1
                }
            case .csv:
                let result = ContactCSV.read(Self.readRest(of: handle, after: prefix))
                var problems = result.problems[...]
                for record in result.records {
                    // Each problem is told before the first card read after it, so stderr follows the file.
                    while let problem = problems.first, problem.line <= record.line {
                        reportCSV(problem, path: path)
                        problems = problems.dropFirst()
                    }
                    try body(
                        ReadCard(
                            contact: record.contact, raw: RawCard(lines: [], beginLine: record.line), diagnostics: []),
                        path)
                    cards += 1
                    progress.update(cards: cards, bytesDone: bytesBefore)
                }
                for problem in problems { reportCSV(problem, path: path) }
            case .json:
                let all = Self.readRest(of: handle, after: prefix)
                do {
                    for contact in try ContactJSON.decode(all) {
                        try body(ReadCard(contact: contact, raw: RawCard(lines: []), diagnostics: []), path)
                        cards += 1
                        progress.update(cards: cards, bytesDone: bytesBefore)
                    }
                } catch let error as ContactJSON.DecodeError {
                    io.error("\(path):\(error.line):\(error.column): error: \(error.message)")
                    errorCount += 1
                }
            case .vcard:
                let reader = VCardFileReader(handle: handle, name: path, prefix: prefix)
                do {
                    while let card = try reader.next() {
                        report(reader.takeFileDiagnostics())
                        report(card.diagnostics)
                        try body(card, path)
                        cards += 1
                        progress.update(cards: cards, bytesDone: bytesBefore + card.raw.byteRange.upperBound)
                    }
                    report(reader.takeFileDiagnostics())
                } catch let error as VCardInputError {
                    io.error(error.description)
                    ioFailures += 1
                }
            }
        }
    }

    private mutating func reportCSV(_ problem: ContactCSV.Problem, path: String) {
        if problem.severity == .error { errorCount += 1 } else { warningCount += 1 }
        io.error("\(path):\(problem.description)")
    }

    /// Counts an input that could not be read (reported by the caller).
    mutating func countFailure() { ioFailures += 1 }

    /// Reports and counts `diagnostics`.
    mutating func reportAll(_ diagnostics: [Diagnostic]) { report(diagnostics) }

    private mutating func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            if diagnostic.severity == .error { errorCount += 1 } else { warningCount += 1 }
            io.report(diagnostic)
        }
    }

    /// The whole input: formats other than vCard are read at once.
    private static func readRest(of handle: FileHandle, after prefix: [UInt8]) -> [UInt8] {
        var all = prefix
        while let more = try? handle.read(upToCount: 1 << 20), !more.isEmpty { all += more }
        return all
    }

    /// jCard is `[` then `"vcard"`; other JSON starts with `[` or `{` after white space and a BOM; anything
    /// else is read as vCard.
    static func detect(_ prefix: [UInt8]) -> InputFormat {
        if JCard.looksLikeJCard(prefix) { return .jcard }
        if ContactCSV.looksLikeCSV(prefix) { return .csv }
        var index = 0
        if prefix.count >= 3 && prefix[0] == 0xEF && prefix[1] == 0xBB && prefix[2] == 0xBF { index = 3 }
        while index < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[index]) { index += 1 }
        guard index < prefix.count else { return .vcard }
        return prefix[index] == UInt8(ascii: "[") || prefix[index] == UInt8(ascii: "{") ? .json : .vcard
    }
}
