import ContactMatching
import ContactModel

/// Copies of one card among the cards that met no candidate because every key of theirs is on more cards than its
/// cap (hundreds of copies of one card, from an export imported again and again): the blocking that keeps matching
/// linear compares none of them, so they are found by the fingerprint of their keys instead
/// (`MatchKeys.copyFingerprint`), and stay linear too.
enum CopyFinding {
    /// How many different cards under one fingerprint a card is compared with before it is left alone.
    static let comparedPerFingerprint = 8

    /// Calls `compare(earlier, node)` for the pairs to decide among `nodes` (in ascending order): each node with
    /// the first node of each different card seen under its fingerprint before it, until `compare` says the two
    /// are one person. A node one person with none of them stands for a different card from then on.
    static func pairs(among nodes: [Int], fingerprint: (Int) -> Int, compare: (Int, Int) -> Bool) {
        guard nodes.count > 1 else { return }
        var seen: [Int: [Int]] = [:]
        for node in nodes {
            let print = fingerprint(node)
            let earlier = seen[print] ?? []
            if earlier.contains(where: { compare($0, node) }) { continue }
            if earlier.count < comparedPerFingerprint { seen[print, default: []].append(node) }
        }
    }
}

extension ContactMerger {
    /// Whether `a` and `b` are copies of one card: merging either into the other changes nothing but the UID (an
    /// export imported again is given new UIDs). `ka` and `kb` are their keys, which rule out nearly every pair
    /// without merging the cards.
    func areCopies(_ a: @autoclosure () -> Contact, _ ka: MatchKeys, _ b: @autoclosure () -> Contact, _ kb: MatchKeys)
        -> Bool
    {
        guard ka.couldContain(kb, ignoringUID: true), kb.couldContain(ka, ignoringUID: true) else { return false }
        let (a, b) = (a(), b())
        return merge(a, into: b).changes.allSatisfy { $0.field == "UID" }
            && merge(b, into: a).changes.allSatisfy { $0.field == "UID" }
    }
}
