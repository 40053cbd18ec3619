import Utilities
import VCardFormat
import Vdir

/// A vdir as a `CardStore`: files created, replaced and removed one at a time under the folder's lock.
public final class VdirStore: CardStore {
    /// The open folder.
    public let folder: Vdir

    /// The folder at `path`, opened and locked (created when `create` is true); `waiting` is called if another
    /// `vcf` holds the lock.
    public init(path: String, create: Bool, waiting: () -> Void = {}) throws {
        folder = try Vdir(path: path, create: create, waiting: waiting)
    }

    public var name: String { folder.path }
    public var writes: Int { folder.changes }
    public var defaultVersion: VCardVersion { .v3_0 }
    public var accepts4: Bool { true }

    public func load() throws -> [StoredItem] {
        // The files are read on every processor (a folder of 10,000 cards spent as long opening and reading its
        // files on one thread as parsing them on two); the first that cannot be read, in name order, is the error.
        let path = folder.path
        let read = Concurrently.map(try Vdir.cardFileNames(in: path), chunk: 16) { name in
            Result { try Vdir.read(name, inFolder: path) }
        }
        return try read.compactMap { try $0.get().map(Self.item) }
    }

    public func reload(_ id: String) throws -> StoredItem? {
        try folder.read(id).map(Self.item)
    }

    public func create(_ name: String, _ bytes: [UInt8]) throws -> (id: String, location: String, outcome: StoreWrite) {
        let (results, error) = create(all: [(name, bytes)])
        if let error { throw error }
        return results[0]
    }

    /// Creates items as `create` does one, in order, written on every processor at once (`Vdir.create(all:)`):
    /// what became of each, up to the first that could not be written, and that one's error.
    func create(all items: [(name: String, bytes: [UInt8])]) -> (
        results: [(id: String, location: String, outcome: StoreWrite)], error: (any Error)?
    ) {
        // khard and vdirsyncer read a vdir with Python vobject, which cannot read a name RFC 6350 does not allow.
        let (outcomes, error) = folder.create(
            all: items.map { ($0.name, ServerSafeNames.rewritten($0.bytes) ?? $0.bytes) })
        let results = zip(items, outcomes).map { item, done in
            let outcome: StoreWrite
            switch done {
            case .done(let stamp): outcome = .written(stamp.map(ItemTag.file))
            case .changed: outcome = .conflict
            }
            return (item.name, Vdir.joined(folder.path, item.name), outcome)
        }
        return (results, error)
    }

    public func replace(_ item: StoredItem, _ bytes: [UInt8]) throws -> StoreWrite {
        guard case .file(let stamp) = item.tag else { return .conflict }
        switch try folder.replace(item.id, ServerSafeNames.rewritten(bytes) ?? bytes, expected: stamp) {
        case .done(let stamp): return .written(stamp.map(ItemTag.file))
        case .changed: return .conflict
        }
    }

    public func remove(_ item: StoredItem) throws -> StoreWrite {
        guard case .file(let stamp) = item.tag else { return .conflict }
        switch try folder.remove(item.id, expected: stamp) {
        case .done: return .written(nil)
        case .changed: return .conflict
        }
    }

    public func refusal(of bytes: [UInt8]) -> String? { nil }

    public func sync() { folder.sync() }

    public func close() { folder.close() }

    private static func item(_ file: VdirFile) -> StoredItem {
        StoredItem(id: file.name, tag: .file(file.stamp), bytes: file.bytes, location: file.path)
    }
}

/// A vdir that does not exist yet, for a dry run (`merge -n --into new-folder/`): empty, and never written,
/// so planning creates no folder.
public final class AbsentFolderStore: CardStore {
    public let name: String

    /// The folder at `path`, which is not there.
    public init(path: String) { name = path }

    public var writes: Int { 0 }
    public var defaultVersion: VCardVersion { .v3_0 }
    public var accepts4: Bool { true }
    public func load() throws -> [StoredItem] { [] }
    public func reload(_ id: String) throws -> StoredItem? { nil }
    public func create(_ name: String, _ bytes: [UInt8]) throws -> (id: String, location: String, outcome: StoreWrite) {
        throw VdirError(path: self.name, reason: "does not exist (a dry run writes nothing)")
    }
    public func replace(_ item: StoredItem, _ bytes: [UInt8]) throws -> StoreWrite { .conflict }
    public func remove(_ item: StoredItem) throws -> StoreWrite { .conflict }
    public func refusal(of bytes: [UInt8]) -> String? { nil }
    public func sync() {}
    public func close() {}
}
