import TestSupport
import Testing

@testable import ContactMatching

/// Jaro-Winkler's byte path (two ASCII strings) against its scalar path, which reads any text: the same `Double`,
/// bit for bit, so no decision changes with the path a pair takes.
@Suite struct JaroWinklerPathTests {
    /// Checks the paths agree; whether the byte path took the pair.
    @discardableResult
    static func expectSamePaths(_ a: String, _ b: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard a != b else { return false }
        let scalar = Similarity.scalarJaroWinkler(a, b)
        #expect(Similarity.jaroWinkler(a, b).bitPattern == scalar.bitPattern, sourceLocation: sourceLocation)
        var (x, y) = (a, b)
        let bytes = x.withUTF8 { x in y.withUTF8 { y in Similarity.asciiJaroWinkler(x, y) } }
        if let bytes {
            #expect(
                bytes.bitPattern == scalar.bitPattern, "\(a) | \(b): \(bytes) \(scalar)", sourceLocation: sourceLocation
            )
        }
        return bytes != nil
    }

    @Test func everyPairOfTableNames() {
        var names = Set(Nicknames.known)
        for group in Nicknames.groups { names.formUnion(group) }
        let sorted = names.sorted()
        #expect(sorted.count > 400)
        var alike = 0
        var bytePath = 0
        for a in sorted {
            for b in sorted {
                if Self.expectSamePaths(a, b) { bytePath += 1 }
                if a != b && Similarity.jaroWinkler(a, b) >= Scoring.similarity { alike += 1 }
            }
        }
        // Pairs on both sides of the threshold the score reads, nearly all of them (all but josé's) on bytes.
        #expect(alike > 100)
        #expect(bytePath > sorted.count * (sorted.count - 3))
    }

    @Test func seededTextsOfEveryLength() {
        var random = SeededRandom(seed: 20)
        var bytePath = 0
        var scalarPath = 0
        let alphabets: [[Character]] = [
            Array("abcdefghijklmnopqrstuvwxyz"), Array("aeiou rst"), Array("ab"), Array("abcdeé李 "),
        ]
        for round in 0..<4_000 {
            let letters = alphabets[round % alphabets.count]
            func text() -> String {
                // Lengths on both sides of the 64 bytes the byte path keeps its matches in.
                let length = Int.random(in: 1...70, using: &random)
                return String((0..<length).map { _ in letters.randomElement(using: &random)! })
            }
            let a = text()
            var b = text()
            // Half the pairs a slip of one another, as names with a typo are.
            if round % 2 == 0 {
                var scalars = Array(a)
                scalars[Int.random(in: 0..<scalars.count, using: &random)] = letters.randomElement(using: &random)!
                b = String(scalars)
            }
            if Self.expectSamePaths(a, b) { bytePath += 1 } else { scalarPath += 1 }
        }
        #expect(bytePath > 1_000 && scalarPath > 1_000)
    }
}
