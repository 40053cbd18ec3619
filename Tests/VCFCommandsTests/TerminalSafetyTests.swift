import ContactModel
import ContactPresentation
import Foundation
import TerminalText
import Testing

/// Card data, file names and arguments never reach a terminal as escape sequences or bidi overrides: every
/// command's stdout text and stderr are checked for the raw bytes, from the built binary.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"), .serialized)
struct TerminalSafetyTests {
    /// ESC (CSI, OSC and OSC 8), BEL, C1 CSI and U+202E in a card's FN, property name and group.
    static let hostile =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Evil\u{1B}]0;pwned\u{07}\u{1B}]8;;http://x/\u{07}link\u{1B}]8;;\u{07}"
        + " \u{202E}eman\u{9B}2J\r\nN:Evil;Name;;;\r\nX-ESC\u{1B}[2J:v\r\ngr\u{1B}[31mp.NOTE:x\r\n"
        + "NOTE:line\\nbreak \u{202E}gnp.exe\r\nEND:VCARD\r\n"

    /// The raw sequences that must not appear: ESC, BEL, the C1 CSI (UTF-8 C2 9B) and U+202E (E2 80 AE).
    static func raw(_ bytes: [UInt8]) -> [String] {
        var found: [String] = []
        if bytes.contains(0x1B) { found.append("ESC") }
        if bytes.contains(0x07) { found.append("BEL") }
        for (pattern, name) in [([UInt8(0xC2), 0x9B], "CSI"), ([0xE2, 0x80, 0xAE], "U+202E")] {
            if bytes.count >= pattern.count,
                (0...(bytes.count - pattern.count)).contains(where: { Array(bytes[$0..<$0 + pattern.count]) == pattern }
                )
            {
                found.append(name)
            }
        }
        return found
    }

    @Test func noCommandPrintsARawEscape() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("evil\u{1B}[2J.vcf", Self.hostile)
        let book = try scratch.write("book.vcf", card("Someone Else", uid: "x"))
        var checked = 0
        for (arguments, stdoutIsText) in [
            (["preview", input], true), (["lint", input], true), (["convert", input], false),
            (["merge", input, "--into", book, "-n"], true),
            (["merge", input, "--into", book, "-n", "--explain"], true),
            (["merge", input, "--into", book], true), (["convert", input, "--split", scratch("split")], true),
        ] {
            let outcome = try ChildProcess.run(arguments)
            #expect(outcome.signal == nil)
            #expect(Self.raw(outcome.stderrBytes).isEmpty, "\(arguments[0]) stderr: \(outcome.stderr)")
            if stdoutIsText {
                #expect(Self.raw(outcome.stdout).isEmpty, "\(arguments[0]) stdout: \(outcome.stdoutText)")
            }
            checked += 1
        }
        #expect(checked == 7)
        // What was shown instead: the escapes, visible.
        let preview = try ChildProcess.run(["preview", input])
        #expect(preview.stdoutText.contains("Evil\\u{1B}]0;pwned\\u{07}"))
        #expect(preview.stdoutText.contains("\\u{202E}eman\\u{9B}2J"))
        #expect(preview.stderr.contains("property name `X-ESC\\u{1B}[2J`"))
        #expect(preview.stderr.contains("evil\\u{1B}[2J.vcf:"))
        let plan = try ChildProcess.run(["merge", input, "--into", book, "-n"])
        #expect(plan.stdoutText.contains(":1 Evil\\u{1B}]0;pwned\\u{07}"))
        // Data is data: convert keeps the card's bytes as they are, for the program that reads them.
        let converted = try ChildProcess.run(["convert", input])
        #expect(converted.stdoutText.contains("FN:Evil\u{1B}]0"))
    }

    @Test func theSanitiserShowsEveryActingCharacter() {
        #expect(TerminalText.sanitized("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(TerminalText.sanitized("x\ny\tz\r") == "x\\ny\\tz\\r")
        #expect(TerminalText.sanitized("x\ny\tz", lineBreaks: .keep) == "x\ny\tz")
        #expect(TerminalText.sanitized("\u{7F}\u{85}\u{9B}") == "\\u{7F}\\u{85}\\u{9B}")
        for bidi in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C] {
            let scalar = Unicode.Scalar(UInt32(bidi))!
            #expect(TerminalText.needsEscape(scalar), "U+\(String(bidi, radix: 16))")
        }
        // Invisible format characters too, but not the joiners that shape scripts and emoji.
        #expect(TerminalText.sanitized("a\u{200B}b\u{FEFF}\u{E0041}") == "a\\u{200B}b\\u{FEFF}\\u{E0041}")
        #expect(TerminalText.sanitized("👨\u{200D}👩 Zoë مریم") == "👨\u{200D}👩 Zoë مریم")
        // Bytes that are not UTF-8 as \x, the rest as text; overlong forms and surrogates are not UTF-8.
        #expect(TerminalText.sanitized(bytes: Array("book".utf8) + [0xE9] + Array(".vcf".utf8)) == "book\\xE9.vcf")
        #expect(TerminalText.sanitized(bytes: [0xC0, 0xAF, 0xED, 0xA0, 0x80, 0x41]) == "\\xC0\\xAF\\xED\\xA0\\x80A")
        #expect(TerminalText.sanitized(bytes: Array("é\n".utf8)) == "é\\n")
    }

    /// The HTML preview links only values that are well-formed phone numbers, addresses and web links: the
    /// digits of `javascript:alert(7)` are not a phone number.
    @Test func htmlLinksOnlyWellFormedValues() {
        var contact = Contact()
        contact.formattedName = "Links"
        contact.phones = [
            LabeledValue("javascript:alert(7)"), LabeledValue("+1 (555) 010-0199"),
            LabeledValue("tel:+44-20-7946-0958"),
            LabeledValue("call 555 0100"),
        ]
        // Read byte by byte when ASCII, by characters otherwise: white space, quotes and brackets keep a value
        // from being linked either way.
        contact.emails = [
            LabeledValue("ann@example.com"), LabeledValue("javascript:x@y"), LabeledValue("a b@example.com"),
            LabeledValue("a\tb@example.com"), LabeledValue("o'neil@example.com"), LabeledValue("(x)@example.com"),
            LabeledValue("josé@example.com"), LabeledValue("José <j@example.com>"),
            LabeledValue("zoë\u{3000}z@example.com"),
        ]
        contact.urls = [LabeledValue("javascript:alert(1)"), LabeledValue("https://example.com/a")]
        let page = HTMLPreview.page([HTMLPreview.Card(view: CardView(contact), photo: nil)])
        let links = page.components(separatedBy: "<a href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(
            links == [
                "tel:+15550100199", "tel:+442079460958", "mailto:ann@example.com", "mailto:josé@example.com",
                "https://example.com/a",
            ])
        #expect(page.contains("javascript:alert(7)"))
        #expect(page.contains("o&#39;neil@example.com") && page.contains("José &lt;j@example.com&gt;"))
    }
}
