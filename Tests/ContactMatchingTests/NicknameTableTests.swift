import Testing

@testable import ContactMatching

/// The nickname table's packed lookups against the same table looked up by `String` keys, as it was before it
/// was packed: every name in it, every pair of them, and names it must not hold (longer, not ASCII, a prefix).
@Suite struct NicknameTableTests {
    /// The table by `String`: each folded name to its groups, and the names known.
    struct Reference {
        var membership: [String: [Int]] = [:]

        init() {
            for (index, group) in Nicknames.groups.enumerated() {
                for name in group { membership[TextFolding.fold(name), default: []].append(index) }
            }
        }

        static func isASCII(_ name: String) -> Bool { name.utf8.allSatisfy { $0 < 0x80 } }

        func areEquivalent(_ a: String, _ b: String) -> Bool {
            guard Self.isASCII(a), Self.isASCII(b), let x = membership[a], let y = membership[b] else { return false }
            return x.contains { y.contains($0) }
        }

        func isKnown(_ name: String) -> Bool { Self.isASCII(name) && Nicknames.known.contains(name) }

        func root(_ name: String) -> String {
            guard Self.isASCII(name), let index = membership[name]?.first else { return name }
            return Nicknames.groups[index][0]
        }
    }

    static var names: [String] {
        var names = Set(Nicknames.known)
        for group in Nicknames.groups { names.formUnion(group.map(TextFolding.fold)) }
        return names.sorted()
    }

    @Test func everyNameAndEveryPairLookUpAsByString() {
        let reference = Reference()
        let names = Self.names
        #expect(names.count > 400)
        var equivalent = 0
        for a in names {
            #expect(Nicknames.isKnown(a) == reference.isKnown(a), "\(a)")
            #expect(Nicknames.root(a) == reference.root(a), "\(a)")
            for b in names where Nicknames.areEquivalent(a, b) != reference.areEquivalent(a, b) {
                Issue.record("\(a), \(b): \(Nicknames.areEquivalent(a, b))")
            }
            for b in names where reference.areEquivalent(a, b) { equivalent += 1 }
        }
        // Each name is its own equivalent when in a group, and groups share short forms (alex, chris, sam).
        #expect(equivalent > names.count)
    }

    @Test func namesTheTableDoesNotHold() {
        let reference = Reference()
        let others = [
            "", "r", "rob ", "robe", "roberto", "josé", "jose\u{301}", "bób", "christopherr", "christopherson",
            "abcdefghijklmno", "abcdefghijklmnop", "alexandra alexandra", "ann\u{0}", "\u{0}", "ROBERT", "ma", "mari",
            "李", "ведущий", "katherine katherine",
        ]
        for a in others {
            #expect(Nicknames.isKnown(a) == reference.isKnown(a), "\(a)")
            #expect(Nicknames.root(a) == reference.root(a), "\(a)")
            for b in Self.names + others {
                #expect(Nicknames.areEquivalent(a, b) == reference.areEquivalent(a, b), "\(a), \(b)")
                #expect(Nicknames.areEquivalent(b, a) == reference.areEquivalent(b, a), "\(b), \(a)")
            }
        }
        #expect(Nicknames.areEquivalent("jose", "pepe") && !Nicknames.areEquivalent("josé", "pepe"))
        #expect(Nicknames.root("bob") == "robert" && Nicknames.isKnown("anna") && !Nicknames.isKnown("annabel"))
    }
}
