import ContactModel
import Testing
import VCardFormat

@testable import ContactMatching
@testable import ContactMerge

/// A contacts file read without a country code reads its cards' national numbers with the code its beginning
/// suggests, and again where the whole file says otherwise: the keys must be those of reading every card without
/// a code and then with the code the whole file prevails with.
@Suite struct ContactsFileCountryCodeTests {
    /// A card with a national and an international number.
    static func card(_ i: Int, national: String, international: String) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nN:Family\(i);Person;;;\r\n"
            + "TEL;TYPE=CELL:\(national)\r\nTEL;TYPE=WORK:\(international)\r\nEND:VCARD\r\n"
    }

    static func uk(_ i: Int) -> String {
        card(i, national: "020 7946 \(1000 + i % 9000)", international: "+44 20 7946 \(1000 + (i + 7) % 9000)")
    }

    static func us(_ i: Int) -> String {
        card(i, national: "(555) 010-\(1000 + i % 9000)", international: "+1 555 020 \(1000 + (i + 3) % 9000)")
    }

    /// A card whose international number is another country's each time, so no code has more than half.
    static func mixed(_ i: Int) -> String {
        let international = [
            "+33 1 23 45 \(10 + i % 90) 00", "+49 30 123 \(1000 + i % 9000)", "+81 3 1234 \(1000 + i % 9000)",
        ]
        return card(i, national: "555 \(1000 + i % 9000)", international: international[i % 3])
    }

    /// A card with a national number alone.
    static func nationalOnly(_ i: Int) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nTEL:(555) 010-\(1000 + i % 9000)\r\nEND:VCARD\r\n"
    }

    /// Cards from `first` until the file's sampled beginning is full, then `rest` for `count` more cards.
    static func file(_ first: (Int) -> String, then rest: (Int) -> String, count: Int) -> [UInt8] {
        var text = ""
        var i = 0
        while text.utf8.count < ContactsFile.sampledBytes + 1_000 {
            text += first(i)
            i += 1
        }
        for j in 0..<count { text += rest(i + j) }
        return Array(text.utf8)
    }

    /// (name, file, the code its beginning suggests, the code the whole file prevails with)
    static let cases: [(String, [UInt8], Int?, Int?)] = [
        ("the beginning says what the file says", file(us, then: us, count: 500), 1, 1),
        ("the beginning misleads", file(uk, then: us, count: 2_400), 44, 1),
        ("the beginning names a code the file does not", file(uk, then: mixed, count: 2_400), 44, nil),
        ("the beginning names no code", file(nationalOnly, then: us, count: 1_000), nil, 1),
    ]

    @Test(arguments: cases.indices)
    func keysAreThoseOfReadingEveryCardWithTheFilesCode(_ n: Int) throws {
        let (_, bytes, suggested, prevailing) = Self.cases[n]
        let file = try ContactsFile(bytes: bytes, name: "book.vcf")
        #expect(ContactsFile.likelyCountryCode(bytes, evidence: file.charsetEvidence) == suggested)
        let identities = VCardDocument.read(bytes).cards.map { VCardReader.identity(from: $0.raw) }
        let (expected, code) = MatchKeys.resolvingPrevailingCountryCode(
            identities.map { MatchKeys($0, countryCode: nil) })
        #expect(code == prevailing)
        #expect(file.countryCode == prevailing)
        #expect(file.cards.count == expected.count)
        var differing = 0
        for (card, keys) in zip(file.cards, expected)
        where card.keys.phones.map(\.key) != keys.phones.map(\.key)
            || card.keys.phones.map(\.personal) != keys.phones.map(\.personal)
            || card.keys.indexKeys != keys.indexKeys
        {
            differing += 1
        }
        #expect(differing == 0)
    }
}
