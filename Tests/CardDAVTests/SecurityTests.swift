import CardDAV
import Foundation
import Testing

/// Where contacts may be sent and where passwords come from: the rules, with known answers.
@Suite struct SecurityTests {
    @Test func plainHTTPOnlyToThisMachine() throws {
        for url in [
            "https://dav.example.com/ab/", "http://127.0.0.1:5232/a/", "http://localhost/a/", "http://[::1]:80/",
        ] {
            #expect(throws: Never.self) { try ConnectionPolicy.check(URL(string: url)!) }
        }
        for url in ["http://dav.example.com/ab/", "http://127.0.0.1.example.com/", "http://10.0.0.1/", "ftp://x/"] {
            let error = try #require(throws: CardDAVError.self) { try ConnectionPolicy.check(URL(string: url)!) }
            #expect(error.kind == .insecure)
        }
        #expect(!ConnectionPolicy.isLoopback("128.0.0.1"))
        #expect(!ConnectionPolicy.isLoopback("127.0.0.256"))
        #expect(ConnectionPolicy.isLoopback("127.1.2.3"))
    }

    @Test func aPasswordInTheURLIsRefusedAndNeverShown() throws {
        let url = URL(string: "https://ann:hunter2@dav.example.com/ab/")!
        let error = try #require(throws: CardDAVError.self) { try ConnectionPolicy.check(url) }
        #expect(error.kind == .insecure)
        #expect(!error.message.contains("hunter2"))
        #expect(url.redactedDescription == "https://dav.example.com/ab/")
    }

    @Test func redirectsKeepTheOriginOrMoveToHTTPS() {
        let from = URL(string: "http://localhost:8080/.well-known/carddav")!
        #expect(ConnectionPolicy.mayFollow(from: from, to: URL(string: "http://localhost:8080/dav/")!))
        #expect(!ConnectionPolicy.mayFollow(from: from, to: URL(string: "http://localhost:9090/dav/")!))
        #expect(!ConnectionPolicy.mayFollow(from: from, to: URL(string: "https://evil.example/dav/")!))
        let secure = URL(string: "https://dav.example.com/a")!
        #expect(!ConnectionPolicy.mayFollow(from: secure, to: URL(string: "http://dav.example.com/a")!))
    }

    @Test func netrcEntriesAsCurlReadsThem() {
        let netrc = Netrc(
            text: """
                # work
                machine dav.example.com login ann password "p a\\"ss"
                macdef init
                machine not.a.machine login x password y

                machine other.example login bob
                  password s3cret
                default login anon password guest
                """)
        #expect(
            netrc.entry(host: "DAV.example.com", login: nil)
                == .init(machine: "dav.example.com", login: "ann", password: "p a\"ss"))
        #expect(netrc.entry(host: "other.example", login: "bob")?.password == "s3cret")
        #expect(netrc.entry(host: "not.a.machine", login: nil)?.login == "anon")
        #expect(netrc.entry(host: "dav.example.com", login: "anon")?.password == "guest")
        #expect(netrc.entry(host: "dav.example.com", login: "zed") == nil)
    }

    @Test func credentialsComeFromUserEnvironmentThenNetrc() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netrc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "machine dav.example.com login ann password fromnetrc\n".write(
            to: folder.appendingPathComponent(".netrc"), atomically: true, encoding: .utf8)
        let url = URL(string: "https://dav.example.com/ab/")!
        let home = ["HOME": folder.path]
        let noPrompt: @Sendable (String) -> String? = { _ in nil }
        let asked: @Sendable (String) -> String? = { prompt in
            prompt == "Password for bob at dav.example.com: " ? "typed" : nil
        }

        let fromNetrc = try CredentialLookup(environment: home, prompt: noPrompt).credentials(for: url)
        #expect(fromNetrc?.user == "ann" && fromNetrc?.password == "fromnetrc")
        let fromEnvironment = try CredentialLookup(
            environment: home.merging(["VCF_CARDDAV_USER": "eve", "VCF_CARDDAV_PASSWORD": "env"]) { $1 },
            prompt: noPrompt
        ).credentials(for: url)
        #expect(fromEnvironment?.user == "eve" && fromEnvironment?.password == "env")
        let named = try CredentialLookup(user: "ann", environment: home, prompt: noPrompt).credentials(for: url)
        #expect(named?.password == "fromnetrc")
        let scripted = try CredentialLookup(
            user: "bob", environment: home.merging(["VCF_CARDDAV_PASSWORD": "env"]) { $1 }, prompt: noPrompt
        ).credentials(for: url)
        #expect(scripted?.user == "bob" && scripted?.password == "env")
        let otherUser = try CredentialLookup(
            user: "bob", environment: home.merging(["VCF_CARDDAV_USER": "eve", "VCF_CARDDAV_PASSWORD": "env"]) { $1 },
            prompt: asked
        ).credentials(for: url)
        #expect(otherUser?.password == "typed")
        let prompted = try CredentialLookup(user: "bob", environment: home, prompt: asked).credentials(for: url)
        #expect(prompted?.user == "bob" && prompted?.password == "typed")
        let inURL = try CredentialLookup(environment: home, prompt: asked).credentials(
            for: URL(string: "https://bob@dav.example.com/ab/")!)
        #expect(inURL?.password == "typed")
        #expect(try CredentialLookup(environment: [:], prompt: noPrompt).credentials(for: url) == nil)
        let noTerminal = try #require(throws: CardDAVError.self) {
            try CredentialLookup(user: "bob", environment: home, prompt: noPrompt).credentials(for: url)
        }
        #expect(noTerminal.kind == .credentials)
        #expect("\(Credentials(user: "ann", password: "pw"))" == "user ann")
        #expect(
            Credentials(user: "Aladdin", password: "open sesame").basicAuthorization
                == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }
}
