#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why talking to a CardDAV server failed as a whole (a card the server refuses is not an error: see
/// `CardDAVClient.WriteOutcome`). Messages never hold a password.
public struct CardDAVError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure, for callers that act on it.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The URL is not https (nor http to a loopback address), or holds a password.
        public static let insecure = Kind(rawValue: "insecure")
        /// The server asked for credentials, or refused the ones given.
        public static let authentication = Kind(rawValue: "authentication")
        /// No response: connection refused, timeout, TLS failure.
        public static let unreachable = Kind(rawValue: "unreachable")
        /// The URL is not an address book collection.
        public static let notAddressBook = Kind(rawValue: "not-address-book")
        /// The server answered a request with a status the client cannot go on from.
        public static let status = Kind(rawValue: "status")
        /// The server's answer could not be read (not XML, not a multistatus).
        public static let badResponse = Kind(rawValue: "bad-response")
        /// No password could be had (no terminal to ask on).
        public static let credentials = Kind(rawValue: "credentials")
    }

    /// What kind of failure.
    public var kind: Kind
    /// What happened, naming the URL without any password.
    public var message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension URL {
    /// The URL as messages show it: without any user name or password it may carry.
    public var redactedDescription: String {
        guard user != nil || password != nil, var parts = URLComponents(url: self, resolvingAgainstBaseURL: true)
        else { return absoluteString }
        parts.user = nil
        parts.password = nil
        return parts.url?.absoluteString ?? "\(scheme ?? "https")://\(host ?? "")\(path)"
    }
}
