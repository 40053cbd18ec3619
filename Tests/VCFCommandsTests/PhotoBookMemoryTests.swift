import Foundation
import Testing
import VCardFormat

/// merge and dedupe hold each card's match keys, not the contacts file, and lint --fix in place holds neither the
/// file nor its repair: a book of photographs, most of its bytes pictures, is updated in a few cards' worth of
/// memory, and what they write is the book with its changes.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"), .serialized)
struct PhotoBookMemoryTests {
    /// 64 cards with a 1.1 MB photograph each: 98 MB, so a process holding the file passes the bound. Holding it
    /// took 141 MB (release build) for merge; without it, 44-52 MB (release) and 58 MB (debug).
    static let cards = 64
    static let boundMB = 80.0

    static func book(cards: Int = cards) -> String {
        var generator = SystemRandomNumberGenerator()
        var picture = [UInt8](repeating: 0, count: 1_100_000)
        for i in stride(from: 0, to: picture.count, by: 8) {
            withUnsafeBytes(of: generator.next() as UInt64) { word in
                for k in 0..<min(8, picture.count - i) { picture[i + k] = word[k] }
            }
        }
        let encoded = Array(Data(picture).base64EncodedString().utf8)
        let folded = stride(from: 0, to: encoded.count, by: 74).map {
            String(decoding: encoded[$0..<min(encoded.count, $0 + 74)], as: UTF8.self)
        }.joined(separator: "\r\n ")
        return (0..<cards).map { i in
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nN:Family\(i);Person;;;\r\nEMAIL:p\(i)@example.org\r\n"
                + "PHOTO;ENCODING=b;TYPE=JPEG:\(folded)\r\nEND:VCARD\r\n"
        }.joined()
    }

    static func card(_ i: Int, extra: String = "") -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nN:Family\(i);Person;;;\r\nEMAIL:p\(i)@example.org\r\n"
            + "\(extra)END:VCARD\r\n"
    }

    @Test func mergeAndDedupeOfABookOfPhotographsHoldLessThanTheBook() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = Self.book()
        // A copy of card 3 (its email), to be merged into it by dedupe.
        let book = try scratch.write("book.vcf", text + Self.card(3))
        let size = Double(try scratch.bytes("book.vcf").count) / 1_048_576
        #expect(size > Self.boundMB)

        let dedupe = try ChildProcess.run(["dedupe", book], measureMemory: true)
        #expect(dedupe.status == 0, "\(dedupe.stderr.prefix(400))")
        #expect(dedupe.stderr.contains("1 merged into other cards"), "\(dedupe.stderr.prefix(400))")
        let dedupeMB = Double(try #require(dedupe.peakKB, "GNU time did not measure")) / 1024
        #expect(dedupeMB < Self.boundMB, "dedupe of a \(size) MB book: \(dedupeMB) MB peak")
        #expect(try scratch.bytes("book.vcf") == Array(text.utf8))

        let incoming = try scratch.write(
            "incoming.vcf",
            Self.card(5, extra: "TEL:+1 555 0105\r\n")
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:New Person\r\nEMAIL:new@example.org\r\nEND:VCARD\r\n")
        let merge = try ChildProcess.run(["merge", incoming, "--into", book], measureMemory: true)
        #expect(merge.status == 0, "\(merge.stderr.prefix(400))")
        #expect(merge.stderr.contains("1 added, 1 merged"), "\(merge.stderr.prefix(400))")
        let mergeMB = Double(try #require(merge.peakKB, "GNU time did not measure")) / 1024
        #expect(mergeMB < Self.boundMB, "merge into a \(size) MB book: \(mergeMB) MB peak")
        let cards = VCardDocument.read(try scratch.bytes("book.vcf")).cards.map(\.contact)
        #expect(cards.count == Self.cards + 1)
        #expect(cards[5].phones.map(\.value) == ["+1 555 0105"])
        #expect(cards[5].photo?.data?.count == 1_100_000)
        #expect(cards.last?.formattedName == "New Person")
        // Every other card's photograph came through the copy untouched.
        #expect(cards[63].photo?.data == cards[0].photo?.data)
    }

    /// Repairing a book of 24 photographs (37 MB) in place (every card gets a UID) writes what a repair into
    /// another file writes, in less memory than the file and its repair (155 MB when they were held, release build;
    /// 64 MB now with the debug build). Repairing it again finds nothing to change and leaves the file as it is.
    @Test func lintFixInPlaceOfABookOfPhotographsHoldsNeitherTheFileNorItsRepair() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cards = 24
        let book = try scratch.write("book.vcf", Self.book(cards: cards))
        let size = Double(try scratch.bytes("book.vcf").count) / 1_048_576
        let elsewhere = try ChildProcess.run(["lint", book, "--fix", "-o", scratch("fixed.vcf")])
        #expect(elsewhere.status == 0, "\(elsewhere.stderr.prefix(400))")
        let expected = try scratch.bytes("fixed.vcf")
        #expect(expected != (try scratch.bytes("book.vcf")))

        let inPlace = try ChildProcess.run(["lint", book, "--fix", "-o", book], measureMemory: true)
        #expect(inPlace.status == 0, "\(inPlace.stderr.prefix(400))")
        #expect(inPlace.stderr == elsewhere.stderr)
        #expect(inPlace.stderr.contains("\(cards) cards rewritten"), "\(inPlace.stderr.suffix(200))")
        let peakMB = Double(try #require(inPlace.peakKB, "GNU time did not measure")) / 1024
        #expect(peakMB < Self.boundMB, "lint --fix in place of a \(size) MB book: \(peakMB) MB peak")
        let fixed = try scratch.bytes("book.vcf")
        #expect(fixed == expected)
        let read = VCardDocument.read(fixed).cards.map(\.contact)
        #expect(read.count == cards)
        #expect(read.allSatisfy { $0.uid != nil && $0.photo?.data?.count == 1_100_000 })

        let before = try FileManager.default.attributesOfItem(atPath: book)
        let again = try ChildProcess.run(["lint", book, "--fix", "-o", book])
        #expect(again.status == 0, "\(again.stderr.prefix(400))")
        #expect(
            again.stderr.hasSuffix(": 0 fixed, \(cards) not fixed; nothing to change, the file was left as it was\n"),
            "\(again.stderr.suffix(200))")
        let after = try FileManager.default.attributesOfItem(atPath: book)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int, "the file was replaced")
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(try scratch.bytes("book.vcf") == expected)
    }
}
