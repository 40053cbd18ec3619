import ContactCSV
import ContactModel
import Testing

/// Writing CSV in two passes: the columns settled from every contact's needs, then each row against them; a
/// contact whose needs were not added is refused rather than written under the wrong columns.
@Suite struct LayoutBuilderTests {
    static func kept(_ header: String, _ value: String) -> Extension {
        Extension(name: "X-CSV-FIELD", parameters: [ExtraParameter(name: "X-COLUMN", values: [header])], value: value)
    }

    /// Three contacts whose columns only all three together decide: the most emails, a kept Event column and an
    /// anniversary, and kept columns in orders to reconcile.
    static let contacts: [Contact] = {
        var first = Contact(formattedName: "A", emails: [LabeledValue("a@example.com")])
        first.extensions = [kept("Spouse", "Mary"), kept("Hobby", "chess")]
        var second = Contact(
            formattedName: "B",
            emails: [LabeledValue("b@example.com"), LabeledValue("b2@example.com", types: ["work"])])
        second.extensions = [kept("Event 2 - Label", "Party"), kept("Hobby", "golf"), kept("Hobby", "go")]
        var third = Contact(formattedName: "C", phones: [LabeledValue("+1 555 0100")])
        third.anniversary = "2001-02-03"
        return [first, second, third]
    }()

    static func twoPasses(_ contacts: [Contact]) -> [UInt8] {
        var builder = ContactCSV.LayoutBuilder()
        for contact in contacts { builder.add(ContactCSV.CardNeeds(contact)) }
        let layout = builder.layout()
        var out = layout.header()
        for contact in contacts { #expect(layout.appendRow(contact, to: &out)) }
        return out
    }

    @Test func twoPassesGiveTheColumnsEveryContactDecides() {
        let text = String(decoding: Self.twoPasses(Self.contacts), as: UTF8.self)
        let header = text.split(separator: "\r\n").first.map(String.init) ?? ""
        #expect(header.contains("E-mail 2 - Label,E-mail 2 - Value,Phone 1 - Label"))
        // The anniversary's group sits above the kept Event 2 column.
        #expect(header.contains("Website 1 - Value,Event 3 - Label,Event 3 - Value,Spouse,Event 2 - Label,Hobby,Hobby"))
        #expect(text.hasSuffix(",'+1 555 0100,,,,,,,,,,,,Anniversary,2001-02-03,,,,\r\n"))
        #expect(text.split(separator: "\r\n").count == 4)
        #expect(Self.twoPasses(Self.contacts) == ContactCSV.write(Self.contacts))
    }

    @Test func aContactTheLayoutDidNotSeeIsRefused() {
        var builder = ContactCSV.LayoutBuilder()
        for contact in Self.contacts.prefix(2) { builder.add(ContactCSV.CardNeeds(contact)) }
        let layout = builder.layout()
        var more = Self.contacts[1]
        more.emails.append(LabeledValue("b3@example.com"))
        var newColumn = Self.contacts[0]
        newColumn.extensions.append(Self.kept("Gender", "Female"))
        var secondHobby = Self.contacts[0]
        secondHobby.extensions.append(Self.kept("Hobby", "golf"))
        var third = Self.contacts[0]
        third.extensions += [Self.kept("Hobby", "a"), Self.kept("Hobby", "b")]
        for refused in [more, newColumn, third, Self.contacts[2]] {
            var out: [UInt8] = [1]
            #expect(!layout.fits(ContactCSV.CardNeeds(refused)))
            #expect(!layout.appendRow(refused, to: &out))
            #expect(out == [1])
        }
        // A second Hobby is a column the second contact brought.
        #expect(layout.fits(ContactCSV.CardNeeds(secondHobby)))
        // With the anniversary's group settled, a kept Event column in it no longer fits.
        builder.add(ContactCSV.CardNeeds(Self.contacts[2]))
        let withAnniversary = builder.layout()
        var clash = Self.contacts[2]
        clash.extensions = [Self.kept("Event 3 - Value", "x")]
        #expect(!withAnniversary.fits(ContactCSV.CardNeeds(clash)))
        #expect(withAnniversary.fits(ContactCSV.CardNeeds(Self.contacts[2])))
    }

    @Test func aKeptEventColumnWithTheHighestNumberLeavesTheAnniversaryTheLowestFreeGroup() {
        var card = Contact(formattedName: "A")
        card.anniversary = "2001-02-03"
        card.extensions = [Self.kept("Event \(Int.max) - Label", "x"), Self.kept("Event 1 - Label", "y")]
        let text = String(decoding: ContactCSV.write([card]), as: UTF8.self)
        #expect(text.contains(",Event 2 - Label,Event 2 - Value,Event \(Int.max) - Label,Event 1 - Label\r\n"))
        #expect(text.hasSuffix(",Anniversary,2001-02-03,x,y\r\n"))
    }

    /// A card's cells as a spool holds them: read back whole, asking the same of the columns as the card, and
    /// written to the same row.
    @Test func aPendingRowReadsBackToTheSameRow() throws {
        var cards = Self.contacts
        for file in FixtureTests.fixtures { cards += try FixtureTests.read(file).contacts }
        #expect(cards.count > 10)
        var builder = ContactCSV.LayoutBuilder()
        for card in cards { builder.add(ContactCSV.CardNeeds(card)) }
        let layout = builder.layout()
        var fromBytes = layout.header()
        for card in cards {
            let pending = ContactCSV.PendingRow(card)
            #expect(pending.needs == ContactCSV.CardNeeds(card))
            let again = try #require(ContactCSV.PendingRow(bytes: pending.bytes))
            #expect(again == pending)
            #expect(layout.appendRow(again, to: &fromBytes))
        }
        #expect(fromBytes == ContactCSV.write(cards))
        // Bytes that are not a whole row are refused.
        let bytes = ContactCSV.PendingRow(cards[0]).bytes
        #expect(ContactCSV.PendingRow(bytes: Array(bytes.dropLast())) == nil)
        #expect(ContactCSV.PendingRow(bytes: bytes + [0]) == nil)
        #expect(ContactCSV.PendingRow(bytes: []) == nil)
    }
}
