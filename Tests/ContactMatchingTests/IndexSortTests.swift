import ContactModel
import Testing
import Utilities

@testable import ContactMatching

/// The index's radix sort gives the order of the standard sort, negative hashes included.
@Suite struct IndexSortTests {
    @Test(arguments: [0, 1, 255, 257, 10_000])
    func radixSortMatchesTheStandardSort(_ count: Int) {
        // Full-range values from a fixed linear congruential sequence (Knuth's MMIX constants; the high bits are
        // well mixed), and a run of near-equal ones that differ only in their low bits.
        var state = UInt64(count) + 1
        var values = (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(bitPattern: UInt(state))
        }
        values += (0..<(count / 4)).map { i in (Int.min + 5) | (i % 7) }
        values += [Int.max, Int.min, 0, -1]
        var sorted = values
        RadixSort.sort(&sorted)
        #expect(sorted == values.sorted())
    }

    /// Digits the same in every value are skipped, so the values end in either buffer: one varying digit (an odd
    /// number of passes), two, and the top one alone (positions, pair keys, hashes of one sign).
    @Test(arguments: [0xFFFF, 0xFFFF_FFFF, 0x7FFF << 48, -(1 << 20)])
    func radixSortSkipsDigitsTheValuesShare(_ mask: Int) {
        var state: UInt64 = 7
        let values = (0..<5_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(bitPattern: UInt(state)) & mask
        }
        var sorted = values
        RadixSort.sort(&sorted)
        #expect(sorted == values.sorted())
    }
}

/// An index updated with a few cards' new keys and some cards left out finds what an index built afresh over the
/// changed collection finds: the same candidates and the same counts (what `Matcher` decides with).
@Suite struct IndexUpdateTests {
    static func card(_ i: Int) -> Contact {
        // Few names and emails over many cards, so keys are shared several ways.
        Contact(
            formattedName: ["Ana Lima", "Bo Chen", "Cy Roe"][i % 3],
            organization: i % 2 == 0 ? Organization(name: "Initech") : nil,
            emails: [LabeledValue("user\(i % 7)@example.com")],
            phones: [LabeledValue("+1 555 010 \(1000 + i % 5)", types: ["CELL"])])
    }

    @Test func anUpdatedIndexFindsWhatAFreshIndexFinds() {
        let keys = (0..<40).map { MatchKeys(Self.card($0), countryCode: 1) }
        // Cards 3 and 10 take merged keys (a card of both their emails and a new one); 4, 11 and 25 are gone.
        var merged = Self.card(3)
        merged.emails += [LabeledValue("user3@example.com"), LabeledValue("new@example.com")]
        let replaced = [3: MatchKeys(merged, countryCode: 1), 10: MatchKeys(Self.card(17), countryCode: 1)]
        let removed = [4, 11, 25]
        let updated = ContactIndex(keys).updating(replaced, removing: removed)
        // Afresh: the cards that remain, in order, with their new keys; `positions` maps back.
        let positions = keys.indices.filter { !removed.contains($0) }
        let fresh = ContactIndex(positions.map { replaced[$0] ?? keys[$0] })
        #expect(updated.keys.count == keys.count)
        for (k, p) in positions.enumerated() {
            let probe = replaced[p] ?? keys[p]
            #expect(updated.candidates(for: probe) == fresh.candidates(for: probe).map { positions[$0] })
            #expect(updated.keys[p] === fresh.keys[k])
            for email in probe.emails {
                #expect(updated.cardCount(email: email) == fresh.cardCount(email: email))
            }
        }
        #expect(updated.cardCount(email: "new@example.com") == 1)
        #expect(updated.candidates(for: keys[4]).allSatisfy { !removed.contains($0) })
    }

    /// Over thousands of cards, with keys on more cards than their caps before or after the update, and an
    /// updated index updated again: the same candidates, the same keys skipped and the same counts as an index
    /// built afresh over the changed collection.
    @Test func anIndexUpdatedTwiceFindsWhatAFreshIndexFinds() {
        let count = 3_000
        func card(_ i: Int, _ salt: Int = 0) -> MatchKeys {
            MatchKeys(
                Contact(
                    formattedName: "Given\((i + salt) % 13) Family\((i + salt) % 11)",
                    emails: [LabeledValue("user\((i + salt) % 150)@example.com")],
                    phones: [LabeledValue("+1 555 \(100 + i % 40) \(1000 + (i + salt) % 700)", types: ["CELL"])]),
                countryCode: 1)
        }
        let keys = (0..<count).map { card($0) }
        var current = keys.map(Optional.some)
        var index = ContactIndex(keys)
        for round in 1...2 {
            var replaced: [Int: MatchKeys] = [:]
            for p in stride(from: round, to: count, by: 37) { replaced[p] = card(p, 500 * round) }
            let removed = Array(stride(from: round * 5, to: count, by: 23)).filter { replaced[$0] == nil }
            index = index.updating(replaced, removing: removed)
            for (p, k) in replaced { current[p] = k }
            for p in removed { current[p] = nil }
            let positions = current.indices.filter { current[$0] != nil }
            let fresh = ContactIndex(positions.map { current[$0]! })
            for (n, p) in positions.enumerated() where n % 7 == 0 {
                let probe = current[p]!
                var (cappedUpdated, cappedFresh) = (BlockingTally(), BlockingTally())
                var (allUpdated, allFresh) = (false, false)
                let found = index.candidates(for: probe, below: p, capped: &cappedUpdated, allCapped: &allUpdated)
                let expected = fresh.candidates(for: probe, below: n, capped: &cappedFresh, allCapped: &allFresh)
                #expect(found == expected.map { positions[$0] })
                #expect(cappedUpdated == cappedFresh)
                #expect(allUpdated == allFresh)
                for key in probe.indexKeys { #expect(index.cardCount(key) == fresh.cardCount(key)) }
                #expect(index.key(at: p) === probe)
            }
        }
    }

    /// An index appended to another finds what an index of both lists of keys finds, also when the two need
    /// more position bits together than the first alone (it is then built afresh).
    @Test(arguments: [(40, 9), (1_000, 20), (1_000, 24)])
    func anAppendedIndexFindsWhatAnIndexOfBothFinds(_ counts: (Int, Int)) {
        let first = (0..<counts.0).map { MatchKeys(Self.card($0), countryCode: 1) }
        let second = (0..<counts.1).map { MatchKeys(Self.card($0 * 3 + 1), countryCode: 1) }
        let appended = ContactIndex(first).appending(ContactIndex(second))
        let fresh = ContactIndex(first + second)
        #expect(appended.keys.count == first.count + second.count)
        for probe in first + second {
            #expect(appended.candidates(for: probe) == fresh.candidates(for: probe))
            #expect(appended.cardCount(email: probe.emails[0]) == fresh.cardCount(email: probe.emails[0]))
        }
        #expect(appended.keys[first.count] === second[0])
        let email = second[0].emails[0]
        #expect(appended.cardCount(email: email) == (first + second).filter { $0.emails.contains(email) }.count)
    }

    /// Lookups go through a directory of buckets, in an index sorted in halves and merged; over thousands of
    /// cards they find exactly what scanning every card's keys finds (the same keys, the same caps).
    @Test func lookupsFindWhatAScanOfEveryCardFinds() {
        let count = 9_000
        let keys = (0..<count).map { i in
            MatchKeys(
                Contact(
                    formattedName: "Given\(i % 97) Family\(i % 89)",
                    emails: [LabeledValue("user\(i % 1_201)@example.com")],
                    phones: [LabeledValue("+1 555 \(100 + i % 50) \(1000 + i % 3_001)", types: ["CELL"])]),
                countryCode: 1)
        }
        let index = ContactIndex(keys)
        let positionBits = Int.bitWidth - count.leadingZeroBitCount
        let mask = ~((1 << positionBits) - 1)
        var byHash: [Int: [Int]] = [:]
        for (position, k) in keys.enumerated() {
            for key in k.indexKeys { byHash[key.hash & mask, default: []].append(position) }
        }
        var compared = 0
        for probe in keys.prefix(600) {
            var expected = Set<Int>()
            for key in probe.indexKeys {
                let cards = byHash[key.hash & mask] ?? []
                if cards.count <= ContactIndex.cap(key.kind) { expected.formUnion(cards) }
            }
            #expect(index.candidates(for: probe) == expected.sorted())
            #expect(
                index.cardCount(email: probe.emails[0]) == byHash[IndexKey(.email, probe.emails[0]).hash & mask]?.count)
            compared += 1
        }
        #expect(compared == 600)
        #expect(index.cardCount(email: "nobody@example.com") == 0)
    }
}
