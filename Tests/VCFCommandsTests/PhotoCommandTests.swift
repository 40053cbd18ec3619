import Foundation
import TestSupport
import Testing
import VCFCommands

/// `vcf convert --photo/--max-bytes` and `vcf photo fit|extract`, run in-process.
@Suite struct PhotoCommandTests {
    static func photo(_ name: String) -> String { FixturePaths.url("photos/" + name).path }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-photo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func convertEmbedsAPhotoWithinTheLimit() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let card = directory.appendingPathComponent("card.json")
        try Data(#"{"formattedName":"Ada Lovelace","emails":[{"value":"ada@example.org"}]}"#.utf8).write(to: card)
        let out = directory.appendingPathComponent("me.vcf").path
        let run = CommandTests.run([
            "convert", card.path, "--photo", Self.photo("photo-640x480.jpg"),
            "--max-bytes", "12,000", "--max-edge", "400", "-o", out,
        ])
        #expect(run.code == 0, "\(run.err)")
        let written = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(written.count <= 12_000)
        #expect(run.err.hasPrefix("photo 640x480 -> "))
        #expect(
            run.err.hasSuffix(
                "; record \(written.count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) of 12,000 bytes\n"
            ))
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains("\r\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/"))
        // The same card re-read with a tighter limit: its own photo is recompressed.
        let tighter = CommandTests.run(["convert", out, "--max-bytes", "6000"])
        #expect(tighter.code == 0 && tighter.outBytes.count <= 6_000)
        #expect(tighter.err.contains("me.vcf:1: photo "))
    }

    @Test func aCardThatCannotFitIsReportedAndLeftOut() throws {
        let run = CommandTests.run(["convert", CommandTests.fixture("20-v21-base64-photo.vcf"), "--max-bytes", "120"])
        #expect(run.code == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err.contains(
                "20-v21-base64-photo.vcf:1: error: the card does not fit the limit record 120 bytes: "
                    + "the rest of the card takes "))
        #expect(run.err.hasSuffix("; the card was not written\n"))
        let usage = CommandTests.run(["convert", "x.vcf", "--max-bytes", "huge"])
        #expect(usage.code == 64)
        #expect(
            usage.err.contains(
                "--max-bytes takes a byte count or one of cloudkit, icloud, exchange, nextcloud, baikal, not huge"))
    }

    @Test func photoFitWritesAJPEGAndSaysWhatItDid() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("small.jpg").path
        let run = CommandTests.run(["photo", "fit", Self.photo("orient-6.jpg"), "--max-bytes", "exchange", "-o", out])
        #expect(run.code == 0)
        #expect(run.err.hasPrefix("photo 64x48 -> 64x48 q"))
        #expect(run.err.hasSuffix(" of 36,000\n"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        let garbage = CommandTests.run(["photo", "fit", Self.photo("garbage.jpg"), "--max-bytes", "9000", "-o", out])
        #expect(garbage.code == 2)
        #expect(garbage.err.hasPrefix("\(Self.photo("garbage.jpg")): error: the JPEG data is invalid: "))
        let huge = CommandTests.run(["photo", "fit", Self.photo("huge-header.jpg"), "--max-bytes", "9000", "-o", out])
        #expect(huge.code == 2)
        #expect(
            huge.err.contains("the image is 60000x60000 pixels, over the limit of 100000000 pixels; it was not decoded")
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == bytes, "a failed fit leaves the output alone")
    }

    @Test func extractWritesEachPhotoNamedAfterItsCard() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = CommandTests.run([
            "photo", "extract", CommandTests.fixture("20-v21-base64-photo.vcf"),
            CommandTests.fixture("20-v21-base64-photo.vcf"), "-o", directory.path,
        ])
        #expect(run.code == 0, "\(run.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        // Two cards with photos, read twice: a second photo of the same name gets a suffix, nothing is replaced.
        #expect(files == ["Efua Asante-2.jpg", "Efua Asante.jpg", "Kwame Mensah-2.jpg", "Kwame Mensah.jpg"])
        #expect(run.err.hasSuffix("4 photos extracted\n"))
        let original = try FixturePaths.bytes("vcard/20-v21-base64-photo.vcf")
        let first = try Data(contentsOf: directory.appendingPathComponent("Kwame Mensah.jpg"))
        #expect(first.count == 310 && first.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(original.count > first.count)
        Golden.check(Array(CommandTests.run(["help", "photo"]).out.utf8), against: "cli/help-photo.txt")
    }
}
