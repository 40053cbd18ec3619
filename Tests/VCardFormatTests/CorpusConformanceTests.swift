import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

/// Real files from other projects' test suites (`../shared/corpus`, path in `VCF_CORPUS`): every card
/// of a file not broken on purpose reads without error, survives parse -> write 3.0 -> parse with the same
/// model and the same property multiset, and writes idempotently; broken files give located diagnostics.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["VCF_CORPUS"] != nil, "VCF_CORPUS is not set"))
struct CorpusConformanceTests {
    struct Row {
        var storedName: String
        var brokenOnPurpose: Bool
    }

    static func manifest() throws -> (URL, [Row]) {
        let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["VCF_CORPUS"] ?? "")
        let text = try String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        var rows: [Row] = []
        for line in text.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count >= 7 else { continue }
            // Broken means tagged so, or structurally cut: BEGIN and END do not pair up.
            let tags = columns[6]
            let broken =
                tags.contains("BROKEN ON PURPOSE") || tags.contains("BEGIN/END mismatch")
                || tags.contains("truncated")
            rows.append(Row(storedName: String(columns[2]), brokenOnPurpose: broken))
        }
        return (root, rows)
    }

    /// Every card of the corpus, and of the fixtures, written as Contact JSON reads back as the same contact,
    /// with no unknown key and no error: the JSON reader refuses names that would break a content line, and
    /// none that a vCard file gives may be among them.
    @Test func everyCardRoundTripsThroughContactJSON() throws {
        let (root, rows) = try Self.manifest()
        var files = rows.filter { !$0.brokenOnPurpose }.map { root.appendingPathComponent($0.storedName) }
        files += try FixturePaths.files(in: "vcard", withExtension: "vcf").map { FixturePaths.url("vcard/" + $0) }
        var cards = 0
        for url in files {
            let contacts = VCardDocument.read([UInt8](try Data(contentsOf: url))).cards.map(\.contact)
            var unknown: [ContactJSON.UnknownKey] = []
            let back = try ContactJSON.decode(ContactJSON.encode(contacts)) { unknown.append($0) }
            #expect(back == contacts, "\(url.lastPathComponent)")
            #expect(unknown.isEmpty, "\(url.lastPathComponent): \(unknown)")
            cards += contacts.count
        }
        #expect(cards > 500)
    }

    @Test func everyCorpusFile() throws {
        let (root, rows) = try Self.manifest()
        #expect(rows.count > 400)
        var files = 0
        var cards = 0
        var errors = 0
        var warnings = 0
        var brokenFiles = 0
        let writer = VCardWriter(version: .v3_0)
        for row in rows {
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(row.storedName)))
            files += 1
            let (read, diagnostics) = VCardDocument.read(bytes, name: row.storedName)
            cards += read.count
            errors += diagnostics.filter { $0.severity == .error }.count
            warnings += diagnostics.filter { $0.severity == .warning }.count
            #expect(diagnostics.allSatisfy { $0.line > 0 }, "\(row.storedName): a diagnostic without a line")
            if row.brokenOnPurpose {
                brokenFiles += 1
            } else {
                let fileErrors = diagnostics.filter { $0.severity == .error }
                #expect(fileErrors.isEmpty, "\(row.storedName): \(fileErrors.map(\.description))")
            }
            for card in read {
                let written = writer.bytes([card.contact])
                let (again, againDiagnostics) = VCardDocument.read(written)
                guard again.count == 1 else {
                    Issue.record("\(row.storedName) card at line \(card.raw.beginLine): wrote \(again.count) cards")
                    continue
                }
                #expect(
                    againDiagnostics.filter { $0.severity == .error }.isEmpty,
                    "\(row.storedName):\(card.raw.beginLine): our output has errors")
                #expect(
                    again[0].contact == VersionModel.as30(card.contact),
                    "\(row.storedName):\(card.raw.beginLine): model changed after write and read")
                #expect(
                    writer.bytes([again[0].contact]) == written,
                    "\(row.storedName):\(card.raw.beginLine): writing is not idempotent")
                // A binary value with nothing decodable is left out with a warning; the rest must all be there.
                let leftOut = Set(
                    card.diagnostics.filter { $0.code == .invalidBase64 && $0.message.contains("left out") }
                        .map(\.line))
                var before = PropertyMultiset.entries(card.raw, excludingLines: leftOut)
                var after = PropertyMultiset.entries(again[0].raw)
                Self.undoSingleInstance(before: &before, after: &after)
                // The writer adds the FN and N that 3.0 requires when the card had none.
                for required in ["FN", "N"] where !before.contains(where: { $0.name == required }) {
                    after.removeAll { $0.name == required }
                }
                if before != after {
                    let lost = before.filter { !after.contains($0) }
                    let added = after.filter { !before.contains($0) }
                    Issue.record(
                        "\(row.storedName):\(card.raw.beginLine): properties differ; lost \(lost), added \(added)")
                }
            }
        }
        print(
            "corpus: files=\(files) cards=\(cards) errors=\(errors) warnings=\(warnings) broken-on-purpose=\(brokenFiles)"
        )
    }

    /// A property 3.0 allows once is written once (`SingleInstance`): each further one as `X-NAME`, which counts
    /// here as the property it was, and of several REV only the newest, which counts for them all.
    static func undoSingleInstance(before: inout [PropertyMultiset.Entry], after: inout [PropertyMultiset.Entry]) {
        for name in SingleInstance.names(.v3_0) where name != "REV" && before.contains(where: { $0.name == name }) {
            for index in after.indices where after[index].name == "X-" + name {
                after[index].name = name
                if name == "N" {
                    var components = ValueEscaping.split(after[index].value, on: ";").map(ValueEscaping.unescapeText)
                    while components.last == "" { components.removeLast() }
                    after[index].value = components.joined(separator: ";")
                } else {
                    after[index].value = ValueEscaping.unescapeText(after[index].value)
                }
            }
        }
        let revisions = after.filter { $0.name == "REV" }
        if revisions.count == 1, before.filter({ $0.name == "REV" }).count > 1 {
            before.removeAll { $0.name == "REV" }
            after.removeAll { $0.name == "REV" }
        }
        before.sort()
        after.sort()
    }
}
