/// String similarity and phonetic keys for names that may carry a typo.
package enum Similarity {
    /// Jaro-Winkler similarity of two folded strings, 0 (nothing alike) to 1 (equal): the Jaro score (matching
    /// characters within half the longer length, and their transpositions) raised for a common prefix of up to
    /// four characters, with the usual scale 0.1. Record linkage's standard for short names: "martha"/"marhta" 0.961.
    public static func jaroWinkler(_ a: String, _ b: String) -> Double {
        if a == b { return a.isEmpty ? 0 : 1 }
        // Most names and streets are ASCII, where each byte is a scalar: compared on the bytes in place.
        if let similarity = a.utf8.withContiguousStorageIfAvailable({ x in
            b.utf8.withContiguousStorageIfAvailable { y in asciiJaroWinkler(x, y) } ?? nil
        }) ?? nil {
            return similarity
        }
        return scalarJaroWinkler(a, b)
    }

    /// `jaroWinkler` of two different strings over their Unicode scalars: any text.
    static func scalarJaroWinkler(_ a: String, _ b: String) -> Double {
        // Scalars and match flags in one temporary (stack) buffer: this runs for every candidate pair's names
        // and streets, and the UTF-8 lengths bound the scalar counts.
        let xBound = a.utf8.count
        let yBound = b.utf8.count
        guard xBound > 0, yBound > 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * (xBound + yBound)) { buffer in
            var xCount = 0
            var yCount = 0
            for s in a.unicodeScalars {
                buffer[xCount] = s.value
                xCount += 1
            }
            for s in b.unicodeScalars {
                buffer[xBound + yCount] = s.value
                yCount += 1
            }
            let flags = xBound + yBound
            for i in flags..<(flags + xCount + yCount) { buffer[i] = 0 }
            @inline(__always) func x(_ i: Int) -> UInt32 { buffer[i] }
            @inline(__always) func y(_ j: Int) -> UInt32 { buffer[xBound + j] }
            let window = max(0, max(xCount, yCount) / 2 - 1)
            let matchedX = flags
            let matchedY = flags + xCount
            var matches = 0
            for i in 0..<xCount {
                let low = max(0, i - window)
                let high = min(yCount - 1, i + window)
                guard low <= high else { continue }
                for j in low...high where buffer[matchedY + j] == 0 && x(i) == y(j) {
                    buffer[matchedX + i] = 1
                    buffer[matchedY + j] = 1
                    matches += 1
                    break
                }
            }
            guard matches > 0 else { return 0 }
            var transpositions = 0
            var j = 0
            for i in 0..<xCount where buffer[matchedX + i] != 0 {
                while buffer[matchedY + j] == 0 { j += 1 }
                if x(i) != y(j) { transpositions += 1 }
                j += 1
            }
            let m = Double(matches)
            let jaro = (m / Double(xCount) + m / Double(yCount) + (m - Double(transpositions / 2)) / m) / 3
            var prefix = 0
            while prefix < min(4, xCount, yCount) && x(prefix) == y(prefix) { prefix += 1 }
            return jaro + Double(prefix) * 0.1 * (1 - jaro)
        }
    }

    /// `jaroWinkler` of two ASCII strings of at most 64 bytes each, on their bytes, with the matched characters
    /// of each kept as the bits of an integer; nil for any others. The same steps and the same arithmetic, so
    /// the same `Double`.
    static func asciiJaroWinkler(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Double? {
        let xCount = x.count
        let yCount = y.count
        guard xCount > 0, yCount > 0, xCount <= 64, yCount <= 64 else { return nil }
        var ascii: UInt8 = 0
        for b in x { ascii |= b }
        for b in y { ascii |= b }
        guard ascii < 0x80 else { return nil }
        let window = max(0, max(xCount, yCount) / 2 - 1)
        var matchedX: UInt64 = 0
        var matchedY: UInt64 = 0
        var matches = 0
        for i in 0..<xCount {
            let low = max(0, i - window)
            let high = min(yCount - 1, i + window)
            guard low <= high else { continue }
            let c = x[i]
            for j in low...high where matchedY & (1 << j) == 0 && c == y[j] {
                matchedX |= 1 << i
                matchedY |= 1 << j
                matches += 1
                break
            }
        }
        guard matches > 0 else { return 0 }
        // The matched characters of each string in order, paired: a pair that differs is half a transposition.
        var transpositions = 0
        var restX = matchedX
        var restY = matchedY
        while restX != 0 {
            if x[restX.trailingZeroBitCount] != y[restY.trailingZeroBitCount] { transpositions += 1 }
            restX &= restX - 1
            restY &= restY - 1
        }
        let m = Double(matches)
        let jaro = (m / Double(xCount) + m / Double(yCount) + (m - Double(transpositions / 2)) / m) / 3
        var prefix = 0
        while prefix < min(4, xCount, yCount) && x[prefix] == y[prefix] { prefix += 1 }
        return jaro + Double(prefix) * 0.1 * (1 - jaro)
    }

    /// American Soundex of a folded name (`robert` and `rupert` are `r163`), so a typo after the first letter
    /// usually keeps the key. Names in other scripts, which Soundex cannot code, key on their first two letters.
    public static func soundex(_ folded: String) -> String {
        // Four bytes at most, kept in a tuple: the key is made without a list (it fits a string without an
        // allocation of its own).
        var out: (UInt8, UInt8, UInt8, UInt8) = (0, 0x30, 0x30, 0x30)
        var count = 0
        var last: UInt8 = 0
        for b in folded.utf8 {
            guard b >= 0x61 && b <= 0x7A else {
                if b == 0x20 { continue }  // "de la cruz": the words run together
                if count == 0 { return String(Substring(folded.unicodeScalars.prefix(2))) }
                continue
            }
            let code = codes[Int(b - 0x61)]
            if count == 0 {
                out.0 = b
                count = 1
                last = code
                continue
            }
            // h and w do not separate equal codes; vowels do.
            if code == 0x30 {
                if b != 0x68 && b != 0x77 { last = 0 }
                continue
            }
            if code != last {
                switch count {
                case 1: out.1 = code
                case 2: out.2 = code
                default: out.3 = code
                }
                count += 1
            }
            last = code
            if count == 4 { break }
        }
        guard count > 0 else { return "" }
        return String(unsafeUninitializedCapacity: 4) { buffer in
            (buffer[0], buffer[1], buffer[2], buffer[3]) = out
            return 4
        }
    }

    /// Soundex digits of a-z ("0" for vowels, h, w and y).
    private static let codes: [UInt8] = Array("01230120022455012623010202".utf8)

    /// Whether `a` becomes `b` by one keystroke: a letter changed, added, dropped, or two adjacent letters
    /// swapped (optimal string alignment distance 1). What a typo does; "ana" and "ananya" are two names.
    public static func oneEdit(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        if x == y || abs(x.count - y.count) > 1 { return false }
        var i = 0
        while i < min(x.count, y.count) && x[i] == y[i] { i += 1 }
        if x.count == y.count {
            if x[(i + 1)...] == y[(i + 1)...] { return true }
            return i + 1 < x.count && x[i] == y[i + 1] && x[i + 1] == y[i] && x[(i + 2)...] == y[(i + 2)...]
        }
        return x.count > y.count ? x[(i + 1)...] == y[i...] : x[i...] == y[(i + 1)...]
    }
}
