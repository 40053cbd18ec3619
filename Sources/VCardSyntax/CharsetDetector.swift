// Over 400 lines on purpose: one scorer whose terms (letters, neighbours, symbols, penalties) are tuned
// together; the language data is in CharsetLanguages.swift and HanProfile.swift.

import Foundation

/// Chooses the character set of 8-bit text that declares none and is not UTF-8, from its letter statistics.
///
/// Each candidate decodes the text; a candidate that cannot (an undefined byte, a broken multi-byte sequence) is
/// out. Each reading is scored by how likely its characters are in the most likely language for it
/// (`LanguageProfiles`): the log-probability of each letter in that language, of the ASCII letters around it,
/// of symbols, and penalties for what real text rarely has and wrong readings often do: a capital after a small
/// letter inside a word, a letter of one script next to a letter of another, control characters. The reading
/// with the highest score wins; a charset the rest of the file chose gets a head start (`priorBonus`), so a short
/// value that reads equally well in several goes with its file. Equal readings (Windows-1253 and ISO-8859-7 for
/// plain Greek letters) go to the candidate listed first.
enum CharsetDetector {
    /// The candidates, in the order that breaks ties: the Windows code pages exporters mostly wrote, then the
    /// ISO and Mac ones, then the multi-byte East Asian ones.
    static let candidates: [Charset] = [
        .windows1252, .windows1250, .windows1251, .windows1253, .windows1255, .koi8R, .koi8U, .macRoman, .latin2,
        .isoCyrillic, .isoGreek, .isoHebrew, .latin9, .shiftJIS, .gb18030, .big5,
    ]

    /// How much more likely, as a factor, a reading must be to beat the charset the file chose: the file's
    /// choice rests on all its text, a card's on a few words.
    static let priorBonus = log(10_000.0)

    /// How common each candidate is in vCard files that declare no charset (Outlook and Windows exports in
    /// Western and Central Europe first), as a log-probability added to its reading's score: when the letters
    /// barely tell readings apart, the more common charset wins.
    static func commonness(_ charset: Charset) -> Double {
        switch charset {
        case .windows1252: log(0.40)
        case .windows1251: log(0.12)
        case .windows1250: log(0.08)
        case .shiftJIS: log(0.05)
        case .gb18030: log(0.04)
        case .windows1253, .macRoman: log(0.03)
        case .windows1255, .koi8R, .koi8U, .big5: log(0.02)
        default: log(0.01)
        }
    }

    /// The most likely charset of `samples` (the undecided values of a card or file, each its bytes). With a
    /// `prior` (the file's choice), the file's own statistics replace how common each charset is in general.
    static func detect(_ samples: [[UInt8]], prior: Charset? = nil) -> Charset {
        var best: (charset: Charset, score: Double)?
        // Every East Asian character is two bytes over 0x7F or a run of half-width kana; text with no two such
        // bytes together is no East Asian text, and those decoders are the slow ones.
        let runs = samples.contains { sample in
            sample.indices.dropFirst().contains { sample[$0] >= 0x80 && sample[$0 - 1] >= 0x80 }
        }
        for candidate in candidates {
            if case .foundation = candidate.kind, !runs { continue }
            guard var total = reading(samples, candidate)?.best() else { continue }
            if let prior { total += candidate == prior ? priorBonus : 0 } else { total += commonness(candidate) }
            if best == nil || total > best!.score { best = (candidate, total) }
        }
        return best?.charset ?? .windows1252
    }

    /// What the scoring needs of `samples` read in `charset`, or nil when it cannot read them. Single-byte code
    /// pages read through per-byte tables made once, so this costs no string, no Unicode property lookup and
    /// no array per character.
    static func reading(_ samples: [[UInt8]], _ charset: Charset) -> Reading.Sum? {
        var reading = Reading()
        switch charset.kind {
        case .singleByte(let table):
            let ok = CharInfo.table(table).withUnsafeBufferPointer { infos in
                CharInfo.ascii.withUnsafeBufferPointer { ascii in
                    for sample in samples {
                        for byte in sample {
                            guard let info = byte < 0x80 ? ascii[Int(byte)] : infos[Int(byte &- 0x80)] else {
                                return false
                            }
                            reading.feed(info)
                        }
                        reading.endText()
                    }
                    return true
                }
            }
            return ok ? reading.sum : nil
        default:
            for sample in samples {
                guard let text = sample.withUnsafeBufferPointer({ charset.decodeStrictly($0) }) else { return nil }
                for scalar in text.unicodeScalars { reading.feed(CharInfo(scalar)) }
                reading.endText()
            }
            return reading.sum
        }
    }

    /// The log-likelihood of some texts (the values of one card or file) in the one language that fits them
    /// best, for tests and tuning.
    static func score(_ texts: [String]) -> Double {
        var reading = Reading()
        for text in texts {
            for scalar in text.unicodeScalars { reading.feed(CharInfo(scalar)) }
            reading.endText()
        }
        return reading.sum.best()
    }

    /// A character with what the scoring asks of it, worked out once (for a code page's byte, once per run), so
    /// that scoring a reading looks nothing up by hashing.
    struct CharInfo: Sendable {
        let scalar: Unicode.Scalar
        let lower: Unicode.Scalar
        let script: Script?
        let isUpper: Bool
        let isLower: Bool
        let isLetter: Bool
        let isASCII: Bool
        let isVowel: Bool
        /// The letter's index in `LanguageProfiles.letters` (-1: no profile lists it).
        let letterID: Int
        /// For a character that is no letter: its log-probability, and where it may touch a word.
        let symbolLog: Double
        let insideWords: Bool
        let afterWords: Bool
        let beforeWords: Bool
        /// Hebrew final and medial forms; Cyrillic letters no word starts with; Greek letters a word may end in.
        let hebrewFinal: Bool
        let hebrewMedial: Bool
        let noWordStart: Bool
        let greekEnding: Bool

        init(_ scalar: Unicode.Scalar) {
            self.scalar = scalar
            let v = scalar.value
            isASCII = v < 0x80
            var script: Script? = nil
            var isUpper = false
            var isLower = false
            var isLetter = false
            var lower = scalar
            if v < 0x80 {
                isUpper = v >= 0x41 && v <= 0x5A
                isLower = v >= 0x61 && v <= 0x7A
                isLetter = isUpper || isLower
                if isUpper { lower = Unicode.Scalar(v + 0x20)! }
                if isLetter { script = .latin }
            } else {
                script = Script(scalar)
                if script == .han {
                    isLetter = true
                } else {
                    let properties = scalar.properties
                    isUpper = properties.isUppercase
                    isLower = properties.isLowercase
                    isLetter = properties.isAlphabetic
                    if isUpper { lower = properties.lowercaseMapping.unicodeScalars.first ?? scalar }
                }
            }
            self.script = script
            self.isUpper = isUpper
            self.isLower = isLower
            self.isLetter = isLetter
            self.lower = lower
            isVowel = Vowels.all.contains(lower)
            letterID = LanguageProfiles.letterIDs[lower] ?? -1
            symbolLog = log(Symbols.probability(scalar))
            insideWords = Symbols.insideWords.contains(scalar)
            afterWords = Symbols.afterWords.contains(scalar)
            beforeWords = Symbols.beforeWords.contains(scalar)
            hebrewFinal = Vowels.hebrewFinal.contains(scalar)
            hebrewMedial = Vowels.hebrewMedial.contains(scalar)
            noWordStart = "ьъы".unicodeScalars.contains(lower)
            greekEnding = isVowel || "ςνρ".unicodeScalars.contains(lower)
        }

        static let ascii: [CharInfo?] = (0..<128).map { CharInfo(Unicode.Scalar(UInt8($0))) }

        /// The upper halves of the single-byte code pages, made once each (nil: undefined).
        static func table(_ charset: SingleByteCharset) -> [CharInfo?] {
            tables[charset]!
        }

        private static let tables: [SingleByteCharset: [CharInfo?]] = {
            var all: [SingleByteCharset: [CharInfo?]] = [:]
            for charset in SingleByteCharset.allCases {
                all[charset] = (0x80...0xFF).map { byte in
                    charset.scalar(UInt8(byte), table: charset.upperHalf).map(CharInfo.init)
                }
            }
            return all
        }()
    }

    /// Reads texts character by character into what the scores need: the spelling of each character against
    /// its neighbours and of each word, and the letters by id. A character is weighed once the next is known.
    struct Reading {
        private(set) var sum = Sum()
        private var previous: CharInfo?
        private var current: CharInfo?
        private var word = Word()

        mutating func feed(_ next: CharInfo) {
            if let current { weigh(current, next: next) }
            previous = current
            current = next
        }

        /// Ends one text (a value): its last character and word are weighed, and nothing joins the next text.
        mutating func endText() {
            if let current { weigh(current, next: nil) }
            endWord()
            previous = nil
            current = nil
        }

        private mutating func weigh(_ c: CharInfo, next: CharInfo?) {
            wordShape(c)
            if c.isASCII {
                if c.isLetter { sum.asciiLetters += 1 }
                // A capital right after a small letter outside ASCII: `żLlamar`.
                if c.isUpper, let previous, !previous.isASCII, previous.isLower { sum.common += log(0.01) }
                return
            }
            guard let script = c.script else {
                let before = previous?.script != nil
                let after = next?.script != nil
                if before && after && !c.insideWords {
                    sum.common += log(0.001)  // a symbol inside a word: `Fu§ball`, `Ma–ana`
                } else if (before && !c.afterWords) || (after && !c.beforeWords) {
                    sum.common += log(0.05)  // one glued to a word that does not end or open one: `Niccol˜`
                }
                sum.common += c.symbolLog
                return
            }
            if script == .han {
                if previous.map({ $0.isASCII && $0.isLetter }) == true
                    || next.map({ $0.isASCII && $0.isLetter }) == true
                {
                    sum.common += log(0.01)  // an ideograph glued to Latin letters: `Ch液eau`
                }
                sum.han.append(c.scalar)
                return
            }
            sum.alphabetic += 1
            if c.isUpper && previous?.isLower == true { sum.common += log(0.01) }  // a capital inside a word
            if let other = previous?.script, other != script {
                sum.common += log(0.02)  // a letter next to one of another script
            } else if let other = next?.script, other != script {
                sum.common += log(0.02)
            }
            if c.letterID >= 0 { sum.letterIDs.append(c.letterID) } else { sum.unlisted[script.index] += 1 }
        }

        /// A word: letters of one alphabetic script in a row.
        private struct Word {
            var script: CharsetDetector.Script?
            var length = 0
            var nonASCII = 0
            var nonASCIIUpper = 0
            var vowels = 0
            var consonants = 0
            var capitalsInARow = 0
            var first: CharInfo?
            var last: CharInfo?
            /// Penalties found so far, counted only if the word has a letter outside ASCII (plain ASCII words are
            /// the same in every reading).
            var penalty = 0.0
        }

        /// Words with no vowel or four consonants in a row, in capitals or with a small letter after two capitals,
        /// and Greek and Hebrew letters whose form says where in a word they stand, found elsewhere.
        private mutating func wordShape(_ c: CharInfo) {
            guard let script = c.script, c.isLetter, script != .han else {
                endWord()
                return
            }
            if word.script != script { endWord() }
            word.script = script
            if let last = word.last {
                if script == .hebrew && last.hebrewFinal { word.penalty += log(0.01) }
                if script == .greek && last.scalar == "ς" { word.penalty += log(0.01) }
            } else {
                word.first = c
            }
            if c.isVowel {
                word.vowels += 1
                word.consonants = 0
            } else {
                word.consonants += 1
                if word.consonants == 4 && script != .hebrew { word.penalty += log(0.05) }
            }
            if c.isLower && word.capitalsInARow >= 2 { word.penalty += log(0.05) }  // `КЕє`
            word.capitalsInARow = c.isUpper ? word.capitalsInARow + 1 : 0
            if !c.isASCII {
                word.nonASCII += 1
                if c.isUpper { word.nonASCIIUpper += 1 }
            }
            word.length += 1
            word.last = c
        }

        private mutating func endWord() {
            defer { word = Word() }
            guard let script = word.script, word.nonASCII > 0, let first = word.first, let last = word.last else {
                return
            }
            var total = word.penalty
            if script == .hebrew {
                if last.hebrewMedial && word.length > 1 { total += log(0.05) }
                sum.common += total
                return
            }
            if word.vowels == 0 && word.length >= 3 { total += log(0.01) }
            if word.nonASCII >= 3 && word.nonASCIIUpper == word.nonASCII { total += log(0.1) }
            if script == .cyrillic && first.noWordStart { total += log(0.01) }  // no word starts with ь, ъ, ы
            if script == .greek && word.length > 1 {
                if last.lower == "σ" { total += log(0.05) }
                if !last.greekEnding { total += log(0.2) }
            }
            sum.common += total
        }

        /// What the scores of all profiles need, summed: the parts every language scores alike once, and the rest
        /// as counts and letter ids, so scoring a profile touches only numbers.
        struct Sum {
            /// Spelling, symbols, capitals in words, letters next to another script: the same in every language.
            var common = 0.0
            var asciiLetters = 0
            var letterIDs: [Int] = []
            /// Letters no profile lists, by script (latin, greek, cyrillic, hebrew).
            var unlisted = [0, 0, 0, 0]
            /// Alphabetic letters (for the Han profiles) and ideographs and kana (for the alphabetic ones).
            var alphabetic = 0
            var han: [Unicode.Scalar] = []

            func best() -> Double {
                var best = -Double.infinity
                let letters = LanguageProfiles.letters.count
                LanguageProfiles.logByID.withUnsafeBufferPointer { table in
                    for index in 0..<LanguageProfiles.count {
                        var total = LanguageProfiles.priors[index] + common
                        total += Double(asciiLetters) * LanguageProfiles.logASCIILetters[index]
                        total += Double(han.count) * LanguageProfile.logForeignLetter
                        let row = index * letters
                        for id in letterIDs { total += table[row + id] }
                        let own = LanguageProfiles.scripts[index].index
                        for script in 0..<4 where unlisted[script] > 0 {
                            total +=
                                Double(unlisted[script])
                                * (script == own ? LanguageProfile.logUnlistedLetter : LanguageProfile.logForeignLetter)
                        }
                        best = max(best, total)
                    }
                }
                for profile in HanProfile.all {
                    var total = profile.prior + common + Double(asciiLetters) * log(50.0 / 26_000)
                    total += Double(alphabetic) * LanguageProfile.logForeignLetter
                    for scalar in han { total += log(profile.probability(scalar)) }
                    best = max(best, total)
                }
                return best
            }
        }
    }

    /// The vowels of the alphabets the detector reads, and Hebrew's letter forms.
    enum Vowels {
        static let all: Set<Unicode.Scalar> = Set(
            "aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿœąęěėīūůőűăāēıаеёиоуыэюяіїєαεηιουωάέήίόύώϊϋΐΰ".unicodeScalars)
        static let hebrewFinal: Set<Unicode.Scalar> = Set("ךםןףץ".unicodeScalars)
        static let hebrewMedial: Set<Unicode.Scalar> = Set("כמנפצ".unicodeScalars)
    }

    /// The scripts whose letters the detector tells apart; ASCII letters are Latin.
    enum Script: Equatable {
        case latin, greek, cyrillic, hebrew, han

        /// The alphabetic scripts' place in `Reading.Sum.unlisted`.
        var index: Int {
            switch self {
            case .latin: 0
            case .greek: 1
            case .cyrillic: 2
            case .hebrew: 3
            case .han: 4
            }
        }

        init?(_ scalar: Unicode.Scalar) {
            let v = scalar.value
            switch v {
            case 0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F, 0x1E00...0x1EFF: self = .latin
            case 0x370...0x3FF: self = .greek
            case 0x400...0x4FF: self = .cyrillic
            case 0x5D0...0x5EA: self = .hebrew
            case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F: self = .han
            default: return nil
            }
        }
    }

    /// The probability of a character that is no letter.
    enum Symbols {
        static let common: Set<Unicode.Scalar> = Set(
            "\u{A0}«»–—‘’“”„…•·€£°§©®™¢¥".unicodeScalars)
        static let spanish: Set<Unicode.Scalar> = ["¡", "¿"]
        /// Spanish, Portuguese and Italian ordinals (`2º`, `nº`, `1ª`).
        static let ordinals: Set<Unicode.Scalar> = ["º", "ª"]
        /// Symbols text puts between letters (`l’Église`, Catalan `l·l`).
        static let insideWords: Set<Unicode.Scalar> = ["’", "·", "-", "‐"]
        /// Symbols that close a word, and that open one.
        static let afterWords: Set<Unicode.Scalar> = Set("’”»…,.:;!?)\u{A0}°®™ºª".unicodeScalars)
        static let beforeWords: Set<Unicode.Scalar> = Set("‘“«„¿¡(\u{A0}€£$".unicodeScalars)

        static func probability(_ scalar: Unicode.Scalar) -> Double {
            let v = scalar.value
            if ordinals.contains(scalar) { return 0.003 }
            if common.contains(scalar) { return 0.001 }
            if spanish.contains(scalar) { return 0.0002 }
            if (0x80...0x9F).contains(v) { return 1e-8 }  // C1 controls: a wrong reading
            if (0x2500...0x259F).contains(v) { return 1e-8 }  // box drawing (KOI8's upper positions)
            if (0x3000...0x303F).contains(v) || (0xFF01...0xFF5E).contains(v) { return 0.0005 }  // CJK punctuation
            if (0x5B0...0x5C7).contains(v) { return 0.00001 }  // Hebrew points
            if v == 0xFFFD { return 1e-9 }
            return 0.00002
        }
    }
}
