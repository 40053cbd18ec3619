import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

/// `VCardReader.identity` (what a merge reads of every card in a large book) must give exactly the identifying
/// fields a full read gives, on every fixture card and on the generated benchmark-like shapes.
@Suite struct IdentityReadTests {
    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: FixturePaths.url("vcard").path)) ?? []
        return names.filter { $0.hasSuffix(".vcf") }.sorted()
    }()

    /// A moved or emptied fixture folder fails here instead of running the cases below zero times.
    @Test func fixturesArePresent() {
        #expect(Self.files.count >= 50, "expected at least 50 Fixtures/vcard/*.vcf")
    }

    @Test(arguments: files)
    func identityEqualsTheFullReadsFields(_ file: String) throws {
        let bytes = [UInt8](try Data(contentsOf: FixturePaths.url("vcard/" + file)))
        let (raws, _) = VCardLexer.parse(bytes)
        for raw in raws {
            let full = VCardReader.contact(from: raw).contact
            let identity = VCardReader.identity(from: raw)
            #expect(identity.uid == full.uid, "\(file):\(raw.beginLine) UID")
            #expect(identity.formattedName == full.formattedName, "\(file):\(raw.beginLine) FN")
            #expect(identity.name == full.name, "\(file):\(raw.beginLine) N")
            #expect(identity.nicknames == full.nicknames, "\(file):\(raw.beginLine) NICKNAME")
            #expect(identity.organization == full.organization, "\(file):\(raw.beginLine) ORG")
            #expect(identity.emails == full.emails, "\(file):\(raw.beginLine) EMAIL")
            #expect(identity.phones == full.phones, "\(file):\(raw.beginLine) TEL")
            #expect(identity.birthday == full.birthday, "\(file):\(raw.beginLine) BDAY")
            #expect(identity.addresses.map(\.street) == full.addresses.map(\.street), "\(file):\(raw.beginLine) ADR")
            #expect(
                identity.addresses.map { [$0.locality, $0.region, $0.postalCode, $0.country] }
                    == full.addresses.map { [$0.locality, $0.region, $0.postalCode, $0.country] },
                "\(file):\(raw.beginLine) ADR")
            // And nothing else: the point is not to build the rest.
            #expect(identity.note == nil && identity.photo == nil && identity.extensions.isEmpty)
        }
    }
}
