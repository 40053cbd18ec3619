import CardDAV
import Foundation
import Synchronization
import VCardFormat
import VCardLint

/// A CardDAV address book collection as a `CardStore`: read with PROPFIND and `addressbook-multiget`, written
/// with `PUT` and `DELETE` on `If-None-Match: *` or `If-Match: ETAG`. Each card is checked against what the
/// server needs (`CardDAVCheck`) before it is sent.
public final class CardDAVStore: CardStore, @unchecked Sendable {
    /// The client.
    public let client: CardDAVClient
    /// What the server said about the collection.
    public let info: CardDAVClient.CollectionInfo
    /// The limits the cards are checked against before upload (the server's, and `--max-bytes`).
    public let server: CardDAVServer
    private let counter = Mutex(0)

    /// The collection `client` talks to, discovered; `maxBytes` (from `--max-bytes`) bounds the cards sent
    /// when it is lower than what the server advertises.
    /// - Throws: `CardDAVError`.
    public init(client: CardDAVClient, maxBytes: Int? = nil, limitName: String? = nil) throws {
        self.client = client
        info = try client.discover()
        var limit = info.maxResourceSize
        var name: String? = limit == nil ? nil : "the server's max-resource-size"
        if let maxBytes, limit == nil || maxBytes < limit! {
            limit = maxBytes
            name = limitName
        }
        server = CardDAVServer(accepts4: info.accepts4, maxBytes: limit, limitName: name)
    }

    public var name: String { client.collection.absoluteString }
    public var writes: Int { counter.withLock { $0 } }
    public var defaultVersion: VCardVersion { .v3_0 }
    public var accepts4: Bool { info.accepts4 }

    public func load() throws -> [StoredItem] {
        let members = try client.list()
        var items: [StoredItem] = []
        items.reserveCapacity(members.count)
        _ = try client.multiget(members.map(\.href)) { resource in
            items.append(item(resource))
        }
        return items.sorted { $0.id < $1.id }
    }

    public func reload(_ id: String) throws -> StoredItem? {
        try client.get(id).map(item)
    }

    public func create(_ name: String, _ bytes: [UInt8]) throws -> (id: String, location: String, outcome: StoreWrite) {
        let href = client.href(forNewCard: name)
        let location = client.resolve(href)?.absoluteString ?? href
        counter.withLock { $0 += 1 }
        let sent = ServerSafeNames.rewritten(bytes) ?? bytes
        return (href, location, Self.outcome(try client.put(sent, at: href, ifMatch: nil)))
    }

    public func replace(_ item: StoredItem, _ bytes: [UInt8]) throws -> StoreWrite {
        counter.withLock { $0 += 1 }
        let sent = ServerSafeNames.rewritten(bytes) ?? bytes
        return Self.outcome(try client.put(sent, at: item.id, ifMatch: etag(item)))
    }

    public func remove(_ item: StoredItem) throws -> StoreWrite {
        counter.withLock { $0 += 1 }
        return Self.outcome(try client.delete(item.id, ifMatch: etag(item)))
    }

    public func refusal(of bytes: [UInt8]) -> String? {
        let problems = CardDAVCheck.problems(in: bytes, server: server).filter { $0.severity == .error }
        guard !problems.isEmpty else { return nil }
        return "not sent: " + problems.map { "\($0.message) [\($0.code.rawValue)]" }.joined(separator: "; ")
    }

    public func sync() {}

    public func close() {}

    private func etag(_ item: StoredItem) -> String? {
        if case .etag(let value) = item.tag { return value }
        return nil
    }

    private func item(_ resource: CardDAVClient.Resource) -> StoredItem {
        StoredItem(
            id: resource.href, tag: resource.etag.map(ItemTag.etag), bytes: resource.bytes,
            location: client.resolve(resource.href)?.absoluteString ?? resource.href)
    }

    private static func outcome(_ outcome: CardDAVClient.WriteOutcome) -> StoreWrite {
        switch outcome {
        case .written(let etag): .written(etag.map(ItemTag.etag))
        case .conflict: .conflict
        case .refused(_, let reason): .refused(reason)
        }
    }
}
