/// Which content lines a lexer keeps in its cards, for a reader that needs only some properties: matching reads
/// a large book's identity lines, and copying every other line into its card cost it a tenth of its time.
///
/// A line left out must change nothing about the lines kept, so some lines are kept whatever their names:
/// VERSION and AGENT (they decide how the lines after them are read), grouped lines (a group's label goes to its
/// one labelled property), the lines of a card nested inline after AGENT, and any line that could weigh in its
/// card's charset decision (a byte above 0x7F, a CHARSET parameter, quoted-printable). A line is left out only
/// after it is parsed, and only when it would be read without a diagnostic, so a file's problems are reported as
/// before.
package struct LineSelection: Sendable, Hashable {
    /// The upper-case names of the properties kept.
    private let names: [[UInt8]]

    /// Keeps the properties named `names` (any case), besides the lines every selection keeps.
    package init(keeping names: [String]) {
        self.names = (names + ["VERSION", "AGENT"]).map { Array($0.uppercased().utf8) }
    }

    /// Whether a property named `bytes[name]` (trimmed) is kept.
    func keeps(_ bytes: UnsafeBufferPointer<UInt8>, name: Range<Int>) -> Bool {
        names.contains { kept in
            kept.count == name.count
                && kept.indices.allSatisfy { ASCII.upper(bytes[name.lowerBound + $0]) == kept[$0] }
        }
    }

    /// Whether `bytes[range]` has a byte above 0x7F, eight bytes at a time (a photo's line is tens of kilobytes).
    static func hasEightBitByte(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var index = range.lowerBound
        var words: UInt64 = 0
        while index + 8 <= range.upperBound {
            words |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < range.upperBound {
            words |= UInt64(bytes[index])
            index += 1
        }
        return words & 0x8080_8080_8080_8080 != 0
    }
}
