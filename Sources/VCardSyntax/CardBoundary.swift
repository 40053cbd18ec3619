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

    /// The number of line ends in `bytes[range]` as the lexer counts them: LF, CR LF and CR CR LF are one
    /// each, and so is a run of CRs followed by anything else. `range` must end after a whole line end.
    public static func countLineEnds(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        // Counted as every LF, and every CR that neither a CR nor an LF follows (the CR that ends a run of CRs
        // with no LF after it): the same count, found with `memchr` rather than a byte at a time.
        let part = UnsafeBufferPointer(rebasing: bytes[range])
        var count = 0
        var lf = ByteFinder(ASCII.lf)
        var index = 0
        while let found = lf.first(in: part, from: index) {
            count += 1
            index = found + 1
        }
        var cr = ByteFinder(ASCII.cr)
        index = 0
        while let found = cr.first(in: part, from: index) {
            if found + 1 == part.count || (part[found + 1] != ASCII.cr && part[found + 1] != ASCII.lf) { count += 1 }
            index = found + 1
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
