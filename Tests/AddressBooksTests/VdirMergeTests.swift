import CardIdentity
import ContactMerge
import ContactModel
import Foundation
import Testing
import VCardFormat

@testable import AddressBooks

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Merging into a vdir: only the merged cards' files are written, new cards get files named from their UID,
/// the rest is never touched, a second run writes nothing, and a file changed meanwhile is merged again.
@Suite struct VdirMergeTests {
    static func folder(_ files: [(String, [UInt8])] = BookFixtures.existing) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vdir-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: "\(path)/\(name)")) }
        return path
    }

    /// Inode and modification time of each file, to see which were touched.
    static func stamps(_ path: String) throws -> [String: [Int]] {
        var all: [String: [Int]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            var info = stat()
            stat("\(path)/\(name)", &info)
            all[name] = [Int(info.st_ino), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        }
        return all
    }

    static func bytes(_ path: String) throws -> [[UInt8]] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted().filter { $0.hasSuffix(".vcf") }.map {
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(path)/\($0)")))
        }
    }

    static func merge(into path: String, between: (StoredBook) throws -> Void = { _ in }) throws -> BookUpdate.Report {
        let book = try StoredBook(store: VdirStore(path: path, create: true), countryCode: nil)
        let engine = AddressBookMerge()
        let result = engine.merge(BookFixtures.incoming, into: book.existingCards)
        try between(book)
        var update = BookUpdate(book: book, engine: engine)
        defer { book.store.close() }
        return try update.applyMerge(result, incoming: BookFixtures.incoming)
    }

    /// New cards take the version most of the book's cards have, worked out once (a merge asks for each card
    /// it adds) and again after an item is read again.
    @Test func newCardsTakeTheVersionOfMostCardsAsTheyStand() throws {
        func card(_ version: String, _ name: String) -> [UInt8] {
            Array("BEGIN:VCARD\r\nVERSION:\(version)\r\nFN:\(name)\r\nUID:\(name)\r\nEND:VCARD\r\n".utf8)
        }
        let path = try Self.folder([
            ("a.vcf", card("3.0", "a")), ("b.vcf", card("3.0", "b")), ("c.vcf", card("4.0", "c")),
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let book = try StoredBook(store: VdirStore(path: path, create: false), countryCode: nil)
        defer { book.store.close() }
        #expect(book.versionForNewCards == .v3_0)
        #expect(book.versionForNewCards == .v3_0)
        // Another program turns b into a 4.0 card; the merge reads it again after a conflict.
        try Data(card("4.0", "b")).write(to: URL(fileURLWithPath: "\(path)/b.vcf"))
        let index = try #require(book.items.firstIndex { $0.id == "b.vcf" })
        book.update(item: index, with: try #require(try book.store.reload("b.vcf")))
        #expect(book.versionForNewCards == .v4_0)
    }

    @Test func onlyMergedFilesAreWrittenAndNewCardsGetTheirOwn() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try Self.stamps(path)
        let report = try Self.merge(into: path)
        let eveFile = UIDFileName.fileName(for: BookFixtures.eveUID)
        #expect(report.rewritten == ["\(path)/ann-1.vcf"])
        #expect(report.created == ["\(path)/\(eveFile)"])
        #expect(report.newUIDs == 1 && report.writes == 2 && report.refused.isEmpty && report.unresolved.isEmpty)
        let after = try Self.stamps(path)
        for name in ["bob-2.vcf", "cara-3.vcf", "dan-4.vcf"] { #expect(after[name] == before[name]) }
        #expect(after["ann-1.vcf"] != before["ann-1.vcf"])
        #expect(Set(after.keys) == Set(before.keys).union([eveFile]))
        let ann = try String(contentsOfFile: "\(path)/ann-1.vcf", encoding: .utf8)
        #expect(ann.contains("TEL;TYPE=cell:+44 7700 900456") && ann.contains("UID:ann-1"))
        let eve = try String(contentsOfFile: "\(path)/\(eveFile)", encoding: .utf8)
        #expect(eve.contains("UID:\(BookFixtures.eveUID)\r\n"))

        // The cards are those a merge into one file gives.
        #expect(
            BookFixtures.sorted(BookFixtures.contacts(try Self.bytes(path)))
                == BookFixtures.sorted(try BookFixtures.mergedAsAFile()))

        // A second run changes nothing: no file is written.
        let again = try Self.merge(into: path)
        #expect(again.writes == 0 && again.created.isEmpty && again.rewritten.isEmpty)
        #expect(try Self.stamps(path) == after)
    }

    @Test func aFileChangedMeanwhileIsReadAndMergedAgain() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try Self.merge(into: path) { _ in
            // khard (or an editor) rewrites Ann's card after the merge read it.
            let edited = BookFixtures.card(
                "UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;", "EMAIL:ann@example.com", "NOTE:met at the fair")
            try Data(edited).write(to: URL(fileURLWithPath: "\(path)/.edit"))
            rename("\(path)/.edit", "\(path)/ann-1.vcf")
        }
        #expect(report.remerged == ["\(path)/ann-1.vcf"])
        #expect(report.rewritten == ["\(path)/ann-1.vcf"])
        #expect(report.unresolved.isEmpty)
        let ann = try String(contentsOfFile: "\(path)/ann-1.vcf", encoding: .utf8)
        #expect(ann.contains("NOTE:met at the fair") && ann.contains("+44 7700 900456"))
    }

    @Test func anUnreadableFileIsLeftAloneAndTheRestMerged() throws {
        let broken: [UInt8] = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Broken\r\nthis line has no colon\r\n".utf8)
        let path = try Self.folder(BookFixtures.existing + [("broken.vcf", broken)])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let book = try StoredBook(store: VdirStore(path: path, create: false), countryCode: nil)
        #expect(book.unreadable.map(\.item) == [book.items.firstIndex { $0.id == "broken.vcf" }!])
        #expect(book.unreadable.first?.diagnostics.first?.file == "\(path)/broken.vcf")
        #expect(book.cards.count == 4)
        book.store.close()
        let report = try Self.merge(into: path)
        #expect(report.rewritten.count == 1 && report.created.count == 1)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(path)/broken.vcf"))) == broken)
    }

    @Test func aFileWithSeveralCardsKeepsTheOthersByteForByte() throws {
        let first = BookFixtures.card("UID:zed", "FN:Zed Ox", "N:Ox;Zed;;;", "NOTE:kept  as   written")
        let path = try Self.folder([("two.vcf", first + BookFixtures.existing[0].1)])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try Self.merge(into: path)
        #expect(report.rewritten == ["\(path)/two.vcf"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(path)/two.vcf")))
        #expect(Array(bytes.prefix(first.count)) == first)
        #expect(String(decoding: bytes, as: UTF8.self).contains("+44 7700 900456"))
    }

    @Test func dedupeRemovesAMergedFileOnlyOnceItsCardIsWritten() throws {
        let twin = BookFixtures.card(
            "UID:ann-9", "FN:Ann Lee", "N:Lee;Ann;;;", "EMAIL:ann@example.com", "TEL:+44 7700 900999")
        for changeMeanwhile in [false, true] {
            let path = try Self.folder(BookFixtures.existing + [("ann-9.vcf", twin)])
            defer { try? FileManager.default.removeItem(atPath: path) }
            let book = try StoredBook(store: VdirStore(path: path, create: false), countryCode: nil)
            let engine = AddressBookMerge()
            let result = engine.dedupe(book.existingCards, file: path, lines: book.lines)
            #expect(result.removed.count == 1)
            if changeMeanwhile {
                // Ann's first card becomes someone else before the dedupe writes: the twin must stay.
                try Data(BookFixtures.card("UID:ann-1", "FN:Zoe Quinn", "N:Quinn;Zoe;;;", "EMAIL:zoe@example.com"))
                    .write(to: URL(fileURLWithPath: "\(path)/ann-1.vcf"))
            }
            var update = BookUpdate(book: book, engine: engine)
            let report = try update.applyDedupe(result)
            book.store.close()
            let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            if changeMeanwhile {
                #expect(report.removed.isEmpty)
                #expect(report.unresolved.map(\.location) == ["\(path)/ann-9.vcf"])
                #expect(names.contains("ann-9.vcf"))
            } else {
                #expect(report.rewritten.count == 1 && report.removed.count == 1)
                #expect(names.count == 4)
                let merged = BookFixtures.contacts(try Self.bytes(path)).first { $0.formattedName == "Ann Lee" }
                #expect(merged?.phones.count == 1 && merged?.emails.count == 1)
            }
        }
    }

    /// A merge that adds many cards to a folder writes them several at a time (`Vdir.create(all:)`), with what
    /// writing them one by one gives: the same files under the same names, and the same report. Among 150 new
    /// cards: some without a UID (given one from their content), two whose UIDs differ only in case (one file
    /// name, numbered for the second), one whose name another program takes meanwhile with another card (the
    /// next name), one whose name is taken meanwhile by a card with its own UID (merged into it), and one whose
    /// 20 names are all taken.
    @Test func newCardsWrittenTogetherAreTheCardsWrittenOneByOne() throws {
        let incoming = (0..<150).map { index -> IncomingCard in
            var lines = ["FN:Person \(index)", "N:\(index);Person;;;", "EMAIL:p\(index)@example.com"]
            switch index {
            case _ where index % 29 == 3: break
            case 40: lines.append("UID:Twin")
            case 41: lines.append("UID:twin")
            case 77: lines.append("UID:full")
            default: lines.append("UID:n-\(index)")
            }
            let card = VCardDocument.read(BookFixtures.card(lines)).cards[0]
            return IncomingCard(contact: card.contact, file: "in.vcf", line: index + 1)
        }
        func run(oneByOne: Bool) throws -> (files: [String: [UInt8]], report: [String]) {
            let path = try Self.folder()
            defer { try? FileManager.default.removeItem(atPath: path) }
            for number in 1...20 {
                try Data("x".utf8).write(
                    to: URL(fileURLWithPath: path + (number == 1 ? "/full.vcf" : "/full-\(number).vcf")))
            }
            let folder = try VdirStore(path: path, create: false)
            let store: any CardStore = oneByOne ? VdirUploadTests.OneByOne(folder) : folder
            let book = try StoredBook(store: store, countryCode: nil)
            let engine = AddressBookMerge()
            let result = engine.merge(incoming, into: book.existingCards)
            // Taken after the folder was read: one name by someone else, one by the card's own UID.
            try Data(BookFixtures.card("UID:other", "FN:Other One")).write(to: URL(fileURLWithPath: path + "/n-5.vcf"))
            try Data(BookFixtures.card("UID:n-6", "FN:Person 6", "N:6;Person;;;", "TEL:+44 7700 900606"))
                .write(to: URL(fileURLWithPath: path + "/n-6.vcf"))
            var update = BookUpdate(book: book, engine: engine)
            let report = try update.applyMerge(result, incoming: incoming)
            store.close()
            var files: [String: [UInt8]] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: path) {
                files[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
            }
            let lines =
                report.created.map { "created \($0)" } + report.remerged.map { "remerged \($0)" }
                + report.refused.map { "refused \($0.location) \($0.name): \($0.reason)" }
                + report.unresolved.map { "unresolved \($0.location): \($0.reason)" }
                + ["new UIDs \(report.newUIDs)", "writes \(report.writes)"]
            return (files, lines.map { $0.replacingOccurrences(of: path, with: "FOLDER") })
        }
        let together = try run(oneByOne: false)
        let oneByOne = try run(oneByOne: true)
        #expect(together.report == oneByOne.report)
        #expect(together.files == oneByOne.files)
        #expect(together.report.filter { $0.hasPrefix("created") }.count == 148)
        #expect(together.report.contains("new UIDs 6"))
        #expect(together.files["n-5-2.vcf"] != nil && together.files["twin-2.vcf"] != nil)
        #expect(together.report.contains("remerged FOLDER/n-6.vcf"))
        let six = BookFixtures.contacts([together.files["n-6.vcf"] ?? []]).first
        #expect(six?.phones.count == 1 && six?.emails.count == 1)
        #expect(together.report.contains { $0.hasPrefix("unresolved FOLDER (full.vcf): no free name") })
        #expect(!together.files.keys.contains { $0.hasPrefix(".") })
    }
}
