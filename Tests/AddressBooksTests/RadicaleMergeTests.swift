import AddressBooks
import CardDAV
import CardIdentity
import ContactMerge
import Foundation
import Synchronization
import TestSupport
import Testing
import VCardFormat

/// Sends through the real transport, calling `before` with each request first: the place where a test changes
/// the server between the client's read and its write.
final class HookTransport: HTTPTransport {
    let inner = URLSessionTransport()
    let before: @Sendable (HTTPRequest) -> Void
    init(before: @escaping @Sendable (HTTPRequest) -> Void) { self.before = before }
    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        before(request)
        return try inner.send(request)
    }
}

/// Merging into and uploading to a real CardDAV server (Radicale): the same cards as into a file, nothing
/// written on a second run, a change made on the server meanwhile merged again, a refused card reported while
/// the others go through.
@Suite(.enabled(if: RadicaleServer.isAvailable, RadicaleServer.skipReason), .serialized)
struct RadicaleMergeTests {
    static func store(_ url: URL, transport: any HTTPTransport = URLSessionTransport()) throws -> CardDAVStore {
        try CardDAVStore(
            client: CardDAVClient(
                collection: url, credentials: Credentials(user: "alice", password: "secret"), transport: transport))
    }

    /// Uploads the fixture book's four cards.
    static func seed(_ url: URL) throws {
        var upload = try BookUpload(book: StoredBook(store: store(url), countryCode: nil))
        for (name, bytes) in BookFixtures.existing {
            let card = VCardDocument.read(bytes).cards[0].contact
            try upload.add(card, bytes: bytes, source: name)
        }
        let report = upload.finish()
        #expect(report.created.count == 4 && report.refused.isEmpty)
    }

    static func merge(_ url: URL, transport: any HTTPTransport = URLSessionTransport()) throws -> BookUpdate.Report {
        let book = try StoredBook(store: store(url, transport: transport), countryCode: nil)
        let engine = AddressBookMerge()
        let result = engine.merge(BookFixtures.incoming, into: book.existingCards)
        var update = BookUpdate(book: book, engine: engine)
        return try update.applyMerge(result, incoming: BookFixtures.incoming)
    }

    static func serverCards(_ url: URL) throws -> [[UInt8]] {
        try store(url).load().map(\.bytes)
    }

    @Test func uploadTwiceAddsNothingTheSecondTime() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/")
        try Self.seed(url)
        #expect(server.requests("PUT") == 4)
        var again = try BookUpload(book: StoredBook(store: Self.store(url), countryCode: nil))
        for (name, bytes) in BookFixtures.existing {
            try again.add(VCardDocument.read(bytes).cards[0].contact, bytes: bytes, source: name)
        }
        let report = again.finish()
        #expect(report.unchanged.count == 4 && report.created.isEmpty && report.writes == 0)
        #expect(server.requests("PUT") == 4)
        // Same UID, other content: left as it is, and said so.
        var changed = try BookUpload(book: StoredBook(store: Self.store(url), countryCode: nil))
        let other = BookFixtures.card("UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;", "EMAIL:other@example.com")
        try changed.add(VCardDocument.read(other).cards[0].contact, bytes: other, source: "x.vcf:1")
        let differing = changed.finish()
        #expect(differing.differing.map(\.source) == ["x.vcf:1"] && differing.refused.isEmpty && differing.writes == 0)
        #expect(server.storedCards("alice/contacts").count == 4)
    }

    @Test func mergeGivesTheCardsAFileGetsAndASecondRunSendsNothing() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/")
        try Self.seed(url)
        let puts = server.requests("PUT")
        let report = try Self.merge(url)
        #expect(report.rewritten == [url.absoluteString + "ann-1.vcf"])
        #expect(report.created == [url.absoluteString + UIDFileName.fileName(for: BookFixtures.eveUID)])
        #expect(report.writes == 2 && server.requests("PUT") == puts + 2)
        #expect(
            BookFixtures.sorted(BookFixtures.contacts(try Self.serverCards(url)))
                == BookFixtures.sorted(try BookFixtures.mergedAsAFile()))
        let again = try Self.merge(url)
        #expect(again.writes == 0 && again.rewritten.isEmpty && again.created.isEmpty)
        #expect(server.requests("PUT") == puts + 2 && server.requests("DELETE") == 0)
    }

    @Test func aCardChangedOnTheServerMeanwhileIsMergedAgain() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/")
        try Self.seed(url)
        let changedOnce = Mutex(false)
        let hook = HookTransport { request in
            guard request.method == "PUT", request.header("If-Match") != nil,
                changedOnce.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            // Another client edits Ann on the server between our read and our write.
            let edited = BookFixtures.card(
                "UID:ann-1", "FN:Ann Lee", "N:Lee;Ann;;;", "EMAIL:ann@example.com", "NOTE:edited on the phone")
            _ = try? server.request("PUT", request.url, body: edited, headers: ["Content-Type": "text/vcard"])
        }
        let report = try Self.merge(url, transport: hook)
        #expect(report.remerged == [url.absoluteString + "ann-1.vcf"])
        #expect(report.rewritten == [url.absoluteString + "ann-1.vcf"] && report.unresolved.isEmpty)
        #expect(server.logText.contains("Precondition failed on PUT request for '/alice/contacts/ann-1.vcf'"))
        let ann = BookFixtures.contacts(try Self.serverCards(url)).first { $0.uid == "ann-1" }
        #expect(ann?.note == "edited on the phone")
        #expect(ann?.phones.map(\.value) == ["+44 7700 900456"])
    }

    @Test func aRefusedCardIsReportedAndTheOthersGoThrough() throws {
        let server = try RadicaleServer(maxContentLength: 2000)
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/")
        var upload = try BookUpload(book: StoredBook(store: Self.store(url), countryCode: nil))
        let big = BookFixtures.card(
            "UID:big", "FN:Big Note", "N:Note;Big;;;", "NOTE:" + String(repeating: "x", count: 3000))
        let cards = [BookFixtures.existing[0].1, big, BookFixtures.existing[1].1]
        for (i, bytes) in cards.enumerated() {
            try upload.add(VCardDocument.read(bytes).cards[0].contact, bytes: bytes, source: "in.vcf:\(i)")
        }
        let noUID = BookFixtures.card("FN:No Uid", "N:Uid;No;;;")
        try upload.add(VCardDocument.read(noUID).cards[0].contact, bytes: noUID, source: "in.vcf:9")
        let report = upload.finish()
        #expect(report.created.count == 2)
        #expect(report.refused.map(\.source) == ["in.vcf:1", "in.vcf:9"])
        #expect(report.refused.first?.reason.hasPrefix("413 Content Too Large") == true)
        #expect(report.refused.last?.reason.contains("--ensure-uid") == true)
        #expect(server.storedCards("alice/contacts").count == 2)
    }

    @Test func theServersLimitAndVersionAreCheckedBeforeSending() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/")
        let client = try CardDAVClient(collection: url, credentials: Credentials(user: "alice", password: "secret"))
        let store = try CardDAVStore(client: client, maxBytes: 300, limitName: "test")
        let four = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:v4\r\nFN:Four\r\nEND:VCARD\r\n".utf8)
        #expect(store.refusal(of: four)?.contains("[carddav-version]") == true)
        let big = BookFixtures.card("UID:big", "FN:Big", "NOTE:" + String(repeating: "y", count: 400))
        #expect(store.refusal(of: big)?.contains("over the server's 300-byte limit (test) [carddav-too-large]") == true)
        let twoRevs = BookFixtures.card("UID:r", "FN:R", "REV:2024-01-01T00:00:00Z", "REV:2024-02-01T00:00:00Z")
        #expect(store.refusal(of: twoRevs)?.contains("[carddav-multiple-rev]") == true)
        #expect(store.refusal(of: BookFixtures.existing[0].1) == nil)
        #expect(server.requests("PUT") == 0)
    }
}
