import ContactModel
import VCardFormat

/// UIDs for cards that have none, made from each card's content: `lint --fix`, `convert --ensure-uid` and
/// `merge` all make them here, so one card gets one UID whichever of them gave it, and doing it again gives
/// the same UID (a re-import then finds the cards it already made instead of adding them twice).
///
/// The content is the card written as vCard 3.0 without UID, REV, PRODID and VERSION: the version the card
/// was written in, when it was last changed and which program exported it say nothing about who it is, and
/// an export made again a day later, or by a newer release of the same app, must give the same UIDs.
public struct ContentUIDs: Sendable {
    private var allocator: UIDAllocator

    /// UIDs that are never one of `existing` (the UIDs already in the file, folder or collection).
    public init(existing: Set<String> = []) {
        allocator = UIDAllocator(existing: existing)
    }

    /// Every UID seen or made so far.
    public var used: Set<String> { allocator.used }

    /// Records a UID a card already has, so no card made later gets it.
    public mutating func reserve(_ uid: String) {
        allocator.reserve(uid)
    }

    /// The UID for `contact`, made from its content; a card identical to an earlier one gets another UID.
    public mutating func uid(for contact: Contact) -> String {
        allocator.uid(for: Self.content(of: contact))
    }

    /// Whether `ensure` gives `contact` a UID: it has none, or only white space.
    package static func needsUID(_ contact: borrowing Contact) -> Bool {
        guard let uid = contact.uid else { return true }
        return !uid.contains(where: { !$0.isWhitespace })
    }

    /// The UID `contact`'s content makes before any other card is considered (see `uid(base:)`).
    package static func base(of contact: Contact) -> String { NameBasedUUID.urn(name: content(of: contact)) }

    /// `uid(for:)` for a card whose content made `base` (from `base(of:)`, made beforehand).
    package mutating func uid(base: String) -> String { allocator.uid(base: base) }

    /// Gives `contact` a UID made from its content when it has none (or only white space); returns the
    /// UID it was given, nil when it had one.
    @discardableResult
    public mutating func ensure(_ contact: inout Contact) -> String? {
        if !Self.needsUID(contact), let uid = contact.uid {
            reserve(uid)
            return nil
        }
        let made = uid(for: contact)
        contact.uid = made
        return made
    }

    /// The bytes a card's UID is made from: see the type's discussion.
    public static func content(of contact: Contact) -> [UInt8] {
        var normalized = contact
        normalized.uid = nil
        normalized.revision = nil
        normalized.extensions.removeAll { ["PRODID", "VERSION", "UID", "REV"].contains($0.name.uppercased()) }
        var out: [UInt8] = []
        VCardWriter(version: .v3_0).write(normalized, into: &out)
        return out
    }
}
