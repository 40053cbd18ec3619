import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

/// Every authored quirk fixture in `Fixtures/vcard/` against its goldens in `Fixtures/vcard/expected/`:
/// the vCard 3.0 we write, the Contact JSON, and the diagnostics with their lines and codes.
@Suite struct FixtureGoldenTests {
    static let fixtures: [String] = (try? FixturePaths.files(in: "vcard", withExtension: "vcf")) ?? []

    @Test func fixturesArePresent() {
        #expect(Self.fixtures.count >= 50)
    }

    @Test(arguments: fixtures)
    func goldens(_ file: String) throws {
        let input = try FixturePaths.bytes("vcard/" + file)
        let (cards, diagnostics) = VCardDocument.read(input, name: file)
        let stem = String(file.dropLast(4))

        let written = VCardWriter(version: .v3_0).bytes(cards.map(\.contact))
        Golden.check(written, against: "vcard/expected/\(stem).vcf")
        Golden.check(ContactJSON.encode(cards.map(\.contact)), against: "vcard/expected/\(stem).json")
        let report = diagnostics.map {
            "\($0.line):\($0.column): \($0.severity.rawValue): [\($0.code.rawValue)] \($0.message)"
        }
        Golden.check(
            report.joined(separator: "\n") + (report.isEmpty ? "" : "\n"),
            against: "vcard/expected/\(stem).diagnostics")

        // What we write reads back to the same model, with no new problems, and writes identically.
        let (again, againDiagnostics) = VCardDocument.read(written)
        #expect(again.map(\.contact) == cards.map { VersionModel.as30($0.contact) })
        #expect(againDiagnostics.filter { $0.severity == .error }.isEmpty)
        #expect(VCardWriter(version: .v3_0).bytes(again.map(\.contact)) == written)
    }
}
