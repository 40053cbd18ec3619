import Foundation
import TestSupport
import Testing
import Utilities
import VCardSyntax

@testable import VCardLint

/// `StreamFixer`, which repairs a file a part at a time, against `Linter.fix` of the whole file: the same bytes,
/// the same changes in the same order and the same counts, however the file is cut and fed.
@Suite struct StreamFixerTests {
    /// The repair of `bytes` fed to a survey and a fixer `chunk` bytes at a time.
    static func streamed(_ bytes: [UInt8], chunk: Int, options: LintOptions = LintOptions()) throws -> LintFix {
        let parts = stride(from: 0, to: bytes.count, by: chunk).map { Array(bytes[$0..<min(bytes.count, $0 + chunk)]) }
        var survey = UIDSurvey(file: "t.vcf", options: options)
        for part in parts { try survey.feed(part) }
        var out: [UInt8] = []
        var fixer = StreamFixer(file: "t.vcf", options: options, existingUIDs: try survey.finish()) { out += $0 }
        for part in parts { try fixer.feed(part) }
        var result = try fixer.finish()
        result.bytes = out
        return result
    }

    static func expectSame(_ bytes: [UInt8], _ name: String, options: LintOptions = LintOptions()) throws {
        let whole = Linter.fix(bytes, file: "t.vcf", options: options)
        for chunk in [997, 64 << 10, 1 << 20] {
            let parts = try streamed(bytes, chunk: chunk, options: options)
            #expect(parts.bytes == whole.bytes, "\(name), fed \(chunk) bytes at a time: the repaired bytes")
            #expect(parts.changes == whole.changes, "\(name), fed \(chunk) bytes at a time: the changes")
            #expect(parts.cardsRewritten == whole.cardsRewritten && parts.cardsKept == whole.cardsKept, "\(name)")
        }
        let inParts = Linter.fixInParts(bytes, file: "t.vcf", options: options)
        #expect(inParts.bytes == whole.bytes && inParts.changes == whole.changes, "\(name): fixInParts")
    }

    static func card(_ lines: String...) -> String {
        (["BEGIN:VCARD", "VERSION:3.0"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    /// The lint fixtures many times over, with a BOM, text between cards, stray END lines, copies of one card
    /// without a UID (each gets its own, across parts) and a card whose UID is the one a later copy's content
    /// makes: a file of many parts.
    @Test func aLargeBrokenFileIsRepairedAsWhole() throws {
        let broken = try FixturePaths.bytes("lint/broken.vcf")
        let clean = try FixturePaths.bytes("lint/clean.vcf")
        let copy = Self.card("FN:Ann Copy", "EMAIL:ann@example.com")
        var text: [UInt8] = [0xEF, 0xBB, 0xBF]
        for k in 0..<120 {
            text += k % 2 == 0 ? broken : clean
            text += Array("note between cards \(k)\r\n\r\nEND:VCARD\r\n".utf8)
            text += Array(copy.utf8)
        }
        let whole = Linter.fix(text, file: "t.vcf")
        #expect(text.count > 4 * StreamLinter.partBytes)
        #expect(whole.cardsRewritten > 100 && whole.cardsKept > 0 && !whole.changes.isEmpty)
        try Self.expectSame(text, "fixtures")
        // The same file in UTF-16, both byte orders, with and without a mark (it was repaired whole: 322 MB for
        // 4 MB of tiny cards).
        let text16 = Array(String(decoding: text, as: UTF8.self).utf16)
        try Self.expectSame([0xFF, 0xFE] + text16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16LE")
        try Self.expectSame(text16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "UTF-16BE")
        // The UID the first copy's content makes, taken by a card at the end of the file.
        let made = whole.changes.first { $0.message.contains("added UID") }?.message
        let uid = try #require(made?.split(separator: " ").dropFirst(2).first.map(String.init))
        try Self.expectSame(text + Array(Self.card("FN:Other", "UID:\(uid)").utf8), "a later card with a made UID")
    }

    /// Cards with no place to cut between them (BEGIN lines with no END) in the middle of a large file, read in
    /// order from there; a file of no cards; text alone.
    @Test func filesWithoutCutsOrCardsAreRepairedAsWhole() throws {
        var text = ""
        for k in 0..<800 { text += Self.card("FN:Person \(k)", "N:\(k);P;;;") }
        for k in 0..<300 { text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Open \(k)\r\n" }
        for k in 0..<400 { text += Self.card("FN:After \(k)") }
        try Self.expectSame(Array(text.utf8), "no cuts")
        try Self.expectSame([], "empty")
        try Self.expectSame(Array("just a note\r\nand another\r\n".utf8), "text alone")
        try Self.expectSame(Array(text.utf8), "strict", options: LintOptions(strict: true))
    }

    /// A line of junk before every card leaves no place to cut between cards, so the cards are read in order from
    /// the start: past the first part of such a stretch, a repair copied each card by a range counted from the
    /// stretch's start and crashed (an index out of range), in UTF-8 and, once it streamed, in UTF-16.
    @Test func junkBeforeEveryCardIsRepairedAsWhole() throws {
        var text = ""
        for k in 0..<2_500 { text += "junk\r\n" + Self.card("FN:P\(k)", "N:P;\(k);;;") }
        #expect(text.utf8.count > 2 * StreamLinter.partBytes)
        try Self.expectSame(Array(text.utf8), "junk before every card")
        let units = Array(text.utf16)
        try Self.expectSame(units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "the same in UTF-16LE")
    }

    /// Every file of the corpus (when `VCF_CORPUS` names it), alone and all of them as one file.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["VCF_CORPUS"] != nil, "VCF_CORPUS is not set"))
    func theCorpusIsRepairedAsWhole() throws {
        let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["VCF_CORPUS"] ?? "")
        let names = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter {
            !$0.hasSuffix(".md") && !$0.hasSuffix(".tsv") && !$0.contains("LICENSE")
        }.sorted()
        var all: [UInt8] = []
        var files = 0
        for name in names {
            let url = root.appendingPathComponent(name)
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let bytes = [UInt8](try Data(contentsOf: url))
            try Self.expectSame(bytes, name)
            // (UTF-16 files left out of the file of them all: their bytes are no UTF-8 text.)
            if UTF16Text.byteOrder(of: Array(bytes.prefix(4))) == nil { all += bytes }
            files += 1
        }
        #expect(files > 50)
        try Self.expectSame(all, "the corpus as one file")
    }
}
