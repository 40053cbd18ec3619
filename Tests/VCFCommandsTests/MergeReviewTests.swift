import Foundation
import TestSupport
import Testing

/// `--review` and `--accept` as people and scripts use them: answers from a pipe, one a line; quitting part-way;
/// a second run that does not ask again what was answered; decisions kept beside the file; and the real terminal
/// (tmux), where each answer is one key.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"))
struct MergeReviewTests {
    typealias Scratch = MergeFixedPointTests.Scratch

    static func vcf(_ arguments: [String], stdin: String = "") throws -> (code: Int32, err: String) {
        let (code, _, err) = try ExecutableTests.run(arguments, stdin: Data(stdin.utf8))
        return (code, err)
    }

    static func cards(_ data: Data) -> Int {
        String(decoding: data, as: UTF8.self).components(separatedBy: "BEGIN:VCARD").count - 1
    }

    /// The book: two Ana Limas (one with a home, one with an employer) and two Peter Brandts (one with a
    /// birthday, one with an email): two possible duplicates, the Ana Limas first.
    static func book() throws -> Scratch {
        let work = try Scratch()
        try work.copy(fixture: "review-book.vcf", to: "book.vcf")
        return work
    }

    @Test func answersFromAPipeMergeOneKeepTheOtherApartAndAreNotAskedAgain() throws {
        let work = try Self.book()
        let first = try Self.vcf(["dedupe", work.path("book.vcf"), "--review"], stdin: "m\nk\n")
        #expect(first.code == 0)
        #expect(first.err.contains("possible duplicate 1 of 2") && first.err.contains("possible duplicate 2 of 2"))
        #expect(first.err.contains("* ORG"), "differing fields are marked: \(first.err)")
        let once = try work.bytes("book.vcf")
        #expect(Self.cards(once) == 3)
        let merged = String(decoding: once, as: UTF8.self)
        #expect(merged.contains("Farol Lda") && merged.contains("Rua Augusta"))
        let decisions = String(decoding: try work.bytes("book.vcf.decisions"), as: UTF8.self)
        #expect(decisions.split(separator: "\n").filter { $0.hasPrefix("keep-apart\t") }.count == 1)
        // The Peter Brandts had no UID: each got the name-based UUID of its content, so the decision names them.
        #expect(merged.components(separatedBy: "UID:urn:uuid:").count - 1 == 2)

        let second = try Self.vcf(["dedupe", work.path("book.vcf"), "--review"])
        #expect(second.code == 0)
        #expect(!second.err.contains("possible duplicate 1 of"), "asked again: \(second.err)")
        #expect(second.err.contains("; unchanged"))
        #expect(try work.bytes("book.vcf") == once)
    }

    @Test func quittingPartWayKeepsTheAnswersSoFarAndAsksTheRestNextTime() throws {
        let work = try Self.book()
        let first = try Self.vcf(["dedupe", work.path("book.vcf"), "--review"], stdin: "k\nq\n")
        #expect(first.code == 0)
        #expect(first.err.contains("review: 1 of 2"), "\(first.err)")
        #expect(Self.cards(try work.bytes("book.vcf")) == 4)
        // Only the one not answered is asked again; the end of the input counts as quit.
        let second = try Self.vcf(["dedupe", work.path("book.vcf"), "--review"], stdin: "")
        #expect(second.err.contains("Peter Brandt") && !second.err.contains("Ana Lima  "), "\(second.err)")
        #expect(second.err.contains("possible duplicate 1 of 1"), "\(second.err)")
        let third = try Self.vcf(["dedupe", work.path("book.vcf"), "--review"], stdin: "merge\n")
        #expect(third.code == 0)
        #expect(Self.cards(try work.bytes("book.vcf")) == 3)
        let fourth = try Self.vcf(["dedupe", work.path("book.vcf"), "--review"], stdin: "m\n")
        #expect(!fourth.err.contains("possible duplicate 1 of"), "\(fourth.err)")
    }

    @Test func anUnknownAnswerIsAskedAgain() throws {
        let work = try Self.book()
        let run = try Self.vcf(["dedupe", work.path("book.vcf"), "--review"], stdin: "maybe\ns\ns\n")
        #expect(run.err.contains("not an answer: maybe"))
        #expect(run.err.contains("review: 2 of 2"), "\(run.err)")
        #expect(Self.cards(try work.bytes("book.vcf")) == 4)
    }

    @Test func mergeReviewMergesAnIncomingCardAndASecondRunIsUnchanged() throws {
        let work = try Scratch()
        try work.copy(fixture: "ken-existing.vcf", to: "book.vcf")
        let incoming = FixturePaths.url("merge-review/ken-incoming.vcf").path
        // The two Ken Suzukis claim the one without birthday equally: both are asked; merge the first.
        let first = try Self.vcf(["merge", incoming, "--into", work.path("book.vcf"), "--review"], stdin: "m\nk\n")
        #expect(first.code == 0)
        #expect(first.err.contains("possible duplicate 2 of 2"), "\(first.err)")
        let once = try work.bytes("book.vcf")
        #expect(Self.cards(once) == 2)
        let second = try Self.vcf(["merge", incoming, "--into", work.path("book.vcf"), "--review"])
        #expect(!second.err.contains("possible duplicate 1 of"), "\(second.err)")
        #expect(second.err.contains("; unchanged"), "\(second.err)")
        #expect(try work.bytes("book.vcf") == once)
    }

    /// An incoming card on its own, kept apart from the existing card it may duplicate: both get the name-based
    /// UUID of their content so the decision can name them, the incoming card is added with its UID, and a
    /// second run neither asks again nor changes the file.
    @Test func mergeReviewKeepsALoneIncomingCardApartWithUIDs() throws {
        let work = try Scratch()
        try work.write(
            "book.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Peter Brandt\r\nN:Brandt;Peter;;;\r\nBDAY:1970-02-03\r\nEND:VCARD\r\n")
        try work.write(
            "in.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Peter Brandt\r\nN:Brandt;Peter;;;\r\n"
                + "EMAIL;TYPE=HOME:peter@brandt.example\r\nEND:VCARD\r\n")
        let first = try Self.vcf(
            ["merge", work.path("in.vcf"), "--into", work.path("book.vcf"), "--review"], stdin: "k\n")
        #expect(first.code == 0)
        #expect(first.err.contains("possible duplicate 1 of 1"), "\(first.err)")
        let once = String(decoding: try work.bytes("book.vcf"), as: UTF8.self)
        #expect(Self.cards(Data(once.utf8)) == 2)
        #expect(once.components(separatedBy: "UID:urn:uuid:").count - 1 == 2, "\(once)")
        #expect(once.contains("peter@brandt.example") && once.contains("BDAY:1970-02-03"))
        let decisions = String(decoding: try work.bytes("book.vcf.decisions"), as: UTF8.self)
        #expect(decisions.split(separator: "\n").filter { $0.hasPrefix("keep-apart\t") }.count == 1)
        let second = try Self.vcf(["merge", work.path("in.vcf"), "--into", work.path("book.vcf"), "--review"])
        #expect(second.code == 0)
        #expect(!second.err.contains("possible duplicate 1 of"), "asked again: \(second.err)")
        #expect(try work.bytes("book.vcf") == Data(once.utf8))
    }

    @Test func acceptAppliesThePairsOfTheJSONReport() throws {
        let work = try Self.book()
        let (code, out, _) = try ExecutableTests.run(["dedupe", work.path("book.vcf"), "--json", "-n"])
        #expect(code == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: out) as? [String: Any])
        let pairs = try #require(report["possibleDuplicates"] as? [[String: Any]])
        #expect(pairs.count == 2)
        for pair in pairs {
            let first = try #require(pair["first"] as? [String: Any])
            #expect(first["line"] is Int && first["uid"] is String && first["file"] is String)
        }
        // Keep only the Peter Brandts, as a person editing the report would.
        let kept = pairs.filter { ($0["first"] as? [String: Any])?["name"] as? String == "Peter Brandt" }
        try JSONSerialization.data(withJSONObject: ["possibleDuplicates": kept]).write(
            to: URL(fileURLWithPath: work.path("accept.json")))
        let run = try Self.vcf(["dedupe", work.path("book.vcf"), "--accept", work.path("accept.json")])
        #expect(run.code == 0)
        let text = String(decoding: try work.bytes("book.vcf"), as: UTF8.self)
        #expect(Self.cards(Data(text.utf8)) == 3)
        #expect(text.contains("peter@brandt.example") && text.contains("1970-02-03"))
    }

    /// The review in a real terminal: tmux runs it, keys are sent one at a time (no Enter), the screen is read.
    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func reviewInARealTerminal() throws {
        let work = try Self.book()
        // A server of its own, on a socket in the scratch directory: no other tmux is touched.
        let tmux = Self.tmux!
        let socket = work.path("tmux.sock")
        let command = "\(builtBinary!.path) dedupe \(work.path("book.vcf")) --review; echo EXIT=$?; sleep 30"
        _ = QRReader.runLeavingDaemon(
            tmux,
            ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "review", "-x", "120", "-y", "40", command])
        defer { _ = QRReader.runLeavingDaemon(tmux, ["-S", socket, "kill-server"]) }
        func screen() throws -> String {
            String(
                decoding: try QRReader.run(tmux, ["-S", socket, "capture-pane", "-p", "-t", "review"]).out,
                as: UTF8.self)
        }
        func waitFor(_ text: String) throws -> Bool {
            for _ in 0..<100 {
                if try screen().contains(text) { return true }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return false
        }
        #expect(try waitFor("possible duplicate 1 of 2"))
        _ = try QRReader.run(tmux, ["-S", socket, "send-keys", "-t", "review", "m"])
        #expect(try waitFor("possible duplicate 2 of 2"))
        let shown = try screen()
        #expect(shown.contains("Peter Brandt") && shown.contains("* BDAY"), "\(shown)")
        _ = try QRReader.run(tmux, ["-S", socket, "send-keys", "-t", "review", "k"])
        #expect(try waitFor("EXIT=0"))
        #expect(Self.cards(try work.bytes("book.vcf")) == 3)
        #expect(FileManager.default.fileExists(atPath: work.path("book.vcf.decisions")))
    }

    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}
