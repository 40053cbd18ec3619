import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat

@testable import VCFCommands

/// vcf against a real CardDAV server (Radicale on a loopback port): upload, download, merge as into a file,
/// second runs that send nothing, refusals and passwords.
@Suite(.enabled(if: RadicaleServer.isAvailable, RadicaleServer.skipReason), .serialized)
struct CardDAVCommandTests {
    static let credentials = ["VCF_CARDDAV_USER": "alice", "VCF_CARDDAV_PASSWORD": "secret", "HOME": "/nonexistent"]

    @Test func uploadDownloadAndUploadAgain() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/").absoluteString
        let work = try Places.folder("dav")
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Places.write(VdirCommandTests.book, "\(work)/book.vcf")

        let upload = try Places.process(
            ["convert", "\(work)/book.vcf", "--ensure-uid", "-o", url], environment: Self.credentials)
        #expect(upload.code == 0, "\(upload.err)")
        #expect(upload.err.hasSuffix("\(url): 3 cards written\n"))
        #expect(server.requests("PUT") == 3)

        let again = try Places.process(
            ["convert", "\(work)/book.vcf", "--ensure-uid", "-o", url], environment: Self.credentials)
        #expect(again.code == 0 && again.err.hasSuffix("\(url): 0 cards written, 3 already there\n"))
        #expect(server.requests("PUT") == 3)
        #expect(server.storedCards("alice/contacts").count == 3)

        let download = try Places.process(["convert", url, "-o", "\(work)/backup.vcf"], environment: Self.credentials)
        #expect(download.code == 0 && download.err.isEmpty)
        let local = Places.run(["convert", "\(work)/book.vcf", "--ensure-uid"])
        #expect(
            Places.canonical(Places.contacts("\(work)/backup.vcf"))
                == Places.canonical(VCardDocument.read(local.out).cards.map(\.contact)))

        // Without --ensure-uid the cards without one are refused before anything is sent.
        let plain = try Places.process(["convert", "\(work)/book.vcf", "-o", url], environment: Self.credentials)
        #expect(plain.code == 1)
        #expect(plain.err.contains("book.vcf:8: error: Bob Stone was not written to \(url): the card has no UID"))
        #expect(server.requests("PUT") == 3)
    }

    static let mergeCases = VdirCommandTests.mergeCases

    static func trimmedUnits(_ contacts: [Contact]) -> [Contact] {
        contacts.map { contact in
            var copy = contact
            while copy.organization?.units.last == "" { copy.organization?.units.removeLast() }
            return copy
        }
    }

    /// Every merge case of Fixtures/merge, into a collection and into a file: the same cards, and a second run
    /// that sends no PUT.
    @Test func mergeIntoACollectionGivesTheCardsOfAFile() throws {
        #expect(Self.mergeCases.count >= 30)
        let server = try RadicaleServer()
        defer { server.stop() }
        for name in Self.mergeCases {
            let work = try Places.folder("dav-merge")
            defer { try? FileManager.default.removeItem(atPath: work) }
            let fixture = FixturePaths.url("merge/\(name)")
            let args =
                (try? String(contentsOf: fixture.appendingPathComponent("args"), encoding: .utf8))
                .map { $0.split(whereSeparator: \.isWhitespace).map(String.init) } ?? []
            let url = try server.makeAddressBook("alice/\(name)/").absoluteString
            let existing = Places.run(["convert", fixture.appendingPathComponent("existing.vcf").path, "--ensure-uid"])
            try Data(existing.out).write(to: URL(fileURLWithPath: "\(work)/book.vcf"))
            let seeded = Places.run(["convert", "\(work)/book.vcf", "-o", url], environment: Self.credentials)
            #expect(seeded.code == 0, "\(name): \(seeded.err)")
            // Radicale (Python vobject) stores every value as we sent it (escaping aside), so its cards are ours.
            let sent = Places.contacts("\(work)/book.vcf")
            #expect(Places.run(["convert", url, "-o", "\(work)/book.vcf"], environment: Self.credentials).code == 0)
            // (Python vobject drops an ORG's trailing empty unit, `ORG:Acme;`, which holds nothing.)
            #expect(
                Places.canonical(Self.trimmedUnits(Places.contacts("\(work)/book.vcf")))
                    == Places.canonical(Self.trimmedUnits(sent)), "\(name)")
            let incoming = fixture.appendingPathComponent("incoming.vcf").path

            let file = Places.run(["merge", incoming, "--into", "\(work)/book.vcf"] + args)
            let collection = Places.run(["merge", incoming, "--into", url] + args, environment: Self.credentials)
            #expect(collection.code == file.code, "\(name): \(collection.err)")
            _ = Places.run(["convert", url, "-o", "\(work)/server.vcf"], environment: Self.credentials)
            #expect(
                Places.canonical(Places.contacts("\(work)/server.vcf"))
                    == Places.canonical(Places.contacts("\(work)/book.vcf")), "\(name)")
            let puts = server.requests("PUT")
            let again = Places.run(["merge", incoming, "--into", url] + args, environment: Self.credentials)
            #expect(again.err.contains("; unchanged\n"), "\(name): \(again.err)")
            #expect(server.requests("PUT") == puts, "\(name)")
        }
    }

    /// Cards that servers refused or rewrote before the writer knew better: a 4.0 name in two languages (two N
    /// under one ALTID), two REV, NICKNAME lists, LABEL and X- values with commas. Converted and uploaded, every
    /// card is accepted and stored as sent (vendor names spelled as servers take them); uploading and merging the
    /// same cards again sends nothing.
    @Test func cardsTheServerOnceRefusedOrRewroteGoThroughUnchanged() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/fidelity/").absoluteString
        let work = try Places.folder("dav-fidelity")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let four =
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Aiko Tanaka\r\nN;ALTID=1;LANGUAGE=en:Tanaka;Aiko;;;\r\n"
            + "N;ALTID=1;LANGUAGE=ja:田中;愛子;;;\r\nREV:20200101T000000Z\r\nREV:20231105T101500Z\r\nEND:VCARD\r\n"
        let three = Places.card(
            "FN:Carla Mendes", "N:Mendes;Carla;;;", "NICKNAME:Carlinha,Cá", "LABEL;TYPE=HOME:12 Rua Augusta, apt 3",
            "item1.ADR:;;12 Rua Augusta;Lisboa;;;Portugal", "item1.X-ABADR:pt, eu", "X-EVOLUTION-FILE-AS:Mendes, Carla",
            "REV:2021-03-04T05:06:07Z", "REV:2019-01-01T00:00:00Z")
        // Vendor names kept byte for byte in a file, which RFC 6350 3.3 and Radicale refuse: sent as X-GOOGLE-TALK
        // and X-messaging-xmpp-All.
        let vendor = Places.card(
            "FN:Kai Berg", "N:Berg;Kai;;;", "X-GOOGLE TALK;TYPE=WORK:kai.talk", "X-messaging/xmpp-All:kai@example.org")
        try Places.write(four + three + vendor, "\(work)/export.vcf")
        let upload = try Places.process(
            ["convert", "\(work)/export.vcf", "--ensure-uid", "-o", url], environment: Self.credentials)
        #expect(upload.code == 0, "\(upload.err)")
        #expect(upload.err.hasSuffix("\(url): 3 cards written\n"), "\(upload.err)")
        #expect(server.requests("PUT") == 3)
        // Stored as sent: every value, one N and one REV each.
        let local = VCardDocument.read(Places.run(["convert", "\(work)/export.vcf", "--ensure-uid"]).out).cards
        _ = Places.run(["convert", url, "-o", "\(work)/server.vcf"], environment: Self.credentials)
        // Radicale upper-cases the names it stores.
        let upper = { (contact: Contact) -> Contact in
            var copy = contact
            for i in copy.extensions.indices { copy.extensions[i].name = copy.extensions[i].name.uppercased() }
            return copy
        }
        let stored = Places.contacts("\(work)/server.vcf")
        let sent = local.map { card in
            var contact = card.contact
            ServerSafeNames.apply(&contact)
            return upper(contact)
        }
        #expect(Places.canonical(stored.map(upper)) == Places.canonical(sent))
        #expect(stored.contains { $0.extensions.contains { $0.name.uppercased() == "X-MESSAGING-XMPP-ALL" } })
        #expect(stored.contains { $0.nicknames == ["Carlinha", "Cá"] })
        let again = try Places.process(
            ["convert", "\(work)/export.vcf", "--ensure-uid", "-o", url], environment: Self.credentials)
        #expect(again.err.hasSuffix("\(url): 0 cards written, 3 already there\n"), "\(again.err)")
        let merge = Places.run(["merge", "\(work)/export.vcf", "--into", url], environment: Self.credentials)
        #expect(merge.err.contains("; unchanged\n"), "\(merge.err)")
        #expect(server.requests("PUT") == 3)
        #expect(server.storedCards("alice/fidelity").count == 3)
    }

    @Test func aRefusedCardIsReportedWithTheServersReason() throws {
        let server = try RadicaleServer(maxContentLength: 3000)
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/").absoluteString
        let work = try Places.folder("dav-refused")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let big = Places.card("UID:big", "FN:Big Note", "N:Note;Big;;;", "NOTE:" + String(repeating: "x ", count: 2000))
        try Places.write(VdirCommandTests.book + big, "\(work)/book.vcf")
        let run = try Places.process(
            ["convert", "\(work)/book.vcf", "--ensure-uid", "-o", url], environment: Self.credentials)
        #expect(run.code == 1)
        #expect(run.err.contains("book.vcf:21: error: Big Note was not written to \(url): 413 Content Too Large"))
        #expect(run.err.hasSuffix("\(url): 3 cards written, 1 not written\n"))
        #expect(server.storedCards("alice/contacts").count == 3)
    }

    @Test func lintChecksTheCardsOnTheServerAgainstWhatItAdvertises() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/")
        let four = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:four\r\nFN:Four\r\nEND:VCARD\r\n".utf8)
        let (status, _) = try server.request(
            "PUT", url.appendingPathComponent("four.vcf"), body: four, headers: ["Content-Type": "text/vcard"])
        #expect(status == 201)
        let lint = Places.run(["lint", url.absoluteString, "--carddav"], environment: Self.credentials)
        #expect(lint.code == 1, "\(lint.err)")
        // Radicale advertises 3.0 only, so a 4.0 card there is an error, not lint's usual warning.
        #expect(
            lint.text.contains(
                "\(url.absoluteString)four.vcf:2:1: error: [carddav-version] vCard 4.0, which this server"))
        let plain = Places.run(["lint", url.absoluteString], environment: Self.credentials)
        #expect(plain.code == 0 && plain.err.hasPrefix("1 file:"))
    }

    @Test func aWrongPasswordIsAClearErrorThatNeverShowsIt() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/").absoluteString
        let wrong = ["VCF_CARDDAV_USER": "alice", "VCF_CARDDAV_PASSWORD": "Tr0ub4dor&3", "HOME": "/nonexistent"]
        let run = try Places.process(["convert", url, "-o", "-"], environment: wrong)
        #expect(run.code == 2)
        #expect(run.err == "vcf: error: \(url): the server refused the password for user alice (401 Unauthorized)\n")
        #expect(!run.err.contains("Tr0ub4dor"))
        let none = try Places.process(["merge", "/dev/null", "--into", url], environment: ["HOME": "/nonexistent"])
        #expect(none.code == 2 && none.err.contains("the server asks for a user name and password"))
        // From ~/.netrc.
        let home = try Places.folder("dav-home")
        defer { try? FileManager.default.removeItem(atPath: home) }
        try Places.write("machine 127.0.0.1 login alice password secret\n", "\(home)/.netrc")
        let netrc = try Places.process(["convert", url, "-o", "-"], environment: ["HOME": home])
        #expect(netrc.code == 0, "\(netrc.err)")
    }

    @Test func thePasswordPromptDoesNotEcho() throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        let url = try server.makeAddressBook("alice/contacts/").absoluteString
        guard
            let python = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
                .map({ "\($0)/python3" }).first(where: FileManager.default.isExecutableFile(atPath:)),
            let binary = builtBinary
        else { return }
        // A pseudo-terminal: vcf asks on it, the test types the password, and reads everything it showed.
        let script = """
            import os, pty, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.environ["HOME"] = "/nonexistent"
                os.execv(sys.argv[1], [sys.argv[1], "convert", sys.argv[2], "--user", "alice", "-o", "/dev/null"])
            seen = b""
            while b"Password" not in seen:
                seen += os.read(fd, 1024)
            os.write(fd, b"secret\\n")
            while True:
                try:
                    chunk = os.read(fd, 1024)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(seen.decode("utf-8", "replace"))
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, binary.path, url]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let shown = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(shown)")
        #expect(shown.contains("Password for alice at 127.0.0.1: "))
        #expect(!shown.contains("secret"))
    }
}

/// What never needs a server: the URL rules.
@Suite struct CardDAVURLTests {
    @Test func plainHTTPIsOnlyForThisMachine() {
        let run = Places.run(["convert", "/dev/null", "-o", "http://dav.example.com/ab/"])
        #expect(run.code == 2)
        #expect(run.err.contains("contacts and passwords are sent only over https://"))
        let inURL = Places.run(["merge", "/dev/null", "--into", "https://ann:pw@dav.example.com/ab/"])
        #expect(inURL.code == 2 && !inURL.err.contains("pw@") && inURL.err.contains("a password in the URL"))
        #expect(Places.run(["convert", "/dev/null", "--to", "json", "-o", "https://dav.example.com/ab/"]).code == 64)
    }
}
