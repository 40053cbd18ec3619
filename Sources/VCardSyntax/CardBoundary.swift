/// Finds places where a vCard stream can be cut so that each part lexes on its own, for reading parts
/// on several threads: the start of a `BEGIN:VCARD` line right after an `END:VCARD` line.
///
/// Such a place is a boundary in every well-formed file, but not always (a 2.1 card may hold nested cards,
/// and a quoted-printable value may run over an `END:VCARD` line), so a reader must check that the part
/// before it ended outside any card (`VCardLexer.endedInsideCard`) and read the two parts together if not.
package enum CardBoundary {
    /// The last cut point in `bytes[range]`, if any.
    public static func lastCut(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var p = range.upperBound - 12
        while p > range.lowerBound {
            // A cut is at a `B` right after a line end, with the whole BEGIN line in the range.
            if (bytes[p] | 0x20) == UInt8(ascii: "b"), isLineEnd(bytes[p - 1]),
                isLine(bytes, p, range.upperBound, "BEGIN:VCARD"),
                previousLineIsEnd(bytes, before: p, from: range.lowerBound)
            {
                return p
            }
            p -= 1
        }
        return nil
    }

    /// The number of `BEGIN:VCARD` lines whose line end is in `bytes[range]` (a line begun before `range` is
    /// counted, so a stretch read in parts counts each line once).
    public static func countBeginLines(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        let length = 11  // BEGIN:VCARD
        var count = 0
        let from = max(range.lowerBound, length)
        guard from < range.upperBound else { return 0 }
        for p in from..<range.upperBound where isLineEnd(bytes[p]) {
            let start = p - length
            if (start == 0 || isLineEnd(bytes[start - 1])) && ASCII.equalsIgnoringCase(bytes, start..<p, "BEGIN:VCARD")
            {
                count += 1
            }
        }
        return count
    }

    /// The number of line ends in `bytes[range]` as the lexer counts them: LF, CR LF and CR CR LF are one
    /// each, and so is a run of CRs followed by anything else. `range` must end after a whole line end.
    public static func countLineEnds(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        // Counted as every LF, plus every CR, less each CR that a CR or an LF follows (so a run of CRs counts
        // once, and a CR before an LF not at all): the same count, sixteen bytes at a time.
        guard let base = bytes.baseAddress, !range.isEmpty else { return 0 }
        var count = 0
        var index = range.lowerBound
        let end = range.upperBound
        let lf = SIMD16<UInt8>(repeating: ASCII.lf)
        let cr = SIMD16<UInt8>(repeating: ASCII.cr)
        let zero = SIMD16<UInt8>(repeating: 0)
        let one = SIMD16<UInt8>(repeating: 1)
        // Each lane counts to at most 255 before it is added up.
        while index + 17 <= end {
            var lanes = zero
            var rounds = 0
            while rounds < 255 && index + 17 <= end {
                let here = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
                let next = UnsafeRawPointer(base + index + 1).loadUnaligned(as: SIMD16<UInt8>.self)
                let isCR = here .== cr
                let ends = (here .== lf) .| (isCR .& (next .!= cr) .& (next .!= lf))
                lanes &+= zero.replacing(with: one, where: ends)
                index += 16
                rounds += 1
            }
            count += Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
        }
        while index < end {
            let byte = bytes[index]
            if byte == ASCII.lf {
                count += 1
            } else if byte == ASCII.cr {
                if index + 1 == end || (bytes[index + 1] != ASCII.cr && bytes[index + 1] != ASCII.lf) { count += 1 }
            }
            index += 1
        }
        return count
    }

    @inline(__always)
    private static func isLineEnd(_ byte: UInt8) -> Bool { byte == ASCII.lf || byte == ASCII.cr }

    /// Whether `bytes` from `start` is exactly `word` (ignoring case) followed by a line end before `end`.
    private static func isLine(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ word: StaticString)
        -> Bool
    {
        let n = word.utf8CodeUnitCount
        guard start + n < end else { return false }
        return ASCII.equalsIgnoringCase(bytes, start..<(start + n), word) && isLineEnd(bytes[start + n])
    }

    /// Whether the line that ends just before `position` (its line end included) is `END:VCARD`.
    private static func previousLineIsEnd(_ bytes: UnsafeBufferPointer<UInt8>, before position: Int, from: Int)
        -> Bool
    {
        var end = position
        while end > from && isLineEnd(bytes[end - 1]) { end -= 1 }
        let start = end - 9
        guard start > from, isLineEnd(bytes[start - 1]) else { return false }
        return ASCII.equalsIgnoringCase(bytes, start..<end, "END:VCARD")
    }
}
