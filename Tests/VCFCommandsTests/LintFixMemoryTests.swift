import Foundation
import Testing
import VCardLint

@testable import VCFCommands

/// `vcf lint --fix` of a large file as the binary runs it: into another file, to standard output and in place,
/// each the repair the library makes of the whole file, the file into another file in bounded memory.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"))
struct LintFixMemoryTests {
    /// 12,000 cards of about 1 KB (12 MB), every one without a UID (the repair makes one from its content),
    /// copies among them (each copy gets its own), a card whose UID is the one the first copy's content makes,
    /// quoted-printable values and cards without N. Repairing it whole held 190 MB (release build).
    static let cards = 12_000
    static let boundMB = 128.0

    static func card(_ person: Int) -> String {
        let note = String(repeating: "Met at the conference\\; likes long walks\\, chess and Swift. ", count: 12)
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(person)\r\n"
        if person % 3 != 0 { text += "N:Last\(person);First\(person);;;\r\n" }
        text += "EMAIL;TYPE=INTERNET,WORK:p\(person)@example.com\r\nTEL;TYPE=CELL:+1 555 \(person)\r\n"
        return text + "NOTE;ENCODING=QUOTED-PRINTABLE:caf=C3=A9 \(person)\r\nNOTE:\(note)\r\nEND:VCARD\r\n"
    }

    static func book() -> [UInt8] {
        var text = ""
        text.reserveCapacity(cards * 1_000)
        for index in 0..<cards { text += card(index % 100 == 7 ? 7 : index) }
        return Array(text.utf8)
    }

    @Test func aLargeFileIsRepairedInBoundedMemoryWhicheverWayItIsWritten() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var book = Self.book()
        // The UID the first copy's content makes (made from the content alone, whatever file holds the card).
        let alone = Linter.fix(Array(Self.card(7).utf8), file: "one.vcf")
        let made = try #require(alone.changes.first { $0.message.hasPrefix("added UID") }?.message)
        let uid = String(made.split(separator: " ")[2].dropLast())  // `urn:uuid:...,`
        book += Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Taken\r\nN:T;;;;\r\nUID:\(uid)\r\nEND:VCARD\r\n".utf8)
        let expected = Linter.fix(book, file: scratch("book.vcf"))
        #expect(!expected.changes.contains { $0.message.hasPrefix("added UID \(uid),") }, "a UID the file has")
        let input = scratch("book.vcf")
        try Data(book).write(to: URL(fileURLWithPath: input))
        let log = expected.changes.map { $0.description + "\n" }.joined()

        let toFile = try ChildProcess.run(
            ["lint", input, "--fix", "-o", scratch("fixed.vcf")].map { Array($0.utf8) }, measureMemory: true)
        #expect(toFile.status == (expected.remainingErrors > 0 ? 1 : 0), "\(toFile.stderr.suffix(300))")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch("fixed.vcf")))) == expected.bytes)
        #expect(toFile.stderr.hasPrefix(log))
        let peakMB = Double(try #require(toFile.peakKB, "GNU time did not measure")) / 1024
        #expect(peakMB < Self.boundMB, "lint --fix of \(Self.cards) cards: \(peakMB) MB peak")

        let toStdout = try ChildProcess.run(["lint", input, "--fix", "-o", "-"].map { Array($0.utf8) })
        #expect(toStdout.stdout == expected.bytes)
        #expect(toStdout.stderr == toFile.stderr)

        // A pipe named as a file (`<(cat book.vcf)`, /dev/stdin) cannot be read twice: it is read whole.
        let piped = try ChildProcess.start(
            ["lint", "/dev/stdin", "--fix", "-o", scratch("piped.vcf")].map { Array($0.utf8) }, stdin: .pipe)
        #expect(piped.feed(book))
        let pipedOutcome = piped.wait()
        #expect(pipedOutcome.status == toFile.status, "\(pipedOutcome.stderr.suffix(300))")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch("piped.vcf")))) == expected.bytes)

        let inPlace = try ChildProcess.run(["lint", input, "--fix", "-o", input].map { Array($0.utf8) })
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: input))) == expected.bytes)
        #expect(inPlace.stderr == toFile.stderr)
    }

    /// `lint --carddav` of the same file (its cards' UIDs made from their content, so copies share one) as a
    /// stream: the whole file's findings, duplicate UIDs across the whole file among them, with each UID's first
    /// line the only thing held per card. Read whole, it held every card lexed: 296 MB here (44 MB now).
    @Test func aLargeFileIsCheckedForCardDAVAsAStream() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = scratch("book.vcf")
        let fixed = Linter.fix(Self.book(), file: input).bytes
        try Data(fixed).write(to: URL(fileURLWithPath: input))
        let options = LintOptions(carddav: CardDAVServer())
        let expected = Linter.lint(fixed, file: input, options: options)
        #expect(expected.filter { $0.code == .cardDAVDuplicateUID }.isEmpty)
        // Every card again at the end: each a duplicate of its first.
        let doubled = fixed + fixed
        try Data(doubled).write(to: URL(fileURLWithPath: input))
        let whole = Linter.lint(doubled, file: input, options: options)
        #expect(whole.filter { $0.code == .cardDAVDuplicateUID }.count == Self.cards)
        let outcome = try ChildProcess.run(["lint", "--carddav", input].map { Array($0.utf8) }, measureMemory: true)
        #expect(outcome.status == (whole.contains { $0.severity == .error } ? 1 : 0))
        let printed = String(decoding: outcome.stdout, as: UTF8.self)
        #expect(printed == whole.map { LintFormat.line($0) + "\n" }.joined(), "\(printed.prefix(300))")
        let peakMB = Double(try #require(outcome.peakKB, "GNU time did not measure")) / 1024
        print("lint --carddav of \(2 * Self.cards) cards: \(String(format: "%.1f", peakMB)) MB peak")
        #expect(peakMB < Self.boundMB, "lint --carddav of \(2 * Self.cards) cards: \(peakMB) MB peak")
    }

    /// A card larger than the 32 MiB a repair in parts holds of one card (33 lines of 1 MiB), then a card to
    /// repair. Cut where the hold ran out, the repair wrote the first part as a card without END and removed the
    /// real END as one closing no card. The file is repaired whole instead (as a pipe is), so the large card is
    /// kept as written, END and all: from another file in UTF-16, and in place.
    @Test func aCardTooLargeToHoldIsKeptAsWritten() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let line = "NOTE:" + String(repeating: "x", count: 1 << 20) + "\r\n"
        let large =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Large\r\nN:Large;;;;\r\nUID:1\r\n"
            + String(repeating: line, count: 33) + "END:VCARD\r\n"
        let small = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Small One\r\nUID:2\r\nEND:VCARD\r\n"
        let repairedSmall = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Small One\r\nN:One;Small;;;\r\nUID:2\r\nEND:VCARD\r\n"
        let expected = Array((large + repairedSmall).utf8)

        let utf16 = scratch("utf16.vcf")
        try Data([0xFF, 0xFE] + Array((large + small).utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            .write(to: URL(fileURLWithPath: utf16))
        let fromUTF16 = try ChildProcess.run(
            ["lint", utf16, "--fix", "-o", scratch("fixed.vcf")].map { Array($0.utf8) })
        #expect(fromUTF16.status == 1, "\(fromUTF16.stderr.suffix(300))")
        #expect(fromUTF16.stderr.contains("[card-too-large]"))
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch("fixed.vcf")))) == expected)

        let inPlace = scratch("book.vcf")
        try Data((large + small).utf8).write(to: URL(fileURLWithPath: inPlace))
        let fixedInPlace = try ChildProcess.run(["lint", inPlace, "--fix", "-o", inPlace].map { Array($0.utf8) })
        #expect(fixedInPlace.status == 1, "\(fixedInPlace.stderr.suffix(300))")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: inPlace))) == expected)
    }
}
