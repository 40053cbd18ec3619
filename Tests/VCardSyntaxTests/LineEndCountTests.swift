import Testing

@testable import VCardSyntax

/// `CardBoundary.countLineEnds`, which gives each segment of the parallel reader its first line number, counts
/// line ends as the lexer does: LF, CR LF and CR CR LF are one each, and so is a run of CRs before anything else.
@Suite struct LineEndCountTests {
    private func count(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { CardBoundary.countLineEnds($0, 0..<$0.count) }
    }

    /// The count a byte at a time, as the rule reads.
    private func reference(_ bytes: [UInt8]) -> Int {
        var count = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                count += 1
            } else if bytes[index] == 0x0D {
                var after = index + 1
                while after < bytes.count && bytes[after] == 0x0D { after += 1 }
                count += 1
                index = after < bytes.count && bytes[after] == 0x0A ? after : after - 1
            }
            index += 1
        }
        return count
    }

    @Test func knownAnswers() {
        let cases: [(String, Int)] = [
            ("", 0), ("a", 0), ("a\r\n", 1), ("a\n", 1), ("a\r", 1), ("\r\r\n", 1), ("\r\rx", 1), ("\n\r", 2),
            ("\r\n\r\n", 2), ("BEGIN:VCARD\r\nFN:A\r\nEND:VCARD\r\n", 3), ("x\r\r\r\r\r\r\r\r\r\ny", 1),
        ]
        for (text, expected) in cases {
            #expect(count(Array(text.utf8)) == expected, "\(text.debugDescription)")
        }
    }

    /// Random mixes of CR, LF and text, short and long (past the eight-byte words and the `memchr` runs), give
    /// the byte-at-a-time count, also for a range inside a larger buffer.
    @Test func agreesWithTheRuleOnRandomInput() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet: [UInt8] = [0x0D, 0x0A, 0x61, 0x62, 0x0D, 0x0A, 0x20]
        var compared = 0
        for length in Array(0...40) + [63, 64, 65, 200, 1000, 4099] {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }
                #expect(count(bytes) == reference(bytes), "\(bytes)")
                if length > 4 {
                    let inner = bytes.withUnsafeBufferPointer { CardBoundary.countLineEnds($0, 2..<(length - 2)) }
                    #expect(inner == reference(Array(bytes[2..<(length - 2)])))
                }
                compared += 1
            }
        }
        #expect(compared == 47 * 20)
    }
}
