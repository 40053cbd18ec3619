import Foundation

/// A client for one CardDAV address book collection (RFC 6352): finds it, lists and reads its cards with
/// their ETags, and writes cards only on a precondition, so a change someone made on the server meanwhile is
/// never overwritten. It knows nothing of vCard beyond the media type.
public struct CardDAVClient: Sendable {
    /// The collection's URL, ending in `/`.
    public let collection: URL
    /// The credentials sent with every request, if any.
    public let credentials: Credentials?
    private let transport: any HTTPTransport

    /// A client for the collection at `collection`.
    /// - Throws: `CardDAVError` of kind `.insecure` when the URL may not be used (see `ConnectionPolicy`).
    public init(collection: URL, credentials: Credentials?, transport: any HTTPTransport = URLSessionTransport()) throws
    {
        try ConnectionPolicy.check(collection)
        var url = collection
        if !url.path.hasSuffix("/") { url = url.appendingPathComponent("", isDirectory: true) }
        self.collection = Self.withoutUserInfo(url)
        self.credentials = credentials
        self.transport = transport
    }

    // MARK: Collection

    /// What the server says about the collection.
    public struct CollectionInfo: Sendable {
        /// Its name for people, if it has one.
        public var displayName: String?
        /// The vCard versions the server stores (`3.0`, `4.0`); empty when it does not say.
        public var versions: Set<String>
        /// The largest card in bytes the server stores, when it says.
        public var maxResourceSize: Int?

        /// Whether cards may be written as vCard 4.0: only when the server advertises it.
        public var accepts4: Bool { versions.contains("4.0") }
    }

    /// Reads the collection's properties.
    /// - Throws: `CardDAVError`: `.notAddressBook` (listing the address books found there, if any), or why the
    ///   server could not be asked.
    public func discover() throws -> CollectionInfo {
        let response = try propfind(collection, depth: "0", properties: DAVRequests.collectionProperties)
        guard
            let item = response.responses.first(where: { sameResource($0.href, collection) })
                ?? response.responses.first
        else {
            throw CardDAVError(.badResponse, "\(collection.redactedDescription): the server said nothing about it")
        }
        let types = item.property(DAVNamespace.dav, "resourcetype")
        guard types?.child(DAVNamespace.cardDAV, "addressbook") != nil else {
            let found = (try? addressBooks(near: collection)) ?? []
            var message = "\(collection.redactedDescription) is not an address book"
            if !found.isEmpty {
                message +=
                    "; the address books there are:\n"
                    + found.map { "  \($0.url.absoluteString)" + ($0.name.map { " (\($0))" } ?? "") }
                    .joined(separator: "\n")
            }
            throw CardDAVError(.notAddressBook, message)
        }
        var versions: Set<String> = []
        for type in item.property(DAVNamespace.cardDAV, "supported-address-data")?.children ?? [] {
            if let version = type.attributes["version"] { versions.insert(version) }
        }
        let size = item.property(DAVNamespace.cardDAV, "max-resource-size").flatMap {
            Int($0.text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let name = item.property(DAVNamespace.dav, "displayname")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return CollectionInfo(
            displayName: name?.isEmpty == false ? name : nil, versions: versions, maxResourceSize: size)
    }

    /// The address books a person can reach from `url`: its principal's address book home, listed.
    public func addressBooks(near url: URL) throws -> [(url: URL, name: String?)] {
        var start = url
        if url.path.isEmpty || url.path == "/" {
            start = URL(string: "/.well-known/carddav", relativeTo: url)!.absoluteURL
        }
        let here = try propfind(start, depth: "0", properties: DAVRequests.principalProperties)
        var homes = here.responses.flatMap { hrefs(in: $0.property(DAVNamespace.cardDAV, "addressbook-home-set")) }
        if homes.isEmpty,
            let principal = here.responses.lazy.compactMap({
                self.hrefs(in: $0.property(DAVNamespace.dav, "current-user-principal")).first
            }).first
        {
            let found = try propfind(principal, depth: "0", properties: DAVRequests.principalProperties)
            homes = found.responses.flatMap { hrefs(in: $0.property(DAVNamespace.cardDAV, "addressbook-home-set")) }
        }
        if homes.isEmpty { homes = [url] }
        var books: [(URL, String?)] = []
        for home in homes {
            let listing = try propfind(home, depth: "1", properties: DAVRequests.collectionProperties)
            for item in listing.responses
            where item.property(DAVNamespace.dav, "resourcetype")?.child(DAVNamespace.cardDAV, "addressbook") != nil {
                guard let address = resolve(item.href) else { continue }
                let name = item.property(DAVNamespace.dav, "displayname")?.text
                books.append((address, name?.isEmpty == false ? name : nil))
            }
        }
        return books
    }

    // MARK: Reading

    /// One card resource in the collection.
    public struct Member: Sendable, Hashable {
        /// Its href as the server gives it (an absolute path).
        public var href: String
        /// Its ETag, if the server gave one.
        public var etag: String?
    }

    /// The card resources in the collection (sub-collections left out), sorted by href.
    public func list() throws -> [Member] {
        let listing = try propfind(collection, depth: "1", properties: DAVRequests.memberProperties)
        var members: [Member] = []
        for item in listing.responses where !sameResource(item.href, collection) {
            if item.property(DAVNamespace.dav, "resourcetype")?.child(DAVNamespace.dav, "collection") != nil {
                continue
            }
            let type = item.property(DAVNamespace.dav, "getcontenttype")?.text.lowercased() ?? ""
            guard type.isEmpty || type.contains("vcard") || type.contains("directory") || item.href.hasSuffix(".vcf")
            else { continue }
            members.append(Member(href: item.href, etag: item.property(DAVNamespace.dav, "getetag").map(\.text)))
        }
        return members.sorted { $0.href < $1.href }
    }

    /// A card as read from the server.
    public struct Resource: Sendable {
        /// Its href.
        public var href: String
        /// Its ETag, if the server gave one.
        public var etag: String?
        /// Its bytes (address data).
        public var bytes: [UInt8]
    }

    /// Reads the cards at `hrefs` with `addressbook-multiget` REPORTs of `batch` hrefs each, calling `body` with
    /// each card as it arrives; returns the hrefs the server said are gone.
    public func multiget(
        _ hrefs: [String], batch: Int = 250, _ body: (Resource) throws -> Void
    ) throws -> [String] {
        var missing: [String] = []
        var start = 0
        while start < hrefs.count {
            let chunk = Array(hrefs[start..<min(start + batch, hrefs.count)])
            start += chunk.count
            let response = try send(
                "REPORT", collection, headers: [("Depth", "1")], xml: DAVRequests.multiget(chunk), follow: false)
            guard response.status == 207 else { throw statusError(response, "REPORT", collection) }
            var answered = Set<String>()
            for item in try Multistatus(response.body).responses {
                answered.insert(Self.normalizedPath(item.href))
                guard let data = item.property(DAVNamespace.cardDAV, "address-data") else {
                    missing.append(item.href)
                    continue
                }
                try body(
                    Resource(
                        href: item.href, etag: item.property(DAVNamespace.dav, "getetag")?.text,
                        bytes: Array(data.text.utf8)))
            }
            missing += chunk.filter { !answered.contains(Self.normalizedPath($0)) }
        }
        return missing
    }

    /// The card at `href`, or nil when it is gone.
    public func get(_ href: String) throws -> Resource? {
        guard let url = resolve(href) else { return nil }
        let response = try send("GET", url, headers: [("Accept", "text/vcard")], follow: false)
        if response.status == 404 || response.status == 410 { return nil }
        guard response.isSuccess else { throw statusError(response, "GET", url) }
        return Resource(href: href, etag: response.header("etag"), bytes: response.body)
    }

    // MARK: Writing

    /// What became of one write.
    public enum WriteOutcome: Sendable, Equatable {
        /// Stored; the new ETag when the server gave it.
        case written(etag: String?)
        /// The precondition failed (412): the card changed, appeared or went away on the server meanwhile.
        case conflict
        /// The server refused this card: its status and reason, as the server gave it where it did.
        case refused(status: Int, reason: String)
    }

    /// The href of a new card named `name` (already safe as a path segment) in the collection.
    public func href(forNewCard name: String) -> String {
        let encoded = name.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? name
        let base = URLComponents(url: collection, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? collection.path
        return (base.hasSuffix("/") ? base : base + "/") + encoded
    }

    /// Writes a card: a new one (`etag` nil: `If-None-Match: *`, never replacing one there) or over the
    /// version read (`If-Match: etag`).
    public func put(_ bytes: [UInt8], at href: String, ifMatch etag: String?) throws -> WriteOutcome {
        guard let url = resolve(href) else { return .refused(status: 0, reason: "the href \(href) is not a URL") }
        let precondition = etag.map { ("If-Match", $0) } ?? ("If-None-Match", "*")
        let response = try send(
            "PUT", url, headers: [("Content-Type", "text/vcard; charset=utf-8"), precondition], body: bytes,
            follow: false)
        return try outcome(response, "PUT", url)
    }

    /// Removes the card at `href` if it is still the version read (`If-Match: etag`).
    public func delete(_ href: String, ifMatch etag: String?) throws -> WriteOutcome {
        guard let url = resolve(href) else { return .refused(status: 0, reason: "the href \(href) is not a URL") }
        let response = try send("DELETE", url, headers: etag.map { [("If-Match", $0)] } ?? [], follow: false)
        if response.status == 404 { return .conflict }
        return try outcome(response, "DELETE", url)
    }

    private func outcome(_ response: HTTPResponse, _ method: String, _ url: URL) throws -> WriteOutcome {
        if response.isSuccess { return .written(etag: response.header("etag")) }
        if response.status == 412 { return .conflict }
        if response.status >= 500 && response.status != 507 { throw statusError(response, method, url) }
        return .refused(status: response.status, reason: ServerReason.describe(response))
    }

    // MARK: Requests

    private func propfind(_ url: URL, depth: String, properties: String) throws -> Multistatus {
        let response = try send("PROPFIND", url, headers: [("Depth", depth)], xml: properties, follow: true)
        guard response.status == 207 else { throw statusError(response, "PROPFIND", url) }
        return try Multistatus(response.body)
    }

    private func send(
        _ method: String, _ url: URL, headers: [(String, String)], xml: String, follow: Bool
    ) throws -> HTTPResponse {
        try send(
            method, url, headers: headers + [("Content-Type", "application/xml; charset=utf-8")],
            body: Array(xml.utf8), follow: follow)
    }

    /// Sends one request with the credentials, following up to five redirects the policy allows (when `follow`).
    private func send(
        _ method: String, _ url: URL, headers: [(String, String)], body: [UInt8] = [], follow: Bool
    ) throws -> HTTPResponse {
        var target = url
        for _ in 0...5 {
            var request = HTTPRequest(
                method: method, url: target, headers: headers.map { (name: $0.0, value: $0.1) }, body: body)
            request.headers.append((name: "User-Agent", value: "vcf/0.1 (CardDAV)"))
            if let credentials, ConnectionPolicy.mayFollow(from: collection, to: target) {
                request.headers.append((name: "Authorization", value: credentials.basicAuthorization))
            }
            let response = try transport.send(request)
            if response.status == 401 { throw authenticationError(target) }
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("location")
            else { return response }
            guard let next = URL(string: location, relativeTo: target)?.absoluteURL else { return response }
            guard follow, ConnectionPolicy.mayFollow(from: target, to: next) else {
                throw CardDAVError(
                    .status,
                    "\(target.redactedDescription): the server redirects to \(next.redactedDescription); "
                        + "give that URL if you trust it")
            }
            target = next
        }
        throw CardDAVError(.status, "\(url.redactedDescription): too many redirects")
    }

    private func authenticationError(_ url: URL) -> CardDAVError {
        let host = url.host ?? url.redactedDescription
        if let credentials {
            return CardDAVError(
                .authentication,
                "\(url.redactedDescription): the server refused the password for user \(credentials.user) "
                    + "(401 Unauthorized)")
        }
        return CardDAVError(
            .authentication,
            "\(url.redactedDescription): the server asks for a user name and password; put them in ~/.netrc "
                + "(machine \(host) login NAME password ...), in VCF_CARDDAV_USER and VCF_CARDDAV_PASSWORD, "
                + "or give --user NAME to be asked")
    }

    private func statusError(_ response: HTTPResponse, _ method: String, _ url: URL) -> CardDAVError {
        if response.status == 404 {
            return CardDAVError(.status, "\(url.redactedDescription): no such collection on the server (404 Not Found)")
        }
        return CardDAVError(
            .status, "\(url.redactedDescription): \(method) failed: \(ServerReason.describe(response))")
    }

    // MARK: URLs

    /// `href` resolved against the collection.
    public func resolve(_ href: String) -> URL? {
        URL(string: href, relativeTo: collection)?.absoluteURL
    }

    private func hrefs(in element: DAVElement?) -> [URL] {
        (element?.children(DAVNamespace.dav, "href") ?? []).compactMap {
            resolve($0.text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    private func sameResource(_ href: String, _ url: URL) -> Bool {
        guard let resolved = resolve(href) else { return false }
        return Self.normalizedPath(resolved.path) == Self.normalizedPath(url.path)
    }

    /// A path with percent escapes decoded and no trailing slash, for comparing hrefs.
    static func normalizedPath(_ href: String) -> String {
        var path = href
        if let url = URL(string: href), url.scheme != nil { path = url.path }
        path = path.removingPercentEncoding ?? path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func withoutUserInfo(_ url: URL) -> URL {
        guard url.user != nil, var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        parts.user = nil
        parts.password = nil
        return parts.url ?? url
    }

    /// Characters left as they are in a path segment.
    private static let segmentCharacters: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~@+")
        return set
    }()
}
