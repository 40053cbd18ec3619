import ContactModel
import Foundation
import Testing
import VCardFormat

@testable import AddressBooks

/// Cards added to a folder are written several at a time, on every processor (`Vdir.create(all:)`), with what
/// writing them one by one gives: the same files under the same names, and the same report.
@Suite struct VdirUploadTests {
    /// A store that is a folder, seen by the upload as any other store: it writes each card as it comes.
    final class OneByOne: CardStore {
        let folder: VdirStore
        init(_ folder: VdirStore) { self.folder = folder }
        var name: String { folder.name }
        var writes: Int { folder.writes }
        var defaultVersion: VCardVersion { folder.defaultVersion }
        var accepts4: Bool { folder.accepts4 }
        func load() throws -> [StoredItem] { try folder.load() }
        func reload(_ id: String) throws -> StoredItem? { try folder.reload(id) }
        func create(_ name: String, _ bytes: [UInt8]) throws -> (id: String, location: String, outcome: StoreWrite) {
            try folder.create(name, bytes)
        }
        func replace(_ item: StoredItem, _ bytes: [UInt8]) throws -> StoreWrite { try folder.replace(item, bytes) }
        func remove(_ item: StoredItem) throws -> StoreWrite { try folder.remove(item) }
        func refusal(of bytes: [UInt8]) -> String? { folder.refusal(of: bytes) }
        func sync() { folder.sync() }
        func close() { folder.close() }
    }

    /// 300 cards, some without a UID, some given twice (alike, or with more data the second time), two whose
    /// UIDs differ only in case (one file name, numbered for the second), one with a UID no file name can carry,
    /// and one whose every name is taken (refused when it is written, between cards refused as they come).
    static let cards: [(contact: Contact, bytes: [UInt8])] = (0..<300).map { index in
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(index % 290)\r\nN:\(index % 290);Person;;;\r\n"
        switch index {
        case _ where index % 37 == 5: break
        case 290..<295: text += "UID:u-\(index - 290)\r\n"
        case 295: text += "UID:U-7\r\n"
        case 296: text += "UID:has space/and slash\r\n"
        case 10: text += "UID:dup\r\n"
        case 297..<300: text += "UID:u-\(index - 297)\r\nEMAIL:more\(index)@example.com\r\n"
        default: text += "UID:u-\(index)\r\n"
        }
        let card = VCardDocument.read(Array((text + "END:VCARD\r\n").utf8)).cards[0]
        var bytes: [UInt8] = []
        VCardWriter(version: .v3_0).write(card.contact, into: &bytes)
        return (card.contact, bytes)
    }

    /// What adding `cards` to a new folder gives: each file's name and bytes, and the report with paths made
    /// relative. A file another program writes after the folder is read takes the first card's name.
    static func upload(oneByOne: Bool) throws -> (files: [String: [UInt8]], report: [String]) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for number in 1..<100 {
            try Data("x".utf8).write(to: URL(fileURLWithPath: path + (number == 1 ? "/dup.vcf" : "/dup-\(number).vcf")))
        }
        let folder = try VdirStore(path: path, create: true)
        let store: any CardStore = oneByOne ? OneByOne(folder) : folder
        var upload = BookUpload(book: try StoredBook(store: store, countryCode: nil))
        try Data("taken".utf8).write(to: URL(fileURLWithPath: path + "/u-1.vcf"))
        for (index, card) in cards.enumerated() {
            try upload.add(card.contact, bytes: card.bytes, source: "in.vcf:\(index)")
        }
        let report = upload.finish()
        store.close()
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            files[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
        }
        let lines =
            report.created.map { "created " + $0.dropFirst(path.count) } + report.unchanged.map { "unchanged " + $0 }
            + report.differing.map { "differing \($0.source) \($0.name)" }
            + report.refused.map { "refused \($0.source) \($0.name): \($0.reason)" } + ["writes \(report.writes)"]
        return (files, lines.map { $0.replacingOccurrences(of: path, with: "FOLDER") })
    }

    @Test func cardsWrittenTogetherAreTheCardsWrittenOneByOne() throws {
        let together = try Self.upload(oneByOne: false)
        let oneByOne = try Self.upload(oneByOne: true)
        #expect(together.report == oneByOne.report)
        #expect(together.files == oneByOne.files)
        // What the cards make: each UID's file, the taken name's card under the next, the case-folded twin
        // numbered, the unreadable UID under a name made from it; no temporary file left.
        #expect(together.files["u-1-2.vcf"] != nil && together.files["u-1.vcf"] == Array("taken".utf8))
        #expect(together.files["U-7-2.vcf"] != nil)
        #expect(!together.files.keys.contains { $0.hasPrefix(".") })
        #expect(together.report.filter { $0.hasPrefix("created") }.count == together.files.count - 100)
        #expect(together.report.contains { $0.hasPrefix("refused in.vcf:10 ") && $0.contains("no free name") })
        #expect(together.report.contains { $0.hasPrefix("refused") && $0.contains("has no UID") })
        #expect(together.report.contains { $0.hasPrefix("differing") })
        #expect(together.report.contains { $0.hasPrefix("unchanged") })
    }
}
