import ContactMatching
import ContactModel
import Foundation
import SyntheticBook
import TestSupport
import Testing
import VCardFormat

/// The verdict the planner reads for every candidate pair (`Matcher.verdict`) against the decision a report shows
/// for it (`Matcher.decide`): both come from one rule, through different recorders, and must agree on the kind,
/// the rule, the strength and the rank of every pair a merge or a dedupe decides, on real cards. Of a different
/// pair the verdict's score may stop short, so its strength and rank are only below a possible duplicate's.
@Suite struct VerdictAgreementTests {
    /// What a run of pairs found.
    struct Tally {
        var pairs = 0
        var disagreements: [String] = []
        var kinds: [MatchDecision.Kind: Int] = [:]
        var rules: Set<String> = []
        /// Different pairs whose verdict stopped scoring before the decision did.
        var stoppedShort = 0

        mutating func check(_ matcher: Matcher, _ a: MatchKeys, _ b: MatchKeys, _ label: @autoclosure () -> String) {
            let decision = matcher.decide(a, b)
            let verdict = matcher.verdict(a, b)
            let expected = MatchVerdict(
                kind: decision.kind, rule: decision.rule, strength: decision.strength, rank: decision.rank,
                sharedIdentifiers: decision.evidence.count(where: \.isIdentifier))
            pairs += 1
            kinds[decision.kind, default: 0] += 1
            rules.insert(decision.rule)
            if decision.kind == .different {
                let agrees =
                    verdict.kind == .different && verdict.rule == decision.rule
                    && verdict.sharedIdentifiers == expected.sharedIdentifiers
                    && verdict.rank < Scoring.possibleThreshold
                if verdict.strength != decision.strength || verdict.rank != decision.rank { stoppedShort += 1 }
                if !agrees, disagreements.count < 10 {
                    disagreements.append(
                        "\(label()): verdict \(verdict), decision \(expected) (\(decision.explanation))")
                }
            } else if verdict != expected, disagreements.count < 10 {
                disagreements.append("\(label()): verdict \(verdict), decision \(expected) (\(decision.explanation))")
            }
        }
    }

    /// Every candidate pair the planner decides when `incoming` is merged into `existing` (each incoming card
    /// against the existing cards, then against the incoming cards before it), and when both are deduplicated
    /// as one book, with the matchers the planner makes.
    static func checkEveryPair(existing: [Contact], incoming: [Contact], code: Int?, into tally: inout Tally) {
        let existingKeys = existing.map { MatchKeys($0, countryCode: code) }
        let incomingKeys = incoming.map { MatchKeys($0, countryCode: code) }
        let existingMatcher = Matcher(index: ContactIndex(existingKeys))
        let incomingMatcher = Matcher(
            index: ContactIndex(incomingKeys), sharedAbove: 2, alsoCounting: existingMatcher.index)
        for (i, mine) in incomingKeys.enumerated() {
            for p in existingMatcher.index.candidates(for: mine) {
                tally.check(existingMatcher, mine, existingKeys[p], "incoming \(i), existing \(p)")
            }
            for j in incomingMatcher.index.candidates(for: mine) where j < i {
                tally.check(incomingMatcher, mine, incomingKeys[j], "incoming \(i), incoming \(j)")
            }
        }
        let all = existingKeys + incomingKeys
        let dedupe = Matcher(index: ContactIndex(all), sharedAbove: 2)
        for (i, mine) in all.enumerated() {
            for j in dedupe.index.candidates(for: mine) where j < i {
                tally.check(dedupe, mine, all[j], "dedupe \(i), \(j)")
            }
        }
    }

    static func cards(_ bytes: [UInt8]) -> [Contact] { VCardDocument.read(bytes).cards.map(\.contact) }

    @Test func everyPairOfTheMergeFixtures() throws {
        let root = FixturePaths.url("merge")
        let cases = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(cases.count >= 70)
        var tally = Tally()
        for name in cases {
            let existing = try FixturePaths.bytes("merge/\(name)/existing.vcf")
            let incoming = (try? FixturePaths.bytes("merge/\(name)/incoming.vcf")) ?? []
            Self.checkEveryPair(
                existing: Self.cards(existing), incoming: Self.cards(incoming), code: 1, into: &tally)
        }
        for name in ["ken-existing.vcf", "ken-incoming.vcf", "namesakes-claimant-joins.vcf", "review-book.vcf"] {
            let cards = Self.cards(try FixturePaths.bytes("merge-review/\(name)"))
            Self.checkEveryPair(existing: cards, incoming: cards, code: nil, into: &tally)
        }
        #expect(tally.disagreements.isEmpty, "\(tally.disagreements)")
        // The fixtures are the rule's known cases: each rule that joins or reports decides some pair of them.
        #expect(tally.rules.isSuperset(of: ["uid", "identifier+name", "name+organisation", "score", "weak"]))
        #expect(tally.pairs > 200)
    }

    @Test func everyPairOfAGeneratedBook() {
        let book = SyntheticBook.generate(
            .init(
                seed: 11, existingPeople: 1_500, incomingDuplicates: 400, incomingNew: 200, traps: 200,
                unlinkedDuplicates: 200, unlinkedTraps: 200))
        var tally = Tally()
        Self.checkEveryPair(
            existing: Self.cards(Array(book.existing.utf8)), incoming: Self.cards(Array(book.incoming.utf8)),
            code: 1, into: &tally)
        #expect(tally.disagreements.isEmpty, "\(tally.disagreements)")
        #expect(tally.pairs > 10_000)
        #expect(tally.kinds.count == 3)
        #expect(tally.rules.isSuperset(of: ["identifier+name", "score", "weak", "none"]))
        // Namesakes and families at one address: the verdict stops at their birthdays.
        #expect(tally.stoppedShort > 100)
    }

    /// Real cards from other projects' test suites (`VCF_CORPUS`), every file's cards as one book.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["VCF_CORPUS"] != nil, "VCF_CORPUS is not set"))
    func everyPairOfTheCorpus() throws {
        let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["VCF_CORPUS"] ?? "")
        let manifest = try String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        var cards: [Contact] = []
        for line in manifest.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count >= 3 else { continue }
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(String(columns[2]))))
            cards += Self.cards(bytes)
        }
        #expect(cards.count > 500)
        var tally = Tally()
        // Half the cards as a book, the other half merged into it, and all of them deduplicated.
        let half = cards.count / 2
        Self.checkEveryPair(
            existing: Array(cards[..<half]), incoming: Array(cards[half...]), code: nil, into: &tally)
        #expect(tally.disagreements.isEmpty, "\(tally.disagreements)")
        #expect(tally.pairs > 1_000)
        print("verdicts agree with decisions on \(tally.pairs) corpus pairs: \(tally.kinds)")
    }
}
