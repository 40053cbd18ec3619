import Foundation

// What the generator's tests need from the matcher's internals, kept here: this package sees only the root
// package's public API, and the tests check the generator's output, not the matcher.

/// Lower case without accents or punctuation, words split by one space ("J." is "j"), for comparing the names the
/// generator wrote.
func folded(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        .split { !$0.isLetter && !$0.isNumber }.joined(separator: " ")
}

/// A birthday as the generator writes it: `1985-04-15`, `19850415`, `--0415` or `--04-15`.
struct TestBirthday: Equatable {
    var year: Int?
    var month: Int
    var day: Int

    init?(_ text: String) {
        let noYear = text.hasPrefix("--")
        let digits = text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }.map { Int($0 - 0x30) }
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + $1 } }
        switch (noYear, digits.count) {
        case (false, 8): (year, month, day) = (number(0..<4), number(4..<6), number(6..<8))
        case (true, 4): (year, month, day) = (nil, number(0..<2), number(2..<4))
        default: return nil
        }
    }

    /// The same year with one digit of month and day wrong, or two adjacent digits swapped.
    func isTypo(of other: TestBirthday) -> Bool {
        guard let a = year, let b = other.year, a == b, self != other else { return false }
        let x = [month / 10, month % 10, day / 10, day % 10]
        let y = [other.month / 10, other.month % 10, other.day / 10, other.day % 10]
        let differing = x.indices.filter { x[$0] != y[$0] }
        if differing.count == 1 { return true }
        return differing.count == 2 && differing[1] == differing[0] + 1 && x[differing[0]] == y[differing[1]]
            && x[differing[1]] == y[differing[0]]
    }
}
