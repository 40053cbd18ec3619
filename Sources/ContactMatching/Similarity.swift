/// String similarity and phonetic keys for names that may carry a typo.
public enum Similarity {
    /// Jaro-Winkler similarity of two folded strings, 0 (nothing alike) to 1 (equal): the Jaro score (matching
    /// characters within half the longer length, and their transpositions) raised for a common prefix of up to
    /// four characters, with the usual scale 0.1. Record linkage's standard for short names: "martha"/"marhta" 0.961.
    public static func jaroWinkler(_ a: String, _ b: String) -> Double {
        if a == b { return a.isEmpty ? 0 : 1 }
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        guard !x.isEmpty, !y.isEmpty else { return 0 }
        let window = max(0, max(x.count, y.count) / 2 - 1)
        var matchedX = [Bool](repeating: false, count: x.count)
        var matchedY = [Bool](repeating: false, count: y.count)
        var matches = 0
        for i in x.indices {
            let low = max(0, i - window), high = min(y.count - 1, i + window)
            guard low <= high else { continue }
            for j in low...high where !matchedY[j] && x[i] == y[j] {
                matchedX[i] = true
                matchedY[j] = true
                matches += 1
                break
            }
        }
        guard matches > 0 else { return 0 }
        var transpositions = 0, j = 0
        for i in x.indices where matchedX[i] {
            while !matchedY[j] { j += 1 }
            if x[i] != y[j] { transpositions += 1 }
            j += 1
        }
        let m = Double(matches)
        let jaro = (m / Double(x.count) + m / Double(y.count) + (m - Double(transpositions / 2)) / m) / 3
        var prefix = 0
        while prefix < min(4, x.count, y.count) && x[prefix] == y[prefix] { prefix += 1 }
        return jaro + Double(prefix) * 0.1 * (1 - jaro)
    }

    /// American Soundex of a folded name (`robert` and `rupert` are `r163`), so a typo after the first letter
    /// usually keeps the key. Names in other scripts, which Soundex cannot code, key on their first two letters.
    public static func soundex(_ folded: String) -> String {
        var out: [UInt8] = []
        var last: UInt8 = 0
        for b in folded.utf8 {
            guard b >= 0x61 && b <= 0x7A else {
                if b == 0x20 { continue } // "de la cruz": the words run together
                if out.isEmpty { return String(folded.unicodeScalars.prefix(2).map(Character.init)) }
                continue
            }
            let code = codes[Int(b - 0x61)]
            if out.isEmpty {
                out.append(b)
                last = code
                continue
            }
            // h and w do not separate equal codes; vowels do.
            if code == 0x30 {
                if b != 0x68 && b != 0x77 { last = 0 }
                continue
            }
            if code != last { out.append(code) }
            last = code
            if out.count == 4 { break }
        }
        while !out.isEmpty && out.count < 4 { out.append(0x30) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Soundex digits of a-z ("0" for vowels, h, w and y).
    private static let codes: [UInt8] = Array("01230120022455012623010202".utf8)
}
