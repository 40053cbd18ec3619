/// What comparing one part of a card's name (its folded given or family name) with another card's reads of it,
/// worked out once for the card rather than for each of the pairs it is in: a large book's candidate pairs ask
/// each name whether it is one letter, what the nickname table says of it and which letters it holds several
/// hundred thousand times.
struct NamePartFacts: Sendable {
    /// The nickname table's answers.
    let nickname: Nicknames.Lookup
    /// Bit `v & 63` for each Unicode scalar value `v` of the text (what `Scoring.mayBeTypo` tells letters by).
    let letters: UInt64
    /// The number of Unicode scalars.
    let scalarCount: Int
    /// `text.count == 1`: one character (which can be several scalars).
    let isOneCharacter: Bool

    init(_ text: String) {
        nickname = Nicknames.lookUp(text)
        var letters: UInt64 = 0
        var count = 0
        var ascii = true
        var carriageReturn = false
        for s in text.unicodeScalars {
            letters |= 1 &<< UInt64(s.value & 63)
            count += 1
            if !s.isASCII { ascii = false }
            if s == "\r" { carriageReturn = true }
        }
        self.letters = letters
        scalarCount = count
        // Several scalars are one character only beyond ASCII (CR LF aside), where the first character's end is
        // looked for (without counting every character).
        isOneCharacter =
            count == 1
            || (count > 1 && (!ascii || carriageReturn) && text.index(after: text.startIndex) == text.endIndex)
    }

    /// False when Jaro-Winkler of the two texts certainly stays below `Scoring.similarity`: at most the letters
    /// of each whose kind (bit of `letters`) the other has can match, and a prefix of four the most Winkler adds.
    /// `Scoring.mayBeTypo` counts those letters one by one; this bound needs no pass over either text, and is
    /// never below that count (a kind one text lacks rules out at least one letter of the other).
    func mayBeTypo(of other: NamePartFacts) -> Bool {
        guard scalarCount > 0, other.scalarCount > 0 else { return true }
        let mine = scalarCount - (letters & ~other.letters).nonzeroBitCount
        let theirs = other.scalarCount - (other.letters & ~letters).nonzeroBitCount
        return Scoring.mayReach(
            matches: min(mine, theirs), scalarCount, other.scalarCount, prefix: min(4, scalarCount, other.scalarCount))
    }
}

/// The facts of both parts of a card's name.
struct NameFacts: Sendable {
    /// The given name's.
    let given: NamePartFacts
    /// The family name's.
    let family: NamePartFacts

    init(_ name: PersonName) {
        given = NamePartFacts(name.given)
        family = NamePartFacts(name.family)
    }
}
