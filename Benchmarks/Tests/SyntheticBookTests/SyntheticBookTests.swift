import ContactMatching
import ContactModel
import SyntheticBook
import Testing
import VCardFormat

/// The labelled generator itself: its bytes stay pinned, and unlinked duplicates share no identifier with their
/// existing card yet carry what a name, address and birthday matcher needs, with the slips it must survive.
@Suite struct SyntheticBookTests {
    /// FNV-1a 64 over the UTF-8 of both books: a digest of our own, as `Hasher` is seeded per process.
    static func digest(_ book: SyntheticBook) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in book.existing.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        for byte in book.incoming.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// Recorded before unlinked duplicates existed: without them the generator must write the very same bytes,
    /// so merge figures measured on older books stay comparable.
    @Test func bytesWithoutUnlinkedDuplicatesAreUnchanged() {
        let book = SyntheticBook.generate(
            .init(
                seed: 3, existingPeople: 600, incomingDuplicates: 120, incomingNew: 60,
                traps: 30))
        #expect(Self.digest(book) == 0x2327_2B33_AC64_5D72)
    }

    @Test func sameOptionsGiveSameBytes() {
        let options = SyntheticBook.Options(
            seed: 12, existingPeople: 1_000, incomingDuplicates: 100, incomingNew: 50,
            traps: 40, unlinkedDuplicates: 150)
        let first = SyntheticBook.generate(options)
        let second = SyntheticBook.generate(options)
        #expect(first.existing == second.existing)
        #expect(first.incoming == second.incoming)
        #expect(first.labelsTSV() == second.labelsTSV())
    }

    /// The national digits of a number, so `+1 (212) 555-0100` and `212.555.0100` compare equal.
    static func nationalDigits(_ phone: String) -> String {
        let digits = phone.filter { $0.isASCII && $0.isNumber }
        return digits.count == 11 && digits.hasPrefix("1") ? String(digits.dropFirst()) : digits
    }

    /// Whether `a` becomes `b` by one substitution, insertion, deletion or swap of adjacent characters.
    static func oneEdit(_ a: String, _ b: String) -> Bool {
        let x = Array(a)
        let y = Array(b)
        if x == y { return false }
        if x.count == y.count {
            let differing = x.indices.filter { x[$0] != y[$0] }
            if differing.count == 1 { return true }
            return differing.count == 2 && differing[1] == differing[0] + 1
                && x[differing[0]] == y[differing[1]] && x[differing[1]] == y[differing[0]]
        }
        let (long, short) = x.count > y.count ? (x, y) : (y, x)
        guard long.count == short.count + 1 else { return false }
        for index in long.indices where index == short.count || long[index] != short[index] {
            var shorter = long
            shorter.remove(at: index)
            return shorter == short
        }
        return false
    }

    @Test func unlinkedDuplicatesShareNoIdentifierAndVary() {
        let book = SyntheticBook.generate(
            .init(
                seed: 21, existingPeople: 2_000, incomingDuplicates: 100, incomingNew: 50,
                traps: 40, unlinkedDuplicates: 200))
        let existing = VCardDocument.read(Array(book.existing.utf8)).cards.map(\.contact)
        let incoming = VCardDocument.read(Array(book.incoming.utf8)).cards.map(\.contact)
        #expect(existing.count == book.existingPeople.count)
        #expect(incoming.count == book.incomingPeople.count)
        #expect(Set(book.incomingPeople).count == book.incomingPeople.count, "a person twice in the incoming book")
        var existingCard = [Int: Int]()
        for (index, person) in book.existingPeople.enumerated() { existingCard[person] = index }
        let unlinked = book.incomingKinds.indices.filter { book.incomingKinds[$0] == .unlinked }
        #expect(unlinked.count == 200)

        var seen: [String: Int] = [:]
        var withBirthday = 0
        for index in unlinked {
            guard let match = existingCard[book.incomingPeople[index]] else {
                Issue.record("unlinked card \(index) has no existing card")
                continue
            }
            let theirs = incoming[index]
            let ours = existing[match]
            let ourEmails = Set(ours.emails.map { $0.value.lowercased() })
            let ourPhones = Set(ours.phones.map { Self.nationalDigits($0.value) })
            #expect(
                !theirs.emails.contains { ourEmails.contains($0.value.lowercased()) },
                "email shared, card \(index)")
            #expect(
                !theirs.phones.contains { ourPhones.contains(Self.nationalDigits($0.value)) },
                "phone shared, card \(index)")
            #expect(theirs.uid == nil || theirs.uid != ours.uid, "UID shared, card \(index)")
            #expect(theirs.birthday != nil || !theirs.addresses.isEmpty, "nothing to match on, card \(index)")
            // The existing card shows whatever the unlinked one can be recognised by.
            let ourHome = ours.addresses.first { $0.types.contains { $0.lowercased() == "home" } }
            if theirs.birthday != nil { #expect(ours.birthday != nil, "existing card without birthday, card \(index)") }
            if !theirs.addresses.isEmpty { #expect(ourHome != nil, "existing card without home, card \(index)") }
            if ours.birthday != nil { withBirthday += 1 }

            // Names: swapped, a typo, a nickname or the initial alone.
            let ourGiven = folded(ours.name?.given.first ?? "")
            let ourFamily = folded(ours.name?.family.first ?? "")
            let theirGiven = folded(theirs.name?.given.first ?? "")
            let theirFamily = folded(theirs.name?.family.first ?? "")
            let swapped =
                theirGiven != ourGiven
                && (theirGiven == ourFamily || Self.oneEdit(theirGiven, ourFamily))
            if swapped { seen["swapped", default: 0] += 1 }
            if !swapped && Self.oneEdit(ourFamily, theirFamily) { seen["family typo", default: 0] += 1 }
            if !swapped && theirGiven.count == 1 && ourGiven.count > 1 { seen["initial", default: 0] += 1 }
            if !swapped && theirGiven.count > 1 && Self.oneEdit(ourGiven, theirGiven) {
                seen["given typo", default: 0] += 1
            }
            if let name = ours.formattedName, let written = theirs.formattedName,
                !name.utf8.allSatisfy({ $0 < 0x80 }) && written.utf8.allSatisfy({ $0 < 0x80 })
            {
                seen["accents dropped", default: 0] += 1
            }
            // Address and birthday as copied.
            if let address = theirs.addresses.first, let home = ourHome {
                if address.street != home.street { seen["street", default: 0] += 1 }
                if address.postalCode.isEmpty && !home.postalCode.isEmpty { seen["no ZIP", default: 0] += 1 }
                if address.locality != home.locality && address.locality == home.locality.uppercased() {
                    seen["city in capitals", default: 0] += 1
                }
            }
            if let birthday = theirs.birthday, birthday.hasPrefix("--") { seen["no year", default: 0] += 1 }
        }
        print("unlinked variations:", seen.sorted { $0.key < $1.key })
        #expect(withBirthday * 4 >= unlinked.count * 3, "\(withBirthday) of \(unlinked.count) existing birthdays")
        for kind in [
            "swapped", "family typo", "given typo", "initial", "accents dropped", "street", "no ZIP",
            "city in capitals", "no year",
        ] {
            #expect(seen[kind, default: 0] > 0, "no \(kind) among \(unlinked.count) unlinked duplicates")
        }
    }

    /// The shapes issue 21 asks the figures to cover: moved house, birthday typos (one digit, transposed), the
    /// street in the extended address, and traps without identifiers (twins, parents and children, colleagues),
    /// whose cards carry no email, phone or UID.
    @Test func newSlipsAndTrapsWithoutIdentifiersAppear() {
        let book = SyntheticBook.generate(
            .init(
                seed: 21, existingPeople: 3_000, incomingDuplicates: 100, incomingNew: 50, traps: 40,
                unlinkedDuplicates: 600, unlinkedTraps: 100))
        let existing = VCardDocument.read(Array(book.existing.utf8)).cards.map(\.contact)
        let incoming = VCardDocument.read(Array(book.incoming.utf8)).cards.map(\.contact)
        var existingCard = [Int: Int]()
        for (index, person) in book.existingPeople.enumerated() { existingCard[person] = index }
        var seen: [String: Int] = [:]
        for (index, kind) in book.incomingKinds.enumerated() {
            let theirs = incoming[index]
            if [.twin, .son, .father, .colleague].contains(kind) && theirs.emails.isEmpty && theirs.phones.isEmpty {
                seen["bare \(kind.rawValue)", default: 0] += 1
            }
            guard kind == .unlinked, let match = existingCard[book.incomingPeople[index]] else { continue }
            let ours = existing[match]
            if let address = theirs.addresses.first {
                if address.street.isEmpty && !address.extended.isEmpty { seen["street in extended", default: 0] += 1 }
                if let home = ours.addresses.first, address.postalCode != home.postalCode && !address.postalCode.isEmpty
                {
                    seen["moved", default: 0] += 1
                }
            }
            if let a = theirs.birthday.flatMap(TestBirthday.init), let b = ours.birthday.flatMap(TestBirthday.init),
                a.isTypo(of: b)
            {
                seen["birthday typo", default: 0] += 1
            }
        }
        print("new shapes:", seen.sorted { $0.key < $1.key })
        for kind in [
            "bare twin", "bare son", "bare father", "bare colleague", "street in extended", "moved", "birthday typo",
        ] {
            #expect(seen[kind, default: 0] > 0, "no \(kind)")
        }
        // A twin shares the family name, home and birthday of an existing person, under another given name.
        let twins = book.incomingKinds.indices.filter { book.incomingKinds[$0] == .twin }
        #expect(!twins.isEmpty)
        for index in twins {
            let twin = incoming[index]
            let surname = folded(twin.formattedName ?? "").split(separator: " ").last
            #expect(
                existing.contains { card in
                    card.birthday.flatMap(TestBirthday.init) == twin.birthday.flatMap(TestBirthday.init)
                        && card.addresses.contains { $0.street == twin.addresses.first?.street }
                        && folded(card.formattedName ?? "").split(separator: " ").last == surname
                        && card.formattedName != twin.formattedName
                }, "twin card \(index) has no sibling")
        }
    }
}
