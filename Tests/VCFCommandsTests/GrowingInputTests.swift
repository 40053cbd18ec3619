import Foundation
import Testing
import UserFiles
import VCardFormat

@testable import VCFCommands

/// merge holds every card it reads. An incoming file read as a stream that grows while it is read stops where
/// reading it whole would (its size when opened, and the read limit's growth), instead of filling memory with
/// the cards of a file that never ends.
@Suite struct GrowingInputTests {
    static let card =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person\r\nNOTE:\(String(repeating: "x", count: 950))\r\nEND:VCARD\r\n"

    /// Reads `path` as merge does, with room for 1 MiB of growth, appending `grow` when the first card arrives;
    /// the cards read, the read failures and what was said.
    static func read(_ path: String, growingBy grow: String, holdingCards: Bool) -> (Int, Int, String) {
        let (io, _, err) = CommandIO.capturing()
        var reader = InputReader(io: io)
        reader.readsPipesWhole = holdingCards
        reader.limits = ReadLimits(maxUnsizedBytes: 1 << 20)
        var cards = 0
        let nothing: @Sendable (ReadCard) -> Int = { _ in 0 }
        do {
            try reader.forEachCard(in: [UserPath(path)], preparing: nothing) { _, _ in
                if cards == 0, let handle = FileHandle(forWritingAtPath: path) {
                    handle.seekToEndOfFile()
                    handle.write(Data(grow.utf8))
                    handle.closeFile()
                }
                cards += 1
            }
        } catch {
            Issue.record("reading threw \(error)")
        }
        return (cards, reader.ioFailures, err())
    }

    @Test func aFileThatGrowsPastTheLimitWhileMergeReadsItIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 8 MB, so the reader is still reading when the first card arrives; 8 MB more appended then.
        let text = String(repeating: Self.card, count: 8_000)
        let path = try scratch.write("in.vcf", text)
        let (cards, failures, said) = Self.read(path, growingBy: text, holdingCards: true)
        #expect(failures == 1, "\(said)")
        #expect(said.contains("in.vcf: error: is too large to read whole"), "\(said)")
        #expect(said.contains("it grew by more than 1 MiB while it was read"), "\(said)")
        #expect(cards >= 8_000 && cards <= 8_000 + (1 << 20) / Self.card.utf8.count, "\(cards) cards")

        // A command that holds no card reads the grown file to its end; growth within the limit is read whole.
        let again = try scratch.write("again.vcf", text)
        let streamed = Self.read(again, growingBy: text, holdingCards: false)
        #expect(streamed.0 == 16_000 && streamed.1 == 0, "\(streamed.2)")
        let within = try scratch.write("within.vcf", text)
        let small = Self.read(within, growingBy: String(repeating: Self.card, count: 500), holdingCards: true)
        #expect(small.0 == 8_500 && small.1 == 0, "\(small.2)")
    }
}
