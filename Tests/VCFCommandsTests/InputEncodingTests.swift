import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat

/// What Windows tools write reads as what the same cards in UTF-8 read as, with the built binary: UTF-16
/// (Windows PowerShell's `Out-File`, Excel's "Unicode Text", Google's older CSV export) in every format, and CSV
/// separated by semicolons or tabs. A file with text but no card is an error, never an empty output.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"), .serialized)
struct InputEncodingTests {
    static func utf16LE(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xFE]
        for unit in String(decoding: bytes, as: UTF8.self).utf16 { out += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return out
    }

    /// Each format, in UTF-16 with a byte order mark, converts to the bytes its UTF-8 form converts to, and
    /// merges as many cards.
    @Test(arguments: ["csv/google-contacts.csv", "jcard/edge-two-cards.json", "convert/contact.json"])
    func utf16ConvertsAsUTF8Does(fixture: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let original = FixturePaths.url(fixture).path
        let utf16 = scratch("utf16" + (fixture.hasSuffix(".csv") ? ".csv" : ".json"))
        try Data(Self.utf16LE(try FixturePaths.bytes(fixture))).write(to: URL(fileURLWithPath: utf16))
        let expected = try ChildProcess.run(["convert", original])
        #expect(expected.status == 0)
        #expect(VCardDocument.read(expected.stdout).cards.count > 0)
        let outcome = try ChildProcess.run(["convert", utf16])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == expected.stdout)
        #expect(outcome.stderr == expected.stderr.replacingOccurrences(of: original, with: utf16))
        let merged = try ChildProcess.run(["merge", utf16, "--into", scratch("book.vcf")])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr.contains("book.vcf: \(VCardDocument.read(expected.stdout).cards.count) added"))
    }

    /// A Google export re-saved by a spreadsheet whose list separator is `;`, and as tab-separated UTF-16.
    @Test func semicolonsAndTabsSeparateCSVFields() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let original = FixturePaths.url("csv/outlook.csv").path
        let expected = try ChildProcess.run(["convert", original])
        var text = String(bytes: try FixturePaths.bytes("csv/outlook.csv"), encoding: .windowsCP1252)!
        // The fixture's only commas inside quotes are in notes and names: re-separate outside quotes.
        var quoted = false
        let semicolons = String(
            text.map { character -> Character in
                if character == "\"" { quoted.toggle() }
                return character == "," && !quoted ? ";" : character
            })
        text = semicolons
        try Data(text.utf8).write(to: URL(fileURLWithPath: scratch("semicolons.csv")))
        try Data(Self.utf16LE(Array(text.replacingOccurrences(of: ";", with: "\t").utf8))).write(
            to: URL(fileURLWithPath: scratch("tabs.txt")))
        for file in ["semicolons.csv", "tabs.txt"] {
            let outcome = try ChildProcess.run(["convert", scratch(file)])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(formattedNames(outcome.stdout) == formattedNames(expected.stdout), "\(file)")
            #expect(!outcome.stderr.contains("error"), "\(outcome.stderr)")
        }
    }

    /// A British Outlook export's dates are day first, from a file (read a record at a time, after a reading of its
    /// dates) and from a pipe (read whole) alike.
    @Test func aBritishOutlookExportsDatesAreDayFirst() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text =
            "First Name,Last Name,E-mail Address,Job Title,Birthday\r\nAnn,Lee,a@x.example,,04/05/1985\r\n"
            + "Bo,Kim,b@x.example,,15/04/1990\r\n"
        let file = try scratch.write("uk.csv", text)
        let fromFile = try ChildProcess.run(["convert", file])
        let piped = try ChildProcess.start(["convert", "-"], stdin: .pipe)
        piped.feed(Array(text.utf8))
        piped.closeInput()
        let fromPipe = piped.wait()
        for outcome in [fromFile, fromPipe] {
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let written = String(decoding: outcome.stdout, as: UTF8.self)
            #expect(written.contains("BDAY:1985-05-04\r\n"), "\(written)")
            #expect(written.contains("BDAY:1990-04-15\r\n"), "\(written)")
        }
    }

    /// A CSV file is read twice, a record at a time, not held: 1,500 records of 40 KB (60 MB) convert in memory
    /// a fraction of the file's (the whole file and its fields held 141 MB before stop 46), every note whole.
    @Test func aLargeCSVFileIsReadARecordAtATime() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let note = String(repeating: "Met at the conference; likes chess, tea and Swift. ", count: 800)
        var csv = "First Name,Last Name,E-mail Address,Business Phone,Notes\r\n"
        for person in 0..<1_500 {
            csv += "Ann\(person),Lee,a\(person)@example.com,+1 555 0100,\"\(note)\(person)\"\r\n"
        }
        let input = try scratch.write("big.csv", csv)
        let outcome = try ChildProcess.run(
            ["convert", input, "--to", "json", "-o", scratch("out.json")], measureMemory: true)
        #expect(outcome.status == 0, "\(outcome.stderr.suffix(300))")
        let cards = try JSONSerialization.jsonObject(with: Data(try scratch.bytes("out.json"))) as? [[String: Any]]
        #expect(cards?.count == 1_500)
        #expect(cards?.last?["note"] as? String == note + "1499")
        let peakMB = Double(try #require(outcome.peakKB, "GNU time did not measure")) / 1024
        print("convert of a 60 MB CSV file: \(String(format: "%.1f", peakMB)) MB peak, bound 64 MB")
        #expect(peakMB < 64, "\(peakMB) MB peak")

        // From a pipe: held (it is read three times: its encoding, its dates, its records) and read a record at
        // a time, so memory is the input's size and the bound; reading it all at once took 2.5 times the input here
        // (155 MB), and 12 times for a book of many small records (1.6 GB for 130 MB).
        let child = try ChildProcess.start(
            ["convert", "-", "--to", "json"].map { Array($0.utf8) }, stdin: .pipe, measureMemory: true)
        #expect(child.feed(Array(csv.utf8)))
        let piped = child.wait()
        #expect(piped.status == 0, "\(piped.stderr.suffix(300))")
        #expect(piped.stdout == (try scratch.bytes("out.json")))
        let pipedMB = Double(try #require(piped.peakKB, "GNU time did not measure")) / 1024
        let boundMB = 64 + Double(csv.utf8.count) / 1_048_576
        print("convert of the CSV from a pipe: \(String(format: "%.1f", pipedMB)) MB peak, bound \(boundMB) MB")
        #expect(pipedMB < boundMB, "\(pipedMB) MB peak")
    }

    /// A Contact JSON array, and an array of jCards, are read a card at a time: 1,000 contacts of 40 KB (40 MB)
    /// convert in memory a fraction of the file's (135 MB and more before stop 46). A broken contact ends the reading with the error the whole document gives, after
    /// the contacts before it are converted ("every readable card is still converted").
    @Test func aLargeContactJSONFileIsReadAContactAtATime() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let note = String(repeating: "Met at the conference; likes chess, tea and Swift. ", count: 800)
        let contacts = (0..<1_000).map { Contact(formattedName: "Ann\($0) Lee", note: note + "\($0)") }
        let input = scratch("big.json")
        try Data(ContactJSON.encode(contacts)).write(to: URL(fileURLWithPath: input))
        let outcome = try ChildProcess.run(["convert", input, "-o", scratch("out.vcf")], measureMemory: true)
        #expect(outcome.status == 0, "\(outcome.stderr.suffix(300))")
        let cards = VCardDocument.read(try scratch.bytes("out.vcf")).cards
        #expect(cards.map(\.contact.formattedName) == contacts.map(\.formattedName))
        #expect(cards.last?.contact.note == note + "999")
        let peakMB = Double(try #require(outcome.peakKB, "GNU time did not measure")) / 1024
        print("convert of a 40 MB Contact JSON file: \(String(format: "%.1f", peakMB)) MB peak, bound 64 MB")
        #expect(peakMB < 64, "\(peakMB) MB peak")

        // The same cards as an array of jCards.
        let jcard = try ChildProcess.run(["convert", input, "--to", "jcard", "-o", scratch("big.jcard")])
        #expect(jcard.status == 0)
        let fromJCard = try ChildProcess.run(
            ["convert", scratch("big.jcard"), "-o", scratch("out2.vcf")], measureMemory: true)
        #expect(fromJCard.status == 0, "\(fromJCard.stderr.suffix(300))")
        #expect(try scratch.bytes("out2.vcf") == scratch.bytes("out.vcf"))
        let jcardMB = Double(try #require(fromJCard.peakKB, "GNU time did not measure")) / 1024
        print("convert of the same cards as jCard: \(String(format: "%.1f", jcardMB)) MB peak, bound 64 MB")
        #expect(jcardMB < 64, "\(jcardMB) MB peak")

        // From a pipe, which is read once: held whole (within the read limit), and still decoded a card at a time,
        // so memory is the input's size and the bound (decoding all at once took 2-3 times the input more).
        for file in ["big.json", "big.jcard"] {
            let bytes = try scratch.bytes(file)
            let child = try ChildProcess.start(
                ["convert", "-"].map { Array($0.utf8) }, stdin: .pipe, measureMemory: true)
            #expect(child.feed(bytes))
            let piped = child.wait()
            #expect(piped.status == 0, "\(piped.stderr.suffix(300))")
            #expect(piped.stdout == (try scratch.bytes("out.vcf")))
            let pipedMB = Double(try #require(piped.peakKB, "GNU time did not measure")) / 1024
            let boundMB = 64 + Double(bytes.count) / 1_048_576
            print("convert of \(file) from a pipe: \(String(format: "%.1f", pipedMB)) MB peak, bound \(boundMB) MB")
            #expect(pipedMB < boundMB, "\(pipedMB) MB peak")
        }

        let broken = String(decoding: ContactJSON.encode(Array(contacts.prefix(5))), as: UTF8.self)
            .replacingOccurrences(of: "\"Ann3 Lee\"", with: "3")
        let bad = try scratch.write("bad.json", broken)
        let failed = try ChildProcess.run(["convert", bad])
        #expect(failed.status == 1)
        #expect(formattedNames(failed.stdout) == ["Ann0 Lee", "Ann1 Lee", "Ann2 Lee", "Ann4 Lee"])
        #expect(
            failed.stderr.hasSuffix("error: expected a string at [3].formattedName; the contact was skipped\n"),
            "\(failed.stderr)")
    }

    /// An input that gives errors and not one card (a vCard file read with the wrong --from, JSON cut short) could
    /// not be read either: exit 2, a message naming it, and the output file left as it was, the input too when
    /// it is the output (an empty file took its place).
    @Test func anInputWithErrorsAndNoCardIsAnError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = card("Bob Roe", uid: "bob") + card("Ann Lee", uid: "ann")
        let vcard = try scratch.write("book.vcf", book)
        let cut = try scratch.write("cut.json", "[{\"formattedName\":\"A\"")
        let out = try scratch.write("out.vcf", "kept\n")
        let cases: [([String], String)] = [
            (["convert", "--from", "json", vcard], vcard), (["convert", "--from", "csv", vcard], vcard),
            (["convert", cut], cut), (["convert", "--to", "json", cut], cut), (["preview", cut], cut),
            (["preview", "--format", "html", cut], cut),
        ]
        for (command, input) in cases {
            let outcome = try ChildProcess.run(command + ["-o", out])
            #expect(outcome.status == 2, "\(command): \(outcome.stderr)")
            #expect(
                outcome.stderr.contains("\(input): error: no card could be read from it"), "\(outcome.stderr)")
            #expect(try scratch.bytes("out.vcf") == Array("kept\n".utf8), "\(command)")
        }
        let inPlace = try ChildProcess.run(["convert", "--from", "csv", vcard, "-o", vcard])
        #expect(inPlace.status == 2, "\(inPlace.stderr)")
        #expect(try scratch.bytes("book.vcf") == Array(book.utf8))
        // Some cards and then an error: the cards are written, and the error is the exit status's 1.
        let some = try scratch.write("some.json", "[{\"formattedName\":\"Ann Lee\"}, {\"formattedName\": 3}]")
        let partial = try ChildProcess.run(["convert", some, "-o", out])
        #expect(partial.status == 1, "\(partial.stderr)")
        #expect(String(decoding: try scratch.bytes("out.vcf"), as: UTF8.self).contains("FN:Ann Lee\r\n"))
    }

    /// Junk text is an input that could not be read: exit 2, a message naming it, an output file left as it
    /// was; among other inputs too, and inside a folder. An empty file holds no card and says nothing wrong.
    @Test func textWithoutCardsIsAnError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let good = try scratch.write("good.vcf", card("Bob Roe", uid: "bob"))
        let junk = try scratch.write("junk.txt", "this is not a contacts file\n")
        let out = try scratch.write("out.vcf", "kept\n")
        for command in [["convert"], ["convert", "--to", "json"], ["convert", "--to", "csv"], ["preview"]] {
            let outcome = try ChildProcess.run(command + [good, junk, "-o", out])
            #expect(outcome.status == 2, "\(command)")
            #expect(
                outcome.stderr.contains("\(junk): error: no cards found; this is not vCard, jCard, Contact JSON"),
                "\(outcome.stderr)")
            #expect(try scratch.bytes("out.vcf") == Array("kept\n".utf8))
        }
        let folder = scratch("cards")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try Data(card("Bob Roe", uid: "bob").utf8).write(to: URL(fileURLWithPath: folder + "/bob.vcf"))
        try Data("junk\n".utf8).write(to: URL(fileURLWithPath: folder + "/junk.vcf"))
        let fromFolder = try ChildProcess.run(["convert", folder + "/"])
        #expect(fromFolder.status == 2)
        #expect(fromFolder.stderr.contains("junk.vcf: error: no cards found"), "\(fromFolder.stderr)")
        #expect(formattedNames(fromFolder.stdout) == ["Bob Roe"])
        let empty = try ChildProcess.run(["convert", try scratch.write("empty.vcf", ""), good])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stderr.isEmpty)
    }
}
