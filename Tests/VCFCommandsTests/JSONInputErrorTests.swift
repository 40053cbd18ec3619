import Foundation
import TestSupport
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

    /// A key Contact JSON does not have is said with where it is, at any depth, and the rest of the contact is
    /// read: dropping a misspelt `"notes"` without a word lost the note.
    @Test(arguments: [
        (
            "[\n {\"formattedName\": \"A\", \"notes\": \"call back\",\n  \"emails\": [{\"value\": \"a@b.c\", "
                + "\"kind\": \"work\"}]},\n {\"formattedName\": \"B\", \"phone\": \"1\"}\n]\n",
            "in.json:2:34: warning: \"notes\" is not a Contact JSON key; its value was left out [unknown-key]\n"
                + "in.json:3:41: warning: \"kind\" in emails[0] is not a Contact JSON key; its value was left out "
                + "[unknown-key]\n"
                + "in.json:4:34: warning: \"phone\" is not a Contact JSON key; its value was left out [unknown-key]\n"
        ),
        (
            "{\"emails\": [{\"value\": \"a@b.c\", \"parameters\": [{\"name\": \"X-A\", \"values\": [\"1\"], "
                + "\"value\": \"2\"}]}],\n \"formattedName\": \"A\", \"fullName\": \"A B\"}",
            "in.json:1:89: warning: \"value\" in emails[0].parameters[0] is not a Contact JSON key; its value was "
                + "left out [unknown-key]\n"
                + "in.json:2:36: warning: \"fullName\" is not a Contact JSON key; its value was left out "
                + "[unknown-key]\n"
        ),
    ])
    func aKeyTheModelHasNoPlaceForIsSaid(input: String, expected: String) throws {
        let result = try Self.convert(input)
        #expect(result.code == 0)
        #expect(result.err == expected)
        #expect(result.out.contains("FN:A\r\n") && result.out.contains(":a@b.c\r\n"))
    }

    /// A key spelt with an escape is the key it spells: `no\u0074e` is `note`, and `not\u0065s` is unknown.
    @Test func anEscapedKeyIsTheKeyItSpells() throws {
        let result = try Self.convert("[{\"formattedName\": \"A\", \"no\\u0074e\": \"n1\", \"not\\u0065s\": \"n2\"}]")
        #expect(result.code == 0)
        #expect(result.out.contains("NOTE:n1\r\n") && !result.out.contains("n2"))
        #expect(
            result.err
                == "in.json:1:58: warning: \"notes\" is not a Contact JSON key; its value was left out [unknown-key]\n")
    }

    /// The contacts before a broken one are read as they stream; their unknown keys are said once, not again
    /// when the whole document is read to find the error.
    @Test func unknownKeysBeforeAnErrorAreSaidOnce() throws {
        let result = try Self.convert(
            "[{\"formattedName\": \"A\", \"nick\": \"a\"},\n {\"formattedName\": 5, \"x\": 1}]")
        #expect(result.code == 1)
        #expect(
            result.err
                == "in.json:1:33: warning: \"nick\" is not a Contact JSON key; its value was left out [unknown-key]\n"
                + "in.json:2:20: error: expected a string at [1].formattedName\n")
    }

    /// Every key our own JSON has is one the reader knows: each vCard fixture written as JSON reads back with
    /// no warning of an unknown key.
    @Test func ourOwnJSONHasNoUnknownKey() throws {
        for name in try FixturePaths.files(in: "vcard", withExtension: "vcf") {
            let json = CommandTests.run(["convert", CommandTests.fixture(name), "--to", "json"])
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-json-\(UUID()).json").path
            try Data(json.outBytes).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let back = CommandTests.run(["convert", path])
            #expect(!back.err.contains("unknown-key"), "\(name): \(back.err)")
        }
    }

    @Test func deepNestingIsRefusedNotFollowed() throws {
        let result = try Self.convert(String(repeating: "[", count: 100_000))
        #expect(result.code == 2)
        #expect(result.err == "in.json:1:65: error: expected nesting no deeper than 64 levels\n" + Self.nothingRead)
    }
}
