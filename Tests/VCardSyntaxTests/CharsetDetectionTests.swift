import Foundation
import TestSupport
import Testing

@testable import VCardSyntax

/// The detector on short texts of contact cards (names, streets, notes) in 23 languages, each written in the
/// legacy charsets its writers used (`Fixtures/fidelity/charset-samples.tsv`, made by
/// `make_charset_samples.py` from our own texts): each one value alone, with no other evidence, must read back
/// as the text it was.
@Suite struct CharsetDetectionTests {
    struct Sample: CustomStringConvertible {
        var language: String
        var charset: String
        var bytes: [UInt8]
        var text: String
        var description: String { "\(language) in \(charset): \(text)" }
    }

    static let samples: [Sample] = {
        guard let data = try? FixturePaths.bytes("fidelity/charset-samples.tsv") else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4 else { return nil }
            var bytes: [UInt8] = []
            var hex = fields[2].utf8.makeIterator()
            while let high = hex.next(), let low = hex.next() {
                bytes.append(UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)!)
            }
            return Sample(
                language: String(fields[0]), charset: String(fields[1]), bytes: bytes, text: String(fields[3]))
        }
    }()

    @Test func samplesArePresent() {
        #expect(Self.samples.count >= 300)
    }

    /// The cards of the samples: three values of one language in one charset each (a name, a street, a note),
    /// as the detector sees a card.
    static var cards: [[Sample]] {
        var groups: [String: [Sample]] = [:]
        var order: [String] = []
        for sample in samples {
            let key = sample.language + "/" + sample.charset
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(sample)
        }
        return order.flatMap { key in
            let group = groups[key]!
            return stride(from: 0, to: group.count, by: 3).map { Array(group[$0..<min($0 + 3, group.count)]) }
        }
    }

    static func read(_ samples: [Sample], prior: Charset? = nil) -> (Charset, [String]) {
        let charset = CharsetDetector.detect(samples.map(\.bytes), prior: prior)
        return (charset, samples.map { sample in sample.bytes.withUnsafeBufferPointer { charset.decode($0) } })
    }

    /// Every card of three values reads back as its texts, with no evidence from the rest of its file.
    @Test func everyCardReadsBackAsItsTexts() {
        var wrong: [String] = []
        for card in Self.cards {
            let (charset, texts) = Self.read(card)
            if texts != card.map(\.text) { wrong.append("\(card.map(\.description)) -> \(charset.name): \(texts)") }
        }
        #expect(Self.cards.count >= 100)
        #expect(
            wrong.isEmpty, "\(wrong.count) of \(Self.cards.count) cards read wrong:\n\(wrong.joined(separator: "\n"))")
    }

    /// A file's values together (what `CharsetEvidence.survey` gathers) read back, and with the file's charset as
    /// the prior every single value of it does too.
    @Test func everyFileReadsBackAndGivesItsValuesTheirCharset() {
        var wrong: [String] = []
        var groups: [String: [Sample]] = [:]
        for sample in Self.samples { groups[sample.language + "/" + sample.charset, default: []].append(sample) }
        for (key, file) in groups.sorted(by: { $0.key < $1.key }) {
            let (charset, texts) = Self.read(file)
            if texts != file.map(\.text) { wrong.append("\(key) -> \(charset.name)") }
            for sample in file where Self.read([sample], prior: charset).1 != [sample.text] {
                wrong.append("\(sample) with the file's \(charset.name)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
    }

    /// One value alone is often a single word, which several charsets read as a plausible word (`Gdańsk` in
    /// Windows-1250 is `Gdañsk` in Windows-1252): most read back, the more common charset winning the rest.
    @Test func mostSingleValuesReadBackAlone() {
        var wrong: [String] = []
        for sample in Self.samples where Self.read([sample]).1 != [sample.text] {
            wrong.append("\(sample) -> \(Self.read([sample]).0.name): \(Self.read([sample]).1[0])")
        }
        #expect(
            wrong.count * 100 <= Self.samples.count * 12,
            "\(wrong.count) of \(Self.samples.count):\n\(wrong.joined(separator: "\n"))")
    }
}
