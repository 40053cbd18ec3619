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
            "in.json:3:20: error: expected a string at [1].formattedName; the contact was skipped\n"
        ),
        (
            "[\n {\"formattedName\": \"A\"},\n {\"formattedName\": \"B\",,}\n]\n",
            "in.json:3:24: error: expected a string key; the contact was skipped\n"
        ),
        (
            "{\"formattedName\": \"A\",\n \"emails\": [{\"types\": [\"x\"]}]}",
            "in.json:2:13: error: expected the key \"value\" in the object at emails[0]\n" + nothingRead
        ),
        ("[{\"formattedName\": \"A\"}", "in.json:1:24: error: expected ',' or ']'\n"),
        (
            "[{\"note\": \"line\nbreak\"}]",
            "in.json:1:16: error: expected a control character escaped (\\n, \\t, \\u0001); the contact was skipped\n"
                + nothingRead
        ),
        (
            "[{\"phones\": [{\"value\": \"1\", \"pref\": \"high\"}]}]",
            "in.json:1:37: error: expected a number at [0].phones[0].pref; the contact was skipped\n" + nothingRead
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

    /// A key of another object of the shape (`value` on the contact, `family` in an email) is unknown where it
    /// is: the quick scan for unknown keys let it through, as a key some object has.
    @Test func aKeyOfAnotherObjectIsUnknownWhereItIs() throws {
        let result = try Self.convert(
            "[{\"formattedName\":\"A\",\"value\":\"lost\",\"emails\":[{\"value\":\"a@b\",\"family\":\"x\"}],"
                + "\"spelling\":{\"groups\":{\"title\":\"item7\"}}}]")
        #expect(result.code == 0)
        #expect(
            result.err
                == "in.json:1:31: warning: \"value\" is not a Contact JSON key; its value was left out [unknown-key]\n"
                + "in.json:1:72: warning: \"family\" in emails[0] is not a Contact JSON key; its value was left out "
                + "[unknown-key]\n")
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

    /// The contacts before a broken array are read as they stream; their unknown keys are said once, not again
    /// when the whole document is read to find the error.
    @Test func unknownKeysBeforeAnErrorAreSaidOnce() throws {
        let result = try Self.convert(
            "[{\"formattedName\": \"A\", \"nick\": \"a\"},\n {\"formattedName\": \"B\"} {\"x\": 1}]")
        #expect(result.code == 1)
        #expect(
            result.err
                == "in.json:1:33: warning: \"nick\" is not a Contact JSON key; its value was left out [unknown-key]\n"
                + "in.json:2:25: error: expected ',' or ']'\n")
        #expect(result.out.contains("FN:A\r\n") && result.out.contains("FN:B\r\n"))
    }

    /// A contact that cannot be read is skipped and those after it are read (a title given as a number lost
    /// every contact after it), from a file and from a pipe; a byte that is not UTF-8 is named where it is.
    @Test func aBadContactIsSkippedAndTheRestRead() throws {
        let text =
            "[\n{\"formattedName\":\"Ann\"},\n{\"formattedName\":\"Bob\",\"title\":5},\n"
            + "{\"formattedName\":\"Ren\u{E9}\",\"emails\":[{\"value\":\"r@x\",\"pref\":2.5}]},\n"
            + "{\"formattedName\":\"Cy\"}\n]\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-json-\(UUID()).json").path
        try Data(Array(text.utf8)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected =
            "in.json:3:32: error: expected a string at [1].title; the contact was skipped\n"
            + "in.json:4:58: error: expected a whole number at [2].emails[0].pref; the contact was skipped\n"
        var file = CommandTests.run(["convert", path])
        file.err = file.err.replacingOccurrences(of: path, with: "in.json")
        #expect(file.code == 1)
        #expect(file.err == expected)
        #expect(file.out.components(separatedBy: "FN:").count == 3 && file.out.contains("FN:Cy\r\n"))
        let piped = try ChildProcess.run(["convert", "-"], stdin: .file(path))
        #expect(piped.status == 1)
        #expect(piped.stderr == expected.replacingOccurrences(of: "in.json:", with: "-:"))
        let notUTF8 = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-json-\(UUID()).json").path
        try Data(Array("[{\"formattedName\":\"A\"},\n {\"note\":\"caf".utf8) + [0xE9] + Array("\"}]".utf8))
            .write(to: URL(fileURLWithPath: notUTF8))
        defer { try? FileManager.default.removeItem(atPath: notUTF8) }
        let bad = CommandTests.run(["convert", notUTF8])
        #expect(bad.code == 1)
        #expect(
            bad.err.replacingOccurrences(of: notUTF8, with: "in.json")
                == "in.json:2:14: error: expected UTF-8 text, found the byte 0xE9 (JSON is UTF-8; save the file as "
                + "UTF-8); the contact was skipped\n")
    }

    /// An object with keys, none of them Contact JSON's (a wrapper such as `{"contacts": [...]}`), is no contact:
    /// it was written as an empty card, exit 0. `{}` is an empty card, as our own JSON writes one.
    @Test func anObjectWithNoContactJSONKeyIsNoContact() throws {
        let wrapped = try Self.convert("{\"contacts\": [{\"formattedName\": \"A\"}]}")
        #expect(wrapped.code == 2)
        #expect(
            wrapped.err
                == "in.json:1:14: warning: \"contacts\" is not a Contact JSON key; its value was left out [unknown-key]\n"
                + "in.json:1:1: error: expected a contact: an object with at least one Contact JSON key at the top "
                + "level\n" + Self.nothingRead)
        #expect(wrapped.out.isEmpty)
        let inArray = try Self.convert("[{\"formattedName\": \"A\"},\n {\"person\": {\"name\": \"B\"}}]")
        #expect(inArray.code == 1)
        #expect(
            inArray.err.hasSuffix(
                "in.json:2:2: error: expected a contact: an object with at least one Contact JSON key at [1]; the "
                    + "contact was skipped\n"))
        let empty = try Self.convert("[{}]")
        #expect(empty.code == 0 && empty.out.contains("BEGIN:VCARD"))
    }

    /// Names that Contact JSON carries into a content line (an extension's, a parameter's, a group) must be
    /// ones the line can hold, and an extension may not be the card's own BEGIN or END or hold a line break:
    /// written as they were, they broke the card for every reader (`:v2`, a second card begun inside the first).
    @Test(arguments: [
        (#"{"extensions": [{"name": "X-A;TYPE=x", "value": "v"}]}"#, "extensions[0].name", "a property name"),
        (#"{"extensions": [{"name": "", "value": "v"}]}"#, "extensions[0].name", "a property name"),
        (#"{"extensions": [{"name": "END", "value": "VCARD"}]}"#, "extensions[0].name", "a property other"),
        (#"{"extensions": [{"name": "X-A", "value": "a\nb"}]}"#, "extensions[0].value", "a value without"),
        (#"{"emails": [{"value": "a@x", "group": "item 1."}]}"#, "emails[0].group", "a group name"),
        (
            #"{"phones": [{"value": "1", "parameters": [{"name": "X:Y", "values": []}]}]}"#,
            "phones[0].parameters[0].name", "a parameter name"
        ),
    ])
    func aNameThatWouldBreakTheLineIsRefused(json: String, path: String, expected: String) throws {
        let result = try Self.convert("[{\"formattedName\": \"A\"},\n" + json + "]")
        #expect(result.code == 1)
        #expect(result.err.contains("error: expected \(expected)"), "\(result.err)")
        #expect(result.err.hasSuffix(" at [1].\(path); the contact was skipped\n"), "\(result.err)")
        #expect(result.out.components(separatedBy: "BEGIN:VCARD").count == 2)
    }

    /// A contact that would be a vCard line no reader reads back (a note of 17 MiB; the lexer reads lines of up
    /// to 16 MiB) is refused with its line and what is too large, and the others are converted: it was written,
    /// and `vcf convert` of the output refused the line. The same from CSV.
    @Test func aContactTooLargeForVCardIsRefused() throws {
        let note = String(repeating: "x", count: 17 << 20)
        let result = try Self.convert(
            "[{\"formattedName\": \"A\"},\n {\"formattedName\": \"B\", \"note\": \"\(note)\"},\n {\"formattedName\": \"C\"}]"
        )
        #expect(result.code == 1)
        #expect(
            result.err
                == "in.json:2: error: its NOTE would be a vCard line of 17.8 MB, more than the 16 MiB a line may be "
                + "for vcf and most readers; the contact was skipped\n")
        #expect(result.out.contains("FN:A\r\n") && result.out.contains("FN:C\r\n") && !result.out.contains("FN:B"))
        let scratch = try Scratch()
        defer { scratch.remove() }
        let csv = try scratch.write(
            "big.csv", "First Name,Last Name,Notes\r\nAnn,Lee,short\r\nBob,Roe,\(note)\r\n")
        let fromCSV = CommandTests.run(["convert", csv])
        #expect(fromCSV.code == 1)
        #expect(
            fromCSV.err.hasSuffix(
                "big.csv:3: error: its NOTE would be a vCard line of 17.8 MB, more than the 16 MiB a "
                    + "line may be for vcf and most readers; the contact was skipped\n"))
        #expect(fromCSV.out.contains("FN:Ann Lee\r\n") && !fromCSV.out.contains("Bob"))
        // Only vCard has the limit: JSON out holds the note as it is.
        let toJSON = try Self.convert("[{\"formattedName\": \"B\", \"note\": \"\(note)\"}]", ["--to", "json"])
        #expect(toJSON.code == 0 && toJSON.err.isEmpty && toJSON.outBytes.count > 17 << 20)
    }

    /// Parameter names the vCard reader reads (`X-A,B`, `X-Q"`) are written to JSON and read back: the JSON
    /// reader refused them, so `--to json` of such a card did not read back.
    @Test func parameterNamesTheVCardReaderReadsRoundTrip() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let card = try scratch.write(
            "o.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:J\r\nX-BAR;X-A,B=1:x\r\nX-BAZ;X-Q\"=1:y\r\nEND:VCARD\r\n")
        let direct = CommandTests.run(["convert", card])
        let json = CommandTests.run(["convert", card, "--to", "json"])
        let back = try Self.convert(String(decoding: json.outBytes, as: UTF8.self))
        #expect(back.code == 0 && back.err.isEmpty, "\(back.err)")
        #expect(back.out == direct.out)
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
