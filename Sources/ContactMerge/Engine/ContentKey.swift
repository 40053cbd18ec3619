import CardIdentity
import ContactMatching
import ContactModel
import VCardFormat

/// What a card is, by its content alone: an order for cards that never depends on where they came from, and the
/// UID a card without one gets when a decision must name it.
public enum ContentKey {
    /// The card written as vCard 3.0 without its UID: equal for equal content, whatever the source file.
    static func bytes(_ contact: Contact) -> [UInt8] {
        var card = contact
        card.uid = nil
        var out: [UInt8] = []
        VCardWriter(version: .v3_0).write(card, into: &out)
        return out
    }

    /// FNV-1a 64 of the content: cards sort by it when several merge into one, so the order of the input files
    /// never changes which single value wins. Equal content gives equal keys, and such cards are interchangeable.
    static func order(_ contact: Contact) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes(contact) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// The card's UID, or the name-based UUID of its content (as `vcf lint --fix` makes it) when it has none.
    public static func uid(_ contact: Contact) -> String {
        if let uid = contact.uid, MatchKeys.uidKey(uid) != nil { return uid }
        return NameBasedUUID.urn(name: ContentUIDs.content(of: contact))
    }
}
