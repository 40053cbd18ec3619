import Testing
import VCardSyntax

@testable import VCardLint

/// A 4.0 birthday that is no date is written `VALUE=text` (what RFC 6350 lets BDAY be), so `--fix` reports it
/// fixed; an invalid REV, which has no text form, is not, and is told apart from the BDAY.
@Suite struct DateFixTests {
    @Test func a40BirthdayThatIsNoDateIsMarkedTextAndAnInvalidRevisionIsNot() {
        let input = Array(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:u1\r\nFN:A\r\nBDAY:02-10\r\nREV:2014722T222710Z\r\nEND:VCARD\r\n".utf8)
        #expect(Linter.lint(input, file: "t.vcf").map(\.code) == [.invalidDate, .invalidDate])
        let repair = Linter.fix(input, file: "t.vcf")
        #expect(String(decoding: repair.bytes, as: UTF8.self).contains("BDAY;VALUE=text:02-10\r\n"))
        #expect(repair.changes.map(\.outcome) == [.fixed, .notFixed])
        #expect(repair.changes.first?.message == "marked the value VALUE=text: it is no date")
        #expect(repair.remainingErrors == 1)
        #expect(Linter.lint(repair.bytes, file: "t.vcf").map(\.code) == [.invalidDate])
    }

    @Test func a30BirthdayThatIsNoDateIsKeptAsWritten() {
        let input = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u1\r\nFN:A\r\nN:;A;;;\r\nBDAY:02-10\r\nEND:VCARD\r\n".utf8)
        let repair = Linter.fix(input, file: "t.vcf")
        #expect(repair.changes.map(\.outcome) == [.notFixed])
        #expect(String(decoding: repair.bytes, as: UTF8.self).contains("BDAY:02-10\r\n"))
    }
}
