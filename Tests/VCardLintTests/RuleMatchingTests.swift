import Testing

@testable import VCardLint

/// The byte-level matching two rules do on every line: which heads ask for quoted-printable (as the lexer
/// decides, ignoring ASCII case), and how a TYPE value splits into items (as the reader splits it).
@Suite struct RuleMatchingTests {
    @Test(arguments: [
        ("NOTE;ENCODING=QUOTED-PRINTABLE", true),
        ("note;encoding=quoted-printable", true),
        ("NOTE;CHARSET=UTF-8;QUOTED-PRINTABLE", true),
        ("item1.NOTE;ENCODING=QP", true),
        ("NOTE;encoding=Qp;CHARSET=ISO-8859-1", true),
        ("QUOTED-PRINTABLE", true),
        ("NOTE;ENCODING=QUOTED-PRINTABL", false),
        ("NOTE;ENCODING=B", false),
        ("NOTE;ENCODING=Q", false),
        ("NOTE", false),
        ("", false),
        // Only ASCII letters fold, as in the lexer: a dotless ı upper-cases to I in Unicode, not here.
        ("NOTE;ENCODING=QUOTED-PR\u{131}NTABLE", false),
    ])
    func quotedPrintableHeads(head: String, expected: Bool) {
        #expect(QuotedPrintableRule.isQuotedPrintable(ArraySlice(head.utf8)) == expected)
    }

    @Test(arguments: [
        ("work,voice", ["work", "voice"]),
        ("work", ["work"]),
        ("a,,b", ["a", "b"]),
        (",", []),
        ("", []),
        (" home , pref ", [" home ", " pref "]),
        ("maison,été", ["maison", "été"]),
        ("家,職場", ["家", "職場"]),
    ])
    func typeItems(value: String, expected: [String]) {
        #expect(TypeParameterRule.items(value) == expected)
    }
}

/// The word-at-a-time test for control characters against the byte-at-a-time one, for every byte at every
/// place of values of every length around a word.
@Suite struct ControlCharacterScanTests {
    @Test func agreesWithTheByteTest() {
        for length in 0..<20 {
            for place in 0..<max(length, 1) {
                for byte in 0...255 {
                    var value = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { value[place] = UInt8(byte) }
                    let expected = value.contains { $0 < 0x20 || $0 == 0x7F }
                    let found = value.withUnsafeBufferPointer { ControlCharacterRule.mayHoldControl($0) }
                    #expect(found == expected, "\(value)")
                }
            }
        }
    }
}
