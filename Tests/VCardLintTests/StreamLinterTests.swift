import Testing
import VCardSyntax

@testable import VCardLint

/// The streaming linter gives the whole-file linter's findings, in order, a few cards' at a time.
@Suite struct StreamLinterTests {
    /// Tiny cards, each with two findings (no N, no UID), past the bytes held for the charset survey.
    static let tinyCards: [UInt8] = {
        var text = ""
        var index = 0
        while text.utf8.count < CharsetEvidence.surveyedBytes + (1 << 20) {
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:P\(index)\r\nEND:VCARD\r\n"
            index += 1
        }
        return Array(text.utf8)
    }()

    @Test func findingsHandedOnAsTheyComeAreTheWholeFilesInOrder() throws {
        let whole = Linter.lint(Self.tinyCards, file: "t.vcf")
        var linter = StreamLinter(file: "t.vcf")
        var batches: [[Diagnostic]] = []
        var offset = 0
        while offset < Self.tinyCards.count {
            let end = min(Self.tinyCards.count, offset + (1 << 20))
            try linter.feed(Array(Self.tinyCards[offset..<end])) { batches.append($0) }
            offset = end
        }
        linter.finish { batches.append($0) }
        let streamed = batches.flatMap { $0 }
        #expect(streamed.count == whole.count)
        #expect(streamed.map(\.description) == whole.map(\.description))
        // The first 4 MiB (about 87,000 cards) are held for the survey, but not handed on as one batch: a
        // batch is a part of about 64 KiB, some 1,300 of these cards.
        let largest = batches.map(\.count).max() ?? 0
        #expect(largest > 0 && largest <= 2 * 2 * (StreamLinter.partBytes / 48), "\(largest) findings in one batch")
    }
}
