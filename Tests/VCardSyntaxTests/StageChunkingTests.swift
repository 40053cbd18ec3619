import Foundation
import TestSupport
import Testing
import VCardSyntax

/// Every stage of the lexer gives the same output whether its input is fed whole, byte by byte or in random chunks
/// (as swift-nio's ByteToMessageDecoderVerifier checks decoders), over every vCard fixture and every input the
/// fuzzers kept.
@Suite struct StageChunkingTests {
    /// Every `.vcf` under Fixtures/ and every file libFuzzer kept for the vCard round trip.
    static let inputs: [String] = {
        let root = FixturePaths.root.path
        let all = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        let vcards = all.filter { $0.hasSuffix(".vcf") && !$0.hasPrefix("fuzz/") }
        return vcards.sorted() + FuzzFixtures.files("FuzzRoundTrip")
    }()

    enum Stage: String, CaseIterable, CustomTestStringConvertible {
        case lineSplitter, unfolder, cardAssembler
        /// The whole lexer with limits the fixtures exceed, so lines and cards over them meet chunk boundaries.
        case cardAssemblerWithSmallLimits
        var testDescription: String { rawValue }
    }

    @Test func theFixturesArePresent() {
        #expect(Self.inputs.count > 400)
        #expect(Self.inputs.contains { $0.hasPrefix("fuzz/FuzzRoundTrip/") })
        #expect(Self.inputs.contains { $0.hasPrefix("vcard/") })
    }

    @Test(arguments: Stage.allCases)
    func sameOutputWholeByteByByteAndInRandomChunks(_ stage: Stage) throws {
        #expect(!Self.inputs.isEmpty)
        for input in Self.inputs {
            let bytes = try FixturePaths.bytes(input)
            let whole = Self.run(stage, bytes, chunks: [max(1, bytes.count)])
            #expect(Self.run(stage, bytes, chunks: [1]) == whole, "\(input), byte by byte")
            var random = SeededRandom(seed: UInt64(bytes.count))
            for round in 0..<3 {
                let chunks = (0..<16).map { _ in Int.random(in: 1...64, using: &random) }
                #expect(Self.run(stage, bytes, chunks: chunks) == whole, "\(input), random chunks \(round)")
            }
        }
    }

    /// The stage's output, rendered to compare: lines with their numbers and offsets, or cards and diagnostics.
    static func run(_ stage: Stage, _ bytes: [UInt8], chunks: [Int]) -> [String] {
        switch stage {
        case .lineSplitter:
            var splitter = LineSplitter(maxLineBytes: Limits.default.maxLineBytes)
            var out: [String] = []
            func drain(final: Bool) {
                let buffer = splitter.buffer
                buffer.withUnsafeBufferPointer { b in
                    while let event = splitter.next(b, final: final) {
                        switch event {
                        case .line(let start, let end, let next):
                            let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
                            let base = splitter.bufferBase
                            out.append("\(splitter.lineNumber) \(base + start)..<\(base + next) \(text)")
                        case .overlongLine(_, _, let number):
                            out.append("\(number) overlong")
                        case .endOfOverlongLine:
                            break
                        }
                    }
                }
            }
            forEachChunk(bytes, chunks) { chunk in
                _ = chunk.withUnsafeBufferPointer { splitter.append($0, retaining: nil) }
                if !splitter.waitingForByteOrderMark { drain(final: false) }
            }
            splitter.finishInput()
            drain(final: true)
            return out
        case .unfolder:
            var reader = LogicalLineReader(limits: .default, consumer: LogicalLineCollector())
            forEachChunk(bytes, chunks) { chunk in chunk.withUnsafeBufferPointer { reader.feed($0) } }
            reader.finish()
            return reader.consumer.lines
        case .cardAssembler, .cardAssemblerWithSmallLimits:
            // Cards come when they end and diagnostics when they are found, so each is compared in its own order.
            var lexer = VCardLexer(limits: stage == .cardAssembler ? .default : smallLimits)
            var cards: [String] = []
            var diagnostics: [String] = []
            forEachChunk(bytes, chunks) { chunk in
                cards += lexer.feed(chunk).map(describe)
                diagnostics += lexer.takeDiagnostics().map(\.description)
            }
            cards += lexer.finish().map(describe)
            diagnostics += lexer.takeDiagnostics().map(\.description)
            return cards + diagnostics + ["ended inside a card: \(lexer.endedInsideCard)"]
        }
    }

    /// Limits some fixtures exceed (photo lines, large cards, many parameters, nested cards). The line limit is no
    /// less than the 4,096 bytes the unfolder looks at of a line too long to keep, so that what it sees of one does
    /// not depend on how much of it has arrived.
    static let smallLimits = Limits(maxLineBytes: 4_096, maxCardBytes: 2_000, maxParameters: 3, maxNestingDepth: 1)

    static func forEachChunk(_ bytes: [UInt8], _ chunks: [Int], _ body: ([UInt8]) -> Void) {
        var offset = 0
        var index = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, chunks[index % chunks.count]))
            body(Array(bytes[offset..<end]))
            offset = end
            index += 1
        }
    }

    static func describe(_ card: RawCard) -> String {
        "card \(card.beginLine)-\(card.endLine.map(String.init) ?? "?") \(card.byteRange) \(card.group ?? "")\n"
            + card.lines.map(Lexed.render).joined(separator: "\n")
    }
}

/// Collects the unfolder's logical lines and diagnostics, reading the version from the lines as the card
/// assembler would.
struct LogicalLineCollector: LogicalLineConsumer {
    var lines: [String] = []
    var inV21Card = false

    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ origin: LogicalLineOrigin) {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        let upper = text.uppercased()
        if upper.hasPrefix("BEGIN:") { inV21Card = false }
        if upper.hasPrefix("VERSION:2") { inV21Card = true }
        lines.append("\(origin.line) \(origin.absoluteStart)..<\(origin.absoluteEnd) \(text)")
    }

    mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String, line: Int) {
        lines.append("\(line) \(severity.rawValue) \(code.rawValue) \(message)")
    }
}
