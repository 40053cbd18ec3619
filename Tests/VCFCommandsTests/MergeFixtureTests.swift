import Foundation
import TestSupport
import Testing
import VCFCommands

/// Every case in Fixtures/merge/: the decision for each incoming card must be the one `decisions.tsv` states
/// (written by hand from the rule), and the resulting file and report must equal the reviewed goldens
/// `expected.vcf` and `report.json`. Merging the same incoming file again must change nothing.
@Suite struct MergeFixtureTests {
    static let cases: [String] = {
        let root = FixturePaths.url("merge")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
    }()

    /// A moved or emptied fixture folder fails here instead of running the cases below zero times.
    @Test func fixturesArePresent() {
        #expect(Self.cases.count >= 70, "expected at least 70 cases in Fixtures/merge")
    }

    struct Decision: Equatable, CustomStringConvertible {
        var line: Int
        var outcome: String
        var existing: String
        var description: String { "\(line) \(outcome) \(existing)" }
    }

    @Test(arguments: cases)
    func mergeCase(_ name: String) throws {
        let dir = FixturePaths.url("merge/\(name)")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vcf-merge-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let contacts = work.appendingPathComponent("existing.vcf")
        try FileManager.default.copyItem(at: dir.appendingPathComponent("existing.vcf"), to: contacts)
        let incoming = dir.appendingPathComponent("incoming.vcf").path
        let args =
            (try? String(contentsOf: dir.appendingPathComponent("args"), encoding: .utf8))
            .map { $0.split(whereSeparator: \.isWhitespace).map(String.init) } ?? []

        let (io, out, _) = CommandIO.capturing()
        let code = VCFCommandLine.run(["merge", incoming, "--into", contacts.path, "--json"] + args, io: io)
        let reportText = String(decoding: out(), as: UTF8.self)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(out())) as? [String: Any])
        let cards = try #require(report["cards"] as? [[String: Any]])
        let actual = cards.map { card in
            Decision(
                line: card["line"] as? Int ?? 0,
                outcome: card["outcome"] as? String ?? "?",
                existing: ((card["existing"] as? [String: Any])?["line"] as? Int).map(String.init) ?? "-")
        }
        let expected = try String(contentsOf: dir.appendingPathComponent("decisions.tsv"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).dropFirst().map { row -> Decision in
                let f = row.split(separator: "\t").map(String.init)
                return Decision(
                    line: Int(f[0]) ?? 0, outcome: f[1],
                    existing: ["added", "skipped"].contains(f[1]) ? "-" : f[2])
            }
        #expect(actual == expected, "\(name): decisions")
        #expect(code == (expected.contains { $0.outcome == "skipped" } ? 1 : 0))
        let result = try [UInt8](Data(contentsOf: contacts))
        Golden.check(result, against: "merge/\(name)/expected.vcf")
        Golden.check(
            reportText.replacingOccurrences(of: contacts.path, with: "existing.vcf")
                .replacingOccurrences(of: incoming, with: "incoming.vcf"), against: "merge/\(name)/report.json")

        // Idempotent: the same incoming file again leaves the file byte for byte as it is.
        let again = VCFCommandLine.run(
            ["merge", incoming, "--into", contacts.path] + args, io: CommandIO.capturing().io)
        #expect(again == code)
        #expect(try [UInt8](Data(contentsOf: contacts)) == result, "\(name): a second merge changed the file")
    }

    /// The cards of a file as a sorted list of their texts.
    static func cardSet(_ text: String) -> [String] {
        text.components(separatedBy: "BEGIN:VCARD").filter { !$0.isEmpty }.sorted()
    }

    @Test(arguments: cases)
    func aDryRunWritesNothingAndTheIncomingOrderDoesNotMatter(_ name: String) throws {
        let dir = FixturePaths.url("merge/\(name)")
        let decisions = try String(contentsOf: dir.appendingPathComponent("decisions.tsv"), encoding: .utf8)
        guard !decisions.contains("skipped") else { return }  // unreadable cards cannot be reordered as text
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vcf-order-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let args =
            (try? String(contentsOf: dir.appendingPathComponent("args"), encoding: .utf8))
            .map { $0.split(whereSeparator: \.isWhitespace).map(String.init) } ?? []
        let existing = try Data(contentsOf: dir.appendingPathComponent("existing.vcf"))
        let contacts = work.appendingPathComponent("contacts.vcf")
        try existing.write(to: contacts)
        let incoming = dir.appendingPathComponent("incoming.vcf").path
        let dry = VCFCommandLine.run(
            ["merge", incoming, "--into", contacts.path, "-n"] + args, io: CommandIO.capturing().io)
        #expect(dry == 0)
        #expect(try Data(contentsOf: contacts) == existing, "a dry run changed the file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["contacts.vcf"])

        let text = try String(contentsOfFile: incoming, encoding: .utf8)
        let reversed = text.components(separatedBy: "BEGIN:VCARD").filter { !$0.isEmpty }.reversed()
            .map { "BEGIN:VCARD" + $0 }.joined()
        let reversedPath = work.appendingPathComponent("reversed.vcf")
        try reversed.write(to: reversedPath, atomically: false, encoding: .utf8)
        _ = VCFCommandLine.run(
            ["merge", reversedPath.path, "--into", contacts.path] + args, io: CommandIO.capturing().io)
        let expected = try String(contentsOf: dir.appendingPathComponent("expected.vcf"), encoding: .utf8)
        #expect(
            Self.cardSet(try String(contentsOf: contacts, encoding: .utf8)) == Self.cardSet(expected),
            "\(name): reversing the incoming cards changed the result")
    }
}
