import Foundation
import Testing

/// vdir folders of many files as the binary reads and writes them: `vcf convert BOOK --to-vdir DIR` in memory
/// that does not grow with the cards written, a card given twice under one UID compared with the file the first
/// one became, and a folder read for a merge holding each card's keys and place, not the card.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"))
struct VdirMemoryTests {
    /// 1,500 cards of about 40 KB (60 MB). Each card written used to be kept, read back whole, to compare a
    /// later card with its UID against: 1,500 of these held about 60 MB more than the first.
    static let cards = 1_500
    static let boundMB = 96.0

    static func card(_ person: Int, extra: String = "") -> String {
        let note = String(
            repeating: "Met at the conference\\; likes long walks\\, chess and Swift. \(person) ", count: 600)
        return "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:person-\(person)\r\nFN:Person \(person)\r\nN:P\(person);Ann;;;\r\n"
            + "EMAIL;TYPE=INTERNET:p\(person)@example.com\r\n\(extra)NOTE:\(note)\r\nEND:VCARD\r\n"
    }

    /// 6,000 one-card files (4 MB). Each card was kept lexed and read whole beside its keys: 93 MB with the
    /// debug build, now 51 MB.
    @Test func aFolderReadForAMergeHoldsTheKeysNotTheCards() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = scratch("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for person in 0..<6_000 {
            let card =
                "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:person-\(person)\r\nFN:Ann\(person) Lee\r\nN:Lee;Ann\(person);;;\r\n"
                + "EMAIL:p\(person)@example.com\r\nNOTE:\(String(repeating: "Met at the conference. ", count: 20))\r\n"
                + "END:VCARD\r\n"
            try Data(card.utf8).write(to: URL(fileURLWithPath: "\(folder)/person-\(person).vcf"))
        }
        // Two files of one person: the dry run finds them, whatever else it holds.
        try Data(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:again-7\r\nFN:Ann7 Lee\r\nN:Lee;Ann7;;;\r\nEMAIL:p7@example.com\r\nEND:VCARD\r\n"
                .utf8
        ).write(to: URL(fileURLWithPath: "\(folder)/again-7.vcf"))
        let outcome = try ChildProcess.run(["dedupe", folder, "-n"].map { Array($0.utf8) }, measureMemory: true)
        #expect(outcome.status == 0, "\(outcome.stderr.suffix(300))")
        #expect(
            outcome.stderr.hasSuffix(
                "\(folder): 1 merged into other cards, 0 possible duplicates left alone; would write 2 files (dry run)\n"
            ),
            "\(outcome.stderr.suffix(300))")
        let peakMB = Double(try #require(outcome.peakKB, "GNU time did not measure")) / 1024
        print("dedupe -n of a folder of 6,001 files: \(String(format: "%.1f", peakMB)) MB peak, bound 72 MB")
        #expect(peakMB < 72, "dedupe -n of 6,001 files: \(peakMB) MB peak")
    }

    @Test func aLargeBookGoesIntoAFolderInBoundedMemoryAndRepeatsAreComparedWithTheirFiles() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var text = ""
        for person in 0..<Self.cards { text += Self.card(person) }
        // Given again: unchanged (nothing to add), and with an email the file lacks (reported, not written).
        // Each card is eight lines; with the extra line, nine.
        var lines = 8 * Self.cards + 1
        var differing: [Int] = []
        for person in [3, 700, 1_499] { text += Self.card(person) }
        lines += 3 * 8
        for person in [5, 1_000] {
            differing.append(lines)
            text += Self.card(person, extra: "EMAIL:second\(person)@example.org\r\n")
            lines += 9
        }
        let input = scratch("book.vcf")
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let folder = scratch("folder")

        let outcome = try ChildProcess.run(
            ["convert", input, "--to-vdir", folder].map { Array($0.utf8) }, measureMemory: true)
        #expect(outcome.status == 0, "\(outcome.stderr.suffix(300))")
        let messages = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(messages.last == "\(folder): \(Self.cards) cards written, 5 already there (2 differing)")
        #expect(
            messages.dropLast()
                == differing.map { line in
                    let person = line == differing[0] ? 5 : 1_000
                    return
                        "\(input):\(line): warning: Person \(person) is already in \(folder) under its UID, and the card "
                        + "there lacks some of this one's data (changed there since, or rewritten by the server when "
                        + "stored); left as it is (vcf merge merges them)"
                })
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".vcf") }
        #expect(Set(files) == Set((0..<Self.cards).map { "person-\($0).vcf" }))
        // Each file is its card as written, the first of those with its UID.
        let first = try String(contentsOfFile: "\(folder)/person-5.vcf", encoding: .utf8)
        #expect(first.contains("UID:person-5\r\n") && !first.contains("second5@"))
        let peakMB = Double(try #require(outcome.peakKB, "GNU time did not measure")) / 1024
        print(
            "convert --to-vdir of \(Self.cards) cards: \(String(format: "%.1f", peakMB)) MB peak, bound \(Self.boundMB) MB"
        )
        #expect(peakMB < Self.boundMB, "convert --to-vdir of \(Self.cards) cards: \(peakMB) MB peak")
    }
}
