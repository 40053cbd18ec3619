import AddressBooks
import CardIdentity
import ContactMerge
import ContactModel
import Foundation
import VCardFormat

/// A small address book and the cards merged into it, shared by the vdir and CardDAV tests.
enum BookFixtures {
    static func card(_ lines: String...) -> [UInt8] { card(lines) }

    static func card(_ lines: [String]) -> [UInt8] {
        Array((["BEGIN:VCARD", "VERSION:3.0"] + lines + ["END:VCARD"]).joined(separator: "\r\n").utf8) + [13, 10]
    }

    /// Four people, each with a UID, as (file name, bytes).
    static let existing: [(String, [UInt8])] = [
        ("ann-1.vcf", card("UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;", "EMAIL:ann@example.com")),
        ("bob-2.vcf", card("UID:bob-2", "FN:Bob Stone", "N:Stone;Bob;;;", "TEL;TYPE=CELL:+44 7700 900123")),
        ("cara-3.vcf", card("UID:cara-3", "FN:Cara Diaz", "N:Diaz;Cara;;;", "EMAIL:cara@example.org")),
        ("dan-4.vcf", card("UID:dan-4", "FN:Dan Wu", "N:Wu;Dan;;;", "EMAIL:dan@example.net")),
    ]

    /// Ann with a new phone (merges), Bob as he is (unchanged), Eve without a UID (added).
    static let incomingBytes: [UInt8] =
        card("FN:Ann Lee", "N:Lee;Ann;;;", "EMAIL:ann@example.com", "TEL;TYPE=CELL:+44 7700 900456")
        + card("UID:bob-2", "FN:Bob Stone", "N:Stone;Bob;;;", "TEL;TYPE=CELL:+44 7700 900123")
        + card("FN:Eve Park", "N:Park;Eve;;;", "EMAIL:eve@example.com")

    static var incoming: [IncomingCard] {
        VCardDocument.read(incomingBytes, name: "incoming.vcf").cards.map {
            IncomingCard(contact: $0.contact, file: "incoming.vcf", line: $0.raw.beginLine)
        }
    }

    /// The UID the merge gives Eve, made from her card's content.
    static var eveUID: String {
        var uids = ContentUIDs()
        return uids.uid(for: incoming[2].contact)
    }

    /// The cards a merge of `incoming` into the same cards held in one file gives, with UIDs given to the added
    /// ones as a merge gives them: the reference a vdir or collection must match.
    static func mergedAsAFile() throws -> [Contact] {
        let file = try ContactsFile(bytes: existing.flatMap(\.1), name: "book.vcf")
        let result = AddressBookMerge().merge(incoming, into: file.existingCards)
        var uids = ContentUIDs(existing: Set(VCardDocument.read(existing.flatMap(\.1)).cards.compactMap(\.contact.uid)))
        let added = result.added.map { contact -> Contact in
            var copy = contact
            uids.ensure(&copy)
            return copy
        }
        let bytes = try file.rendered(replacing: result.replaced, adding: added)
        return VCardDocument.read(bytes).cards.map(\.contact)
    }

    /// The contacts of every `.vcf` file of `folder`, or of every stored item.
    static func contacts(_ items: [[UInt8]]) -> [Contact] {
        items.flatMap { VCardDocument.read($0).cards.map(\.contact) }
    }

    /// Contacts in a stable order for comparing books.
    static func sorted(_ contacts: [Contact]) -> [String] {
        contacts.map { String(decoding: VCardWriter().bytes([$0]), as: UTF8.self) }.sorted()
    }
}
