import Foundation
import TestSupport
import Testing
import VCardSyntax

@testable import VCardLint

/// The linter on small inputs: the file-level codes, the photo limit, strictness, ALTID, and the UID the
/// fixer makes.
@Suite struct LinterTests {
    static func lint(_ text: String, options: LintOptions = LintOptions()) -> [Diagnostic] {
        Linter.lint(Array(text.utf8), file: "t.vcf", options: options)
    }

    static func card(_ lines: String..., version: String = "3.0") -> String {
        (["BEGIN:VCARD", "VERSION:\(version)"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    @Test func anEmptyInputHoldsNoCards() {
        #expect(Self.lint("").map(\.code) == [.noCards])
        #expect(Self.lint("").first?.severity == .warning)
    }

    @Test func aUTF16FileIsReadAndReported() throws {
        let text = try String(decoding: FixturePaths.bytes("lint/clean.vcf"), as: UTF8.self)
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let found = Linter.lint(utf16, file: "t.vcf")
        #expect(found.map(\.code) == [.notUTF8])
        let repair = Linter.fix(utf16, file: "t.vcf")
        #expect(repair.changes.map(\.description) == ["t.vcf:1: fixed: [not-utf8] wrote the file in UTF-8"])
        #expect(Linter.lint(repair.bytes, file: "t.vcf").isEmpty)
    }

    @Test func aPhotoOverItsLimit() throws {
        let clean = try FixturePaths.bytes("lint/clean.vcf")
        let found = Linter.lint(clean, file: "clean.vcf", options: LintOptions(maxPhotoBytes: 300, limitName: "test"))
        #expect(found.map(\.code) == [.photoTooLarge])
        #expect(found.first?.line == 8)
        #expect(found.first?.message == "PHOTO is 310 bytes, over the 300-byte photo limit (test)")
        #expect(Linter.lint(clean, file: "clean.vcf", options: LintOptions(maxPhotoBytes: 310)).isEmpty)
    }

    @Test func strictTurnsWarningsIntoErrors() {
        let text = Self.card("FN:Ada Obi", "N:Obi;Ada;;;")
        #expect(Self.lint(text).map(\.severity) == [.warning])
        #expect(Self.lint(text, options: LintOptions(strict: true)).map(\.severity) == [.error])
    }

    @Test func alternativesInOtherLanguagesAreNoDuplicates() {
        let text = Self.card(
            "FN:Taro Yamada", "N;ALTID=1;LANGUAGE=en:Yamada;Taro;;;", "N;ALTID=1;LANGUAGE=ja:山田;太郎;;;",
            "UID:urn:uuid:1", version: "4.0")
        #expect(Self.lint(text).isEmpty)
        let twice = Self.card("FN:Taro Yamada", "N:Yamada;Taro;;;", "N:Yamada;T;;;", "UID:urn:uuid:1", version: "4.0")
        #expect(Self.lint(twice).map(\.code) == [.duplicateProperty])
    }

    @Test func repeatsAreCountedAndLabelsNotShown() {
        let text = Self.card(
            "FN:A B", "N:B;A;;;", "UID:1", "BDAY:2000-01-01", "BDAY:2000-01-02", "BDAY:2000-01-03",
            "TEL;TYPE=Grandma's cell:1", "TEL;TYPE=mobile:2")
        #expect(
            Self.lint(text).map(\.message) == [
                "second BDAY in the card (the first is on line 6); readers keep only the first",
                "third BDAY in the card (the first is on line 6); readers keep only the first",
                "TEL TYPE value is not a type any vCard version defines; readers may drop it (private types start with X-)",
                "TEL TYPE `mobile` is not a type any vCard version defines; readers may drop it (private types start with X-)",
            ])
    }

    @Test func vendorAndPrivateTypesAreKnown() {
        let text = Self.card(
            "FN:Ada Obi", "N:Obi;Ada;;;", "UID:1", "TEL;TYPE=iPhone:1", "TEL;TYPE=MAIN:2",
            "TEL;TYPE=x-work-mobile:3", "EMAIL;TYPE=INTERNET,other:a@example.com", "EMAIL;CELL:b@example.com",
            "ADR;TYPE=dom,postal,parcel:;;1 Way;Town;;;", "TEL;TYPE=\"voice,cell\":4")
        #expect(Self.lint(text).isEmpty)
    }

    @Test func aTimeAloneIsABirthdayOnlyIn4() {
        let three = Self.card("FN:A B", "N:B;A;;;", "UID:1", "BDAY:T1022")
        #expect(Self.lint(three).map(\.code) == [.invalidDate])
        let four = Self.card("FN:A B", "UID:1", "BDAY:T1022", "ANNIVERSARY:--0415", version: "4.0")
        #expect(Self.lint(four).isEmpty)
        #expect(Self.lint(Self.card("FN:A B", "N:B;A;;;", "UID:1", "BDAY;VALUE=text:circa 1800")).isEmpty)
    }

    @Test func namesAreMadeFromFNOnlyForPeople() {
        let person = Self.card("FN:Mary Ann Smith", "UID:1")
        #expect(
            String(decoding: Linter.fix(Array(person.utf8), file: "t").bytes, as: UTF8.self)
                .contains("\r\nN:Smith;Mary Ann;;;\r\n"))
        let company = Self.card("FN:Fjord Analytics", "ORG:Fjord Analytics", "UID:1")
        let fixed = Linter.fix(Array(company.utf8), file: "t")
        #expect(String(decoding: fixed.bytes, as: UTF8.self).contains("\r\nN:;;;;\r\n"))
        #expect(fixed.changes.map(\.message) == ["added an empty N: the card names an organisation"])
    }

    @Test func identicalCardsGetDifferentUIDsThatDoNotChange() {
        let text = Self.card("FN:Ada Obi", "N:Obi;Ada;;;") + Self.card("FN:Ada Obi", "N:Obi;Ada;;;")
        let fixed = Linter.fix(Array(text.utf8), file: "t")
        let uids = String(decoding: fixed.bytes, as: UTF8.self).split(separator: "\r\n").filter { $0.hasPrefix("UID:") }
        #expect(uids.count == 2 && uids[0] != uids[1])
        #expect(uids.allSatisfy { $0.hasPrefix("UID:urn:uuid:") && $0.count == 49 })
        #expect(Linter.fix(Array(text.utf8), file: "t").bytes == fixed.bytes)
        #expect(Linter.fix(fixed.bytes, file: "t").changes.isEmpty)
    }

    @Test func formatLineAndJSON() {
        var finding = Diagnostic(.error, .missingN, "card has \"no\" N\tat all", line: 3, column: 0, file: "a b.vcf")
        #expect(LintFormat.line(finding) == "a b.vcf:3:1: error: [missing-n] card has \"no\" N\tat all")
        #expect(
            LintFormat.json([finding]) == """
                [
                  {"file": "a b.vcf", "line": 3, "column": 1, "severity": "error", "code": "missing-n", "message": "card has \\"no\\" N\\tat all"}
                ]

                """)
        finding.file = nil
        #expect(LintFormat.json([]) == "[]\n")
        #expect(LintFormat.summary(files: 1, errors: 1, warnings: 2) == "1 file: 1 error, 2 warnings")
    }
}
