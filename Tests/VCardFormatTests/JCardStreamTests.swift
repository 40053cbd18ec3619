import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat

/// `JCard.forEachCard`, an array of jCards read a card at a time, against `JCard.read` of the whole document:
/// the same cards with the same warnings at the same lines, columns and card numbers, whatever the pieces and
/// line ends; a single jCard or a broken document left to `read`, with nothing given twice.
@Suite struct JCardStreamTests {
    static func streamed(_ bytes: [UInt8], size: Int) throws -> (JCard.StreamOutcome, [ReadCard]) {
        var offset = 0
        var cards: [ReadCard] = []
        let pieces: () throws -> [UInt8] = {
            let end = min(bytes.count, offset + size)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }
        let outcome = try JCard.forEachCard(more: pieces, name: "in.json") { cards.append($0) }
        return (outcome, cards)
    }

    static func same(_ a: [ReadCard], _ b: [ReadCard]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy {
                $0.contact == $1.contact && $0.diagnostics == $1.diagnostics
                    && ($0.raw.beginLine, $0.raw.endLine, $0.raw.byteRange)
                        == ($1.raw.beginLine, $1.raw.endLine, $1.raw.byteRange)
            }
    }

    /// Three cards, two of them with values that do not fit their types (warnings with lines and card numbers).
    static let document = """
        [ ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Ann ] } [ { , \\" Lee"]]],
          ["vcard", [["fn", {}, "text", "Bob"],
                     ["bday", {}, "date", "not a date"]]] ,
          ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Cy"], ["x-n", {}, "integer", "1.5"]]]
        ]
        """

    @Test func anArrayStreamsAsItReadsWhole() throws {
        let fixture = try FixturePaths.bytes("jcard/edge-two-cards.json")
        for text in [Self.document, String(decoding: fixture, as: UTF8.self)] {
            for end in ["\n", "\r\n", "\r"] {
                let bytes = Array(text.replacingOccurrences(of: "\n", with: end).utf8)
                let whole = try JCard.read(bytes, name: "in.json")
                #expect(whole.count >= 2)
                for size in [1, 2, 5, 64, bytes.count + 1] {
                    let (outcome, cards) = try Self.streamed(bytes, size: size)
                    #expect(outcome == .done)
                    #expect(Self.same(cards, whole), "\(size) \(end.utf8.count)")
                }
            }
        }
        #expect(try JCard.read(Array(Self.document.utf8), name: "in.json")[1].diagnostics.map(\.line) == [2, 3])
    }

    @Test func aSingleJCardOrABrokenDocumentIsLeftToRead() throws {
        let single = #"["vcard", [["fn", {}, "text", "Ann"]]]"#
        #expect(try Self.streamed(Array(single.utf8), size: 3).0 == .notAnArray)
        let broken = Self.document + " ]"
        let (outcome, cards) = try Self.streamed(Array(broken.utf8), size: 7)
        #expect(outcome == .broken)
        #expect(cards.map(\.contact.formattedName) == ["Ann ] } [ { , \" Lee", "Bob", "Cy"])
        #expect(throws: JCardError.self) { try JCard.read(Array(broken.utf8), name: "in.json") }
    }

    /// A card that is not jCard is failed, with its place, and the cards after it are given: one bad card lost
    /// all of them. A byte that is not UTF-8 fails its card too (it was read as U+FFFD without a word).
    @Test func aCardThatIsNotJCardIsFailedAndTheRestGiven() throws {
        let bad = Self.document.replacingOccurrences(of: #"["fn", {}, "text", "Bob"]"#, with: #"["fn", {}]"#)
        #expect(bad != Self.document)
        var failures: [JCardError] = []
        var cards: [ReadCard] = []
        var offset = 0
        let bytes = Array(bad.utf8)
        let outcome = try JCard.forEachCard(
            more: {
                let end = min(bytes.count, offset + 7)
                defer { offset = end }
                return Array(bytes[offset..<end])
            }, name: "in.json", failed: { failures.append($0) }, { cards.append($0) })
        #expect(outcome == .done)
        #expect(cards.map(\.contact.formattedName) == ["Ann ] } [ { , \" Lee", "Cy"])
        #expect(failures.map(\.line) == [2])
        #expect(failures.first?.message.contains("card 2, property 1 (\"fn\")") == true)
        let latin = Array(#"[["vcard", [["fn", {}, "text", "Ren"#.utf8) + [0xE9] + Array(#""]]]]"#.utf8)
        #expect(throws: JCardError.self) { try JCard.read(latin, name: "in.json") }
        do {
            _ = try JCard.read(latin, name: "in.json")
        } catch {
            #expect(
                error.message == "expected UTF-8 text, found the byte 0xE9 (jCard is UTF-8; save the file as UTF-8)")
            #expect(error.column == 36)
        }
    }
}
