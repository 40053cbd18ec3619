import ContactCSV
import ContactModel
import Testing

/// Outlook writes dates in the short form of the computer's locale under the same English header names: a
/// British or Australian export is day first. The file's own dates decide which, as a whole.
@Suite struct DateOrderTests {
    static func birthdays(_ dates: [String]) -> (birthdays: [String?], problems: [ContactCSV.Problem]) {
        var text = "First Name,Last Name,E-mail Address,Mobile Phone,Birthday,Anniversary\r\n"
        for (k, date) in dates.enumerated() { text += "P\(k),Q,p\(k)@x.example,,\(date),0/0/00\r\n" }
        let result = ContactCSV.read(Array(text.utf8))
        #expect(result.layout == .outlook)
        return (result.contacts.map(\.birthday), result.problems)
    }

    @Test func aDateThatCanOnlyBeDayFirstMakesTheFileDayFirst() {
        // The first record's date reads either way; the second's says which.
        let read = Self.birthdays(["04/05/1985", "15/04/1990", "1/12/2001"])
        #expect(read.birthdays == ["1985-05-04", "1990-04-15", "2001-12-01"])
        #expect(read.problems.isEmpty)
    }

    @Test func monthFirstIsOutlooksDefault() {
        #expect(Self.birthdays(["04/05/1985", "1/12/2001"]).birthdays == ["1985-04-05", "2001-01-12"])
        #expect(Self.birthdays(["4/5/1985", "4/15/1990"]).birthdays == ["1985-04-05", "1990-04-15"])
    }

    @Test func datesThatDisagreeAreReadMonthFirstAndTheImpossibleOnesKept() {
        let read = Self.birthdays(["15/04/1990", "4/15/1990"])
        #expect(read.birthdays == ["15/04/1990", "1990-04-15"])
        #expect(read.problems.map(\.code) == [.invalidDate])
        #expect(read.problems.map(\.line) == [2])
    }

    @Test func theAnniversaryCountsToo() throws {
        let text =
            "First Name,Last Name,E-mail Address,Mobile Phone,Birthday,Anniversary\r\n"
            + "Ann,Lee,a@x.example,,03/04/1980,25/12/2005\r\n"
        let contacts = ContactCSV.read(Array(text.utf8)).contacts
        try #require(contacts.count == 1)
        let ann = contacts[0]
        #expect(ann.birthday == "1980-04-03")
        #expect(ann.anniversary == "2005-12-25")
    }
}
