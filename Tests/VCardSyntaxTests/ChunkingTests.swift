import Foundation
import TestSupport
import Testing
import VCardSyntax

/// The lexer gives the same cards and diagnostics whether fed whole, byte by byte or in random chunks
/// (as swift-nio's ByteToMessageDecoderVerifier checks decoders).
@Suite struct ChunkingTests {
    static let fixtures: [String] = (try? FixturePaths.files(in: "vcard", withExtension: "vcf")) ?? []

    /// A moved or emptied fixture folder fails here instead of running the cases below zero times.
    @Test func fixturesArePresent() {
        #expect(Self.fixtures.count >= 50, "expected at least 50 Fixtures/vcard/*.vcf")
    }

    static func lex(_ bytes: [UInt8], chunks: [Int]) -> ([RawCard], [Diagnostic]) {
        var lexer = VCardLexer()
        var cards: [RawCard] = []
        var diagnostics: [Diagnostic] = []
        var offset = 0
        var chunkIndex = 0
        while offset < bytes.count {
            let size = max(1, chunks[chunkIndex % chunks.count])
            let end = min(bytes.count, offset + size)
            cards += lexer.feed(Array(bytes[offset..<end]))
            diagnostics += lexer.takeDiagnostics()
            offset = end
            chunkIndex += 1
        }
        cards += lexer.finish()
        diagnostics += lexer.takeDiagnostics()
        return (cards, diagnostics)
    }

    @Test(arguments: fixtures)
    func sameCardsWholeByteByByteAndInRandomChunks(_ file: String) throws {
        let bytes = try FixturePaths.bytes("vcard/" + file)
        let whole = VCardLexer.parse(bytes)
        let byteByByte = Self.lex(bytes, chunks: [1])
        #expect(byteByByte.0 == whole.cards)
        #expect(byteByByte.1 == whole.diagnostics)
        var random = SeededRandom(seed: UInt64(bytes.count))
        for _ in 0..<5 {
            let chunks = (0..<16).map { _ in Int.random(in: 1...64, using: &random) }
            let chunked = Self.lex(bytes, chunks: chunks)
            #expect(chunked.0 == whole.cards)
            #expect(chunked.1 == whole.diagnostics)
        }
    }
}
