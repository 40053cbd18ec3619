import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

/// Every fixture of `Fixtures/fidelity/` (issue 19: what real readers see in the input, they still see in our
/// output) against its goldens in `Fixtures/fidelity/expected/`: the 3.0 and 4.0 we write, and the
/// diagnostics. `FidelityTests` checks the values that matter in each; the goldens catch everything else.
@Suite struct FidelityGoldenTests {
    static let fixtures: [String] = (try? FixturePaths.files(in: "fidelity", withExtension: "vcf")) ?? []

    @Test func fixturesArePresent() {
        #expect(Self.fixtures.count >= 30)
    }

    @Test(arguments: fixtures)
    func goldens(_ file: String) throws {
        let input = try FixturePaths.bytes("fidelity/" + file)
        let (cards, diagnostics) = VCardDocument.read(input, name: file)
        let stem = String(file.dropLast(4))
        let three = VCardWriter(version: .v3_0).bytes(cards.map(\.contact))
        let four = VCardWriter(version: .v4_0).bytes(cards.map(\.contact))
        Golden.check(three, against: "fidelity/expected/\(stem).v3.vcf")
        Golden.check(four, against: "fidelity/expected/\(stem).v4.vcf")
        let report = diagnostics.map {
            "\($0.line):\($0.column): \($0.severity.rawValue): [\($0.code.rawValue)] \($0.message)"
        }
        Golden.check(
            report.joined(separator: "\n") + (report.isEmpty ? "" : "\n"),
            against: "fidelity/expected/\(stem).diagnostics")

        // Our 3.0 output reads back to the same model (as far as 3.0 can say it) and writes identically; the
        // 4.0 output writes the same lines again (a line kept raw on the way back may move among the raw ones).
        let again = VCardDocument.read(three).cards.map(\.contact)
        #expect(again == cards.map { VersionModel.as30($0.contact) })
        #expect(VCardWriter(version: .v3_0).bytes(again) == three)
        let fourAgain = VCardWriter(version: .v4_0).bytes(VCardDocument.read(four).cards.map(\.contact))
        #expect(Self.lines(fourAgain) == Self.lines(four))
    }

    static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").sorted()
    }
}
