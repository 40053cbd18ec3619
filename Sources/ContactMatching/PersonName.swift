import ContactModel

/// A person's name reduced for comparison: folded given name, middle initials, family name and a generational
/// suffix, read from N when the card has one and from FN otherwise.
public struct PersonName: Hashable, Sendable {
    /// The first given name, folded (`jose`), or empty.
    public var given: String
    /// Initials of middle names (`["a"]` for "John A. Smith").
    public var middleInitials: [Character]
    /// The first middle name in full, folded, when it is written out (`pierre` for "Jean-Pierre Dupont", `adam`
    /// for "John Adam Smith"); nil for an initial or none. Two people may share every initial of their names
    /// (Jean-Pierre and Jean-Paul, John Adam and John Andrew), never their middle names.
    package var middleName: String?
    /// The family name, folded, words joined by a space (`garcia lopez`), or empty.
    public var family: String
    /// `jr`, `sr`, `ii`, `iii`, `iv` or `v`: father and son share every other part of their names.
    public var generation: String?

    /// How two names relate.
    public enum Relation: String, Sendable {
        /// Same given, family and generation after folding (middle initials, when both have them, equal).
        case identical
        /// Not identical but can be the same person: a nickname, an initial, a middle initial on one side, given and
        /// family swapped, or one name missing a part.
        case compatible
        /// Cannot be the same person: different family or given names, generations or middle initials.
        case conflicting
        /// One side has no name to compare.
        case unknown
    }

    /// No name: every part empty.
    static let none = PersonName(given: "", family: "")

    /// Whether there is nothing to compare.
    public var isEmpty: Bool { given.isEmpty && family.isEmpty }

    /// The name on `contact`, or nil when it has neither N nor a personal FN (an organisation's card, say).
    public init?(_ contact: borrowing Contact) {
        self.init(contact, foldedFormattedName: contact.formattedName.map(TextFolding.fold))
    }

    /// The same, with the card's FN folded already (`TextFolding.fold`; match keys fold it for themselves too).
    init?(_ contact: borrowing Contact, foldedFormattedName: String?) {
        var given = ""
        var family = ""
        var middles: [Character] = []
        var middleName: String?
        var generation: String?
        if let n = contact.name, !n.isEmpty {
            let givenWords = TextFolding.words(n.given)
            given = givenWords.first ?? ""
            middles = givenWords.dropFirst().compactMap { $0.first }
            middleName = givenWords.dropFirst().first
            if !n.additional.isEmpty {
                let additional = TextFolding.words(n.additional)
                middles += additional.compactMap { $0.first }
                middleName = middleName ?? additional.first
            }
            family = TextFolding.fold(n.family)
            generation =
                TextFolding.words(n.suffixes).lazy.compactMap { Self.generations[$0] }.first
                ?? TextFolding.words(n.prefixes).lazy.compactMap { Self.generations[$0] }.first
        }
        // A reader fills a missing FN from the email or phone; that is not a name.
        // FN is read only for what N lacks: the whole name, or a generation ("Jr." is often only in FN).
        if let fn = contact.formattedName,
            given.isEmpty && family.isEmpty
                || generation == nil && Self.containsGeneration((foldedFormattedName ?? TextFolding.fold(fn)).utf8),
            !fn.utf8.contains(0x40), fn.unicodeScalars.contains(where: \.properties.isAlphabetic),
            let parsed = Self.parse(formatted: fn)
        {
            if given.isEmpty && family.isEmpty {
                (given, family, middles) = (parsed.given, parsed.family, parsed.middles.compactMap(\.first))
                middleName = parsed.middles.first.map(String.init)
            }
            if generation == nil { generation = parsed.generation }
        }
        // A card for a company names it in FN and ORG: that is not a person's name.
        if let org = contact.organization?.name, !org.isEmpty, contact.name?.isEmpty ?? true,
            let fn = contact.formattedName, TextFolding.fold(fn) == TextFolding.fold(org)
        {
            return nil
        }
        guard !given.isEmpty || !family.isEmpty else { return nil }
        self.given = given
        self.middleInitials = middles
        self.middleName = middleName.flatMap { $0.count > 1 ? $0 : nil }
        self.family = family
        self.generation = generation
    }

    /// Creates a name from folded parts (tests, generated data).
    public init(given: String, middleInitials: [Character] = [], family: String, generation: String? = nil) {
        self.given = given
        self.middleInitials = middleInitials
        self.family = family
        self.generation = generation
    }

    /// How the middle names relate: conflicting when both are written out and neither is the other with one
    /// letter wrong or a nickname of it, or (else) when the first initials differ; identical when the initials and
    /// any middle names written on both agree.
    func middleRelation(to other: PersonName) -> Relation {
        if let x = middleName, let y = other.middleName, x != y {
            return Similarity.oneEdit(x, y) || Nicknames.areEquivalent(x, y) ? .compatible : .conflicting
        }
        if let a = middleInitials.first, let b = other.middleInitials.first, a != b {
            // Written out on both and alike (a typo or a nickname): the initials may differ.
            return middleName != nil && other.middleName != nil ? .compatible : .conflicting
        }
        return middleInitials == other.middleInitials ? .identical : .compatible
    }

    /// Whether both cards write the first middle name out (so a conflict is of names, not initials).
    func bothWriteMiddleNames(_ other: PersonName) -> Bool { middleName != nil && other.middleName != nil }

    /// Reads "First M. Last Jr.", "Last, First M.", "Dr. First Last", "First Last, Jr.".
    static func parse(formatted: String) -> (given: String, middles: [Substring], family: String, generation: String?)?
    {
        var generation: String?
        var parts = formatted.split(separator: ",", omittingEmptySubsequences: true).map {
            TextFolding.words(String($0))
        }
        // Trailing comma parts made only of suffixes ("Smith, Jr.", "Jones, PhD") are suffixes, not a given name.
        while parts.count > 1, let last = parts.last, last.allSatisfy({ Self.isSuffix($0) }) {
            generation = generation ?? last.lazy.compactMap { Self.generations[String($0)] }.first
            parts.removeLast()
        }
        if parts.count >= 2 {
            // "Last, First Middle"
            var given = parts[1].filter { !Self.titles.contains(String($0)) }
            while let last = given.last, Self.isSuffix(last) {
                generation = generation ?? Self.generations[String(last)]
                given.removeLast()
            }
            if let g = parts[0].lazy.compactMap({ Self.generations[String($0)] }).first { generation = generation ?? g }
            let family = parts[0].filter { !Self.isSuffix($0) }
            return (
                given.first.map(String.init) ?? "", Array(given.dropFirst()), family.joined(separator: " "), generation
            )
        }
        var words = parts.first ?? []
        // "M." before a single word is more often an initial ("M. Kim") than Monsieur.
        while let first = words.first, Self.titles.contains(String(first)), first != "m" || words.count > 2 {
            words.removeFirst()
        }
        while let last = words.last, Self.isSuffix(last) {
            generation = generation ?? Self.generations[String(last)]
            words.removeLast()
        }
        guard !words.isEmpty else { return nil }
        if words.count == 1 { return (String(words[0]), [], "", generation) }
        // Family-name particles stay with the family name: "Ludwig van Beethoven", "Juan de la Cruz".
        var familyStart = words.count - 1
        while familyStart > 1, Self.particles.contains(String(words[familyStart - 1])) { familyStart -= 1 }
        let family = words[familyStart...].joined(separator: " ")
        return (String(words[0]), Array(words[1..<familyStart]), family, generation)
    }

    /// Whether a word of `bytes` (ASCII, or folded) folds to a generation. Each word's bytes are folded as `fold`
    /// would (letters and digits in lower case, `'` dropped) and packed into an integer, which is compared with the
    /// packed generations: no allocation per word. A byte above ASCII belongs to a word that is no generation.
    private static func containsGeneration<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        var packed: UInt64 = 0
        var length = 0
        for b in bytes {
            let lower = ASCIIBytes.lower(b)
            if (lower >= 0x61 && lower <= 0x7A) || (b >= 0x30 && b <= 0x39) || b >= 0x80 {
                if length < 8 { packed = packed << 8 | UInt64(lower) }
                length += 1
            } else if b != 0x27 {
                if length > 0 && length <= 8 && packedGenerations.contains(packed) { return true }
                packed = 0
                length = 0
            }
        }
        return length > 0 && length <= 8 && packedGenerations.contains(packed)
    }

    private static let packedGenerations: [UInt64] = generations.keys.map { ASCIIBytes.packed($0.utf8)! }

    static func isSuffix(_ word: Substring) -> Bool {
        generations[String(word)] != nil || otherSuffixes.contains(String(word))
    }

    static let generations: [String: String] = [
        "jr": "jr", "junior": "jr", "sr": "sr", "senior": "sr", "ii": "ii", "iii": "iii", "iv": "iv", "v": "v",
        "2nd": "ii", "3rd": "iii", "4th": "iv",
    ]
    static let otherSuffixes: Set<String> = ["phd", "md", "esq", "dds", "cpa", "mba", "rn", "jd", "dr", "dphil"]
    static let titles: Set<String> = [
        "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "rev", "herr", "frau", "mme", "mlle", "m",
    ]
    static let particles: Set<String> = [
        "van", "von", "de", "del", "della", "da", "di", "du", "la", "le", "der", "den", "ter", "ten", "bin", "al", "el",
        "st",
    ]

    /// How this name relates to `other`.
    public func relation(to other: PersonName) -> Relation {
        relation(to: other) { Self.givenRelation(given, other.given) }
    }

    /// `relation(to:)` with the facts of both given names worked out before.
    @inline(__always)
    func relation(to other: PersonName, givenFacts mine: NamePartFacts, _ theirs: NamePartFacts) -> Relation {
        relation(to: other) { Self.givenRelation(given, mine, other.given, theirs) }
    }

    /// `relation(to:)` with `givenRelation` telling how the given names relate (from facts worked out before).
    @inline(__always)
    func relation(to other: PersonName, givenRelation: () -> Relation) -> Relation {
        if isEmpty || other.isEmpty { return .unknown }
        if generation != other.generation { return .conflicting }
        let middles = middleRelation(to: other)
        if middles == .conflicting { return .conflicting }
        let sameFamily = family == other.family
        if !sameFamily {
            if family.isEmpty || other.family.isEmpty {
                return givenRelation() == .conflicting ? .conflicting : .compatible
            }
            // Given and family swapped (a form filled the wrong way round).
            if given == other.family && family == other.given { return .compatible }
            return .conflicting
        }
        switch givenRelation() {
        case .identical: return middles == .identical ? .identical : .compatible
        case .compatible, .unknown: return .compatible
        case .conflicting: return .conflicting
        }
    }

    static func givenRelation(_ a: String, _ b: String) -> Relation {
        if a.isEmpty || b.isEmpty { return .unknown }
        if a == b { return .identical }
        if a.count == 1 || b.count == 1 { return a.first == b.first ? .compatible : .conflicting }
        return Nicknames.areEquivalent(a, b) ? .compatible : .conflicting
    }

    /// `givenRelation(a, b)` from the names' facts.
    static func givenRelation(_ a: String, _ fa: NamePartFacts, _ b: String, _ fb: NamePartFacts) -> Relation {
        if a.isEmpty || b.isEmpty { return .unknown }
        if a == b { return .identical }
        if fa.isOneCharacter || fb.isOneCharacter { return a.first == b.first ? .compatible : .conflicting }
        return fa.nickname.isEquivalent(to: fb.nickname) ? .compatible : .conflicting
    }

    /// The given name's nickname root (`bob` -> `robert`), for indexing names that may be the same.
    public var givenRoot: String { Nicknames.root(given) }
}
