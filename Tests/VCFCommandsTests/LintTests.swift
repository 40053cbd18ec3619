import Foundation
import TestSupport
import Testing
import VCardLint
import VCardSyntax

@testable import VCFCommands

/// `vcf lint` run in-process on the deliberately broken fixture: text, JSON and `--fix` output against
/// goldens, exit codes, and targeted checks on lines and codes so the goldens are not the only guard.
@Suite struct LintTests {
    static let broken = FixturePaths.url("lint/broken.vcf").path
    static let clean = FixturePaths.url("lint/clean.vcf").path

    static func run(_ arguments: [String]) -> CommandTests.Run { CommandTests.run(arguments) }

    /// The output with the fixture's absolute path replaced by its name, so goldens hold for any checkout.
    static func relative(_ text: String) -> String { text.replacingOccurrences(of: broken, with: "broken.vcf") }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-lint-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func findings(_ path: String = broken, options: LintOptions = LintOptions()) throws -> [Diagnostic] {
        Linter.lint([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), file: "broken.vcf", options: options)
    }

    @Test func textOutputMatchesTheGolden() {
        let result = Self.run(["lint", Self.broken, "--max-bytes", "1000"])
        #expect(result.code == 1)
        Golden.check(Self.relative(result.out), against: "lint/expected/broken.txt")
        #expect(result.err == "1 file: 14 errors, 18 warnings\n")
    }

    @Test func jsonOutputMatchesTheGolden() throws {
        let result = Self.run(["lint", Self.broken, "--max-bytes", "1000", "--json"])
        #expect(result.code == 1)
        Golden.check(Self.relative(result.out), against: "lint/expected/broken.json")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(result.outBytes)) as? [[String: Any]])
        #expect(objects.count == 32)
        #expect(objects.allSatisfy { Set($0.keys) == ["file", "line", "column", "severity", "code", "message"] })
        let text = Self.run(["lint", Self.broken, "--max-bytes", "1000"]).out.split(separator: "\n")
        #expect(text.count == objects.count)
    }

    @Test func fixOutputAndLogMatchTheGoldens() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("fixed.vcf").path
        let result = Self.run(["lint", Self.broken, "--fix", "-o", output])
        // Errors the fix cannot repair remain (an invalid date, two unreadable lines); a repeated 4.0 N is
        // written as X-N, so the card holds one N and nothing is lost.
        #expect(result.code == 1)
        #expect(result.out.isEmpty)
        let fixed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        Golden.check(fixed, against: "lint/expected/broken.fixed.vcf")
        Golden.check(Self.relative(result.err), against: "lint/expected/broken.fix-log.txt")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == [".fixed.vcf.vcf-lock", "fixed.vcf"])

        // Fixing the fixed file changes nothing.
        let again = directory.appendingPathComponent("again.vcf").path
        _ = Self.run(["lint", output, "--fix", "-o", again])
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: again))) == fixed)

        // What is still wrong in the fixed file is exactly what the log says was not fixed.
        let brokenBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.broken)))
        let repair = Linter.fix(brokenBytes, file: "broken.vcf")
        let left = Linter.lint(fixed, file: "fixed.vcf").filter { $0.severity == .error }.map(\.code.rawValue).sorted()
        let notFixed = repair.changes.filter { $0.outcome == .notFixed && $0.severity == .error }
        #expect(left == notFixed.map(\.code.rawValue).sorted())
        #expect(left == ["invalid-date", "missing-colon", "missing-name"])
        #expect(repair.remainingErrors == 3)
        let text = String(decoding: fixed, as: UTF8.self)
        #expect(text.contains("\r\nX-N:Duarte Silva;Ines;;;\r\n") && text.contains("\r\nX-BDAY:1981-02-11\r\n"))
        #expect(repair.bytes == fixed)
    }

    @Test func fixToStandardOutputAndInPlace() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let golden = [UInt8](try Data(contentsOf: FixturePaths.url("lint/expected/broken.fixed.vcf")))
        let toStdout = Self.run(["lint", Self.broken, "--fix", "-o", "-"])
        #expect(toStdout.outBytes == golden)
        #expect(toStdout.err.contains("broken.vcf:8: fixed: [missing-version] added VERSION:3.0\n"))

        // In place only when the output names the input; through a temporary file and a rename.
        let copy = directory.appendingPathComponent("contacts.vcf").path
        try FileManager.default.copyItem(atPath: Self.broken, toPath: copy)
        let inPlace = Self.run(["lint", copy, "--fix", "-o", copy])
        #expect(inPlace.code == 1)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: copy))) == golden)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == [".contacts.vcf.vcf-lock", "contacts.vcf"])
    }

    /// A file with no card repaired in place is left alone, its inode and bytes as they were, and nothing is said
    /// to be fixed: text without a line end, notes with LF line ends, blank lines, a card whose BEGIN is mistyped
    /// (its END stray). Its repair could only have rewritten text outside cards, which is kept as written.
    @Test(arguments: [
        "hello", "Important notes\nphone of Bob: 555-1234\n", "   \n\n  \t\n",
        "BEGN:VCARD\nVERSION:3.0\nFN:Ann\nEND:VCARD\n",
    ])
    func aFileWithoutCardsIsLeftAloneInPlace(text: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("notes.vcf").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        let outcome = Self.run(["lint", path, "--fix", "-o", path])
        #expect(outcome.err.contains(": 0 fixed, "), "\(outcome.err)")
        #expect(!outcome.err.contains(": fixed: "), "\(outcome.err)")
        #expect(outcome.err.hasSuffix(" not fixed; no card to repair, the file was left as it was\n"), "\(outcome.err)")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == Array(text.utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == before)
    }

    @Test func findingsSitOnTheLinesOfTheirCards() throws {
        let found = try Self.findings(options: LintOptions(maxRecordBytes: 1000))
        func has(_ line: Int, _ code: DiagnosticCode, _ severity: Diagnostic.Severity, column: Int = 1) -> Bool {
            found.contains { $0.line == line && $0.code == code && $0.severity == severity && $0.column == column }
        }
        #expect(!found.contains { $0.line <= 7 }, "the first card is valid")
        #expect(has(8, .missingVersion, .error))
        #expect(has(14, .unknownVersion, .error, column: 9))
        #expect(has(21, .versionNotSecond, .warning))
        #expect(has(25, .missingFormattedName, .error))
        #expect(has(37, .missingN, .error))
        #expect(has(48, .duplicateProperty, .warning), "a second BDAY is a warning in 3.0")
        #expect(has(54, .duplicateProperty, .error), "a second N is an error in 4.0")
        #expect(has(62, .unknownType, .warning, column: 10))
        #expect(has(69, .invalidDate, .error, column: 6))
        #expect(has(76, .invalidBase64, .error, column: 28))
        #expect(has(83, .invalidBase64, .warning, column: 28))
        #expect(has(96, .imageTypeMismatch, .error, column: 27))
        #expect(has(116, .longLine, .warning, column: 76))
        #expect(has(123, .quotedPrintable, .warning, column: 29))
        #expect(has(125, .missingUID, .warning))
        #expect(has(130, .recordTooLarge, .warning))
        #expect(has(148, .missingEnd, .error))
        #expect(has(159, .unexpectedEnd, .error))
        #expect(has(160, .textOutsideCard, .warning))
        #expect(has(187, .invalidEncoding, .error, column: 6), "not UTF-8 is an error in a 3.0 card")
        // Sorted by line, then column.
        #expect(zip(found, found.dropFirst()).allSatisfy { ($0.line, $0.column) <= ($1.line, $1.column) })
    }

    @Test func theFixtureCoversEveryCodeACardCanHave() throws {
        let codes = Set(try Self.findings(options: LintOptions(maxRecordBytes: 1000)).map(\.code.rawValue))
        #expect(
            codes == [
                "missing-version", "unknown-version", "version-not-second", "missing-fn", "empty-fn", "missing-n",
                "duplicate-property", "unknown-type", "invalid-date", "invalid-base64", "image-type-mismatch",
                "unknown-image", "long-line", "quoted-printable", "invalid-quoted-printable", "missing-uid",
                "record-too-large", "missing-end", "unexpected-end", "text-outside-card", "missing-colon",
                "missing-name",
                "invalid-encoding", "unknown-charset", "unterminated-quote", "invalid-value", "nonstandard-name",
                "nul-character", "control-character",
            ])
    }

    @Test func messagesNameNoValues() throws {
        // Names, numbers and notes of the fixture's people never appear in a message.
        for finding in try Self.findings() {
            for value in ["Lima", "Costa", "Smith", "555", "15.04", "Café", "harbour", "sip:"] {
                #expect(!finding.message.contains(value), "\(finding.line): \(finding.message)")
            }
        }
    }

    @Test func aCleanFileHasNoFindings() {
        let result = Self.run(["lint", Self.clean])
        #expect(result.code == 0)
        #expect(result.out.isEmpty)
        #expect(result.err == "1 file: 0 errors, 0 warnings\n")
        #expect(Self.run(["lint", Self.clean, "--strict", "--json"]).out == "[]\n")
    }

    @Test func exitCodes() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Only warnings: 0, or 1 with --strict (which reports them as errors).
        let warningsOnly = directory.appendingPathComponent("no-uid.vcf").path
        try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada Obi\r\nN:Obi;Ada;;;\r\nEND:VCARD\r\n".utf8)
            .write(to: URL(fileURLWithPath: warningsOnly))
        let lenient = Self.run(["lint", warningsOnly])
        #expect(lenient.code == 0)
        #expect(lenient.out.contains(":1:1: warning: [missing-uid]"))
        let strict = Self.run(["lint", warningsOnly, "--strict"])
        #expect(strict.code == 1)
        #expect(strict.out.contains(":1:1: error: [missing-uid]"))

        #expect(Self.run(["lint", Self.broken]).code == 1)
        #expect(Self.run(["lint", Self.clean, Self.broken]).err == "2 files: 14 errors, 17 warnings\n")

        // A missing file is reported, the others are still linted, and the exit code is 2.
        let missing = Self.run(["lint", "/nonexistent/contacts.vcf", Self.broken])
        #expect(missing.code == 2)
        #expect(missing.err.contains("/nonexistent/contacts.vcf: error: cannot be read: No such file or directory"))
        #expect(missing.out.contains("broken.vcf:8:1: error: [missing-version]"))
        let json = directory.appendingPathComponent("cards.json").path
        try Data("[{\"formattedName\": \"Ada Obi\"}]".utf8).write(to: URL(fileURLWithPath: json))
        #expect(Self.run(["lint", json]).code == 2)

        for arguments in [
            ["lint"], ["lint", Self.broken, "--bogus"], ["lint", Self.broken, "--max-bytes", "lots"],
            ["lint", Self.broken, "--fix"], ["lint", Self.broken, "-o", "out.vcf"],
            ["lint", Self.broken, Self.clean, "--fix", "-o", "out.vcf"],
            ["lint", Self.broken, "--fix", "--json", "-o", "-"],
        ] {
            #expect(Self.run(arguments).code == 64, "\(arguments)")
        }
        #expect(Self.run(["lint", Self.broken, "--strikt"]).err.contains("did you mean --strict?"))
        #expect(Self.run(["lnt"]).err.contains("did you mean lint?"))
    }

    @Test func presetsBoundTheCardAndItsPhoto() {
        let icloud = Self.run(["lint", Self.clean, "--max-bytes", "icloud"])
        #expect(icloud.code == 0)
        #expect(icloud.out.isEmpty)
        let tiny = Self.run(["lint", Self.clean, "--max-bytes", "300"])
        #expect(tiny.code == 0)
        #expect(tiny.out.contains(":1:1: warning: [record-too-large] card is 943 bytes, "))
        #expect(tiny.out.contains("over the 300-byte record limit\n"))
    }

    @Test func helpLeadsWithExamples() {
        let help = Self.run(["help", "lint"])
        #expect(help.code == 0)
        #expect(help.out == Self.run(["lint", "--help"]).out)
        #expect(help.out.hasPrefix("vcf lint: "))
        let examples = help.out.range(of: "Examples:")
        let usage = help.out.range(of: "Usage: vcf lint")
        #expect(examples != nil && usage != nil && examples!.lowerBound < usage!.lowerBound)
        #expect(help.out.contains("Exit codes: 0 no errors, 1 errors found"))
        Golden.check(help.out, against: "cli/help-lint.txt")
    }

    @Test(.enabled(if: builtBinary != nil, "the vcf binary is not built"))
    func theBinaryKeepsFindingsAndSummaryApart() throws {
        let (code, out, err) = try ExecutableTests.run(["lint", Self.broken])
        #expect(code == 1)
        #expect(String(decoding: out, as: UTF8.self).hasPrefix("\(Self.broken):8:1: error: [missing-version] "))
        #expect(err == "1 file: 14 errors, 17 warnings\n")
        let fromStdin = try ExecutableTests.run(
            ["lint", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: Self.clean)))
        #expect(fromStdin.0 == 0)
        #expect(fromStdin.1.isEmpty)
    }

    @Test func fixingTheParserFixturesLeavesOnlyWhatItReports() throws {
        // Every file the parser tests use: the repaired file lints with no error the log does not name,
        // and repairing it again changes nothing.
        for name in try FixturePaths.files(in: "vcard", withExtension: "vcf") {
            let bytes = try FixturePaths.bytes("vcard/" + name)
            let repair = Linter.fix(bytes, file: name)
            let left = Linter.lint(repair.bytes, file: name).filter { $0.severity == .error }.count
            #expect(left == repair.remainingErrors, "\(name)")
            #expect(Linter.fix(repair.bytes, file: name).bytes == repair.bytes, "\(name)")
        }
    }
}
