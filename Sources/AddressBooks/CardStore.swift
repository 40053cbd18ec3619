import VCardFormat
import Vdir

/// What identifies the version of a stored card read: a file's stamp, or a resource's ETag.
public enum ItemTag: Hashable, Sendable {
    /// A vdir file's device, inode, size and times.
    case file(FileStamp)
    /// A CardDAV resource's ETag.
    case etag(String)
}

/// One stored unit of an address book kept card by card: a `.vcf` file of a vdir, or a card resource of a
/// CardDAV collection. It usually holds one card.
public struct StoredItem: Sendable {
    /// Its file name or href.
    public var id: String
    /// The version read, when known.
    public var tag: ItemTag?
    /// Its bytes.
    public var bytes: [UInt8]
    /// Where it is, for messages: the file's path or the resource's URL.
    public var location: String

    /// An item read from a store.
    public init(id: String, tag: ItemTag?, bytes: [UInt8], location: String) {
        self.id = id
        self.tag = tag
        self.bytes = bytes
        self.location = location
    }
}

/// What became of one write to a store.
public enum StoreWrite: Sendable, Equatable {
    /// Written; the new version, when known.
    case written(ItemTag?)
    /// The item is no longer the version read (or, for a new item, its name is taken): nothing was written.
    case conflict
    /// This card was refused (by the server, or by the checks before sending), for this reason.
    case refused(String)
}

/// An address book kept card by card, read whole and written one item at a time, each write only over the
/// version read. `VdirStore` and `CardDAVStore` are the two kinds.
public protocol CardStore: AnyObject {
    /// The folder or collection URL, for messages.
    var name: String { get }
    /// How many writes (files changed, PUT and DELETE requests) this store made.
    var writes: Int { get }
    /// The vCard version cards are written in when the store has no say from its cards.
    var defaultVersion: VCardVersion { get }
    /// Whether cards may be stored as vCard 4.0.
    var accepts4: Bool { get }
    /// Every item, in a stable order.
    func load() throws -> [StoredItem]
    /// The item `id` as it is now, or nil when it is gone.
    func reload(_ id: String) throws -> StoredItem?
    /// Stores a new item named `name` (a file name, or the last segment of an href); never over an item there.
    func create(_ name: String, _ bytes: [UInt8]) throws -> (id: String, location: String, outcome: StoreWrite)
    /// Replaces `item` with `bytes` if it is still the version read.
    func replace(_ item: StoredItem, _ bytes: [UInt8]) throws -> StoreWrite
    /// Removes `item` if it is still the version read.
    func remove(_ item: StoredItem) throws -> StoreWrite
    /// Why the store would refuse `bytes` (one card), before it is sent; nil when it would not.
    func refusal(of bytes: [UInt8]) -> String?
    /// Makes the writes so far durable (before anything is removed that depends on them).
    func sync()
    /// Ends the work with the store: a vdir is synced and its lock released.
    func close()
}

extension CardStore {
    /// The items `files` make, in order, up to the first that could not be made, and that one's error: written
    /// together into a folder (`VdirStore.create(all:)`), one after another to a server.
    func createInOrder(_ files: [(name: String, bytes: [UInt8])]) -> (
        results: [(id: String, location: String, outcome: StoreWrite)], error: (any Error)?
    ) {
        if let folder = self as? VdirStore { return folder.create(all: files) }
        var results: [(id: String, location: String, outcome: StoreWrite)] = []
        for file in files {
            do {
                results.append(try create(file.name, file.bytes))
            } catch {
                return (results, error)
            }
        }
        return (results, nil)
    }
}
