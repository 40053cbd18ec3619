import Foundation
import TestSupport
import Testing

@testable import VCFCommands

/// A folder's small files are read several at once and handed on in file order: every command that reads
/// cards (and lint) says and writes exactly what it does when each file is read in turn on one thread, warnings,
/// errors, other formats and empty files included.
@Suite struct FolderReadingTests {
    /// A vdir of 160 small files of every kind (cards with and without UIDs, a card without FN or VERSION, a line
    /// without a colon, a card without END, Latin-1 text, Contact JSON, jCard and CSV under .vcf names, an empty
    /// file when `empty`), a file larger than a small file in the middle, and a folder named like a card file.
    static func folder(_ path: String, empty: Bool) throws {
        try FileManager.default.createDirectory(atPath: path + "/skipped.vcf", withIntermediateDirectories: true)
        let source = path + "-source.vcf"
        try Places.write(
            Places.card("FN:Jo Formats", "N:Formats;Jo;;;", "EMAIL:jo@example.com", "TEL:+1 555 0100"), source)
        defer { try? FileManager.default.removeItem(atPath: source) }
        var files: [String: [UInt8]] = [
            "w-no-fn.vcf": Array("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Roe;Bob;;;\r\nEND:VCARD\r\n".utf8),
            "w-no-version.vcf": Array("BEGIN:VCARD\r\nFN:Vera Less\r\nEND:VCARD\r\n".utf8),
            "e-no-colon.vcf": Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Broken Line\r\nNOCOLON\r\nEND:VCARD\r\n".utf8),
            "e-no-end.vcf": Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:No End\r\nEMAIL:noend@example.com\r\n".utf8),
            "latin1.vcf": Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Jos".utf8) + [0xE9]
                + Array(" M\r\nN:M;Jos".utf8) + [0xE9] + Array(";;;\r\nEND:VCARD\r\n".utf8),
            "json.vcf": Places.run(["convert", source, "--to", "json"]).out,
            "jcard.vcf": Places.run(["convert", source, "--to", "jcard"]).out,
            "csv.vcf": Places.run(["convert", source, "--to", "csv"]).out,
        ]
        if empty { files["empty.vcf"] = [] }
        for k in 0..<150 {
            let uid = k % 7 == 0 ? "UID:person-\(k)" : "NOTE:no UID"
            // Every tenth card is a copy of the one before, so a merge has cards to join.
            let n = k % 10 == 9 ? k - 1 : k
            files["c\(1000 + k).vcf"] = Array(
                Places.card("FN:Person \(n)", "N:\(n);Person;;;", "EMAIL:p\(n)@example.com", uid).utf8)
        }
        let note = String(repeating: "a note long enough to make the file large ", count: 8)
        files["c1075-large.vcf"] = Array(
            (0..<800).map { Places.card("FN:Large \($0)", "N:\($0);Large;;;", "NOTE:\(note)") }.joined().utf8)
        #expect(files["c1075-large.vcf"]!.count > InputReader.smallFileBytes)
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: "\(path)/\(name)")) }
    }

    /// `arguments` run in-process, reading the inputs several at once or, when `inTurn`, one by one.
    static func run(_ arguments: [String], inTurn: Bool) -> Places.Run {
        let (io, out, err) = CommandIO.capturing()
        io.readsInputsInTurn = inTurn
        let code = VCFCommandLine.run(arguments, io: io)
        return Places.Run(code: code, out: out(), err: err())
    }

    @Test func everyCommandReadsAFolderAsItReadsItsFilesInTurn() throws {
        let work = try Places.folder("folder-reading")
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Self.folder("\(work)/in", empty: true)
        let folder = "\(work)/in"
        for arguments in [
            ["convert", folder], ["convert", folder, "--to", "json"], ["convert", folder, "--to", "jcard"],
            ["convert", folder, "--to", "vcard4"], ["convert", folder, "--ensure-uid"],
            ["convert", folder, "--to", "csv"], ["preview", folder], ["preview", folder, "--format", "json"],
            ["preview", folder, "--format", "html"], ["convert", folder, "\(work)/in/c1003.vcf", folder],
            ["lint", folder], ["lint", folder, "--json"], ["lint", folder, "--strict"],
        ] {
            let together = Self.run(arguments, inTurn: false)
            let inTurn = Self.run(arguments, inTurn: true)
            #expect(together.code == inTurn.code, "\(arguments)")
            #expect(together.err == inTurn.err, "\(arguments)")
            #expect(together.out == inTurn.out, "\(arguments)")
            #expect(together.out.count > (arguments[0] == "lint" ? 1_000 : 10_000), "\(arguments)")
        }
        // What the folder's files hold is told in file order.
        let told = Self.run(["convert", folder], inTurn: false).err
        let order = ["e-no-colon.vcf", "e-no-end.vcf", "latin1.vcf", "w-no-fn.vcf", "w-no-version.vcf"]
        let places = order.map { told.range(of: "in/\($0)")?.lowerBound }
        #expect(places.allSatisfy { $0 != nil }, "\(told)")
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted(), "\(told)")
    }

    @Test func mergeReadsAFolderAsItReadsItsFilesInTurn() throws {
        let work = try Places.folder("folder-merge")
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Self.folder("\(work)/in", empty: false)
        let book = Places.card("FN:Person 3", "N:3;Person;;;", "TEL:+1 555 0103")
        var results: [Places.Run] = []
        var written: [[UInt8]] = []
        for (inTurn, place) in [(false, "a"), (true, "b")] {
            try FileManager.default.createDirectory(atPath: "\(work)/\(place)", withIntermediateDirectories: true)
            let target = "\(work)/\(place)/book.vcf"
            try Places.write(book, target)
            var run = Self.run(["merge", "\(work)/in", "--into", target], inTurn: inTurn)
            run.err = run.err.replacingOccurrences(of: "\(work)/\(place)/", with: "\(work)/book/")
            results.append(run)
            written.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: target))))
        }
        #expect(results[0].code == results[1].code)
        #expect(results[0].err == results[1].err)
        #expect(results[0].out == results[1].out)
        #expect(written[0] == written[1])
        // The folder's cards were merged: 15 copies joined, Person 3 merged into the book's card.
        #expect(results[0].err.contains("merged"), "\(results[0].err)")
        #expect(written[0].count > 100_000)
    }
}
