import ContactModel
import ContactPresentation
import Foundation
import TestSupport
import Testing
import VCardFormat

@testable import VCFCommands

/// `vcf preview` in its three formats against goldens, the photo thumbnail and when it is drawn, and the
/// injection cases: a hostile card's HTML runs nothing.
@Suite struct PreviewTests {
    static let cards = ["with-photo", "without-photo", "long-name", "rtl", "hostile"]

    static func run(_ arguments: [String], terminal: Bool = false, environment: [String: String] = [:])
        -> CommandTests.Run
    {
        let (io, out, err) = CommandIO.capturing()
        io.outputIsTerminal = terminal
        io.environment = environment
        let code = VCFCommandLine.run(arguments, io: io)
        return CommandTests.Run(code: code, out: String(decoding: out(), as: UTF8.self), outBytes: out(), err: err())
    }

    static func fixture(_ name: String) -> String { FixturePaths.url("preview/\(name).vcf").path }

    @Test(arguments: cards + ["all", "other-clients"]) func eachFormatMatchesItsGolden(card: String) {
        for format in ["text", "json", "html"] {
            let result = Self.run(["preview", Self.fixture(card), "--format", format])
            #expect(result.code == 0, "\(card) \(format): \(result.err)")
            #expect(result.err.isEmpty)
            let ext = format == "text" ? "txt" : format
            Golden.check(result.outBytes, against: "preview/expected/\(card).\(ext)")
        }
    }

    @Test func textLeadsWithNameHeadlineAndPhoto() {
        let lines = Self.run(["preview", Self.fixture("with-photo")]).out.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(3)) == [
                "Amara Okafor-Lindqvist",
                "Head of Research · Northwind Labs, Materials",
                "[photo: image/jpeg, 96x96, \(Self.photoBytes) bytes]",
            ])
        #expect(lines.contains("  Mobile    +44 7700 900123"))
        #expect(lines.contains("  work *    amara@northwind.example"))
        #expect(lines.contains("  mastodon  https://mastodon.example/@amara"))
    }

    /// The avatar's size, read from the fixture so the expectation is not copied from the output.
    static var photoBytes: Int {
        let text = String(decoding: (try? FixturePaths.bytes("preview/with-photo.vcf")) ?? [], as: UTF8.self)
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        guard let line = unfolded.split(separator: "\r\n").first(where: { $0.hasPrefix("PHOTO") }),
            let colon = line.firstIndex(of: ":"),
            let data = Data(base64Encoded: String(line[line.index(after: colon)...]))
        else { return -1 }
        return data.count
    }

    @Test func jsonSummarisesThePhotoUnlessAskedToIncludeIt() throws {
        let summary = try JSONSerialization.jsonObject(
            with: Data(Self.run(["preview", Self.fixture("with-photo"), "--format", "json"]).outBytes))
        let photo = try #require(((summary as? [[String: Any]])?.first)?["photo"] as? [String: Any])
        #expect(photo["width"] as? Int == 96)
        #expect(photo["height"] as? Int == 96)
        #expect(photo["bytes"] as? Int == Self.photoBytes)
        #expect(photo["mediaType"] as? String == "image/jpeg")
        #expect(photo["data"] == nil)

        let full = Self.run(["preview", Self.fixture("with-photo"), "--format", "json", "--include-photo"])
        let object = try JSONSerialization.jsonObject(with: Data(full.outBytes))
        let embedded = try #require(((object as? [[String: Any]])?.first)?["photo"] as? [String: Any])
        #expect((embedded["data"] as? String).flatMap { Data(base64Encoded: $0) }?.count == Self.photoBytes)
    }

    @Test func thumbnailIsDrawnOnATrueColourTerminalOnly() {
        let truecolor = ["COLORTERM": "truecolor", "TERM": "xterm-256color"]
        let drawn = Self.run(["preview", Self.fixture("with-photo")], terminal: true, environment: truecolor)
        Golden.check(drawn.outBytes, against: "preview/expected/with-photo.terminal.txt")
        #expect(drawn.out.contains("▀"))
        #expect(drawn.out.contains("\u{1B}[1mAmara Okafor-Lindqvist\u{1B}[0m"))

        // Piped, NO_COLOR, TERM=dumb, no true colour, --no-photo: no escapes at all, or no thumbnail.
        #expect(!Self.run(["preview", Self.fixture("with-photo")], environment: truecolor).out.contains("\u{1B}"))
        var noColor = truecolor
        noColor["NO_COLOR"] = "1"
        #expect(
            !Self.run(["preview", Self.fixture("with-photo")], terminal: true, environment: noColor).out.contains(
                "\u{1B}"))
        var dumb = truecolor
        dumb["TERM"] = "dumb"
        #expect(
            !Self.run(["preview", Self.fixture("with-photo")], terminal: true, environment: dumb).out.contains("\u{1B}")
        )
        let twoFiftySix = Self.run(
            ["preview", Self.fixture("with-photo")], terminal: true, environment: ["TERM": "xterm"])
        #expect(twoFiftySix.out.contains("\u{1B}[1m") && !twoFiftySix.out.contains("▀"))
        let refused = Self.run(
            ["preview", Self.fixture("with-photo"), "--no-photo"], terminal: true, environment: truecolor)
        #expect(!refused.out.contains("▀"))

        // --photo forces the thumbnail into a pipe; the text around it stays plain.
        let forced = Self.run(["preview", Self.fixture("with-photo"), "--photo"])
        #expect(forced.out.contains("▀") && !forced.out.contains("\u{1B}[1m"))
        #expect(forced.out.split(separator: "\n").count == drawn.out.split(separator: "\n").count)
    }

    @Test func thumbnailPixelsAreTheUpperAndLowerHalves() {
        let image = Thumbnail(
            width: 2, height: 3, channels: 3,
            pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 7, 7, 7, 9, 9, 9])
        let text = TextPreview.render(CardView(.init(formattedName: "X")), thumbnail: image)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(
            lines[0]
                == "\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀\u{1B}[38;2;0;255;0m\u{1B}[48;2;10;20;30m▀\u{1B}[0m  X")
        #expect(lines[1] == "\u{1B}[38;2;7;7;7m\u{1B}[49m▀\u{1B}[38;2;9;9;9m\u{1B}[49m▀\u{1B}[0m")
    }

    @Test func hostileCardRunsNothingInHTML() {
        let html = Self.run(["preview", Self.fixture("hostile"), "--format", "html"]).out
        let body = String(html[html.range(of: "<body>")!.lowerBound...])
        #expect(!body.lowercased().contains("<script"))
        #expect(!body.lowercased().contains("<iframe"))
        #expect(!body.contains("<img src=x"))
        #expect(!body.contains("javascript:alert(3)\""))
        #expect(!body.contains("href=\"javascript"))
        #expect(body.contains("<h1 dir=\"auto\">&lt;script&gt;alert(&#39;vcf&#39;)&lt;/script&gt;</h1>"))
        #expect(
            body.contains(
                "<bdi>&lt;/dd&gt;&lt;/dl&gt;&lt;iframe src=&quot;https://evil.example&quot;&gt;&lt;/iframe&gt;</bdi>"))
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        // The email is not a valid address, so it is not linked, only shown.
        #expect(body.contains("&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;@example.com"))
    }

    /// The page `vcf preview` writes card by card is `HTMLPreview.page` of all its cards, for none, one (titled
    /// with its name, no count), two and five (a list titled Contacts, counted at its end).
    @Test func htmlWrittenCardByCardIsTheWholePage() throws {
        let views = try Self.cards.map { name in
            let read = VCardDocument.read(try FixturePaths.bytes("preview/\(name).vcf")).cards
            return HTMLPreview.Card(view: CardView(try #require(read.first).contact), photo: nil)
        }
        #expect(views.count == 5)
        for count in [0, 1, 2, 5] {
            var page = HTMLPreview.Writer()
            var bytes: [UInt8] = []
            for card in views.prefix(count) {
                page.append(HTMLPreview.Writer.Entry(card), to: &bytes)
            }
            page.finish(into: &bytes)
            let whole = HTMLPreview.page(Array(views.prefix(count)))
            #expect(String(decoding: bytes, as: UTF8.self) == whole, "\(count) cards")
            #expect(whole.contains(count == 1 ? "<title>\(views[0].view.name)</title>" : "<title>Contacts</title>"))
            #expect(whole.contains("<footer>\(count) contacts</footer>") == (count != 1))
        }
    }

    /// Markup is escaped after the one sanitiser: a control or bidi character shows as its code, as on a
    /// terminal (a link whose text ran backwards read as another site), and a line break or tab is kept for
    /// the page's `pre-wrap` (Apple's two-line street showed U+FFFD between its lines).
    @Test func htmlEscapesEveryMarkupCharacter() {
        #expect(
            HTMLPreview.escape("<a href=\"x\">'&'</a>\u{07}")
                == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;\\u{07}")
        #expect(HTMLPreview.escape("https://evil.example/\u{202E}moc.knab") == "https://evil.example/\\u{202E}moc.knab")
        #expect(HTMLPreview.escape("1 Main St\r\nApt 4\ttab") == "1 Main St\nApt 4\ttab")
        #expect(HTMLPreview.escape("a\u{2066}b\u{200B}c\u{9B}d") == "a\\u{2066}b\\u{200B}c\\u{9B}d")
    }

    /// A name, organisation, title, birthday or note kept whole for a parameter the model cannot hold
    /// (`N;LANGUAGE=en-us`, as Outlook writes every name) is shown where it belongs: the card showed
    /// "(no name)" or its phone number as its name.
    @Test func fieldsKeptForTheirParametersAreShown() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outlook = try scratch.write(
            "o.vcf",
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN;LANGUAGE=en-us:Smith;John\r\nTEL;CELL;VOICE:+1 415 555 0101\r\n"
                + "END:VCARD\r\n")
        let text = Self.run(["preview", outlook])
        #expect(text.out.hasPrefix("John Smith\n"), "\(text.out)")
        let four = try scratch.write(
            "p.vcf",
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN;LANGUAGE=ja:山田太郎\r\nORG;SORT-AS=ACME:ACME Corp\r\n"
                + "TITLE;LANGUAGE=en:Manager\r\nNOTE;PID=1.1:Remember the milk\r\nEND:VCARD\r\n")
        let view = Self.run(["preview", four]).out
        #expect(view.hasPrefix("山田太郎\nManager · ACME Corp\n"), "\(view)")
        #expect(view.contains("Remember the milk"))
        let html = Self.run(["preview", four, "--format", "html"]).out
        #expect(html.contains("<h1 dir=\"auto\">山田太郎</h1>"))
        #expect(html.contains("<p class=\"headline\" dir=\"auto\">ACME Corp</p>"))
    }

    /// Every property of the card is shown somewhere ("then the rest"): a second ORG, messaging names of other
    /// clients, vCard 4.0's GENDER and TZ, a CSV column kept under its header, binary data by its size; only
    /// what a program reads (PRODID) is not. An IMPP is labelled with its service. They were missing from the
    /// text and HTML previews.
    @Test func everyOtherPropertyIsShownLast() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let card = try scratch.write(
            "rest.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nPRODID:-//Apple Inc.//iPhone OS 17.0//EN\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\n"
                + "ORG:Acme\r\nORG:Second Org\r\nX-SKYPE:ann.lee\r\nGENDER:F\r\nTZ:-05:00\r\n"
                + "KEY;ENCODING=b:MIICajCCAdOgAwIBAgICBEUwDQYJKoZIhvcNAQEEBQAwdzELMAkGA1UEBhMCVVMxLDAqBgNVBAoTI05ldHNjYXBl\r\n"
                + "X-CSV-FIELD;X-COLUMN=Hobby:chess\r\nIMPP;X-SERVICE-TYPE=WhatsApp:x-apple:annlee\r\nEND:VCARD\r\n")
        let text = Self.run(["preview", card]).out
        #expect(
            text
                == "Ann Lee\nAcme\n  WhatsApp   x-apple:annlee\n  org        Second Org\n  skype      ann.lee\n"
                + "  gender     F\n  time zone  -05:00\n  key        [data, 66 bytes]\n  Hobby      chess\n")
        let html = Self.run(["preview", card, "--format", "html"]).out
        #expect(html.contains("<dt><bdi>gender</bdi></dt><dd><bdi>F</bdi></dd>"))
        #expect(!html.contains("PRODID") && !html.contains("Apple Inc."))
    }

    /// An input with no card at all is an error, as it is for merge: an empty download previewed as nothing,
    /// exit 0.
    @Test func anEmptyInputIsNoCardToPreview() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let empty = try scratch.write("e.vcf", "")
        for format in ["text", "json", "html"] {
            let result = Self.run(["preview", empty, "--format", format, "-o", scratch("out")])
            #expect(result.code == 2)
            #expect(result.err.contains("e.vcf: error: no cards found; there is nothing to preview"))
            #expect(!FileManager.default.fileExists(atPath: scratch("out")))
        }
        // Beside an input with a card, an empty one is only noted.
        let card = try scratch.write("a.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCARD\r\n")
        let both = Self.run(["preview", card, empty, "--format", "html", "-o", scratch("both.html")])
        #expect(both.code == 0)
        #expect(both.err.contains("e.vcf: note: no cards found"))
        #expect(FileManager.default.fileExists(atPath: scratch("both.html")))
    }

    /// The JSON preview shows nothing hidden or active on a terminal: C1 controls, DEL and bidi or zero-width
    /// characters are JSON escapes, the same text to a program.
    @Test func jsonEscapesWhatTheSanitiserWouldShow() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let card = try scratch.write(
            "h.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\u{202E}B\u{9B}C\u{7F}D\u{200B}E 😊\r\nEND:VCARD\r\n")
        let json = Self.run(["preview", card, "--format", "json"])
        #expect(json.out.contains(#""formattedName" : "A\u202EB\u009BC\u007FD\u200BE 😊""#), "\(json.out)")
        let decoded = try JSONSerialization.jsonObject(with: Data(json.outBytes)) as? [[String: Any]]
        #expect(decoded?.first?["formattedName"] as? String == "A\u{202E}B\u{9B}C\u{7F}D\u{200B}E 😊")
    }

    /// A photo of more pixels than a camera takes is described, not put in the page (a 20,000 by 20,000 PNG of
    /// 1 MB costs a browser 1.6 GB to draw); so is a photo given as a link.
    @Test func aHugePhotoOrALinkedOneIsDescribedNotEmbedded() {
        var huge = PhotoSummary(mediaType: "image/png", width: 20_000, height: 20_000, bytes: 1_000_000)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]
        var page = HTMLPreview.page([
            HTMLPreview.Card(view: CardView(Contact(formattedName: "A"), photo: huge), photo: png)
        ])
        #expect(!page.contains("<img"))
        #expect(page.contains("too large to show]"))
        huge.width = 4_000
        huge.height = 3_000
        page = HTMLPreview.page([HTMLPreview.Card(view: CardView(Contact(formattedName: "A"), photo: huge), photo: png)]
        )
        #expect(page.contains("<img class=\"photo\""))
        let linked = Contact(formattedName: "A", photo: Photo(uri: "http://example.com/a.jpg"))
        page = HTMLPreview.page([HTMLPreview.Card(view: CardView(linked), photo: nil)])
        #expect(page.contains("[photo: ") && page.contains("http://example.com/a.jpg"))
    }

    @Test func outputFileAndUsageErrors() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-preview-\(UUID()).html").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = Self.run(["preview", Self.fixture("all"), "--format", "html", "-o", path])
        #expect(written.code == 0 && written.out.isEmpty)
        #expect(
            try FixturePaths.bytes("preview/expected/all.html") == [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        )
        let bad = Self.run(["preview", "--format", "pdf"])
        #expect(bad.code == 64 && bad.err.contains("--format takes text, json or html, not pdf"))
        let typo = Self.run(["preview", "--no-phot"])
        #expect(typo.code == 64 && typo.err.contains("did you mean --no-photo?"))
    }
}

/// What other clients keep in properties of their own, shown as a phone shows it, and each address laid out as
/// people in its country write it (`Fixtures/preview/other-clients.vcf`: an iPhone card, an Outlook 2.1 card, an
/// Android 2.1 card, an Evolution and KAddressBook card, a vCard 4.0 card).
@Suite struct OtherClientsPreviewTests {
    static let cards: [[String]] = {
        let out = PreviewTests.run(["preview", PreviewTests.fixture("other-clients")]).out
        return out.components(separatedBy: "\n\n").map { $0.split(separator: "\n").map(String.init) }
    }()

    /// The card's rows as `label: text`, its lines joined by ` / ` (a label is padded with two spaces or more,
    /// and a row's further lines have none).
    static func rows(_ card: Int) -> [String] {
        var rows: [String] = []
        for line in cards[card].dropFirst() {
            let parts = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            if parts.count == 1, let last = rows.popLast() {
                rows.append(last + " / " + parts[0])
            } else {
                rows.append(parts.joined(separator: ": "))
            }
        }
        return rows
    }

    @Test func addressesAreLaidOutAsInTheirCountry() {
        // The iPhone names the country only by its code (X-ABADR), or in the user's language beside it.
        #expect(Self.rows(0).contains("home *: 1 Infinite Loop / Cupertino, CA 95014"))
        #expect(Self.rows(0).contains("work: 350 Fifth Ave / New York, NY 10118 / Vereinigte Staaten"))
        #expect(Self.rows(0).contains("other: Unter den Linden 1 / 10117 Berlin / Deutschland"))
        #expect(Self.rows(1).contains("work *: One Microsoft Way / Redmond, WA 98052 / United States of America"))
        #expect(Self.rows(1).contains("home: 1 Rideau St / Ottawa ON K1N 5Y8 / Canada"))
        #expect(Self.rows(2).contains("home: 2 George St / Sydney NSW 2000 / Australia"))
        #expect(Self.rows(3).contains("home: Heidestraße 17 / 51147 Köln / Deutschland"))
        // No country, but a ZIP+4 code after a state.
        #expect(Self.rows(3).contains("work: 100 Main St / Springfield, IL 62701-1234"))
    }

    @Test func otherClientsDatesAndPeopleAreShown() {
        #expect(
            Self.rows(0) == [
                "home *: 1 Infinite Loop / Cupertino, CA 95014",
                "work: 350 Fifth Ave / New York, NY 10118 / Vereinigte Staaten",
                "other: Unter den Linden 1 / 10117 Berlin / Deutschland", "Spouse: Jane Appleseed",
                "birthday: 1980-05-06",
                "Anniversary: 2010-06-01", "First met: --07-04",
            ])
        #expect(
            Array(Self.rows(1).suffix(4)) == [
                "spouse: Jane", "manager: Pat Lee", "birthday: 1980-03-15", "anniversary: 2005-06-11",
            ])
        #expect(
            Self.rows(2) == [
                "phonetic: やまだ たろう", "nickname: Taro-chan, Tarō", "maiden name: Yamamoto",
                "home: 2 George St / Sydney NSW 2000 / Australia",
                "spouse: Hanako", "Mentor: Ken", "anniversary: 1999-07-10",
            ])
        #expect(
            Array(Self.rows(3).suffix(3)) == [
                "spouse: Max Mustermann", "assistant: Lena, the intern", "anniversary: 2001-09-21",
            ])
        #expect(
            Self.rows(4) == [
                "friend: Bruno Costa", "co-worker: urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
                "anniversary: --06-11",
            ])
    }
}
