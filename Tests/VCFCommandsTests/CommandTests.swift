import ContactModel
import ContactPresentation
import Foundation
import TestSupport
import Testing

@testable import VCFCommands

/// The commands run in-process: help texts and previews against goldens, conversions, exit codes and
/// diagnostics on stderr.
@Suite struct CommandTests {
    struct Run {
        var code: Int32
        var out: String
        var outBytes: [UInt8]
        var err: String
    }

    static func run(_ arguments: [String]) -> Run {
        let (io, out, err) = CommandIO.capturing()
        let code = VCFCommandLine.run(arguments, io: io)
        return Run(code: code, out: String(decoding: out(), as: UTF8.self), outBytes: out(), err: err())
    }

    static func fixture(_ name: String) -> String { FixturePaths.url("vcard/" + name).path }

    @Test func helpTexts() {
        let main = Self.run(["--help"])
        #expect(main.code == 0)
        Golden.check(main.out, against: "cli/help.txt")
        Golden.check(Self.run(["help", "convert"]).out, against: "cli/help-convert.txt")
        Golden.check(Self.run(["help", "preview"]).out, against: "cli/help-preview.txt")
        Golden.check(Self.run(["help", "merge"]).out, against: "cli/help-merge.txt")
        Golden.check(Self.run(["help", "dedupe"]).out, against: "cli/help-dedupe.txt")
        #expect(Self.run(["merge", "--help"]).out == Self.run(["help", "merge"]).out)
        #expect(Self.run(["convert", "--help"]).out == Self.run(["help", "convert"]).out)
        #expect(main.out.hasPrefix("vcf: convert"))
        #expect(main.out.contains("Examples:"))
        #expect(main.out.contains("Exit codes:"))
    }

    @Test func previewOfFixtureCards() {
        for (fixture, golden) in [
            ("46-groups-ablabel.vcf", "preview-groups.txt"), ("20-v21-base64-photo.vcf", "preview-photo.txt"),
            ("19-v21-bare-params.vcf", "preview-v21.txt"),
        ] {
            let result = Self.run(["preview", Self.fixture(fixture)])
            #expect(result.code == 0)
            Golden.check(result.out, against: "cli/" + golden)
        }
    }

    @Test func previewNeutralizesControlCharacters() {
        #expect(TextPreview.oneLine("evil\u{1B}[2Jname\nx") == "evil\\u{1B}[2Jname⏎x")
    }

    @Test func jsonRoundTripGivesTheSameVCard() throws {
        let input = Self.fixture("80-vendor-apple.vcf")
        let direct = Self.run(["convert", input])
        let json = Self.run(["convert", input, "--to", "json"])
        #expect(json.code == 0)
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-test-\(UUID()).json")
        try Data(json.outBytes).write(to: temporary)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let back = Self.run(["convert", temporary.path])
        #expect(back.code == 0)
        #expect(back.out == direct.out)
        #expect(back.out.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"))
    }

    @Test func vcard4OutputUsesDataURIs() {
        let result = Self.run(["convert", Self.fixture("22-photo-encoding-b-folded.vcf"), "--to", "vcard4"])
        #expect(result.code == 0)
        #expect(result.out.contains("VERSION:4.0\r\n"))
        #expect(result.out.contains("PHOTO:data:image/jpeg;base64,"))
    }

    @Test func brokenInputReportsFileLineAndExitsOne() {
        let path = Self.fixture("91-line-without-colon.vcf")
        let result = Self.run(["convert", path])
        #expect(result.code == 1)
        #expect(result.err.contains("\(path):4:"))
        #expect(result.err.contains(": error: expected `NAME:value`"))
        #expect(result.out.contains("END:VCARD"))
    }

    @Test func missingFileExitsTwoAndOtherInputsStillConvert() {
        let result = Self.run(["convert", "/nonexistent/cards.vcf", Self.fixture("01-crlf.vcf")])
        #expect(result.code == 2)
        #expect(result.err.contains("/nonexistent/cards.vcf: error: cannot be read: No such file or directory"))
        #expect(result.out.contains("FN:Élodie Marchand"))
    }

    @Test func usageErrorsExit64WithASuggestion() {
        let unknown = Self.run(["convert", "--too", "json"])
        #expect(unknown.code == 64)
        #expect(unknown.err.contains("unknown option --too; did you mean --to?"))
        #expect(Self.run(["convrt"]).err.contains("did you mean convert?"))
        // Long spellings of short options are suggested too.
        #expect(
            Self.run(["convert", "--outptu", "x.vcf"]).err.contains("unknown option --outptu; did you mean --output?"))
        #expect(Self.run(["convert", "--to", "xml"]).code == 64)
        #expect(Self.run([]).code == 64)
    }

    @Test func outputFileIsWrittenAndReplaced() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-out-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.vcf").path
        try Data("old content".utf8).write(to: URL(fileURLWithPath: output))
        let result = Self.run(["convert", Self.fixture("01-crlf.vcf"), "-o", output])
        #expect(result.code == 0)
        #expect(result.out.isEmpty)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.hasPrefix("BEGIN:VCARD\r\n"))
        // Nothing but the output and its lock file is left in the directory (the temporary file was renamed).
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == [".out.vcf.vcf-lock", "out.vcf"])
    }
}

/// `convert --split DIR`: one file per card, named after the card, never replacing a file already there.
@Suite struct SplitTests {
    @Test func writesOneFilePerCardNamedAfterIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-split-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = FixturePaths.url("preview/all.vcf").path
        let result = CommandTests.run(["convert", input, "--split", directory])
        #expect(result.code == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(
            names == [
                "Amara Okafor-Lindqvist.vcf", "Maximiliana Alexandra Konstantinopoulou-Wolfeschlegelsteinha.vcf",
                "Tomás Herrera.vcf", "_script_alert('vcf')__script_.vcf", "ليلى حداد.vcf",
            ])
        #expect(result.err.contains("all.vcf:53: wrote \(directory)/Tomás Herrera.vcf"))
        // Each file is exactly that card converted alone.
        let alone = CommandTests.run(["convert", FixturePaths.url("preview/without-photo.vcf").path])
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/Tomás Herrera.vcf"))) == alone.outBytes)

        // A second run adds numbered files and leaves the first ones alone.
        let again = CommandTests.run(["convert", input, "--split", directory, "--to", "json"])
        #expect(again.code == 0)
        #expect(FileManager.default.fileExists(atPath: directory + "/Tomás Herrera.json"))
        let third = CommandTests.run(["convert", input, "--split", directory])
        #expect(third.code == 0 && FileManager.default.fileExists(atPath: directory + "/Tomás Herrera-2.vcf"))
        #expect(CommandTests.run(["convert", input, "--split", directory, "-o", "x.vcf"]).code == 64)
    }
}
