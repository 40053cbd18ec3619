import Testing
import VCardSyntax

@testable import VCardLint

/// `lint --carddav`: what a CardDAV server refuses, and the same checks as the uploader's.
@Suite struct CardDAVLintTests {
    static func card(_ lines: String..., version: String = "3.0") -> String {
        (["BEGIN:VCARD", "VERSION:\(version)"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    static func codes(_ text: String, _ server: CardDAVServer = CardDAVServer()) -> [String] {
        Linter.lint(Array(text.utf8), file: "t.vcf", options: LintOptions(carddav: server)).map {
            "\($0.line):\($0.severity == .error ? "E" : "W"):\($0.code.rawValue)"
        }
    }

    @Test func whatServersRefuse() {
        let text =
            Self.card("FN:A", "N:A;;;;")  // line 1: no UID
            + Self.card("FN:B", "N:B;;;;", "UID:same")  // line 6
            + Self.card("FN:C", "N:C;;;;", "UID:same", "REV:20240101T000000Z", "REV:20240201T000000Z")  // 12
            + Self.card("FN:D", "N:D;;;;", "UID:d", version: "2.1")  // 20
            + Self.card("FN:E", "UID:e", version: "4.0")  // 26
            + Self.card("FN:F", "N:F;;;;", "N:Eff;;;;", "UID:f")  // 31
        #expect(
            Self.codes(text) == [
                "1:E:carddav-missing-uid", "12:E:carddav-duplicate-uid", "18:E:carddav-multiple-rev",
                "20:E:carddav-version", "27:W:carddav-version", "35:E:carddav-multiple-n",
            ])
        #expect(Self.codes(Self.card("FN:E", "UID:e", version: "4.0"), CardDAVServer(accepts4: true)).isEmpty)
        #expect(
            Self.codes(Self.card("FN:E", "UID:e", version: "4.0"), CardDAVServer(accepts4: false)) == [
                "2:E:carddav-version"
            ])
        // The generic findings the CardDAV ones replace are not reported twice.
        #expect(!Self.codes(text).contains { $0.hasSuffix("missing-uid") && !$0.contains("carddav") })
        #expect(!Self.codes(text).contains { $0.hasSuffix("duplicate-property") })
    }

    @Test func theUploadersCheckIsTheSame() {
        let big = Self.card("FN:A", "N:A;;;;", "UID:a", "NOTE:" + String(repeating: "x", count: 200))
        let server = CardDAVServer(accepts4: false, maxBytes: 100, limitName: "tiny")
        let found = CardDAVCheck.problems(in: Array(big.utf8), server: server)
        #expect(found.map(\.code) == [.cardDAVTooLarge])
        #expect(found.first?.message == "card is 266 bytes, over the server's 100-byte limit (tiny)")
        #expect(Self.codes(big, server) == ["1:E:carddav-too-large", "6:W:long-line"])
        #expect(CardDAVCheck.problems(in: [], server: server).map(\.code) == [.cardDAVUnreadable])
    }
}
