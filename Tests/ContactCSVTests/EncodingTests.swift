import ContactCSV
import ContactModel
import Foundation
import TestSupport
import Testing

/// The same export as written by other programs: in UTF-16 (Google's older "Google CSV" export, Excel's "Unicode
/// Text"), and separated by semicolons or tabs (a spreadsheet saving in a locale whose list separator is `;`).
/// Each must read exactly as the UTF-8, comma-separated fixture does.
@Suite struct EncodingTests {
    static let fixtures = ["google-contacts.csv", "google-legacy.csv", "outlook.csv", "thunderbird.csv"]

    /// The fixture's text with every separator between fields (not those inside quoted fields) made `separator`.
    static func resplit(_ text: String, with separator: Character) -> String {
        var out = ""
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            out.append(character == "," && !quoted ? separator : character)
        }
        return out
    }

    static func utf16(_ text: String, bigEndian: Bool, mark: Bool) -> [UInt8] {
        var out: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            out += bigEndian ? [high, low] : [low, high]
        }
        return out
    }

    /// The fixture's text: UTF-8, or Windows-1252 as old Outlook wrote it.
    static func text(_ bytes: [UInt8]) -> String {
        String(validating: bytes, as: UTF8.self) ?? String(bytes: bytes, encoding: .windowsCP1252)!
    }

    /// The problems of a read but the one saying the file was read as Windows-1252 (UTF-16 is read as it is).
    static func problems(_ result: ContactCSV.ReadResult) -> [ContactCSV.Problem] {
        result.problems.filter { !$0.description.contains("Windows-1252") }
    }

    @Test(arguments: fixtures)
    func utf16ReadsAsUTF8Does(_ file: String) throws {
        let bytes = try FixturePaths.bytes("csv/" + file)
        let text = Self.text(bytes)
        let expected = ContactCSV.read(bytes)
        #expect(!expected.records.isEmpty)
        for (bigEndian, mark) in [(false, true), (true, true), (false, false), (true, false)] {
            let encoded = Self.utf16(text, bigEndian: bigEndian, mark: mark)
            #expect(ContactCSV.looksLikeCSV(Array(encoded.prefix(64 << 10))), "\(file) \(bigEndian) \(mark)")
            let result = ContactCSV.read(encoded)
            #expect(result.layout == expected.layout, "\(file) \(bigEndian) \(mark)")
            #expect(result.records == expected.records, "\(file) \(bigEndian) \(mark)")
            #expect(result.problems == Self.problems(expected), "\(file) \(bigEndian) \(mark)")
        }
    }

    @Test(arguments: fixtures)
    func semicolonsAndTabsReadAsCommasDo(_ file: String) throws {
        let bytes = try FixturePaths.bytes("csv/" + file)
        let text = Self.text(bytes)
        let expected = ContactCSV.read(bytes)
        for separator: Character in [";", "\t"] {
            let resplit = Self.resplit(text, with: separator)
            #expect(resplit != text)
            for encoded in [Array(resplit.utf8), Self.utf16(resplit, bigEndian: false, mark: true)] {
                #expect(ContactCSV.looksLikeCSV(Array(encoded.prefix(64 << 10))))
                let result = ContactCSV.read(encoded)
                #expect(result.layout == expected.layout, "\(file) \(separator)")
                // Columns hold the same text, and so the same contacts, whatever separates them.
                #expect(result.contacts == expected.contacts, "\(file) \(separator)")
            }
        }
    }

    /// Labels and headers are trimmed of spaces, not of a space that carries a combining mark (one character).
    @Test func spacesAroundLabelsAreTrimmedByCharacter() {
        let csv =
            "First Name,Last Name,Phone 1 - Label,Phone 1 - Value,Phone 2 - Label,Phone 2 - Value,"
            + "Phone 3 - Label,Phone 3 - Value\r\n"
            + "Ann,Lee,  Mobile  ,1,\" \u{301}x \",2,*  Work,3\r\n"
        let phones = ContactCSV.read(Array(csv.utf8)).contacts.first?.phones ?? []
        #expect(phones.map(\.types) == [["cell"], [], ["work"]])
        #expect(phones.map(\.label) == [nil, " \u{301}x", nil])
        #expect(phones.map(\.pref) == [nil, nil, 1])
    }

    @Test func aSeparatorInsideAFieldIsText() {
        let csv =
            "First Name;Last Name;E-mail Address;Business Phone;Notes\r\n"
            + "Ann;Lee;ann@example.com;+1 555 0100;\"tea, chess; spam\"\r\n"
        let result = ContactCSV.read(Array(csv.utf8))
        #expect(result.layout == .outlook)
        #expect(result.contacts.map(\.note) == ["tea, chess; spam"])
        // A comma-separated file whose fields hold semicolons stays comma-separated.
        let commas = "First Name,Last Name,E-mail Address,Business Phone,Notes\r\nAnn,Lee,a@b.example,1,x;y;z;w\r\n"
        #expect(ContactCSV.read(Array(commas.utf8)).contacts.map(\.note) == ["x;y;z;w"])
    }
}
