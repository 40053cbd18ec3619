/// The slips of someone copying a card by hand: keyboard typos in names, street words abbreviated or spelled out.
/// Table-driven and drawn from the caller's stream, so a seed gives the same slips everywhere.
enum Slips {
    /// The keys around each letter on a QWERTY keyboard, where a finger lands when it misses.
    private static let neighbours: [Character: String] = [
        "q": "wa", "w": "qeas", "e": "wrsd", "r": "etdf", "t": "ryfg", "y": "tugh", "u": "yihj", "i": "uojk",
        "o": "ipkl", "p": "ol", "a": "qwsz", "s": "awedxz", "d": "serfcx", "f": "drtgvc", "g": "ftyhbv",
        "h": "gyujnb", "j": "huikmn", "k": "jiolm", "l": "kop", "z": "asx", "x": "zsdc", "c": "xdfv", "v": "cfgb",
        "b": "vghn", "n": "bhjm", "m": "njk",
    ]

    /// Separators inside names ("De la Cruz", "O'Brien", "Smith-Jones", "Li Na"); everything else counts as a letter.
    private static func isLetter(_ character: Character) -> Bool {
        character != " " && character != "'" && character != "-" && character != "."
    }

    /// Letters in the name, the length a typo needs (4 or more).
    static func letterCount(_ name: String) -> Int { name.reduce(0) { $0 + (isLetter($1) ? 1 : 0) } }

    /// One typo, never on the first letter (people rarely miss the letter they start with, and matchers block on
    /// it): a neighbouring key, two adjacent letters swapped, a letter dropped or a letter doubled.
    /// Nil for names of fewer than 4 letters.
    static func typo(_ name: String, _ random: inout SplitMix64) -> String? {
        var characters = Array(name)
        let letters = characters.indices.filter { isLetter(characters[$0]) }
        guard letters.count >= 4 else { return nil }
        let later = Array(letters.dropFirst())
        switch random.below(4) {
        case 0:
            let keys = later.filter {
                characters[$0].isASCII && neighbours[Character(characters[$0].lowercased())] != nil
            }
            guard !keys.isEmpty else { fallthrough }
            let position = random.pick(keys)
            let original = characters[position]
            let lower = Character(original.lowercased())
            let replacement = random.pick(Array(neighbours[lower]!))
            characters[position] = original == lower ? replacement : Character(replacement.uppercased())
        case 1:
            // Two different letters side by side: swapping equal ones ("ll") would change nothing.
            let pairs = later.filter {
                $0 + 1 < characters.count && isLetter(characters[$0 + 1]) && characters[$0] != characters[$0 + 1]
            }
            guard !pairs.isEmpty else { fallthrough }
            let position = random.pick(pairs)
            characters.swapAt(position, position + 1)
        case 2:
            characters.remove(at: random.pick(later))
        default:
            let position = random.pick(later)
            characters.insert(characters[position], at: position)
        }
        return String(characters)
    }

    /// Street words and their postal abbreviations: the types, then the directions.
    private static let streetWords: [(full: String, short: String)] = [
        ("Street", "St"), ("Road", "Rd"), ("Avenue", "Ave"), ("Boulevard", "Blvd"), ("Drive", "Dr"), ("Lane", "Ln"),
        ("Court", "Ct"), ("Place", "Pl"), ("Terrace", "Tce"),
        ("North", "N"), ("South", "S"), ("East", "E"), ("West", "W"),
    ]
    private static let directions: Set<String> = ["North", "South", "East", "West", "N", "S", "E", "W"]

    private static func bare(_ word: Substring) -> Substring { word.hasSuffix(".") ? word.dropLast() : word }

    private static func pair(_ word: Substring) -> (full: String, short: String)? {
        let bare = bare(word)
        return streetWords.first { $0.full == bare || $0.short == bare }
    }

    /// The positions of the street words that can be written another way: a direction after the house number
    /// ("12 N Main St"), a direction at the end ("12 Main St N") and the type. The street name itself is left
    /// alone, so "12 West St" only varies its type.
    private static func variablePositions(_ words: [Substring]) -> [Int] {
        guard words.count >= 3 else { return [] }  // a house number, a name and a type at least
        var positions = [Int]()
        var first = 1
        if words.count >= 4 && directions.contains(String(bare(words[1]))) {
            positions.append(1)
            first = 2
        }
        var last = words.count - 1
        if last > first + 1 && directions.contains(String(bare(words[last]))) {
            positions.append(last)
            last -= 1
        }
        if last > first && pair(words[last]) != nil && !directions.contains(String(bare(words[last]))) {
            positions.append(last)
        }
        return positions
    }

    /// Whether the street's first line has a type or direction that `abbreviationVaried` can rewrite.
    static func canVaryAbbreviation(_ street: String) -> Bool {
        let line = street.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return !variablePositions(line.split(separator: " ")).isEmpty
    }

    /// The street with its type and direction words rewritten: an abbreviation spelled out ("St" -> "Street") or
    /// given or stripped of its period ("St" <-> "St."); a spelled-out word abbreviated, with or without a period.
    /// The second line (an apartment) is kept as it is.
    static func abbreviationVaried(_ street: String, _ random: inout SplitMix64) -> String {
        let lines = street.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        var words = lines[0].split(separator: " ")
        let spellOut = random.chance(50)
        let period = random.chance(50)
        for position in variablePositions(words) {
            let word = words[position]
            let hasPeriod = word.hasSuffix(".")
            guard let pair = pair(word) else { continue }
            let rewritten: String
            if bare(word) == pair.full {
                rewritten = pair.short + (period ? "." : "")
            } else if spellOut {
                rewritten = pair.full
            } else {
                rewritten = hasPeriod ? pair.short : pair.short + "."
            }
            words[position] = Substring(rewritten)
        }
        var out = words.joined(separator: " ")
        if lines.count > 1 { out += "\n" + lines[1] }
        return out
    }

    /// The birthday with one digit of its month and day wrong (`transposed`: two adjacent digits swapped), in
    /// the same year, when that is still a date: nil otherwise.
    static func birthdayTypo(_ birthday: Birthday, transposed: Bool, _ random: inout SplitMix64) -> Birthday? {
        var digits = [birthday.month / 10, birthday.month % 10, birthday.day / 10, birthday.day % 10]
        if transposed {
            let pairs = (0..<3).filter { digits[$0] != digits[$0 + 1] }
            guard !pairs.isEmpty else { return nil }
            let first = random.pick(pairs)
            digits.swapAt(first, first + 1)
        } else {
            let position = random.below(4)
            var digit = random.below(9)
            if digit >= digits[position] { digit += 1 }
            digits[position] = digit
        }
        let month = digits[0] * 10 + digits[1]
        let day = digits[2] * 10 + digits[3]
        guard (1...12).contains(month), day >= 1, day <= World.days(month, birthday.year) else { return nil }
        let typo = Birthday(year: birthday.year, month: month, day: day)
        return typo == birthday ? nil : typo
    }
}
