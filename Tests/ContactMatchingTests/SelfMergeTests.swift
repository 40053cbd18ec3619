import ContactMerge
import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat

/// Merging a card into an identical card changes nothing and reports nothing, whatever the preference: what lets
/// the engine skip merging a card into its equal (a book exported several times over merges each card into its
/// copies).
@Suite struct SelfMergeTests {
    /// Every card of the fixtures, and of the shared corpus when `VCF_CORPUS` is set.
    static func cards() throws -> [(name: String, contact: Contact)] {
        var out: [(String, Contact)] = []
        func add(_ bytes: [UInt8], _ name: String) {
            for card in VCardDocument.read(bytes, name: name).cards {
                out.append(("\(name):\(card.raw.beginLine)", card.contact))
            }
        }
        for directory in ["vcard", "merge", "hostile", "fidelity"] {
            for file in try FixturePaths.files(in: directory, withExtension: "vcf") {
                add(try FixturePaths.bytes("\(directory)/\(file)"), file)
            }
        }
        if let corpus = ProcessInfo.processInfo.environment["VCF_CORPUS"] {
            let root = URL(fileURLWithPath: corpus)
            let files = try FileManager.default.subpathsOfDirectory(atPath: corpus).filter { $0.hasSuffix(".vcf") }
            for file in files.sorted() {
                add([UInt8](try Data(contentsOf: root.appendingPathComponent(file))), file)
            }
        }
        return out
    }

    /// The merger's answer for a card and its copy, worked out in full: the card, with no change.
    @Test func aCardMergedIntoItsCopyIsUnchanged() throws {
        let cards = try Self.cards()
        #expect(cards.count > 100)
        for preference in MergePreference.allCases {
            let merger = ContactMerger(preference: preference)
            for (name, contact) in cards {
                let (merged, changes) = merger.mergeInFull(contact, into: contact)
                #expect(merged == contact, "\(name) (\(preference)): merging a card into itself changed it")
                #expect(changes.isEmpty, "\(name) (\(preference)): \(changes)")
            }
        }
    }
}
