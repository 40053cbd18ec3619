import Foundation
import Testing

@testable import VCFCommands

/// Contact JSON that cannot be read is reported with its file, line and column and what was expected there. The
/// contacts before the error are converted (exit 1); with none before it, nothing of the file could be read (exit 2).
@Suite struct JSONInputErrorTests {
    /// What follows the error when no contact came before it.
    static let nothingRead = "in.json: error: no card could be read from it (see the errors above)\n"

    static func convert(_ text: String, _ extra: [String] = []) throws -> CommandTests.Run {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-json-\(UUID()).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var result = CommandTests.run(["convert", path] + extra)
        result.err = result.err.replacingOccurrences(of: path, with: "in.json")
        return result
    }

    @Test(arguments: [
        (
            "[\n {\"formattedName\": \"A\"},\n {\"formattedName\": 5}\n]\n",
            "in.json:3:20: error: expected a string at [1].formattedName\n"
        ),
        (
            "[\n {\"formattedName\": \"A\"},\n {\"formattedName\": \"B\",,}\n]\n",
            "in.json:3:24: error: expected a string key\n"
        ),
        (
            "{\"formattedName\": \"A\",\n \"emails\": [{\"types\": [\"x\"]}]}",
            "in.json:2:13: error: expected the key \"value\" in the object at emails[0]\n" + nothingRead
        ),
        ("[{\"formattedName\": \"A\"}", "in.json:1:24: error: expected ',' or ']'\n"),
        (
            "[{\"note\": \"line\nbreak\"}]",
            "in.json:1:16: error: expected a control character escaped (\\n, \\t, \\u0001)\n" + nothingRead
        ),
        (
            "[{\"phones\": [{\"value\": \"1\", \"pref\": \"high\"}]}]",
            "in.json:1:37: error: expected a number at [0].phones[0].pref\n" + nothingRead
        ),
    ])
    func errorNamesLineColumnAndWhatWasExpected(input: String, expected: String) throws {
        let result = try Self.convert(input)
        #expect(result.code == (expected.hasSuffix(Self.nothingRead) ? 2 : 1))
        #expect(result.err == expected)
    }

    @Test func forcedJSONThatIsNotAnArrayOrObject() throws {
        let result = try Self.convert("\"just a string\"", ["--from", "json"])
        #expect(
            result.err
                == "in.json:1:1: error: expected Contact JSON: an array of contacts or one contact object\n"
                + Self.nothingRead)
        #expect(result.code == 2)
    }

    @Test func deepNestingIsRefusedNotFollowed() throws {
        let result = try Self.convert(String(repeating: "[", count: 100_000))
        #expect(result.code == 2)
        #expect(result.err == "in.json:1:65: error: expected nesting no deeper than 64 levels\n" + Self.nothingRead)
    }
}
