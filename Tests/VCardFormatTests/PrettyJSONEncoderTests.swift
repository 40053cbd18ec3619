import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat

/// Contact JSON written directly, byte for byte as JSONEncoder writes it with the same options: for every card
/// of the fixtures and the corpus, for values built to reach every branch of the writer, and for what it does
/// not write itself (which JSONArrayWriter hands to JSONEncoder).
@Suite struct PrettyJSONEncoderTests {
    static func foundation<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(value))
    }

    /// `JSONArrayWriter.element` as it was before the direct writer: JSONEncoder's bytes, indented by two.
    static func foundationElement<T: Encodable>(_ value: T) throws -> [UInt8] {
        var out: [UInt8] = [0x20, 0x20]
        for byte in try foundation(value) {
            out.append(byte)
            if byte == 0x0A { out += [0x20, 0x20] }
        }
        return out
    }

    static func expectSame<T: Encodable>(_ value: T, _ what: String) throws {
        #expect(try PrettyJSONEncoder.encode(value) == foundation(value), "\(what)")
        #expect(JSONArrayWriter.element(value) == (try foundationElement(value)), "\(what) as an element")
    }

    /// Every control character, the JSON specials, the slash, DEL, separators and characters of every UTF-8
    /// length, so each escape and each run between them is written.
    static let awkward: [String] = [
        "", "plain", "quote \" and backslash \\ and slash /", String((0..<32).map { Character(UnicodeScalar($0)!) }),
        "DEL \u{7F} LS \u{2028} PS \u{2029}", "é 日本 😊 \u{301}", "\"", "\\", "\u{0}", "ends with a tab\t",
    ]

    @Test func valuesThatReachEveryBranch() throws {
        for text in Self.awkward {
            try Self.expectSame(text, "string \(Array(text.utf8))")
            try Self.expectSame([text, text], "list")
            try Self.expectSame([text: text], "object keyed by it")
        }
        // Keys in every order JSONEncoder could sort them by: bytes, case, digits, symbols, beyond ASCII.
        let keys = ["b", "B", "a", "_x", "10", "9", "ä", "Z", "aa", "a_b", "aB", "ab", "", "é", "e\u{301}x", "日", "😊"]
        try Self.expectSame(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }), "keys")
        try Self.expectSame([String](), "empty list")
        try Self.expectSame([String: Int](), "empty object")
        try Self.expectSame([[String]](), "empty list of lists")
        try Self.expectSame([[], ["x"]] as [[String]], "nested lists")
        try Self.expectSame(["a": [String: Int](), "b": ["c": 1]], "nested objects")
        try Self.expectSame([Int.min, -1, 0, 1, Int.max], "integers")
        try Self.expectSame([UInt8(0), 255], "bytes")
        try Self.expectSame([UInt64.max], "large unsigned")
        try Self.expectSame([true, false], "booleans")
        try Self.expectSame(["a": nil, "b": "x"] as [String: String?], "nil")
        try Self.expectSame(Data((0..<200).map { UInt8($0) }), "data as base64")
    }

    /// A value that encodes a key twice, and asks for its keyed container twice (as the preview's card does).
    struct Twice: Encodable {
        enum Key: String, CodingKey { case b, a, c }
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: Key.self)
            try first.encode("first b", forKey: .b)
            try first.encode(1, forKey: .a)
            try first.encode("first b again", forKey: .b)
            var second = encoder.container(keyedBy: Key.self)
            try second.encode("last b", forKey: .b)
            try second.encode([1, 2], forKey: .c)
        }
    }

    @Test func aKeyEncodedAgainKeepsItsLastValue() throws {
        try Self.expectSame(Twice(), "a key encoded three times")
        try Self.expectSame([Twice(), Twice()], "in a list")
    }

    @Test func whatItDoesNotWriteGoesToFoundation() throws {
        for value in [1.5, 0.1, 1e300, -0.0] {
            #expect(throws: PrettyJSONEncoder.Unsupported.self) { try PrettyJSONEncoder.encode(value) }
            #expect(JSONArrayWriter.element(["x": value]) == (try Self.foundationElement(["x": value])))
        }
        #expect(throws: PrettyJSONEncoder.Unsupported.self) {
            try PrettyJSONEncoder.encode(Date(timeIntervalSince1970: 0))
        }
        let url = URL(string: "https://example.com/a?b=c")!
        #expect(JSONArrayWriter.element(["u": url]) == (try Self.foundationElement(["u": url])))
    }

    @Test func everyFixtureCard() throws {
        let fixtures = FixturePaths.url("vcard")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".vcf") }
        #expect(names.count > 10)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent(name)))
            for card in VCardDocument.read(bytes, name: name).0 {
                try Self.expectSame(card.contact, "\(name):\(card.raw.beginLine)")
            }
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["VCF_CORPUS"] != nil, "VCF_CORPUS is not set"))
    func everyCorpusCard() throws {
        let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["VCF_CORPUS"] ?? "")
        let names = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter {
            !$0.hasSuffix(".md") && !$0.hasSuffix(".tsv") && !$0.contains("LICENSE")
        }
        var cards = 0
        for name in names {
            let url = root.appendingPathComponent(name)
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            for card in VCardDocument.read([UInt8](try Data(contentsOf: url)), name: name).0 {
                try Self.expectSame(card.contact, "\(name):\(card.raw.beginLine)")
                cards += 1
            }
        }
        #expect(cards > 500)
    }
}
