import ContactModel
import Foundation
import Testing

@testable import VCardLint

/// The ISO 8601 forms vCard dates take, accepted and refused.
@Suite struct DateGrammarTests {
    @Test(arguments: [
        "1985-04-15", "19850415", "--0415", "--04-15", "1953-10-15T23:10:00Z", "19531015T231000Z",
        "1996-04-15T10:22:00.123+02:00", "2000-02-29", "1985-04-15T10:22-0500",
    ])
    func datesEveryVersionAccepts(_ value: String) {
        #expect(DateGrammar.isDateAndOrTime(Array(value.utf8), reduced: false))
        #expect(DateGrammar.isDateAndOrTime(Array(value.utf8), reduced: true))
    }

    @Test(arguments: ["1985", "1985-04", "--04", "---15", "T102200Z", "T1022", "T-2200", "T--00"])
    func reducedFormsOnlyIn4(_ value: String) {
        #expect(!DateGrammar.isDateAndOrTime(Array(value.utf8), reduced: false))
        #expect(DateGrammar.isDateAndOrTime(Array(value.utf8), reduced: true))
    }

    @Test(arguments: [
        "April 15", "15.04.1985", "1985-13-01", "1985-02-30", "1900-02-29", "19850415T25", "1985-0415x",
        "1985-04-15T", "198504", "1985-04-15 10:22", "--1301", "1985-04-15T10:22:00Q",
    ])
    func notDates(_ value: String) {
        #expect(!DateGrammar.isDateAndOrTime(Array(value.utf8), reduced: true))
    }

    @Test func revisionsNeedAWholeDate() {
        #expect(DateGrammar.isTimestamp(Array("2024-03-05T14:30:00Z".utf8)))
        #expect(DateGrammar.isTimestamp(Array("20240305T143000Z".utf8)))
        #expect(DateGrammar.isTimestamp(Array("2024-03-05".utf8)))
        #expect(!DateGrammar.isTimestamp(Array("--0305".utf8)))
        #expect(!DateGrammar.isTimestamp(Array("1709649000".utf8)))
    }
}
