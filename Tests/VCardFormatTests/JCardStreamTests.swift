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
        var cards: [ReadCard] = []
        let outcome = try JCard.forEachCard(more: pieces(of: bytes, size: size), name: "in.json") {
            cards.append($0)
        }
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
        let bytes = Array(bad.utf8)
        let outcome = try JCard.forEachCard(
            more: pieces(of: bytes, size: 7), name: "in.json", failed: { failures.append($0) },
            { cards.append($0) })
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

    /// Cards read a batch at a time on every processor come out as one at a time gives them: in order, with
    /// their warnings, each failure in its place, the transform's result for each, and, when an element is not
    /// one card, the cards before it and none after.
    @Test func batchesReadTogetherGiveWhatOneAtATimeGives() throws {
        func card(_ i: Int) -> String {
            i == 90
                ? #"["vcard", [["fn", {}]]]"#
                : #"["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "P\#(i) ] \" ["], "#
                    + #"["bday", {}, "date", "\#(i % 7 == 0 ? "not a date" : "2001-02-03")"]]]"#
        }
        let text = "[\n" + (0..<300).map(card).joined(separator: ",\n") + "\n]\n"
        let bytes = Array(text.utf8)
        let whole = try JCard.read(
            Array(text.replacingOccurrences(of: card(90) + ",\n", with: "").utf8), name: "in.json")
        #expect(whole.count == 299)
        for batchBytes in [1, 300, 5_000, 1 << 20] {
            var cards: [ReadCard] = []
            var failures: [JCardError] = []
            let outcome = try JCard.forEachCard(
                more: pieces(of: bytes, size: 101), name: "in.json", failed: { failures.append($0) },
                batchBytes: batchBytes, transform: { $0 },
                { cards.append($0) })
            #expect(outcome == .done)
            #expect(failures.map(\.line) == [92], "\(batchBytes)")
            #expect(cards.map(\.contact.formattedName) == (0..<300).filter { $0 != 90 }.map { "P\($0) ] \" [" })
            // Lines and card numbers are the document's: the whole read without card 90 has them one line and
            // one card earlier after it.
            for (i, streamed) in cards.enumerated() {
                #expect(streamed.raw.beginLine == whole[i].raw.beginLine + (i >= 90 ? 1 : 0))
                #expect(streamed.diagnostics.count == whole[i].diagnostics.count)
                #expect(streamed.diagnostics.map(\.line) == whole[i].diagnostics.map { $0.line + (i >= 90 ? 1 : 0) })
            }
            #expect(cards.filter { !$0.diagnostics.isEmpty }.count == 43)
        }
        // An element that is an array of two cards is not one card: the 150 before it, none after.
        let nested =
            "[\n"
            + (0..<300).map { $0 == 150 ? "[" + card(1) + ", " + card(2) + "]" : card($0 == 90 ? 91 : $0) }
            .joined(separator: ",\n") + "\n]"
        let nestedBytes = Array(nested.utf8)
        for batchBytes in [1, 5_000, 1 << 20] {
            var names: [String] = []
            let outcome = try JCard.forEachCard(
                more: pieces(of: nestedBytes, size: 4_096), name: "in.json", batchBytes: batchBytes,
                transform: { $0.contact.formattedName ?? "" },
                { names.append($0) })
            #expect(outcome == .broken)
            #expect(names.count == 150, "\(batchBytes)")
        }
    }
}
