import ContactModel
import Foundation
import TestSupport
import Testing
import UserFiles
import VCardFormat

@testable import VCFCommands

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// vdir folders wherever a file goes: convert, preview and lint read one; convert --to-vdir writes one;
/// merge and dedupe update one file at a time and give the cards a file gets.
@Suite struct VdirCommandTests {
    static let book =
        Places.card("UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;", "EMAIL:ann@example.com")
        + Places.card("FN:Bob Stone", "N:Stone;Bob;;;", "TEL;TYPE=CELL:+44 7700 900123")
        + Places.card("FN:Cara Diaz", "N:Diaz;Cara;;;", "EMAIL:cara@example.org", "REV:2024-01-01T00:00:00Z")

    /// A card file whose name is not UTF-8 is one of the folder's cards: every command that reads the folder reads
    /// it, and names it with `\xE9`. A merge or dedupe of the folder, which updates files by name, refuses with a
    /// message naming it and changes nothing: the file was left out before, a card a merge could not see.
    @Test func aCardFileWhoseNameIsNotUTF8() throws {
        let work = try Places.folder("latin-name")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let folder = "\(work)/vd"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let ann = Places.card("UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;")
        try Places.write(ann, "\(folder)/ann-1.vcf")
        // A line without a colon, so the file has a warning to be named in.
        let bob = Array(Places.card("FN:Bob Cafe", "N:Cafe;Bob;;;", "NOTE").utf8)
        let written = UserPath(folder).appending(Array("caf".utf8) + [0xE9] + Array(".vcf".utf8)).withCString {
            let fd = open($0, O_CREAT | O_WRONLY | O_EXCL, 0o644)
            defer { close(fd) }
            return fd >= 0 && bob.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) } == bob.count
        }
        #expect(written)

        let converted = Places.run(["convert", folder])
        #expect(converted.code == 0)
        #expect(VCardDocument.read(converted.out).cards.map(\.contact.formattedName) == ["Ann Lee", "Bob Cafe"])
        #expect(converted.err.contains("vd/caf\\xE9.vcf:5:5: warning:"), "\(converted.err)")
        #expect(Places.run(["lint", folder]).err.contains("2 files:"))

        try Places.write(Places.card("UID:cy-1", "FN:Cy New", "N:New;Cy;;;"), "\(work)/new.vcf")
        let refusal = "vd/caf\\xE9.vcf: error: the name is not UTF-8; rename the file so vcf can read and update"
        for arguments in [["merge", "\(work)/new.vcf", "--into", folder + "/"], ["dedupe", folder]] {
            let run = Places.run(arguments)
            #expect(run.code == 2, "\(arguments)")
            #expect(run.err.contains(refusal), "\(arguments): \(run.err)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 2)
        #expect(try String(contentsOfFile: "\(folder)/ann-1.vcf", encoding: .utf8) == ann)

        // A folder whose own name is not UTF-8 is read as a folder too.
        let latin = UserPath(work).appending(Array("dir".utf8) + [0xE9])
        #expect(latin.withCString { mkdir($0, 0o755) } == 0)
        try Places.write(ann, "\(work)/dir\u{E9}-source.vcf")
        #expect(latin.appending("ann-1.vcf").withCString { rename("\(work)/dir\u{E9}-source.vcf", $0) } == 0)
        let (io, out, err) = CommandIO.capturing()
        let code = VCFCommandLine.run(arguments: [Array("convert".utf8), latin.bytes + [UInt8(ascii: "/")]], io: io)
        #expect(code == 0, "\(err())")
        #expect(VCardDocument.read(out()).cards.map(\.contact.formattedName) == ["Ann Lee"])
        // It is not written as a vdir: `--to-vdir` made a folder named with the escape, `dir\xE9`.
        let slash = latin.bytes + [UInt8(ascii: "/")]
        let new = Array("\(work)/new.vcf".utf8)
        for arguments in [
            [Array("convert".utf8), new, Array("--to-vdir".utf8), slash],
            [Array("merge".utf8), new, Array("--into".utf8), slash], [Array("dedupe".utf8), latin.bytes],
        ] {
            let (io, _, err) = CommandIO.capturing()
            #expect(VCFCommandLine.run(arguments: arguments, io: io) == 2)
            #expect(err().contains("dir\\xE9"), "\(err())")
            #expect(err().contains("the folder's name is not UTF-8; rename it to write it as a vdir"), "\(err())")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(work)/dir\\xE9"))
        #expect(latin.appending("cy-1.vcf").withCString { access($0, F_OK) } != 0)
    }

    /// `convert -o` names a file: a folder there, existing or written with a trailing `/`, is a usage error that
    /// says which options write a folder, and nothing is created.
    @Test func convertToAFolderWithOSaysHowToWriteOne() throws {
        let work = try Places.folder("o-folder")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let input = "\(work)/book.vcf"
        try Places.write(Self.book, input)
        try FileManager.default.createDirectory(atPath: "\(work)/existing", withIntermediateDirectories: true)
        for output in ["\(work)/existing", "\(work)/existing/", "\(work)/new/"] {
            let run = CommandTests.run(["convert", input, "-o", output])
            #expect(run.code == ExitCode.usage, "\(output): \(run.err)")
            #expect(
                run.err.contains("-o writes one file, and \(output) is a folder: --to-vdir \(output)"), "\(run.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(work)/new"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(work)/existing").isEmpty)
    }

    @Test func convertToAVdirAndReadItBack() throws {
        let work = try Places.folder("vdir")
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Places.write(Self.book, "\(work)/book.vcf")

        // Without --ensure-uid, a card without UID has no name in a vdir: refused, the others written.
        let strict = Places.run(["convert", "\(work)/book.vcf", "--to-vdir", "\(work)/plain"])
        #expect(strict.code == 1)
        #expect(
            strict.err.contains("book.vcf:8: error: Bob Stone was not written to \(work)/plain: the card has no UID"))
        #expect(Places.files("\(work)/plain") == ["ann-1.vcf"])

        let first = Places.run(["convert", "\(work)/book.vcf", "--ensure-uid", "--to-vdir", "\(work)/vd"])
        #expect(first.code == 0)
        #expect(first.err.hasSuffix("\(work)/vd: 3 cards written\n"))
        let converted = Places.run(["convert", "\(work)/book.vcf", "--ensure-uid"])
        let uids = VCardDocument.read(converted.out).cards.compactMap(\.contact.uid)
        #expect(Places.files("\(work)/vd") == uids.map { UIDStem.of($0) + ".vcf" }.sorted())

        // The folder reads back as the cards converted to one file.
        let back = Places.run(["convert", "\(work)/vd", "-o", "\(work)/all.vcf"])
        #expect(back.code == 0 && back.err.isEmpty)
        #expect(
            Places.canonical(Places.contacts("\(work)/all.vcf"))
                == Places.canonical(VCardDocument.read(converted.out).cards.map(\.contact)))

        // Again: nothing is written, no file is touched.
        let stamps = Places.stamps("\(work)/vd")
        let again = Places.run(["convert", "\(work)/book.vcf", "--ensure-uid", "--to-vdir", "\(work)/vd"])
        #expect(again.code == 0 && again.err.hasSuffix("\(work)/vd: 0 cards written, 3 already there\n"))
        #expect(Places.stamps("\(work)/vd") == stamps)
        #expect(Places.run(["convert", "\(work)/book.vcf", "--to-vdir", "\(work)/vd", "-o", "x.vcf"]).code == 64)
    }

    @Test func ensureUIDGivesTheUIDsLintFixGives() throws {
        let work = try Places.folder("uid")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let text =
            Self.book + Places.card("FN:Bob Stone", "N:Stone;Bob;;;", "TEL;TYPE=CELL:+44 7700 900123")
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Dee Four\r\nBDAY:--0415\r\nEND:VCARD\r\n"
        try Places.write(text, "\(work)/in.vcf")
        let converted = Places.run(["convert", "\(work)/in.vcf", "--ensure-uid"])
        let fixed = Places.run(["lint", "\(work)/in.vcf", "--fix", "-o", "-"])
        let convertedUIDs = VCardDocument.read(converted.out).cards.map(\.contact.uid)
        let fixedUIDs = VCardDocument.read(fixed.out).cards.map(\.contact.uid)
        #expect(convertedUIDs.count == 5 && convertedUIDs == fixedUIDs)
        #expect(Set(convertedUIDs).count == 5)
        #expect(convertedUIDs[0] == "ann-1")
        #expect(Places.run(["convert", "\(work)/in.vcf", "--ensure-uid"]).out == converted.out)
        // --max-bytes recompresses photos, never the UIDs.
        let fitted = Places.run(["convert", "\(work)/in.vcf", "--ensure-uid", "--max-bytes", "icloud"])
        #expect(VCardDocument.read(fitted.out).cards.map(\.contact.uid) == convertedUIDs)
    }

    @Test func mergeGivesAddedCardsAUIDInAFileToo() throws {
        let work = try Places.folder("merge-uid")
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Places.write(Places.card("UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;"), "\(work)/contacts.vcf")
        try Places.write(Places.card("FN:Eve Park", "N:Park;Eve;;;", "EMAIL:eve@example.com"), "\(work)/new.vcf")
        #expect(Places.run(["merge", "\(work)/new.vcf", "--into", "\(work)/contacts.vcf"]).code == 0)
        let eve = Places.contacts("\(work)/contacts.vcf").first { $0.formattedName == "Eve Park" }
        let converted = Places.run(["convert", "\(work)/new.vcf", "--ensure-uid"])
        #expect(eve?.uid != nil && eve?.uid == VCardDocument.read(converted.out).cards.first?.contact.uid)
        let again = Places.run(["merge", "\(work)/new.vcf", "--into", "\(work)/contacts.vcf"])
        #expect(again.err.hasSuffix("0 added, 0 merged, 1 unchanged, 0 possible duplicates left alone; unchanged\n"))
    }

    @Test func aDryRunIntoANewFolderPlansAndCreatesNothing() throws {
        let work = try Places.folder("vdir-dry")
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Places.write(Self.book, "\(work)/book.vcf")
        let dry = Places.run(["merge", "\(work)/book.vcf", "--into", "\(work)/new/", "-n"])
        #expect(dry.code == 0)
        #expect(
            dry.err.hasSuffix(
                "3 added, 0 merged, 0 unchanged, 0 possible duplicates left alone; would write 3 files (dry run)\n"))
        #expect(!FileManager.default.fileExists(atPath: "\(work)/new"))
        let real = Places.run(["merge", "\(work)/book.vcf", "--into", "\(work)/new/"])
        #expect(real.code == 0 && Places.files("\(work)/new").count == 3)
        #expect(real.err.hasSuffix("updated (3 new, 0 rewritten; 3 files written)\n"))
    }

    static let mergeCases: [String] = {
        let root = FixturePaths.url("merge")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
    }()

    @Test func theMergeFixturesAreThere() {
        #expect(Self.mergeCases.count >= 30)
    }

    /// Every merge case of Fixtures/merge, into a vdir and into a file: the same cards, the same exit code, and
    /// a second run that writes no file.
    @Test(arguments: mergeCases)
    func mergeIntoAVdirGivesTheCardsOfAFile(_ name: String) throws {
        let work = try Places.folder("vdir-merge")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let fixture = FixturePaths.url("merge/\(name)")
        let args =
            (try? String(contentsOf: fixture.appendingPathComponent("args"), encoding: .utf8))
            .map { $0.split(whereSeparator: \.isWhitespace).map(String.init) } ?? []
        // A vdir names files by UID: the existing cards are given theirs first, in both books.
        let existing = Places.run(["convert", fixture.appendingPathComponent("existing.vcf").path, "--ensure-uid"])
        try Data(existing.out).write(to: URL(fileURLWithPath: "\(work)/book.vcf"))
        #expect(Places.run(["convert", "\(work)/book.vcf", "--to-vdir", "\(work)/vd"]).code == 0)
        let incoming = fixture.appendingPathComponent("incoming.vcf").path

        let file = Places.run(["merge", incoming, "--into", "\(work)/book.vcf"] + args)
        let folder = Places.run(["merge", incoming, "--into", "\(work)/vd/"] + args)
        #expect(folder.code == file.code, "\(name): \(folder.err)")
        #expect(
            Places.canonical(Places.contacts("\(work)/vd")) == Places.canonical(Places.contacts("\(work)/book.vcf")),
            "\(name)")
        let stamps = Places.stamps("\(work)/vd")
        let again = Places.run(["merge", incoming, "--into", "\(work)/vd"] + args)
        #expect(again.err.contains("; unchanged\n"), "\(name): \(again.err)")
        #expect(Places.stamps("\(work)/vd") == stamps, "\(name)")
    }

    @Test func lintPreviewAndDedupeAFolder() throws {
        let work = try Places.folder("vdir-lint")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let ann = Places.card("UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;", "EMAIL:ann@example.com")
        let twin = Places.card("UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;", "EMAIL:ann@example.com", "TEL:+1 555 0100")
        try Places.write(ann, "\(work)/a.vcf")
        try Places.write(twin, "\(work)/b.vcf")
        try Places.write("not a card", "\(work)/notes.txt")

        let lint = Places.run(["lint", work, "--carddav"])
        #expect(lint.code == 1)
        #expect(
            lint.text.contains(
                "\(work)/b.vcf:1:1: error: [carddav-duplicate-uid] the card at \(work)/a.vcf:1 has the same UID"))
        #expect(lint.err.hasPrefix("2 files:"))
        let preview = Places.run(["preview", work])
        #expect(preview.code == 0 && preview.text.components(separatedBy: "Ann Lee").count == 3)

        let dedupe = Places.run(["dedupe", work])
        #expect(dedupe.code == 0, "\(dedupe.err)")
        #expect(Places.files(work).count == 1)
        let left = Places.contacts(work)
        #expect(left.count == 1 && left[0].phones.count == 1)
        let again = Places.run(["dedupe", work])
        #expect(again.err.contains("; unchanged"))
    }
}

/// The built binary on a vdir: several merges at once into one folder lose nobody.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"))
struct VdirProcessTests {
    @Test func fourMergesAtOnceIntoOneFolder() throws {
        let work = try Places.folder("vdir-concurrent")
        let inputs = try Places.folder("vdir-concurrent-in")
        defer {
            try? FileManager.default.removeItem(atPath: work)
            try? FileManager.default.removeItem(atPath: inputs)
        }
        try Places.write(Places.card("UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;"), "\(work)/ann-1.vcf")
        for batch in 0..<4 {
            let cards = (0..<25).map { i in
                Places.card("FN:Person \(batch)-\(i)", "N:\(batch)-\(i);Person;;;", "EMAIL:p\(batch)-\(i)@example.com")
            }
            // Every batch also brings Ann a new email: four writers of one file, each merged again on conflict.
            let ann = Places.card("UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;", "EMAIL:ann\(batch)@example.com")
            try Places.write(cards.joined() + ann, "\(inputs)/in\(batch).vcf")
        }
        for round in 0..<2 {
            let group = DispatchGroup()
            final class Codes: @unchecked Sendable {
                let lock = NSLock()
                var all: [Int32] = []
            }
            let codes = Codes()
            for batch in 0..<4 {
                group.enter()
                Thread.detachNewThread {
                    let run = try? Places.process(["merge", "\(inputs)/in\(batch).vcf", "--into", "\(work)/"])
                    codes.lock.withLock { codes.all.append(run?.code ?? -1) }
                    group.leave()
                }
            }
            group.wait()
            #expect(codes.all == [0, 0, 0, 0], "round \(round)")
            let ann = Places.contacts(work).first { $0.uid == "ann-1" }
            #expect(Places.files(work).count == 101, "round \(round)")
            #expect(Set(ann?.emails.map(\.value) ?? []) == Set((0..<4).map { "ann\($0)@example.com" }))
        }
    }
}

/// The file stem the tool gives a UID (kept here so the test states it independently).
enum UIDStem {
    static func of(_ uid: String) -> String {
        uid.hasPrefix("urn:uuid:") ? String(uid.dropFirst(9)) : uid
    }
}
