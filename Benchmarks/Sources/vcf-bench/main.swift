import ContactMatching
import ContactMerge
import ContactModel
import Foundation
import PhotoProcessing
import SyntheticBook
import VCardFormat
import VCardSyntax

// Benchmark driver: `vcf-bench parse|parse-write FILE [--jobs N]` prints one JSON line
// {"bytes":N,"cards":N,"seconds":S,"written":N,"jobs":N}, timing only the work (not process start).
// parse and parse-write use ParallelCardReader with N worker threads (default: the processor count);
// --jobs 1 reads on the calling thread with VCardFileReader.
// Scripts/bench.sh runs it beside the peers.
// `vcf-bench photo-fit IMAGE MAX_BYTES MAX_EDGE RUNS OUT` fits one photo RUNS times in this process and prints
// {"median_ms":M,"min_ms":M,"bytes":N,"width":W,"height":H,"quality":Q,"chroma":"4:2:0","encodes":E}
// (Scripts/photo-bench.sh runs it beside ImageMagick).
// `vcf-bench labeled [EXISTING_PEOPLE] [SEED] [UNLINKED]` merges the seeded labelled book (UNLINKED duplicates that
// share no identifier, default a tenth of the people) and prints recall and every false merge; with
// LABELED_WRITE_DIR set it also writes the two books there as existing.vcf and incoming.vcf.
// `vcf-bench merge-phases BOOK INCOMING [COUNTRY_CODE]` times each step of a merge (no file is written).
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Writes a benchmark's output file, or ends the run: a script reading a missing file would report a wrong figure.
func writeOrExit(_ bytes: some Sequence<UInt8>, to path: String) {
    do {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    } catch {
        FileHandle.standardError.write(Data("vcf-bench: cannot write \(path): \(error)\n".utf8))
        exit(1)
    }
}

func photoFit(_ arguments: [String]) -> Never {
    guard arguments.count == 5, let maxBytes = Int(arguments[1]), let edge = Int(arguments[2]),
        let runs = Int(arguments[3]), runs > 0, let data = FileManager.default.contents(atPath: arguments[0])
    else {
        FileHandle.standardError.write(Data("usage: vcf-bench photo-fit IMAGE MAX_BYTES MAX_EDGE RUNS OUT\n".utf8))
        exit(64)
    }
    let bytes = [UInt8](data)
    var options = PhotoFitter.Options()
    options.maxEdge = edge
    let fitter = PhotoFitter(options: options)
    let clock = ContinuousClock()
    var times: [Double] = []
    var last: PhotoFitter.Result?
    do {
        for _ in 0..<runs {
            let start = clock.now
            last = try fitter.fit(bytes, maxBytes: maxBytes)
            let elapsed = clock.now - start
            times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
        }
    } catch {
        FileHandle.standardError.write(Data("vcf-bench: \(error)\n".utf8))
        exit(1)
    }
    guard let result = last else { exit(1) }
    writeOrExit(result.bytes, to: arguments[4])
    times.sort()
    let median = times[times.count / 2]
    print(
        "{\"median_ms\":\(median),\"min_ms\":\(times[0]),\"bytes\":\(result.bytes.count),\"width\":\(result.width),"
            + "\"height\":\(result.height),\"quality\":\(result.quality ?? 0),\"chroma\":\"\(result.chroma?.rawValue ?? "kept")\","
            + "\"encodes\":\(result.encodes)}")
    exit(0)
}

func labeled(_ arguments: [String]) -> Never {
    let people = arguments.first.flatMap { Int($0) } ?? 10_000
    let seed = arguments.count > 1 ? UInt64(arguments[1]) ?? 1 : 1
    let unlinked = arguments.count > 2 ? Int(arguments[2]) ?? 0 : people / 10
    let book = SyntheticBook.generate(
        .init(
            seed: seed, existingPeople: people, incomingDuplicates: people / 5,
            incomingNew: people / 10, traps: people / 20, unlinkedDuplicates: unlinked))
    if let dir = ProcessInfo.processInfo.environment["LABELED_WRITE_DIR"] {
        // For timing `vcf merge` on these books as a process.
        writeOrExit(book.existing.utf8, to: dir + "/existing.vcf")
        writeOrExit(book.incoming.utf8, to: dir + "/incoming.vcf")
    }
    let existing = VCardDocument.read(Array(book.existing.utf8)).cards.map(\.contact)
    let incoming = VCardDocument.read(Array(book.incoming.utf8)).cards.enumerated().map {
        IncomingCard(contact: $0.element.contact, file: "incoming", line: $0.offset)
    }
    let result = AddressBookMerge(countryCode: 1).merge(incoming, into: existing)
    var found = 0
    var falseMerges = 0
    for (i, entry) in result.entries.enumerated() {
        let truth = book.incomingKinds[i]
        if entry.outcome == .merged || entry.outcome == .unchanged {
            if let p = entry.existing, book.existingPeople[p] == book.incomingPeople[i] {
                found += 1
                continue
            }
            falseMerges += 1
            print(
                "FALSE \(truth.rawValue) incoming \(i) \(entry.name) -> existing \(entry.existing ?? -1) "
                    + "\(AddressBookMerge.displayName(existing[entry.existing ?? 0])): \(entry.decision?.explanation ?? "") | "
                    + (entry.decision?.scoreExplanation ?? ""))
        } else if truth == .duplicate || truth == .unlinked {
            print(
                "MISSED incoming \(i) \(entry.name) \(entry.outcome.rawValue): \(entry.decision?.explanation ?? "") | \(entry.decision?.scoreExplanation ?? "")"
            )
        }
    }
    let duplicates = book.incomingKinds.filter { $0 == .duplicate || $0 == .unlinked }.count
    var unlinkedFound = 0
    for (i, entry) in result.entries.enumerated()
    where book.incomingKinds[i] == .unlinked
        && (entry.outcome == .merged || entry.outcome == .unchanged)
        && entry.existing.map({ book.existingPeople[$0] }) == book.incomingPeople[i]
    {
        unlinkedFound += 1
    }
    print(
        "found \(found) of \(duplicates) (unlinked: \(unlinkedFound) of \(book.incomingKinds.filter { $0 == .unlinked }.count)), "
            + "\(falseMerges) false merges")
    exit(falseMerges == 0 ? 0 : 1)
}

/// Times each step of `vcf merge` in this process (read the book, read incoming, match and merge, render), so a
/// change to one step can be measured on its own: `vcf-bench merge-phases BOOK INCOMING [COUNTRY_CODE]`.
func mergePhases(_ arguments: [String]) -> Never {
    guard arguments.count >= 2, let book = FileManager.default.contents(atPath: arguments[0]),
        let incomingData = FileManager.default.contents(atPath: arguments[1])
    else {
        FileHandle.standardError.write(Data("usage: vcf-bench merge-phases BOOK INCOMING [COUNTRY_CODE]\n".utf8))
        exit(64)
    }
    let code = arguments.count > 2 ? Int(arguments[2]) : nil
    let clock = ContinuousClock()
    var last = clock.now
    func lap(_ what: String) {
        let now = clock.now
        let d = now - last
        print(
            "\(what)\t\(String(format: "%.3f", Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18))"
        )
        last = now
    }
    do {
        let file = try ContactsFile(bytes: [UInt8](book), name: arguments[0], countryCode: code)
        lap("read book")
        let incoming = VCardDocument.read([UInt8](incomingData), name: arguments[1]).cards.map {
            IncomingCard(contact: $0.contact, file: arguments[1], line: $0.raw.beginLine)
        }
        lap("read incoming")
        let result = AddressBookMerge(countryCode: code).merge(incoming, into: file.existingCards)
        lap("match and merge")
        var parts = 0
        try file.writeRendered(replacing: result.replaced, adding: result.added) { _ in parts += 1 }
        lap("render")
        print(
            "cards\t\(file.cards.count)\tparts\t\(parts)\treplaced\t\(result.replaced.count)\tadded\t\(result.added.count)"
        )
    } catch {
        FileHandle.standardError.write(Data("vcf-bench: \(error)\n".utf8))
        exit(2)
    }
    exit(0)
}

/// Times working out match keys for every card of a book on one thread, whole and by public part, so a change to
/// the key code can be measured alone: `vcf-bench keys BOOK [RUNS]`. (It sees only the public API, as this package
/// builds against the root one; finer parts are timed with a profiler, Scripts/profile-convert.sh.)
func keys(_ arguments: [String]) -> Never {
    guard let path = arguments.first, FileManager.default.fileExists(atPath: path) else {
        FileHandle.standardError.write(Data("usage: vcf-bench keys BOOK [RUNS]\n".utf8))
        exit(64)
    }
    let runs = arguments.count > 1 ? Int(arguments[1]) ?? 3 : 3
    func readAll() -> [Contact] {
        var contacts: [Contact] = []
        do {
            let reader = try VCardFileReader(path: path)
            while let card = try reader.next() { contacts.append(card.contact) }
        } catch {
            FileHandle.standardError.write(Data("vcf-bench: \(error)\n".utf8))
            exit(2)
        }
        return contacts
    }
    let contacts = readAll()
    let clock = ContinuousClock()
    func time(_ what: String, _ body: () -> Int) {
        var best = Double.infinity
        var count = 0
        for _ in 0..<runs {
            let start = clock.now
            count = body()
            let d = clock.now - start
            best = min(best, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
        }
        print("\(what)\t\(String(format: "%.3f", best))\t\(count)")
    }
    time("read") { readAll().count }
    time("match keys") { contacts.reduce(0) { $0 + MatchKeys($1, countryCode: 1).emails.count } }
    let allKeys = contacts.map { MatchKeys($0, countryCode: 1) }
    time("index") { ContactIndex(allKeys).keys.count }
    time("person name") { contacts.reduce(0) { $0 + (PersonName($1)?.family.utf8.count ?? 0) } }
    exit(0)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "keys" {
    keys(Array(arguments.dropFirst()))
}
if arguments.first == "labeled" {
    labeled(Array(arguments.dropFirst()))
}
if arguments.first == "merge-phases" {
    mergePhases(Array(arguments.dropFirst()))
}
if arguments.first == "photo-fit" {
    photoFit(Array(arguments.dropFirst()))
}
var jobs = ProcessInfo.processInfo.activeProcessorCount
if let flag = arguments.firstIndex(of: "--jobs"), flag + 1 < arguments.count, let n = Int(arguments[flag + 1]), n > 0 {
    jobs = n
    arguments.removeSubrange(flag...(flag + 1))
}
guard arguments.count == 2, ["parse", "parse-write"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("usage: vcf-bench parse|parse-write FILE [--jobs N]\n".utf8))
    exit(64)
}
let mode = arguments[0]
let path = arguments[1]
let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0

let clock = ContinuousClock()
var cards = 0
var written = 0
let start = clock.now
do {
    let writer = VCardWriter(version: .v3_0)
    if jobs == 1 {
        let reader = try VCardFileReader(path: path)
        var out: [UInt8] = []
        out.reserveCapacity(2 << 20)
        while let card = try reader.next() {
            cards += 1
            if mode == "parse-write" {
                writer.write(card.contact, into: &out)
                if out.count > 1 << 20 {
                    written += out.count
                    out.removeAll(keepingCapacity: true)
                }
            }
        }
        written += out.count
    } else {
        let reader = ParallelCardReader(workers: jobs)
        let writes = mode == "parse-write"
        try reader.read(
            path: path,
            transform: { card -> Int in
                guard writes else { return 0 }
                var out: [UInt8] = []
                out.reserveCapacity(card.raw.byteRange.count + 256)
                writer.write(card.contact, into: &out)
                return out.count
            },
            body: { count in
                cards += 1
                written += count
            }, diagnostics: { _ in })
    }
} catch {
    FileHandle.standardError.write(Data("vcf-bench: \(error)\n".utf8))
    exit(2)
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("{\"bytes\":\(bytes),\"cards\":\(cards),\"seconds\":\(seconds),\"written\":\(written),\"jobs\":\(jobs)}")
