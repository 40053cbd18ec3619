import CardIdentity
import ContactModel
import Testing
import VCardFormat

/// The UIDs made from a card's content: a published answer, what the content leaves out, and uniqueness.
@Suite struct ContentUIDsTests {
    static func contact(_ lines: String..., version: String = "3.0") -> Contact {
        let text = (["BEGIN:VCARD", "VERSION:\(version)"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
        let read = VCardDocument.read(Array(text.utf8))
        return read.cards[0].contact
    }

    @Test func theUIDIsVersion5OfTheCardWrittenAs3() {
        // Python: uuid.UUID(bytes=sha1(UUID('15ca0f11-67e8-53a8-a36a-88fe97ad4d4f').bytes + b'BEGIN:VCARD\r\n'
        //   b'VERSION:3.0\r\nFN:Rosa Klein\r\nN:Klein;Rosa;;;\r\nEND:VCARD\r\n').digest()[:16], version=5)
        var uids = ContentUIDs()
        let card = Self.contact("FN:Rosa Klein", "N:Klein;Rosa;;;")
        #expect(uids.uid(for: card) == "urn:uuid:b6fa767c-f9e9-5a3d-bdb2-ec3a3fa9e26e")
    }

    @Test func versionRevisionAndProducerDoNotChangeTheUID() {
        let plain = Self.contact("FN:Rosa Klein", "N:Klein;Rosa;;;", "TEL;TYPE=CELL:+49 30 1234567")
        let variants = [
            Self.contact("FN:Rosa Klein", "N:Klein;Rosa;;;", "TEL;CELL:+49 30 1234567", version: "2.1"),
            Self.contact(
                "PRODID:-//Apple Inc.//iOS 17.0//EN", "FN:Rosa Klein", "N:Klein;Rosa;;;",
                "TEL;TYPE=CELL:+49 30 1234567", "REV:2024-03-05T14:30:00Z"),
            Self.contact("FN:Rosa Klein", "N:Klein;Rosa;;;", "TEL;TYPE=CELL:+49 30 1234567", "UID:   "),
        ]
        for variant in variants {
            #expect(ContentUIDs.content(of: variant) == ContentUIDs.content(of: plain))
            var one = ContentUIDs()
            var other = ContentUIDs()
            #expect(one.uid(for: variant) == other.uid(for: plain))
        }
        let other = Self.contact("FN:Rosa Klein", "N:Klein;Rosa;;;", "TEL;TYPE=CELL:+49 30 1234568")
        var uids = ContentUIDs()
        #expect(uids.uid(for: other) != ContentUIDs().copyUID(for: plain))
    }

    @Test func ensureKeepsAGivenUIDAndNeverRepeatsOne() {
        var uids = ContentUIDs()
        var given = Self.contact("FN:Ada Obi", "UID:abc")
        #expect(uids.ensure(&given) == nil)
        #expect(given.uid == "abc")
        var first = Self.contact("FN:Ada Obi")
        var second = first
        let a = uids.ensure(&first)
        let b = uids.ensure(&second)
        #expect(a != nil && b != nil && a != b)
        #expect(uids.used == ["abc", a!, b!])
        // The same cards in a new run get the same UIDs, in the same order.
        var again = ContentUIDs(existing: ["abc"])
        var third = Self.contact("FN:Ada Obi")
        var fourth = third
        #expect(again.ensure(&third) == a && again.ensure(&fourth) == b)
    }

    @Test func aUIDAlreadyThereIsNeverMade() {
        let card = Self.contact("FN:Rosa Klein", "N:Klein;Rosa;;;")
        let made = ContentUIDs().copyUID(for: card)
        var uids = ContentUIDs(existing: [made])
        let next = uids.uid(for: card)
        #expect(next != made && next.hasPrefix("urn:uuid:") && next.count == 45)
    }
}

extension ContentUIDs {
    /// The UID a fresh allocator gives `contact`.
    fileprivate func copyUID(for contact: Contact) -> String {
        var copy = self
        return copy.uid(for: contact)
    }
}
