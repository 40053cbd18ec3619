import CardDAV
import Foundation
import TestSupport
import Testing

/// The client against a real CardDAV server (Radicale on a loopback port): discovery, listing, multiget,
/// writes on preconditions, refusals with the server's reason, and authentication.
@Suite(.enabled(if: RadicaleServer.isAvailable, RadicaleServer.skipReason), .serialized)
struct RadicaleClientTests {
    static func card(_ uid: String, _ name: String) -> [UInt8] {
        Array("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(name);;;;\r\nEND:VCARD\r\n".utf8)
    }

    static func client(_ server: RadicaleServer, _ url: URL, password: String = "secret") throws -> CardDAVClient {
        try CardDAVClient(collection: url, credentials: Credentials(user: "alice", password: password))
    }

    @Test func writeListReadAndConflict() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let client = try Self.client(server, server.makeAddressBook("alice/contacts/"))
        let info = try client.discover()
        #expect(info.versions == ["3.0"])
        #expect(!info.accepts4)
        #expect(try client.list().isEmpty)

        let href = client.href(forNewCard: "ann.vcf")
        #expect(href == "/alice/contacts/ann.vcf")
        guard case .written(let etag) = try client.put(Self.card("ann", "Ann"), at: href, ifMatch: nil) else {
            Issue.record("the first PUT was not written")
            return
        }
        // A second new card at the same href must not replace the first.
        #expect(try client.put(Self.card("ann", "Other"), at: href, ifMatch: nil) == .conflict)
        let members = try client.list()
        #expect(members.map(\.href) == [href])
        #expect(members.first?.etag == etag)

        var read: [CardDAVClient.Resource] = []
        let missing = try client.multiget([href, "/alice/contacts/none.vcf"]) { read.append($0) }
        #expect(missing == ["/alice/contacts/none.vcf"])
        #expect(read.count == 1 && read[0].etag == etag)
        #expect(String(decoding: read[0].bytes, as: UTF8.self).contains("FN:Ann"))

        // Someone else changes the card: a write over the version read is refused, never applied.
        let (status, _) = try server.request(
            "PUT", client.resolve(href)!, body: Self.card("ann", "Ann Changed"),
            headers: ["Content-Type": "text/vcard"])
        #expect(status == 201 || status == 204)
        #expect(try client.put(Self.card("ann", "Ann Mine"), at: href, ifMatch: etag) == .conflict)
        #expect(String(decoding: try client.get(href)!.bytes, as: UTF8.self).contains("FN:Ann Changed"))
        let fresh = try #require(try client.get(href))
        guard case .written = try client.put(Self.card("ann", "Ann Mine"), at: href, ifMatch: fresh.etag) else {
            Issue.record("a PUT with the current ETag was not written")
            return
        }
        #expect(try client.delete(href, ifMatch: fresh.etag) == .conflict)
        #expect(try client.delete(href, ifMatch: try client.get(href)!.etag) == .written(etag: nil))
        #expect(try client.list().isEmpty)
    }

    @Test func refusalsCarryTheServersReason() throws {
        let server = try RadicaleServer(
            maxContentLength: 4000,
            rights: """
                [readonly]
                user: alice
                collection: alice/readonly(/.*)?
                permissions: r
                [owner]
                user: .+
                collection: {user}(/.*)?
                permissions: RrWw
                [root]
                user: .+
                collection:
                permissions: R
                """)
        defer { server.stop() }
        let client = try Self.client(server, server.makeAddressBook("alice/contacts/"))
        guard case .written = try client.put(Self.card("a", "A"), at: client.href(forNewCard: "a.vcf"), ifMatch: nil)
        else {
            Issue.record("a small card was not written")
            return
        }
        let big = Self.card("b", "B" + String(repeating: "x", count: 5000))
        guard
            case .refused(let status, let reason) = try client.put(
                big, at: client.href(forNewCard: "b.vcf"), ifMatch: nil)
        else {
            Issue.record("a card over the server's size was not refused")
            return
        }
        #expect(status == 413)
        #expect(reason.hasPrefix("413 Content Too Large"))
        // The same UID under another name: the server names its precondition.
        guard
            case .refused(let conflictStatus, let conflictReason) = try client.put(
                Self.card("a", "A again"), at: client.href(forNewCard: "a2.vcf"), ifMatch: nil)
        else {
            Issue.record("a second card with one UID was not refused")
            return
        }
        #expect(conflictStatus == 409)
        #expect(conflictReason.contains("no-uid-conflict (the address book already holds another card with this UID)"))
        #expect(try client.list().count == 1)

        let readOnly = try Self.client(server, server.placeAddressBook("alice/readonly/"))
        #expect(try readOnly.discover().versions == ["3.0"])
        guard
            case .refused(let forbidden, let why) = try readOnly.put(
                Self.card("c", "C"), at: readOnly.href(forNewCard: "c.vcf"), ifMatch: nil)
        else {
            Issue.record("a card in a read-only address book was not refused")
            return
        }
        #expect(forbidden == 403)
        #expect(why == "403 Forbidden: Access to the requested resource forbidden.")
    }

    @Test func authenticationFailuresSayWhatToDoAndNeverThePassword() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/")
        let wrong = try #require(throws: CardDAVError.self) {
            try Self.client(server, url, password: "not-the-password-42").discover()
        }
        #expect(wrong.kind == .authentication)
        #expect(wrong.message.contains("refused the password for user alice (401 Unauthorized)"))
        #expect(!wrong.message.contains("not-the-password-42"))
        let none = try #require(throws: CardDAVError.self) {
            try CardDAVClient(collection: url, credentials: nil).discover()
        }
        #expect(none.kind == .authentication)
        #expect(none.message.contains("~/.netrc"))
    }

    @Test func aURLThatIsNoAddressBookListsTheOnesThere() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        _ = try server.makeAddressBook("alice/contacts/")
        let client = try Self.client(server, URL(string: "alice/", relativeTo: server.baseURL)!.absoluteURL)
        let error = try #require(throws: CardDAVError.self) { try client.discover() }
        #expect(error.kind == .notAddressBook)
        #expect(error.message.contains("\(server.baseURL.absoluteString)alice/contacts/ (Test)"))
        let missing = try Self.client(server, URL(string: "alice/nothing/", relativeTo: server.baseURL)!.absoluteURL)
        let gone = try #require(throws: CardDAVError.self) { try missing.discover() }
        #expect(gone.message.contains("404"))
    }
}
