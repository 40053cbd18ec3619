#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A user name and password for a server. Its description never shows the password.
public struct Credentials: Sendable, CustomStringConvertible {
    /// The user name.
    public var user: String
    /// The password; only ever sent in an Authorization header.
    public var password: String

    /// Credentials for `user`.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The HTTP Basic Authorization header value (RFC 7617), in UTF-8.
    public var basicAuthorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    public var description: String { "user \(user)" }
}

/// Where a password comes from, in this order: `--user NAME` (its ~/.netrc entry, else `VCF_CARDDAV_PASSWORD`
/// when `VCF_CARDDAV_USER` is unset or the same name, else a prompt on the terminal), `VCF_CARDDAV_USER` with
/// `VCF_CARDDAV_PASSWORD`, then ~/.netrc (`$NETRC` names another file) for the server's host. Never from the
/// command line.
public struct CredentialLookup: Sendable {
    /// The user named with `--user` or in the URL (`https://ann@host/`), if any.
    public var user: String?
    /// The environment: `VCF_CARDDAV_USER`, `VCF_CARDDAV_PASSWORD`, `NETRC`, `HOME`.
    public var environment: [String: String]
    /// Asks for the password of the given prompt text; nil when there is no terminal to ask on.
    public var prompt: @Sendable (String) -> String?

    /// A lookup for `user` in `environment`, asking with `prompt`.
    public init(
        user: String? = nil, environment: [String: String],
        prompt: @escaping @Sendable (String) -> String? = PasswordPrompt.ask
    ) {
        self.user = user
        self.environment = environment
        self.prompt = prompt
    }

    /// The netrc file this lookup reads.
    public var netrcPath: String? {
        if let path = environment["NETRC"], !path.isEmpty { return path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.netrc"
    }

    /// The credentials for `url`, or nil when none are configured (the server may not need any).
    /// - Throws: `CardDAVError` of kind `.credentials` when a password is needed and cannot be had.
    public func credentials(for url: URL) throws -> Credentials? {
        let host = url.host ?? ""
        let netrc = netrcPath.flatMap { Netrc(path: $0) }
        let named = user ?? url.user.flatMap { $0.removingPercentEncoding ?? $0 }
        let environmentUser = environment["VCF_CARDDAV_USER"].flatMap { $0.isEmpty ? nil : $0 }
        let environmentPassword = environment["VCF_CARDDAV_PASSWORD"]
        if let named, !named.isEmpty {
            if let entry = netrc?.entry(host: host, login: named) {
                return Credentials(user: named, password: entry.password ?? "")
            }
            if let environmentPassword, environmentUser == nil || environmentUser == named {
                return Credentials(user: named, password: environmentPassword)
            }
            return try asked(named, host: host)
        }
        if let environmentUser {
            if let environmentPassword { return Credentials(user: environmentUser, password: environmentPassword) }
            if let entry = netrc?.entry(host: host, login: environmentUser) {
                return Credentials(user: environmentUser, password: entry.password ?? "")
            }
            return try asked(environmentUser, host: host)
        }
        if environmentPassword != nil {
            throw CardDAVError(.credentials, "VCF_CARDDAV_PASSWORD is set, but VCF_CARDDAV_USER is not")
        }
        if let entry = netrc?.entry(host: host, login: nil), let login = entry.login {
            return Credentials(user: login, password: entry.password ?? "")
        }
        return nil
    }

    private func asked(_ user: String, host: String) throws -> Credentials {
        guard let password = prompt("Password for \(user) at \(host): ") else {
            throw CardDAVError(
                .credentials,
                "no terminal to ask for \(user)'s password on; put it in ~/.netrc (machine \(host) login \(user) "
                    + "password ...) or in VCF_CARDDAV_PASSWORD")
        }
        return Credentials(user: user, password: password)
    }
}
