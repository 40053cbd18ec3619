import ContactModel
import Foundation
import SyntheticBook
import TestSupport
import Testing
import VCardFormat

@testable import ContactMatching

/// The shortcuts planning takes against the long way round, on generated and real cards: each must give exactly
/// what the long way gives.
@Suite struct PlanningShortcutTests {
    /// A generated book with every kind of trap, existing and incoming cards together (4,000 cards).
    static let book: [Contact] = {
        let book = SyntheticBook.generate(
            .init(
                seed: 23, existingPeople: 2_500, incomingDuplicates: 600, incomingNew: 300, traps: 300,
                unlinkedDuplicates: 300, unlinkedTraps: 300))
        return VCardDocument.read(Array((book.existing + book.incoming).utf8)).cards.map(\.contact)
    }()

    /// The merge-review fixtures, whose namesakes and claimants leave nodes ambiguous for several passes.
    static func reviewFixtures() throws -> [[Contact]] {
        try ["ken-existing.vcf", "ken-incoming.vcf", "namesakes-claimant-joins.vcf", "review-book.vcf"].map {
            VCardDocument.read(try FixturePaths.bytes("merge-review/\($0)")).cards.map(\.contact)
        }
    }

    // MARK: Candidates below a position

    /// `candidates(for:below:capped:)` is `candidates(for:capped:)` without the positions at or above the limit,
    /// and counts the same skipped keys.
    @Test func candidatesBelowAPositionAreTheCandidatesBelowIt() {
        let keys = Self.book.map { MatchKeys($0, countryCode: 1) }
        let index = ContactIndex(keys)
        var compared = 0
        var capped = 0
        for (i, probe) in keys.enumerated() {
            var all = BlockingTally()
            var below = BlockingTally()
            let candidates = index.candidates(for: probe, capped: &all)
            #expect(index.candidates(for: probe, below: i, capped: &below) == candidates.filter { $0 < i })
            #expect(below == all)
            #expect(candidates == Array(Set(candidates)).sorted())
            compared += candidates.count
            capped += all.count
        }
        #expect(compared > 10_000)
        #expect(capped > 0)
    }

    // MARK: Typos ruled out by their letters

    /// The texts the score compares for typos: every given name, family name and street of the book, and each
    /// with one letter changed, dropped, doubled or swapped with the next (the typos the bound must let through).
    static func texts(_ cards: [Contact]) -> [String] {
        var texts = Set<String>()
        for card in cards {
            let keys = MatchKeys(card, countryCode: 1)
            for text in [keys.name?.given, keys.name?.family] + keys.addresses.map(\.street) {
                guard let text, !text.isEmpty else { continue }
                texts.insert(text)
                let scalars = Array(text.unicodeScalars)
                for i in scalars.indices where i % 3 == 0 {
                    var changed = scalars
                    changed[i] = "x"
                    var dropped = scalars
                    dropped.remove(at: i)
                    var doubled = scalars
                    doubled.insert(scalars[i], at: i)
                    var swapped = scalars
                    if i + 1 < scalars.count { swapped.swapAt(i, i + 1) }
                    for variant in [changed, dropped, doubled, swapped] {
                        var s = ""
                        s.unicodeScalars.append(contentsOf: variant)
                        if !s.isEmpty { texts.insert(s) }
                    }
                }
            }
        }
        return texts.sorted()
    }

    /// `Scoring.typo` is Jaro-Winkler at or above the threshold, and the bound ahead of it never rules out a
    /// pair that reaches it: over every pair of texts sharing a first letter (the pairs a typo makes), and every
    /// pair of a sample of the rest.
    @Test func theTypoBoundRulesOutNoTypo() throws {
        var cards = Self.book
        for fixture in try Self.reviewFixtures() { cards += fixture }
        let texts = Self.texts(cards)
        #expect(texts.count > 5_000)
        var pairs = 0
        var ruledOut = 0
        var typos = 0
        func check(_ a: String, _ b: String) {
            let similarity = Similarity.jaroWinkler(a, b)
            let expected = similarity >= Scoring.similarity ? similarity : nil
            #expect(Scoring.typo(a, b) == expected, "\(a) / \(b)")
            if !Scoring.mayBeTypo(a, b) {
                ruledOut += 1
                #expect(similarity < Scoring.similarity, "\(a) / \(b) ruled out at \(similarity)")
            }
            if expected != nil { typos += 1 }
            pairs += 1
        }
        let byFirst = Dictionary(grouping: texts) { $0.unicodeScalars.first! }
        for group in byFirst.values {
            for (i, a) in group.enumerated() {
                for b in group[(i + 1)...].prefix(40) where a != b { check(a, b) }
            }
        }
        for (i, a) in texts.enumerated() where i % 7 == 0 {
            for b in texts[(i + 1)...].prefix(30) where a != b { check(a, b) }
        }
        #expect(pairs > 100_000)
        #expect(ruledOut > pairs / 4)
        #expect(typos > 1_000)
    }
}
