import Foundation
import TestSupport
import Testing
import VCardFormat

/// `vcf merge` reads its incoming files through the same reader as `convert`, so every format convert reads
/// merges; an incoming file that holds no card is an error naming it, and nothing is changed.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"), .serialized)
struct MergeInputTests {
    /// Google and Outlook CSV, jCard and Contact JSON merge as their cards; the count matches what convert
    /// reads from the same file.
    @Test(arguments: ["csv/google-contacts.csv", "csv/outlook.csv", "jcard/edge-two-cards.json", "google.json"])
    func everyFormatConvertReadsMerges(fixture: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var input = FixturePaths.url(fixture).path
        if fixture == "google.json" {
            // Contact JSON, as convert writes it from the Google export.
            let json = try ChildProcess.run([
                "convert", FixturePaths.url("csv/google-contacts.csv").path, "--to", "json",
            ])
            #expect(json.status == 0)
            input = scratch("google.json")
            try Data(json.stdout).write(to: URL(fileURLWithPath: input))
        }
        #expect(FileManager.default.fileExists(atPath: input))
        let converted = try ChildProcess.run(["convert", input])
        let expected = VCardDocument.read(converted.stdout).cards.count
        #expect(expected > 0)
        let outcome = try ChildProcess.run(["merge", input, "--into", scratch("book.vcf")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("book.vcf: \(expected) added"))
        #expect(VCardDocument.read(try scratch.bytes("book.vcf")).cards.count == expected)
    }

    /// Junk text, an empty file and /dev/null hold no card: exit 2, a message naming the file, the contacts file
    /// unchanged, even when another incoming file is fine.
    @Test func anIncomingFileWithoutCardsIsAnError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = card("Ann Lee", uid: "ann")
        let book = try scratch.write("book.vcf", old)
        let good = try scratch.write("good.vcf", card("Bob Roe", uid: "bob"))
        let junk = try scratch.write("junk.txt", "this is not a contacts file\n")
        let empty = try scratch.write("empty.vcf", "")
        for bad in [junk, empty, "/dev/null"] {
            let outcome = try ChildProcess.run(["merge", good, bad, "--into", book])
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("\(bad): error: no cards found"), "\(outcome.stderr)")
            #expect(try scratch.bytes("book.vcf") == Array(old.utf8))
        }
    }

    /// The contacts file itself must be vCard: a CSV file named with --into is refused, not overwritten.
    @Test func aContactsFileThatIsNotVCardIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let csv = try String(contentsOf: FixturePaths.url("csv/google-contacts.csv"), encoding: .utf8)
        let book = try scratch.write("book.csv", csv)
        let outcome = try ChildProcess.run(["merge", try scratch.write("in.vcf", card("Bob Roe")), "--into", book])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("book.csv: error: this is a CSV export"))
        #expect(try scratch.bytes("book.csv") == Array(csv.utf8))
    }

    /// Warnings about incoming cards are counted, not printed: a merge reports what it did with each card, and
    /// a hundred thousand "card has no FN" lines would bury it. An error is printed, and its card skipped.
    @Test func warningsAboutIncomingCardsAreNotPrinted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let noName = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Ann;;;\r\nEMAIL:ann@example.com\r\nEND:VCARD\r\n"
        let broken = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob Roe\r\nno colon\r\nEND:VCARD\r\n"
        let input = try scratch.write("in.vcf", noName + noName.replacingOccurrences(of: "ann", with: "amy") + broken)
        let outcome = try ChildProcess.run(["merge", input, "--into", scratch("book.vcf")])
        #expect(outcome.status == 1)
        #expect(!outcome.stderr.contains("[missing-fn]"))
        #expect(outcome.stderr.contains("in.vcf:14:9: error: expected `NAME:value`"))
        #expect(outcome.stderr.contains("in.vcf:11: note: the card has errors and was skipped"))
        #expect(outcome.stderr.contains("book.vcf: 2 added"))
    }

    /// An FN, N or ORG kept whole for a parameter the model cannot hold (`FN;PID=1.1`, Outlook's
    /// `N;LANGUAGE=en-us`) is the value it holds: merged into a card with the same value it is not a second FN
    /// or N (the card had two FN lines), and a card named only so is matched by its name and merged.
    @Test func aFieldKeptForItsParametersIsTheValueItHolds() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = try scratch.write(
            "book.vcf",
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:John Smith\r\nN:Smith;John;;;\r\nEMAIL:john@x.com\r\nUID:a\r\n"
                + "END:VCARD\r\n")
        let four = try scratch.write(
            "in.vcf",
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN;PID=1.1:John Smith\r\nN;PID=1.1:Smith;John;;;\r\nORG;PID=1.1:Acme\r\n"
                + "EMAIL:john@x.com\r\nEND:VCARD\r\n")
        let merged = try ChildProcess.run(["merge", four, "--into", book])
        #expect(merged.status == 0)
        let text = String(decoding: try scratch.bytes("book.vcf"), as: UTF8.self)
        #expect(text.components(separatedBy: "\r\nFN").count == 2 && text.components(separatedBy: "\r\nN").count == 2)
        #expect(text.contains("ORG;PID=1.1:Acme\r\n"))
        let outlookBook = try scratch.write(
            "b2.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:John Smith\r\nTEL:+1 415 555 0101\r\nUID:b\r\nEND:VCARD\r\n")
        let outlook = try scratch.write(
            "o.vcf",
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN;LANGUAGE=en-us:Smith;John\r\nTEL;CELL;VOICE:+1 415 555 0101\r\n"
                + "END:VCARD\r\n")
        let second = try ChildProcess.run(["merge", outlook, "--into", outlookBook])
        #expect(second.stderr.contains("b2.vcf: 0 added, 1 merged"), "\(second.stderr)")
    }

    /// An Apple label whose labelled value the card had already (the same anniversary under another group) is
    /// not added naming nothing: the merge left `item4.X-ABLabel:Wedding` alone in its group. The report says
    /// the label was not taken.
    @Test func aLabelOfAValueTheCardHadIsNotLeftNamingNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = try scratch.write(
            "book.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jane Doe\r\nN:Doe;Jane;;;\r\nEMAIL:jane@example.com\r\nUID:j\r\n"
                + "item2.X-ABDATE:2010-06-12\r\nitem2.X-ABLabel:_$!<Anniversary>!$_\r\nEND:VCARD\r\n")
        let incoming = try scratch.write(
            "in.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jane Doe\r\nN:Doe;Jane;;;\r\nEMAIL:jane@example.com\r\n"
                + "item4.X-ABDATE:2010-06-12\r\nitem4.X-ABLabel:Wedding\r\nitem5.X-ABDATE:2015-01-01\r\n"
                + "item5.X-ABLabel:First job\r\nEND:VCARD\r\n")
        let outcome = try ChildProcess.run(["merge", incoming, "--into", book, "--json"])
        #expect(outcome.status == 0)
        let text = String(decoding: try scratch.bytes("book.vcf"), as: UTF8.self)
        #expect(!text.contains("Wedding"))
        #expect(text.hasSuffix("item5.X-ABDATE:2015-01-01\r\nitem5.X-ABLabel:First job\r\nEND:VCARD\r\n"), "\(text)")
        #expect(
            String(decoding: outcome.stdout, as: UTF8.self).contains(
                "\"action\" : \"kept\",\n          \"field\" : \"X-ABLabel\",\n          \"value\" : \"Wedding\""))
    }

    /// A key of incoming Contact JSON that the model has no place for is said by merge too: its value never
    /// reaches the book, which only the warning tells.
    @Test func anUnknownJSONKeyOfAnIncomingContactIsSaid() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("in.json", "[{\"formattedName\": \"Ann Lee\", \"phone\": \"+1 555 0100\"}]\n")
        let outcome = try ChildProcess.run(["merge", input, "--into", scratch("book.vcf")])
        #expect(outcome.status == 0)
        #expect(
            outcome.stderr.contains(
                "in.json:1:40: warning: \"phone\" is not a Contact JSON key; its value was left out [unknown-key]"))
        #expect(outcome.stderr.contains("book.vcf: 1 added"))
    }

    /// A file of broken cards has every one of them skipped, also past the hundredth report of their one problem,
    /// which the lexer then stops repeating (they were merged, their broken line lost without a word); the notes
    /// name the first hundred and count the rest (a file of a million broken cards printed a million notes), and
    /// `--json` lists them all.
    @Test func skippedCardsBeyondAHundredAreCountedNotNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let broken = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob Roe\r\nno colon\r\nEND:VCARD\r\n"
        let good = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nEMAIL:ann@example.com\r\nEND:VCARD\r\n"
        let input = try scratch.write("in.vcf", String(repeating: broken, count: 250) + good)
        let outcome = try ChildProcess.run(["merge", input, "--into", scratch("book.vcf")])
        #expect(outcome.status == 1)
        let notes = outcome.stderr.split(separator: "\n").filter {
            $0.hasSuffix(": note: the card has errors and was skipped")
        }
        #expect(notes.count == 100)
        #expect(notes.last?.hasSuffix("in.vcf:496: note: the card has errors and was skipped") == true)
        #expect(outcome.stderr.contains("\nnote: 150 more cards with errors were skipped; --json lists them all\n"))
        #expect(
            outcome.stderr.contains(
                "book.vcf: 1 added, 0 merged, 0 unchanged, 0 possible duplicates left alone, 250 skipped"))
        let json = try ChildProcess.run(["merge", input, "--into", scratch("other.vcf"), "--json"])
        let report = String(decoding: json.stdout, as: UTF8.self)
        #expect(report.components(separatedBy: "\"outcome\" : \"skipped\"").count - 1 == 250)
    }

    /// `dedupe -` reads standard input and writes the result to standard output; no file named `-` appears.
    @Test func dedupeOfStandardInputWritesStandardOutput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let twice = card("Ann Lee", uid: "ann", email: "ann@example.com") + card("Ann Lee", email: "ann@example.com")
        let input = try scratch.write("in.vcf", twice)
        let outcome = try ChildProcess.run(["dedupe", "-"], stdin: .file(input))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(formattedNames(outcome.stdout) == ["Ann Lee"])
        #expect(try scratch.names() == ["in.vcf"])
        #expect(!FileManager.default.fileExists(atPath: "-"))
        #expect(try ChildProcess.run(["dedupe", "-", "--backup"], stdin: .file(input)).status == 64)
    }

    /// An added card's UID is made from its content; when a card in the book already has that UID (it was given
    /// it from the same content before, in any case, with or without `urn:uuid:`), the added card gets another.
    @Test(arguments: [false, true]) func anAddedCardNeverTakesAUIDTheBookHas(upperCase: Bool) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let incoming = try scratch.write("in.vcf", card("Ann Lee", email: "ann@example.com"))
        let given = try ChildProcess.run(["convert", incoming, "--ensure-uid"])
        #expect(given.status == 0)
        let uids = String(decoding: given.stdout, as: UTF8.self).components(separatedBy: "\r\n")
            .filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        try #require(uids.count == 1 && uids[0].hasPrefix("urn:uuid:"))
        let taken = upperCase ? uids[0].dropFirst(9).uppercased() : uids[0]
        let book = try scratch.write("book.vcf", card("Bob Roe", uid: taken, email: "bob@example.com"))
        let outcome = try ChildProcess.run(["merge", incoming, "--into", book])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("1 added"), "\(outcome.stderr)")
        let cards = VCardDocument.read(try scratch.bytes("book.vcf")).cards.map(\.contact)
        #expect(cards.count == 2)
        let added = try #require(cards.last?.uid)
        #expect(added.hasPrefix("urn:uuid:") && added != uids[0], "\(added)")
        #expect(cards.first?.uid == taken)
    }
}
