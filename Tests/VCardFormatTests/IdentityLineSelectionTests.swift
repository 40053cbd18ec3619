import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

/// A book read for matching keeps only its identity lines (`VCardReader.identityLines`): every card must give the
/// same identity, at the same lines and bytes, with the same diagnostics, as the card lexed whole. Checked on every
/// fixture and corpus file (broken ones too: their errors must not change), and on the cases a left-out line
/// could change.
@Suite struct IdentityLineSelectionTests {
    /// The identity and the place of each card, and the diagnostics, read with and without the selection.
    static func compare(_ bytes: [UInt8], _ label: String) -> Int {
        func read(selecting: Bool) -> (cards: [(Contact, Int, Range<Int>, Bool)], diagnostics: [Diagnostic]) {
            var lexer = VCardLexer()
            if selecting { lexer.select(VCardReader.identityLines) }
            let raws = lexer.feed(bytes) + lexer.finish()
            let cards = raws.map { (VCardReader.identity(from: $0), $0.beginLine, $0.byteRange, $0.hadErrors) }
            return (cards, lexer.takeDiagnostics())
        }
        let whole = read(selecting: false)
        let selected = read(selecting: true)
        #expect(selected.cards.count == whole.cards.count, "\(label): cards")
        for (s, w) in zip(selected.cards, whole.cards) {
            #expect(s.0 == w.0, "\(label):\(w.1) identity")
            #expect(s.1 == w.1 && s.2 == w.2 && s.3 == w.3, "\(label):\(w.1) place or errors")
        }
        #expect(selected.diagnostics == whole.diagnostics, "\(label): diagnostics")
        return whole.cards.count
    }

    @Test func everyFixtureGivesTheSameIdentity() throws {
        var cards = 0
        for name in try FixturePaths.files(in: "vcard", withExtension: "vcf") {
            cards += Self.compare([UInt8](try Data(contentsOf: FixturePaths.url("vcard/" + name))), name)
        }
        #expect(cards > 50, "\(cards) cards")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["VCF_CORPUS"] != nil, "VCF_CORPUS is not set"))
    func everyCorpusFileGivesTheSameIdentity() throws {
        let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["VCF_CORPUS"] ?? "")
        let names = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".vcf") }
        var cards = 0
        for name in names.sorted() {
            cards += Self.compare([UInt8](try Data(contentsOf: root.appendingPathComponent(name))), name)
        }
        #expect(names.count > 300 && cards > 400, "\(names.count) files, \(cards) cards")
    }

    /// Lines a selection must keep whatever their names, each next to an identity line it could change.
    @Test(arguments: [
        // 8-bit text on a line left out weighs in the card's charset decision (Latin-1 here, read as such).
        "BEGIN:VCARD\r\nVERSION:2.1\r\nN:M\u{FC}ller;J\u{FC}rgen\r\nNOTE:Gr\u{FC}\u{DF}e\r\nEND:VCARD\r\n",
        // A CHARSET declared on another line of the card.
        "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Test\r\nNOTE;CHARSET=ISO-8859-1:x\r\nEND:VCARD\r\n",
        // Quoted-printable on a line left out.
        "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:A\r\nNOTE;ENCODING=QUOTED-PRINTABLE:=C3=BC\r\nEND:VCARD\r\n",
        // A group's label goes to its one labelled property: a grouped URL keeps the label off the EMAIL.
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nitem1.EMAIL:a@b.c\r\nitem1.URL:http://x\r\nitem1.X-ABLabel:Home\r\nEND:VCARD\r\n",
        // AGENT with an empty value, then a line left out, then a card: not nested (an error), as read whole.
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nAGENT:\r\nNOTE:x\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:B\r\nEND:VCARD\r\nEND:VCARD\r\n",
        // A 2.1 card nested after AGENT, with lines of its own.
        "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:A\r\nAGENT:\r\nBEGIN:VCARD\r\nVERSION:2.1\r\nFN:B\r\nNOTE:n\r\nEND:VCARD\r\nTEL:1\r\nEND:VCARD\r\n",
        // Lines with errors among lines left out: the same errors at the same lines.
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nNOTE no colon\r\n:no name\r\nTITLE:t\r\nEND:VCARD\r\n",
        // Warnings on lines that are not kept (a comma after the name, a name with a control character, an
        // unterminated quote) end the runs of one error the log counts: 101 errors, not 100 and "repeats".
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\n"
            + (0..<101).map { "bad line \($0)\r\nNOTE,TYPE=x:y\r\nX-FO\u{1}O:z\r\nNOTE;X=\"q:v\r\n" }.joined()
            + "END:VCARD\r\n",
        // A 2.1 base64 photo that runs on until a blank line, then the name.
        "BEGIN:VCARD\r\nVERSION:2.1\r\nPHOTO;ENCODING=BASE64;JPEG:/9j/4AAQ\r\n  SkZJRg==\r\n\r\nN:After;Photo\r\nEND:VCARD\r\n",
    ])
    func linesThatCouldChangeTheIdentity(_ text: String) {
        // Latin-1 bytes where the text says so (the 8-bit case), UTF-8 otherwise.
        let bytes = text.contains("\u{FC}") ? Array(text.unicodeScalars.map { UInt8($0.value) }) : Array(text.utf8)
        #expect(Self.compare(bytes, "case") > 0)
    }
}
