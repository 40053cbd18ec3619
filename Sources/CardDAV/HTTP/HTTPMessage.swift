#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One HTTP request as the CardDAV client builds it: no cookies, no caching, nothing implicit.
public struct HTTPRequest: Sendable {
    /// GET, PUT, DELETE, PROPFIND, REPORT, MKCOL.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body; empty for none.
    public var body: [UInt8]

    /// A request with the given parts.
    public init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of a header field (names compare without case), if it is set.
    public func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// One HTTP response: its status, header fields (names in lower case) and body.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, names in lower case.
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]

    /// A response with the given parts; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// The value of a header field, if the response has it.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// Sends requests and waits for their responses. The client talks only to this, so a test can count the
/// requests or act between two of them (a change made on the server meanwhile) without a fake server.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's response (whatever its status).
    /// - Throws: `CardDAVError` when no response came (connection refused, timeout, TLS failure).
    func send(_ request: HTTPRequest) throws -> HTTPResponse
}
