import Foundation
import TestSupport
import Testing

@testable import VCFCommands

/// `--charset NAME` reaches the reader of every command that reads cards, and an unknown name is a usage
/// error that lists the known ones.
@Suite struct CharsetOptionTests {
    /// A 3.0 card whose FN and N are KOI8-R bytes with no CHARSET (`Дмитрий`).
    static let koi8Card: [UInt8] =
        Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:".utf8) + [0xE4, 0xCD, 0xC9, 0xD4, 0xD2, 0xC9, 0xCA]
        + Array("\r\nN:;".utf8) + [0xE4, 0xCD, 0xC9, 0xD4, 0xD2, 0xC9, 0xCA] + Array(";;;\r\nEND:VCARD\r\n".utf8)

    static func file() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("charset-\(UUID().uuidString).vcf")
        try Data(koi8Card).write(to: url)
        return url.path
    }

    @Test func convertReadsTheNamedCharset() throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decided = CommandTests.run(["convert", path])
        #expect(decided.out.contains("FN:Дмитрий\r\n"))
        #expect(decided.err.contains("read as KOI8-R, the charset the letters of this file point to"))
        let told = CommandTests.run(["convert", path, "--charset", "windows-1251"])
        #expect(told.code == 0)
        #expect(!told.out.contains("Дмитрий"))
        #expect(told.err.contains("read as Windows-1251, as --charset says"))
    }

    @Test func everyCommandThatReadsCardsTakesIt() throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let preview = CommandTests.run(["preview", path, "--charset", "KOI8-R", "--format", "json"])
        #expect(preview.out.contains("Дмитрий"))
        let lint = CommandTests.run(["lint", path, "--charset", "cp1251"])
        #expect(lint.out.contains("read as Windows-1251, as --charset says"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("charset-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(CommandTests.run(["photo", "extract", path, "-o", dir.path, "--charset", "koi8-r"]).code == 0)
        #expect(CommandTests.run(["qr", path, "--charset", "koi8-r", "--format", "svg"]).code == 0)
        let book = dir.appendingPathComponent("book.vcf").path
        let merge = CommandTests.run(["merge", path, "--into", book, "--charset", "koi8-r", "-n"])
        #expect(merge.code == 0)
    }

    @Test func anUnknownNameIsAUsageErrorThatListsTheKnownOnes() throws {
        let run = CommandTests.run(["convert", "-", "--charset", "klingon"])
        #expect(run.code == 64)
        #expect(run.err.contains("--charset takes one of UTF-8, Windows-1250"))
        #expect(run.err.contains("not klingon"))
    }
}
