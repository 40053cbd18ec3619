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
        var count = 0
        var index = range.lowerBound
        let end = range.upperBound
        guard let base = bytes.baseAddress else { return 0 }
        while index < end {
            // Skip eight bytes at a time while they hold neither CR nor LF.
            if index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if !has(word, ASCII.lf) && !has(word, ASCII.cr) {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if byte == ASCII.lf {
                count += 1
            } else if byte == ASCII.cr {
                var after = index + 1
                while after < end && bytes[after] == ASCII.cr { after += 1 }
                count += 1
                // The LF after a CR run belongs to the same line end.
                index = after < end && bytes[after] == ASCII.lf ? after : after - 1
            }
            index += 1
        }
        return count
    }

    @inline(__always)
    private static func has(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
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
