import ContactModel
import Foundation
import Synchronization
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

/// Reading on several threads gives exactly what one sequential read gives: the same cards, raw lines,
/// diagnostics and line numbers, in the same order. Tiny segments force a cut at nearly every card
/// boundary, including the false ones (nested 2.1 cards) that must fall back to sequential reading.
@Suite struct ParallelReadingTests {
    struct Reading: Equatable {
        var cards: [ReadCard.Comparable] = []
        var fileDiagnostics: [Diagnostic] = []
    }

    static func sequential(_ path: String) throws -> Reading {
        let reader = try VCardFileReader(path: path)
        var reading = Reading()
        while let card = try reader.next() { reading.cards.append(.init(card)) }
        reading.fileDiagnostics = reader.takeFileDiagnostics()
        return reading
    }

    static func parallel(_ path: String, segmentBytes: Int, maxSegmentBytes: Int = 1 << 20) throws -> Reading {
        var reading = Reading()
        let reader = ParallelCardReader(workers: 2, segmentBytes: segmentBytes, maxSegmentBytes: maxSegmentBytes)
        try reader.read(
            path: path, transform: { $0 }, body: { reading.cards.append(.init($0)) },
            diagnostics: { reading.fileDiagnostics += $0 })
        return reading
    }

    static let fixtures: [String] = (try? FixturePaths.files(in: "vcard", withExtension: "vcf")) ?? []

    /// A moved or emptied fixture folder fails here instead of running the cases below zero times.
    @Test func fixturesArePresent() {
        #expect(Self.fixtures.count >= 50, "expected at least 50 Fixtures/vcard/*.vcf")
    }

    @Test(arguments: fixtures)
    func sameAsSequentialForEachFixture(_ file: String) throws {
        let path = FixturePaths.url("vcard/" + file).path
        let expected = try Self.sequential(path)
        for size in [16, 64, 1 << 20] {
            #expect(try Self.parallel(path, segmentBytes: size) == expected, "segments of \(size) bytes")
        }
        // A cap below the card size sends everything after the first cut through one sequential lexer.
        #expect(try Self.parallel(path, segmentBytes: 16, maxSegmentBytes: 32) == expected)
    }

    @Test func sameAsSequentialForAllFixturesInOneStream() throws {
        var all: [UInt8] = []
        for file in Self.fixtures where !file.contains("utf16") {
            all += try FixturePaths.bytes("vcard/" + file)
            all += Array("\r\n".utf8)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-parallel-\(UUID().uuidString).vcf")
        try Data(all).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = try Self.sequential(url.path)
        #expect(expected.cards.count > 50)
        for size in [100, 4096] {
            #expect(try Self.parallel(url.path, segmentBytes: size) == expected, "segments of \(size) bytes")
        }
    }

    /// Cards run together with no place to cut between them (BEGIN lines with no END) are read as one sequential
    /// read gives them, and handed over as they are read: held for a cut that never came, they were all read
    /// before the first was handed over.
    @Test func cardsWithNoCutBetweenThemAreHandedOverAsTheyAreRead() throws {
        // Each card carries a note, so a 64 KiB slice holds a few dozen of them.
        let stretch = String(
            repeating: "BEGIN:VCARD\r\nFN:x\r\nNOTE:" + String(repeating: "n", count: 1_000) + "\r\n", count: 2_000)
        let text =
            "BEGIN:VCARD\r\nFN:Ann\r\nEND:VCARD\r\n" + stretch + "END:VCARD\r\nBEGIN:VCARD\r\nFN:Bo\r\nEND:VCARD\r\n"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-run-\(UUID().uuidString).vcf")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = try Self.sequential(url.path)
        #expect(expected.cards.count == 2_002)
        #expect(try Self.parallel(url.path, segmentBytes: 4096) == expected)
        // The most cards read and not yet handed over, at any hand-over.
        let reader = ParallelCardReader(workers: 2, segmentBytes: 4096)
        var ahead = 0
        var delivered = 0
        let counted = Mutex(0)
        try reader.read(
            path: url.path, transform: { _ in counted.withLock { $0 += 1 } },
            body: {
                delivered += 1
                ahead = max(ahead, counted.withLock { $0 } - delivered)
            },
            diagnostics: { _ in })
        #expect(delivered == 2_002)
        #expect(ahead < 500, "\(ahead) cards read before being handed over")
    }

    /// An input of one segment is read on the calling thread, with no worker started (a folder of thousands of
    /// one-card files started two threads for each); one of several segments is read on the workers.
    @Test func anInputOfOneSegmentIsReadOnTheCallingThread() throws {
        let text = String(repeating: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCARD\r\n", count: 200)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-one-\(UUID().uuidString).vcf")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = try Self.sequential(url.path)
        for (size, alone) in [(1 << 20, true), (text.utf8.count + 1, true), (256, false)] {
            let caller = Self.threadID()
            // Each card comes back with the thread that read it, so no state is shared between the threads.
            var seen: Set<UInt> = []
            var reading = Reading()
            try ParallelCardReader(workers: 2, segmentBytes: size).read(
                path: url.path, transform: { card in (card, Self.threadID()) },
                body: { card, thread in
                    reading.cards.append(.init(card))
                    seen.insert(thread)
                }, diagnostics: { reading.fileDiagnostics += $0 })
            #expect(reading == expected, "segments of \(size) bytes")
            #expect(alone ? seen == [caller] : !seen.contains(caller) && !seen.isEmpty, "segments of \(size) bytes")
        }
    }

    static func threadID() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Files in legacy charsets, whose decisions rest on evidence from the whole file (a CHARSET another card
    /// declares, the file's letters): every reader gives each card the same decision.
    @Test func sameAsSequentialForLegacyCharsetsInOneStream() throws {
        var all: [UInt8] = []
        for file in try FixturePaths.files(in: "fidelity", withExtension: "vcf") where file.hasPrefix("charset-") {
            all += try FixturePaths.bytes("fidelity/" + file)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-charsets-\(UUID().uuidString).vcf")
        try Data(all).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = try Self.sequential(url.path)
        #expect(expected.cards.count >= 15)
        for size in [64, 700, 1 << 20] {
            #expect(try Self.parallel(url.path, segmentBytes: size) == expected, "segments of \(size) bytes")
        }
        let (cards, _) = VCardDocument.read(all, name: url.path)
        #expect(cards.map(\.contact) == expected.cards.map(\.contact))
        // The CLI's reader, which has already taken the first bytes to sniff the format.
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let prefix = [UInt8](try handle.read(upToCount: 100) ?? Data())
        let streamed = VCardFileReader(handle: handle, name: url.path, prefix: prefix, chunkSize: 333)
        var streamedCards: [ReadCard.Comparable] = []
        while let card = try streamed.next() { streamedCards.append(.init(card)) }
        #expect(streamedCards == expected.cards)
    }

    /// Every fixture, again and again, until `VCardDocument.read` reads it on several threads.
    static func largeBuffer() throws -> [UInt8] {
        var all: [UInt8] = []
        while all.count <= VCardDocument.parallelThreshold {
            for file in Self.fixtures where !file.contains("utf16") {
                all += try FixturePaths.bytes("vcard/" + file)
                all += Array("\r\n".utf8)
            }
        }
        return all
    }

    /// `VCardDocument.read` of a large buffer goes through the parallel reader: the same cards and, once sorted,
    /// the same diagnostics as a sequential read.
    @Test func documentReadOfALargeBufferIsTheSequentialRead() throws {
        let all = try Self.largeBuffer()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-document-\(UUID().uuidString).vcf")
        try Data(all).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = try Self.sequential(url.path)
        let (cards, diagnostics) = VCardDocument.read(all, name: url.path)
        #expect(cards.map(\.contact) == expected.cards.map(\.contact))
        #expect(cards.map(\.raw) == expected.cards.map(\.raw))
        func ordered(_ list: [Diagnostic]) -> [String] { list.map(\.description).sorted() }
        let expectedDiagnostics = expected.fileDiagnostics + expected.cards.flatMap(\.diagnostics)
        #expect(!expectedDiagnostics.isEmpty)
        #expect(
            ordered(diagnostics)
                == ordered(
                    expectedDiagnostics.map {
                        var d = $0
                        d.file = url.path
                        return d
                    }))
    }

    /// `VCardDocument.read` of a buffer too small for several threads lexes it a slice at a time, reading each
    /// card as it ends: exactly what lexing the whole buffer at once and then reading every card gives, cards
    /// across the slices' edges included, and the diagnostics in the same order.
    @Test func documentReadOfASmallBufferIsTheWholeLex() throws {
        var all: [UInt8] = []
        for file in Self.fixtures where !file.contains("utf16") {
            all += try FixturePaths.bytes("vcard/" + file)
            all += Array("\r\n".utf8)
        }
        while all.count <= 3 * VCardDocument.sequentialSliceBytes { all += all }
        #expect(all.count < VCardDocument.parallelThreshold)
        let evidence = all.withUnsafeBufferPointer {
            CharsetEvidence.survey(UnsafeBufferPointer(rebasing: $0.prefix(CharsetEvidence.surveyedBytes)))
        }
        let (raws, lexed) = VCardLexer.parse(all, decoding: DecodingOptions(file: evidence))
        var expected = lexed
        var contacts: [Contact] = []
        for raw in raws {
            let (contact, found) = VCardReader.contact(from: raw)
            contacts.append(contact)
            expected += found
        }
        expected.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        for index in expected.indices { expected[index].file = "book.vcf" }
        #expect(!expected.isEmpty)
        for keepsLines in [true, false] {
            let read = VCardDocument.read(all, name: "book.vcf", keepsLines: keepsLines)
            #expect(read.cards.map(\.contact) == contacts)
            #expect(read.diagnostics == expected)
            #expect(read.cards.map(\.raw.byteRange) == raws.map(\.byteRange))
            if keepsLines { #expect(read.cards.map(\.raw) == raws) }
        }
    }

    /// Without its lines (a merge's incoming cards) a read gives the same contacts, diagnostics and positions,
    /// both on several threads (a large buffer) and on one (a small one).
    @Test func readWithoutLinesKeepsContactsDiagnosticsAndPositions() throws {
        let large = try Self.largeBuffer()
        let small = try FixturePaths.bytes("vcard/" + #require(Self.fixtures.first { !$0.contains("utf16") }))
        for bytes in [large, small] {
            let whole = VCardDocument.read(bytes, name: "book.vcf")
            let light = VCardDocument.read(bytes, name: "book.vcf", keepsLines: false)
            #expect(!whole.cards.isEmpty)
            #expect(light.cards.map(\.contact) == whole.cards.map(\.contact))
            #expect(light.cards.map(\.diagnostics) == whole.cards.map(\.diagnostics))
            #expect(light.diagnostics == whole.diagnostics)
            #expect(light.cards.allSatisfy { $0.raw.count == 0 })
            #expect(whole.cards.contains { $0.raw.count > 0 })
            func position(_ raw: RawCard) -> [Int?] {
                [raw.beginLine, raw.endLine, raw.byteRange.lowerBound, raw.byteRange.upperBound]
            }
            #expect(light.cards.map { position($0.raw) } == whole.cards.map { position($0.raw) })
            #expect(light.cards.map(\.raw.group) == whole.cards.map(\.raw.group))
        }
    }

    /// Inputs where `END:VCARD` then `BEGIN:VCARD` is no card boundary: nested 2.1 cards, and a
    /// quoted-printable value whose soft line break runs over an `END:VCARD` line.
    @Test(arguments: [
        "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Outer\r\nBEGIN:VCARD\r\nVERSION:2.1\r\nN:B\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:2.1\r\nN:C\r\nEND:VCARD\r\nTEL:1\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:After\r\nEND:VCARD\r\n",
        "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Q\r\nNOTE;ENCODING=QUOTED-PRINTABLE:a=\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:R\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:S\r\nEND:VCARD\r\n",
    ])
    func falseBoundariesFallBackToSequentialReading(_ text: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vcf-false-cut-\(UUID().uuidString).vcf")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = try Self.sequential(url.path)
        for size in [8, 16, 40, 60] {
            #expect(try Self.parallel(url.path, segmentBytes: size) == expected, "segments of \(size) bytes")
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["VCF_CORPUS"] != nil, "VCF_CORPUS is not set"))
    func sameAsSequentialForEveryCorpusFile() throws {
        let (root, rows) = try CorpusConformanceTests.manifest()
        for row in rows {
            let path = root.appendingPathComponent(row.storedName).path
            let expected = try Self.sequential(path)
            #expect(try Self.parallel(path, segmentBytes: 64) == expected, "\(row.storedName)")
        }
    }
}

extension ReadCard {
    /// What a comparison needs: the model, the raw card and the diagnostics.
    struct Comparable: Equatable {
        var contact: Contact
        var raw: RawCard
        var diagnostics: [Diagnostic]

        init(_ card: ReadCard) {
            contact = card.contact
            raw = card.raw
            diagnostics = card.diagnostics
        }
    }
}
