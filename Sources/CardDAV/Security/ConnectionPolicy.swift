#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where contacts may be sent: over HTTPS to any host, over plain HTTP only to this machine (a test server,
/// a local Radicale), and never with a password written in the URL.
public enum ConnectionPolicy {
    /// Whether `host` names this machine: `localhost`, 127.0.0.0/8 or ::1.
    public static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || name == "0:0:0:0:0:0:0:1" {
            return true
        }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII) && octet.allSatisfy(\.isNumber)
                && Int(octet)! <= 255
        }
    }

    /// Checks that `url` may be used.
    /// - Throws: `CardDAVError` of kind `.insecure` saying why not.
    public static func check(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw CardDAVError(.insecure, "\(url.redactedDescription): not an http(s) URL with a host")
        }
        if url.password != nil {
            throw CardDAVError(
                .insecure,
                "\(url.redactedDescription): a password in the URL would be seen in the process list and shell "
                    + "history; put it in ~/.netrc or VCF_CARDDAV_PASSWORD, or give --user NAME to be asked for it")
        }
        switch scheme {
        case "https": return
        case "http" where isLoopback(host): return
        case "http":
            throw CardDAVError(
                .insecure,
                "\(url.redactedDescription): contacts and passwords are sent only over https:// "
                    + "(plain http:// only to this machine: localhost, 127.0.0.1, ::1)")
        default:
            throw CardDAVError(.insecure, "\(url.redactedDescription): not an http(s) URL")
        }
    }

    /// Whether a redirect from `from` to `to` may be followed with the same credentials: the same scheme, host
    /// and port, or the same host moving from http to https.
    public static func mayFollow(from: URL, to: URL) -> Bool {
        guard (try? check(to)) != nil, from.host?.lowercased() == to.host?.lowercased() else { return false }
        let fromScheme = from.scheme?.lowercased()
        let toScheme = to.scheme?.lowercased()
        if fromScheme == toScheme { return from.port == to.port }
        return fromScheme == "http" && toScheme == "https"
    }
}
