/// Makes the UIDs of one file: each from its card's content, never one already in the file.
public struct UIDAllocator: Sendable {
    /// Every UID in the file, given and made.
    public private(set) var used: Set<String>
    /// How many cards gave each content UID, for the cards after the first.
    private var occurrences: [String: Int] = [:]

    /// An allocator that never hands out one of `existing`.
    public init(existing: Set<String>) { used = existing }

    /// Records a UID a card already has.
    public mutating func reserve(_ uid: String) { used.insert(uid) }

    /// A UID for a card whose content (written without UID) is `content`. A card identical to an earlier
    /// one gets the UID made from the earlier one's UID and a counter, so the file never holds two cards
    /// with one UID and the content is hashed once however many copies there are.
    public mutating func uid(for content: [UInt8]) -> String {
        uid(base: NameBasedUUID.urn(name: content))
    }

    /// `uid(for:)` of the content whose UID is `base` (`NameBasedUUID.urn(name: content)`), made beforehand:
    /// making them is the work, and it can be done for many cards at once.
    package mutating func uid(base: String) -> String {
        var uid = base
        if used.contains(uid) {
            var count = occurrences[base, default: 1]
            repeat {
                count += 1
                uid = NameBasedUUID.urn(name: Array("\(base)\n\(count)".utf8))
            } while used.contains(uid)
            occurrences[base] = count
        }
        used.insert(uid)
        return uid
    }
}
