import Foundation
import SyntheticBook
import TestSupport
import Testing

/// The promises of issue 18 item 6 and item 11 about `vcf merge` and `vcf dedupe`, kept by the built binary:
/// decisions against each card as it stands (the Ken Suzuki case), a result that does not depend on the order of
/// the incoming cards, a second run that changes nothing (byte for byte, "unchanged"), and linear work.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"))
struct MergeFixedPointTests {
    /// A scratch directory removed at the end of the test.
    final class Scratch {
        let dir: URL
        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-fixed-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: dir.appendingPathComponent(name))
        }
        func copy(fixture: String, to name: String) throws {
            try FileManager.default.copyItem(
                at: FixturePaths.url("merge-review/\(fixture)"), to: dir.appendingPathComponent(name))
        }
        func bytes(_ name: String) throws -> Data { try Data(contentsOf: dir.appendingPathComponent(name)) }
        deinit { try? FileManager.default.removeItem(at: dir) }
    }

    static func vcf(_ arguments: [String], stdin: String? = nil) throws -> (code: Int32, err: String) {
        let (code, _, err) = try ExecutableTests.run(arguments, stdin: stdin.map { Data($0.utf8) })
        return (code, err)
    }

    /// The cards of a file as a sorted list of their texts.
    static func cardSet(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).components(separatedBy: "BEGIN:VCARD").filter { !$0.isEmpty }.sorted()
    }

    @Test func twoKenSuzukisDoNotBothMergeIntoOneAndASecondRunChangesNothing() throws {
        let work = try Scratch()
        try work.copy(fixture: "ken-existing.vcf", to: "book.vcf")
        let incoming = FixturePaths.url("merge-review/ken-incoming.vcf").path
        let first = try Self.vcf(["merge", incoming, "--into", work.path("book.vcf")])
        #expect(first.code == 0)
        #expect(first.err.contains("2 added, 0 merged"), "\(first.err)")
        let once = try work.bytes("book.vcf")
        let text = String(decoding: once, as: UTF8.self)
        #expect(text.components(separatedBy: "BEGIN:VCARD").count - 1 == 3)
        // No card holds both people's mobiles.
        for card in text.components(separatedBy: "BEGIN:VCARD") {
            #expect(!(card.contains("1111 2222") && card.contains("3333 4444")), "two people's phones on one card")
        }
        let second = try Self.vcf(["merge", incoming, "--into", work.path("book.vcf")])
        #expect(second.code == 0)
        #expect(second.err.contains("0 added, 0 merged, 2 unchanged"), "\(second.err)")
        #expect(second.err.contains("; unchanged"), "\(second.err)")
        #expect(try work.bytes("book.vcf") == once, "the second merge changed the file")
    }

    @Test func theOrderOfIncomingCardsDoesNotChangeTheResult() throws {
        let work = try Scratch()
        try work.copy(fixture: "ken-existing.vcf", to: "a.vcf")
        try work.copy(fixture: "ken-existing.vcf", to: "b.vcf")
        let text = try String(contentsOf: FixturePaths.url("merge-review/ken-incoming.vcf"), encoding: .utf8)
        let cards = text.components(separatedBy: "BEGIN:VCARD").filter { !$0.isEmpty }
        // One more incoming card that is clearly the first Ken Suzuki (his email): it must join him either way.
        let third =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ken Suzuki\r\nEMAIL:ken.suzuki@umbrella.example\r\nNOTE:met in Osaka\r\nEND:VCARD\r\n"
        try work.write("forward.vcf", cards.map { "BEGIN:VCARD" + $0 }.joined() + third)
        try work.write("backward.vcf", third + cards.reversed().map { "BEGIN:VCARD" + $0 }.joined())
        #expect(try Self.vcf(["merge", work.path("forward.vcf"), "--into", work.path("a.vcf")]).code == 0)
        #expect(try Self.vcf(["merge", work.path("backward.vcf"), "--into", work.path("b.vcf")]).code == 0)
        #expect(Self.cardSet(try work.bytes("a.vcf")) == Self.cardSet(try work.bytes("b.vcf")))
        #expect(String(decoding: try work.bytes("a.vcf"), as: UTF8.self).contains("met in Osaka"))
    }

    /// A generated book concatenated with itself: one dedupe merges every copy, and a second merges nothing.
    @Test func dedupeOfABookConcatenatedWithItselfReachesAFixedPointInOneRun() throws {
        let book = SyntheticBook.generate(
            .init(seed: 11, existingPeople: 1_500, incomingDuplicates: 0, incomingNew: 0, traps: 0))
        let work = try Scratch()
        try work.write("twice.vcf", book.existing + book.existing)
        let first = try Self.vcf(["dedupe", work.path("twice.vcf"), "--country-code", "1"])
        #expect(first.code == 0)
        let once = try work.bytes("twice.vcf")
        let cards = String(decoding: once, as: UTF8.self).components(separatedBy: "BEGIN:VCARD").count - 1
        #expect(cards <= 1_500, "\(cards) cards left of 3,000: every copy must merge with its twin")
        let second = try Self.vcf(["dedupe", work.path("twice.vcf"), "--country-code", "1"])
        #expect(second.code == 0)
        #expect(second.err.contains(": 0 merged into other cards, "), "\(second.err)")
        #expect(second.err.contains("; unchanged"), "\(second.err)")
        #expect(try work.bytes("twice.vcf") == once, "a second dedupe changed the file")
    }

    /// The shared benchmark generator, when it is beside the repository.
    static let generator: URL? = {
        let shared =
            ProcessInfo.processInfo.environment["VCF_SHARED"].map { URL(fileURLWithPath: $0) }
            ?? FixturePaths.root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "shared")
        let script = shared.appendingPathComponent("bench/gen_corpus.py")
        return FileManager.default.fileExists(atPath: script.path) ? script : nil
    }()

    /// Makes `book.vcf` (20,000 generated cards) and `incoming.vcf` (4,000 cards, 800 of them re-exported
    /// duplicates of the book's) in `work`, as the bar describes.
    static func makeTwentyThousandBook(in work: Scratch) throws {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", Self.generator!.path, work.path("book.vcf"), "20000"]
        python.standardOutput = FileHandle.nullDevice
        try python.run()
        python.waitUntilExit()
        let incoming = Process()
        incoming.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        incoming.arguments = [
            "python3",
            FixturePaths.root.deletingLastPathComponent().appendingPathComponent("Scripts/make-merge-bench.py")
                .path, work.path("book.vcf"), Self.generator!.path, work.path("incoming.vcf"), "--count", "4000",
            "--duplicates", "800",
        ]
        incoming.standardOutput = FileHandle.nullDevice
        incoming.standardError = FileHandle.nullDevice
        try incoming.run()
        incoming.waitUntilExit()
        #expect(python.terminationStatus == 0 && incoming.terminationStatus == 0)
    }

    @Test(.enabled(if: generator != nil, "no shared/bench/gen_corpus.py (set VCF_SHARED)"))
    func aSecondMergeOfFourThousandIntoTwentyThousandIsUnchanged() throws {
        let work = try Scratch()
        try Self.makeTwentyThousandBook(in: work)
        let merge = ["merge", work.path("incoming.vcf"), "--into", work.path("book.vcf"), "--country-code", "1"]
        let first = try Self.vcf(merge)
        #expect(first.code == 0)
        let once = try work.bytes("book.vcf")
        let second = try Self.vcf(merge)
        #expect(second.err.contains("0 added, 0 merged, 4000 unchanged"), "\(second.err.prefix(300))")
        #expect(second.err.contains("; unchanged"))
        #expect(try work.bytes("book.vcf") == once, "the second merge changed the file")
    }

    /// The same book with its incoming cards appended, deduplicated: many namesakes at one company, some of them
    /// claimed equally by two others (found there: a second dedupe merged 7 more cards).
    @Test(.enabled(if: generator != nil, "no shared/bench/gen_corpus.py (set VCF_SHARED)"))
    func aSecondDedupeOfTwentyFourThousandCardsMergesNothing() throws {
        let work = try Scratch()
        try Self.makeTwentyThousandBook(in: work)
        try work.write(
            "both.vcf",
            String(decoding: try work.bytes("book.vcf") + work.bytes("incoming.vcf"), as: UTF8.self))
        let dedupe = ["dedupe", work.path("both.vcf"), "--country-code", "1"]
        let first = try Self.vcf(dedupe)
        #expect(first.code == 0)
        #expect(!first.err.contains(" 0 merged into other cards"), "\(first.err.prefix(300))")
        let once = try work.bytes("both.vcf")
        let second = try Self.vcf(dedupe)
        #expect(second.code == 0)
        #expect(
            second.err.contains(": 0 merged into other cards, ") && second.err.contains("; unchanged"),
            "\(second.err.prefix(300))")
        #expect(try work.bytes("both.vcf") == once, "a second dedupe changed the file")
    }

    /// A card claimed equally by two namesakes who are not one person is left alone while both claim it; when one
    /// of them turns out (joined by its UID to a copy with a mobile) to be someone else, the card is the other's.
    /// A second dedupe, which sees only the joined cards, must find nothing left to do.
    @Test func aCardNoLongerClaimedByAJoinedNamesakeIsDecidedInTheSameRun() throws {
        let work = try Scratch()
        try work.copy(fixture: "namesakes-claimant-joins.vcf", to: "book.vcf")
        let first = try Self.vcf(["dedupe", work.path("book.vcf"), "--country-code", "1"])
        #expect(first.code == 0)
        #expect(first.err.contains("2 merged into other cards"), "\(first.err)")
        let once = try work.bytes("book.vcf")
        let cards = String(decoding: once, as: UTF8.self).components(separatedBy: "BEGIN:VCARD").dropFirst()
        #expect(cards.count == 2)
        // The Engineering card's mobiles never meet the mobile of the R&D namesake with a birthday.
        for card in cards {
            #expect(!(card.contains("416-349-3450") && card.contains("000-0788")), "two people's mobiles on one card")
        }
        let second = try Self.vcf(["dedupe", work.path("book.vcf"), "--country-code", "1"])
        #expect(
            second.err.contains(": 0 merged into other cards, ") && second.err.contains("; unchanged"), "\(second.err)")
        #expect(try work.bytes("book.vcf") == once, "a second dedupe changed the file")
    }

    /// A card made by an earlier merge from several incoming cards holds each of them; merging the same cards again
    /// leaves it alone, even when those incoming cards, taken two by two, are not sure to be one person (found on
    /// a 100,000-card book: the second merge added them as possible duplicates).
    @Test func cardsAnEarlierMergeJoinedAreUnchangedTheSecondTime() throws {
        let work = try Scratch()
        try work.write(
            "book.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jing Chen\r\nN:Chen;Jing;;;\r\nORG:Hooli\r\n"
                + "EMAIL:jing.work@hooli.example\r\nEMAIL:jing.home@mail.example\r\nTEL;TYPE=CELL:+1 555 010 2000\r\n"
                + "UID:held-by-one\r\nEND:VCARD\r\n")
        try work.write(
            "incoming.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jing Chen\r\nN:Chen;Jing;;;\r\nORG:Hooli\r\n"
                + "EMAIL:jing.work@hooli.example\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jing Chen\r\nN:Chen;Jing;;;\r\nORG:Aperture\r\n"
                + "EMAIL:jing.home@mail.example\r\nTEL;TYPE=CELL:+1 555 010 2000\r\nEND:VCARD\r\n")
        let before = try work.bytes("book.vcf")
        let run = try Self.vcf(["merge", work.path("incoming.vcf"), "--into", work.path("book.vcf")])
        #expect(run.err.contains("0 added, 0 merged, 2 unchanged, 0 possible duplicates"), "\(run.err)")
        #expect(try work.bytes("book.vcf") == before)
    }

    /// Runs the built vcf under GNU time: its exit status, stderr and CPU seconds (user plus system). The bounds
    /// below are on CPU time, which other work on the machine does not stretch as it stretches the wall clock.
    static func timed(_ arguments: [String]) throws -> (code: Int32?, err: String, cpu: Double?) {
        let outcome = try ChildProcess.run(arguments, measureMemory: true)
        return (outcome.status, outcome.stderr, outcome.cpuSeconds)
    }

    /// The bar (5 s) is the tool's, a release build; the debug build the tests usually run is several times
    /// slower, so it gets three times the time. A quadratic merge took 35 s in a release build.
    static var cpuBar: Double { (builtBinary?.path.contains("/release/") ?? false) ? 5 : 15 }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs GNU time for CPU time"))
    func oneCardWithOneHundredThousandEmailsMergesInUnderFiveSeconds() throws {
        let work = try Scratch()
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Many Mails\r\nN:Mails;Many;;;\r\n"
        for i in 0..<100_000 { text += "EMAIL:user\(i)@example.com\r\n" }
        text += "END:VCARD\r\n"
        try work.write("many.vcf", text)
        let run = try Self.timed(["merge", work.path("many.vcf"), "--into", work.path("book.vcf")])
        #expect(run.code == 0)
        let cpu = try #require(run.cpu)
        #expect(cpu < Self.cpuBar, "\(cpu) s of CPU")
        // Merged into itself (every email compared with every email of the card): unchanged, and not quadratic.
        let second = try Self.timed(["merge", work.path("many.vcf"), "--into", work.path("book.vcf")])
        #expect(second.err.contains("1 unchanged") && second.err.contains("; unchanged"), "\(second.err)")
        let again = try #require(second.cpu)
        #expect(again < 2 * Self.cpuBar, "\(again) s of CPU")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs GNU time for CPU time"))
    func oneHundredThousandCardsWithoutFNMergeIntoAnEmptyFileInSeconds() throws {
        let work = try Scratch()
        var text = ""
        text.reserveCapacity(6_000_000)
        for i in 0..<100_000 {
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nTEL:+1 555 \(100 + i / 10_000) \(1000 + i % 10_000)\r\nEND:VCARD\r\n"
        }
        try work.write("nameless.vcf", text)
        let run = try Self.timed(["merge", work.path("nameless.vcf"), "--into", work.path("book.vcf")])
        #expect(run.code == 0)
        #expect(run.err.contains("100000 added"), "\(run.err.prefix(300))")
        let cpu = try #require(run.cpu)
        #expect(cpu < 2 * Self.cpuBar, "\(cpu) s of CPU")
    }
}
