import Foundation
import TestSupport
import Testing

@testable import VCFCommands

/// Every conversion direction against goldens: one input of each format the tool reads, converted to every
/// format it writes, and back where the trip must lose nothing.
@Suite struct ConversionGoldenTests {
    /// An input of each kind, by its path under `Fixtures/`.
    static let inputs = [
        "convert/outlook-2.1.vcf",  // vCard 2.1: quoted-printable, CHARSET, bare types
        "vcard/80-vendor-apple.vcf",  // vCard 3.0 from Apple: item groups, labels, photo
        "vcard4/rfc6350-section8.vcf",  // vCard 4.0: the RFC 6350 section 8 example
        "jcard/rfc7095-b1.json",  // jCard: RFC 7095 appendix B.1
        "convert/contact.json",  // Contact JSON
        "csv/google-contacts.csv",  // Google Contacts CSV export
        "csv/outlook.csv",  // Outlook CSV export (Windows-1252)
    ]
    static let targets: [(name: String, ext: String)] = [
        ("vcard3", "vcf"), ("vcard4", "vcf"), ("jcard", "json"), ("json", "json"),
        ("csv", "csv"),
    ]

    /// What reading an input says on stderr, whatever the target.
    static func expectedErrors(_ input: String) -> String {
        input == "csv/outlook.csv"
            ? FixturePaths.url(input).path + ":3:11: warning: file is not valid UTF-8; read as Windows-1252\n" : ""
    }

    static func stem(_ input: String) -> String {
        URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
    }

    @Test(arguments: inputs) func eachInputToEachFormat(input: String) {
        for target in Self.targets {
            let result = CommandTests.run(["convert", FixturePaths.url(input).path, "--to", target.name])
            #expect(result.code == 0, "\(input) -> \(target.name): \(result.err)")
            let reading = Self.expectedErrors(input)
            #expect(result.err.hasPrefix(reading), "\(input) -> \(target.name)")
            if target.name == "csv" {
                // What the Google CSV written does not carry, said once.
                Golden.check(
                    Array(result.err.dropFirst(reading.count).utf8),
                    against: "convert/expected/\(Self.stem(input)).csv.stderr")
            } else {
                #expect(result.err == reading, "\(input) -> \(target.name)")
            }
            Golden.check(result.outBytes, against: "convert/expected/\(Self.stem(input)).\(target.name).\(target.ext)")
        }
    }

    /// Contact JSON holds the whole model, so vCard -> JSON -> vCard gives back the direct vCard byte for byte.
    @Test(arguments: inputs) func throughContactJSONLosesNothing(input: String) throws {
        let direct = CommandTests.run(["convert", FixturePaths.url(input).path])
        let json = CommandTests.run(["convert", FixturePaths.url(input).path, "--to", "json"])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-trip-\(UUID()).json").path
        try Data(json.outBytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(CommandTests.run(["convert", path]).outBytes == direct.outBytes)
    }

    /// jCard is vCard 4.0 in JSON: 4.0 -> jCard -> 4.0 gives back the direct 4.0 byte for byte.
    @Test(arguments: inputs) func throughJCardKeepsVCard4(input: String) throws {
        let direct = CommandTests.run(["convert", FixturePaths.url(input).path, "--to", "vcard4"])
        let jcard = CommandTests.run(["convert", FixturePaths.url(input).path, "--to", "jcard"])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-trip-\(UUID()).json").path
        try Data(jcard.outBytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let back = CommandTests.run(["convert", path, "--to", "vcard4"])
        #expect(back.err.isEmpty, "\(back.err)")
        var expected = String(decoding: direct.outBytes, as: UTF8.self)
        if input == "vcard4/rfc6350-section8.vcf" {
            // The two changes jCard makes, by design: TZ:-0500 is a UTC offset (as RFC 7095 B.1 reads it), which
            // 4.0 must then say, and KEY's VALUE=uri is its default, so it goes.
            expected = expected.replacingOccurrences(of: "KEY;TYPE=work;VALUE=uri:", with: "KEY;TYPE=work:")
                .replacingOccurrences(of: "TZ:-0500", with: "TZ;VALUE=utc-offset:-0500")
        }
        #expect(String(decoding: back.outBytes, as: UTF8.self) == expected)
    }
}

/// A value with line breaks that look like the end of a card stays one value of one card through every
/// format: the writers escape or quote the breaks, so no reader takes them for structure.
@Suite struct LineBreakInjectionTests {
    static let note = "first line\nEND:VCARD\nBEGIN:VCARD\nFN:Injected\n\"quoted\", =1+1"

    @Test(arguments: ["vcard3", "vcard4", "jcard", "json", "csv"]) func noteStaysOneValueOfOneCard(target: String)
        throws
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-inject-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.json")
        let contact: [String: Any] = [
            "formattedName": "Ann Lee", "name": ["family": ["Lee"], "given": ["Ann"]], "note": Self.note,
        ]
        try JSONSerialization.data(withJSONObject: [contact]).write(to: input)

        let converted = CommandTests.run(["convert", input.path, "--to", target])
        #expect(converted.code == 0, "\(converted.err)")
        let output = directory.appendingPathComponent("out")
        try Data(converted.outBytes).write(to: output)
        let back = CommandTests.run(["convert", output.path, "--to", "json"])
        #expect(back.code == 0, "\(back.err)")
        let cards = try #require(try JSONSerialization.jsonObject(with: Data(back.outBytes)) as? [[String: Any]])
        #expect(cards.count == 1)
        #expect(cards.first?["note"] as? String == Self.note)
        #expect(cards.first?["formattedName"] as? String == "Ann Lee")
    }
}
