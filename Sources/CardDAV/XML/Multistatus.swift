#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A WebDAV multistatus answer (RFC 4918 section 13): one response per resource, each with its properties
/// grouped by the status the server gave them.
public struct Multistatus: Sendable {
    /// The answer about one resource.
    public struct Response: Sendable {
        /// The resource's href, as the server wrote it.
        public var href: String
        /// The status of the whole response (a multiget's 404 for a card that is gone), if given.
        public var status: Int?
        /// Properties by the status they came with.
        public var propstats: [(status: Int, prop: DAVElement)]

        /// A property the server returned with a 2xx status.
        public func property(_ namespace: String, _ name: String) -> DAVElement? {
            for (status, prop) in propstats where (200..<300).contains(status) {
                if let found = prop.child(namespace, name) { return found }
            }
            return nil
        }
    }

    /// The responses in order.
    public var responses: [Response]

    /// The multistatus in `bytes`.
    /// - Throws: `CardDAVError` of kind `.badResponse` when it is not one.
    public init(_ bytes: [UInt8]) throws {
        let root = try DAVXML.parse(bytes)
        guard root.is(DAVNamespace.dav, "multistatus") else {
            throw CardDAVError(.badResponse, "the server answered with <\(root.name)>, not a WebDAV multistatus")
        }
        responses = root.children(DAVNamespace.dav, "response").compactMap { response in
            guard
                let href = response.child(DAVNamespace.dav, "href")?.text.trimmingCharacters(
                    in: .whitespacesAndNewlines)
            else { return nil }
            let status = response.child(DAVNamespace.dav, "status").flatMap { Self.status($0.text) }
            let propstats: [(Int, DAVElement)] = response.children(DAVNamespace.dav, "propstat").compactMap {
                guard let prop = $0.child(DAVNamespace.dav, "prop") else { return nil }
                return ($0.child(DAVNamespace.dav, "status").flatMap { Self.status($0.text) } ?? 200, prop)
            }
            return Response(href: href, status: status, propstats: propstats)
        }
    }

    /// The code of a status line (`HTTP/1.1 404 Not Found` -> 404).
    static func status(_ line: String) -> Int? {
        let words = line.split(separator: " ")
        guard words.count >= 2 else { return nil }
        return Int(words[1])
    }
}
