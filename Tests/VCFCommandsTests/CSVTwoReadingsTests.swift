import ContactCSV
import Foundation
import Testing
import UserFiles
import VCardFormat

@testable import VCFCommands

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `convert --to csv` reads its inputs twice (columns, then rows): memory stays bounded as the binary runs,
/// a pipe is spooled to disk, the output is the CSV of every card held at once, and an input changed between
/// the readings is caught.
@Suite struct CSVTwoReadingsTests {
    /// 40,000 cards of about 1 KB (39 MB); the last one alone brings a third email, an anniversary, a kept
    /// Event column the anniversary's group must clear and a new kept column, so a writer that did not read
    /// every card before the header would get it wrong. Holding every card took 236 MB (release build) here;
    /// two readings take 38 MB (release) and 46 MB (debug), and spooling a pipe about as much.
    static let cards = 40_000
    static let boundMB = 128.0

    static func book() -> String {
        let note = String(repeating: "Met at the conference\\; likes long walks\\, chess and Swift. ", count: 12)
        var text = ""
        text.reserveCapacity(cards * 1_000)
        for index in 0..<cards {
            text += "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Person \(index)\r\nN:Last\(index);First\(index);;;\r\n"
            text += "EMAIL;TYPE=work:p\(index)@example.com\r\nTEL;TYPE=cell:+1 555 \(index)\r\n"
            text += "ADR;TYPE=home:;;\(index) Main Street;Springfield;IL;62704;USA\r\nNOTE:\(note)\r\n"
            text += "X-CSV-FIELD;X-COLUMN=Hobby:chess \(index)\r\n"
            if index == cards - 1 {
                text += "EMAIL:q@example.com\r\nEMAIL:r@example.com\r\nANNIVERSARY:2001-02-03\r\n"
                text += "X-CSV-FIELD;X-COLUMN=Event 3 - Label:Party\r\nX-CSV-FIELD;X-COLUMN=Spouse:Kim\r\n"
            }
            text += "END:VCARD\r\n"
        }
        return text
    }

    @Test(.enabled(if: builtBinary != nil, "the vcf binary is not built"))
    func aLargeFileIsConvertedInBoundedMemoryToTheCSVOfEveryCard() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = scratch("book.vcf")
        try Data(Self.book().utf8).write(to: URL(fileURLWithPath: input))
        let streamed = try ChildProcess.run(
            ["convert", input, "--to", "csv", "-o", scratch("out.csv")].map { Array($0.utf8) }, measureMemory: true)
        #expect(streamed.status == 0, "\(streamed.stderr.prefix(300))")
        let peakMB = Double(try #require(streamed.peakKB, "GNU time did not measure")) / 1024
        #expect(peakMB < Self.boundMB, "convert --to csv of \(Self.cards) cards: \(peakMB) MB peak")
        // Standard input cannot be read twice: its cards are spooled to a temporary file, also in bounded memory.
        let child = try ChildProcess.start(
            ["convert", "--to", "csv"].map { Array($0.utf8) }, stdin: .pipe, measureMemory: true)
        #expect(child.feed([UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))))
        let spooled = child.wait()
        #expect(spooled.status == 0, "\(spooled.stderr.prefix(300))")
        let spooledMB = Double(try #require(spooled.peakKB, "GNU time did not measure")) / 1024
        #expect(spooledMB < Self.boundMB, "convert --to csv of \(Self.cards) cards from a pipe: \(spooledMB) MB peak")
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch("out.csv"))))
        #expect(written == spooled.stdout)
        // Both are what the library writes for every card held at once.
        let (cards, _) = VCardDocument.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: input))))
        #expect(cards.count == Self.cards)
        #expect(written == ContactCSV.write(cards.map(\.contact)))
        let lines = String(decoding: written, as: UTF8.self).split(separator: "\r\n")
        #expect(lines.count == Self.cards + 1)
        #expect(lines.first?.contains("E-mail 3 - Value") == true)
        #expect(lines.first?.hasSuffix(",Event 4 - Label,Event 4 - Value,Hobby,Event 3 - Label,Spouse") == true)
        #expect(lines.last?.hasSuffix(",Anniversary,2001-02-03,chess 39999,Party,Kim") == true)
    }

    /// What the Google CSV written does not carry is said, once for the whole output, with how many cards had it:
    /// `--to csv` left UID, ROLE, X-ABDATE and the rest out without a word. The same from a file (two
    /// readings), a pipe (spooled) and with --ensure-uid (held).
    @Test func whatTheCSVHasNoColumnForIsSaid() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let card = { (name: String, extra: String) in
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name)\r\nN:;\(name);;;\r\nUID:\(name)\r\n\(extra)END:VCARD\r\n"
        }
        let input = try scratch.write(
            "in.vcf",
            card("Ann", "ROLE:Lead\r\nitem1.X-ABDATE:2001-02-03\r\nitem1.X-ABLabel:_$!<Anniversary>!$_\r\n")
                + card("Bob", "X-CSV-FIELD;X-COLUMN=Hobby:chess\r\n"))
        let expected =
            "note: not written to the Google CSV: UID (2 cards), ROLE (1 card), X-ABDATE (1 card), "
            + "X-ABLABEL (1 card); --to vcard4 or --to json keeps them\n"
        for (arguments, stdin) in [
            (["convert", input, "--to", "csv", "-o", scratch("out.csv")], ChildProcess.Input.empty),
            (["convert", "-", "--to", "csv", "-o", scratch("out.csv")], .file(input)),
        ] {
            let outcome = try ChildProcess.run(arguments, stdin: stdin)
            #expect(outcome.status == 0)
            #expect(outcome.stderr == scratch("out.csv") + ": " + expected, "\(arguments)")
        }
        let held = try ChildProcess.run(["convert", input, "--to", "csv", "--ensure-uid"])
        #expect(held.stderr == "standard output: " + expected)
        let none = try ChildProcess.run(["convert", try scratch.write("b.vcf", card("Cy", "")), "--to", "csv"])
        #expect(
            none.stderr
                == "standard output: note: not written to the Google CSV: UID (1 card); --to vcard4 or --to json "
                + "keeps them\n")
    }

    @Test func onlyRegularFilesAreReadTwice() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch("a.vcf")
        try Data("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8).write(to: URL(fileURLWithPath: file))
        let fifo = scratch("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(RereadableInputs([UserPath(file), UserPath(file)])?.paths.count == 2)
        #expect(RereadableInputs([UserPath(file), .standardStream]) == nil)
        #expect(RereadableInputs([UserPath(fifo)]) == nil)
        #expect(RereadableInputs([UserPath(scratch("missing.vcf"))]) == nil)
        #expect(RereadableInputs([UserPath(scratch(""))]) == nil)
        #expect(RereadableInputs([UserPath("https://dav.example.com/book/")]) == nil)
    }

    @Test func anInputChangedBetweenTheReadingsIsNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let first = scratch("a.vcf")
        let second = scratch("b.vcf")
        let card = Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\n".utf8)
        try card.write(to: URL(fileURLWithPath: first))
        try card.write(to: URL(fileURLWithPath: second))
        func setModified(_ path: String, seconds: Int) {
            var times = [
                timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0),
            ]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        }
        setModified(second, seconds: 1_000_000_000)
        let inputs = try #require(RereadableInputs([UserPath(first), UserPath(second)]))
        #expect(inputs.changed() == nil)
        // With nothing changed, a reading that found other cards names the input only when there is one.
        #expect(inputs.changedOrOnly() == nil)
        #expect(RereadableInputs([UserPath(first)])?.changedOrOnly() == UserPath(first))
        // Same size and content, a later modification time.
        setModified(second, seconds: 1_000_000_001)
        #expect(inputs.changed() == UserPath(second))
        setModified(second, seconds: 1_000_000_000)
        #expect(inputs.changed() == nil)
        // Another size, the modification time put back.
        try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:AB\r\nEND:VCARD\r\n".utf8).write(to: URL(fileURLWithPath: second))
        setModified(second, seconds: 1_000_000_000)
        #expect(inputs.changed() == UserPath(second))
        // Another file renamed over the name, with the same size and modification time.
        try card.write(to: URL(fileURLWithPath: scratch("c.vcf")))
        setModified(scratch("c.vcf"), seconds: 1_000_000_000)
        #expect(rename(scratch("c.vcf"), second) == 0)
        #expect(inputs.changed() == UserPath(second))
        // A name gone.
        #expect(unlink(second) == 0)
        #expect(inputs.changed() == UserPath(second))
    }

    @Test func aSpoolGivesBackItsRecordsInOrder() throws {
        let spool = try RecordSpool()
        // Empty, small, and larger than the chunks the spool writes and reads in.
        let records: [[UInt8]] =
            [[], [1, 2, 3], Array(repeating: 7, count: RecordSpool.chunkBytes * 2 + 5), [9]]
            + (0..<10_000).map { Array("card \($0)".utf8) }
        for record in records { try spool.append(record) }
        #expect(spool.count == records.count)
        var back: [[UInt8]] = []
        try spool.readBack { back.append($0) }
        #expect(back == records)
    }

    @Test func aSpoolThatCannotBeMadeNamesTheFolder() {
        #expect(throws: FileError.self) { try RecordSpool(directory: UserPath("/nonexistent-vcf-folder")) }
    }
}
