import TerminalText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The HTML preview: one self-contained page (inline CSS, photos as data URIs) showing each card the way a
/// contacts app does. Every value is escaped, and the page's content security policy forbids scripts as a
/// second wall: a card named `<script>…` shows that text and runs nothing.
public enum HTMLPreview {
    /// A card and its embedded photo, for the page.
    public struct Card: Sendable {
        /// What to show.
        public var view: CardView
        /// The photo's bytes, shown when they are a JPEG, PNG, GIF or WebP image.
        public var photo: [UInt8]?

        /// Creates a page entry.
        public init(view: CardView, photo: [UInt8]?) {
            self.view = view
            self.photo = photo
        }
    }

    /// The whole page for `cards`: one card alone, several as a list (what `Writer` writes card by card).
    public static func page(_ cards: [Card]) -> String {
        var writer = Writer()
        var out: [UInt8] = []
        for card in cards { writer.append(Writer.Entry(card), to: &out) }
        writer.finish(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes the page card by card, as a long file is read: the first card waits only until a second shows the
    /// page is a list (one card alone is titled with its name; a list is titled "Contacts" and counted at its
    /// end, where the count is known).
    public struct Writer {
        /// One card's part of the page, made on any thread.
        public struct Entry: Sendable {
            var name: String
            var article: [UInt8]

            /// The entry for `card`.
            public init(_ card: Card) {
                name = card.view.name
                article = Array(HTMLPreview.article(card).utf8)
            }
        }

        private var first: Entry?
        private var count = 0

        /// A writer with nothing written.
        public init() {}

        /// Appends `entry` (and the page's head, once it is known to be a list) to `out`.
        public mutating func append(_ entry: Entry, to out: inout [UInt8]) {
            count += 1
            if count == 1 {
                first = entry
                return
            }
            if let held = first {
                out += HTMLPreview.header(title: nil).utf8
                out += held.article
                first = nil
            }
            out += entry.article
        }

        /// Appends the rest of the page to `out`.
        public mutating func finish(into out: inout [UInt8]) {
            if count == 1, let held = first {
                out += HTMLPreview.header(title: held.name).utf8
                out += held.article
                out += HTMLPreview.footer(count: nil).utf8
            } else {
                if count == 0 { out += HTMLPreview.header(title: nil).utf8 }
                out += HTMLPreview.footer(count: count).utf8
            }
            first = nil
        }
    }

    /// The page up to its first card: titled with the one card's name (`title`), or "Contacts" for a list
    /// (nil), whose count is known only at its end (see `footer`).
    private static func header(title: String?) -> String {
        let shown = title.map { $0.isEmpty ? "Contact" : $0 } ?? "Contacts"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(shown))</title>
            <style>\(css)</style>
            </head>
            <body>
            <main class="\(title == nil ? "list" : "single")">

            """
    }

    /// The page after its last card: a list says how many cards it showed (`count`; nil for one card alone).
    private static func footer(count: Int?) -> String {
        "</main>\n" + (count.map { "<footer>\($0) \($0 == 1 ? "contact" : "contacts")</footer>\n" } ?? "")
            + "</body>\n</html>\n"
    }

    /// One card of the page.
    private static func article(_ card: Card) -> String {
        let view = card.view
        var out = "<article class=\"card\" dir=\"auto\">\n<header>\n"
        // A photo of more pixels than a phone's camera takes is not put in the page: a 20,000 by 20,000 PNG of
        // 1 MB would cost whoever opens it 1.6 GB to draw. It, a photo given as a link (the page loads nothing)
        // and one the page cannot show are described in words, as the text preview does.
        let pixels = (view.photo?.width ?? 0) * (view.photo?.height ?? 0)
        var shown = false
        if let bytes = card.photo, let type = imageType(bytes), pixels <= maxPhotoPixels {
            out += "<img class=\"photo\" alt=\"\" src=\"data:\(type);base64,\(Data(bytes).base64EncodedString())\">\n"
            shown = true
        } else {
            out += "<div class=\"photo initials\" aria-hidden=\"true\">\(escape(initials(view.name)))</div>\n"
        }
        out += "<div class=\"title\">\n<h1 dir=\"auto\">\(escape(view.name.isEmpty ? "(no name)" : view.name))</h1>\n"
        for line in view.headline { out += "<p class=\"headline\" dir=\"auto\">\(escape(line))</p>\n" }
        if !shown, let photo = view.photo {
            let reason = pixels > maxPhotoPixels ? ", too large to show" : ""
            out += "<p class=\"headline\" dir=\"auto\">[photo: \(escape(photo.text))\(reason)]</p>\n"
        }
        out += "</div>\n</header>\n"
        if !view.rows.isEmpty {
            out += "<dl>\n"
            for row in view.rows {
                // Each value is isolated with its own direction (a phone number stays left to right), while
                // the row keeps the card's direction, so values align to the card's start edge.
                let lines = row.lines.map { line in "<bdi>" + (link(line, kind: row.kind) ?? escape(line)) + "</bdi>" }
                out +=
                    "<div class=\"row\"><dt><bdi>\(escape(row.label))</bdi></dt><dd>"
                    + lines.joined(separator: "<br>") + "</dd></div>\n"
            }
            out += "</dl>\n"
        }
        return out + "</article>\n"
    }

    /// The most pixels of a photo put in the page (50 megapixels, more than a phone's camera takes).
    static let maxPhotoPixels = 50_000_000

    /// A link for values whose scheme is known to be harmless; anything else (`javascript:`) stays text.
    private static func link(_ value: String, kind: CardView.Row.Kind) -> String? {
        let target: String
        switch kind {
        case .phone:
            guard let dialable = dialable(value) else { return nil }
            target = "tel:" + dialable
        case .email:
            // Only a plain address is linked; anything with quotes, brackets or spaces is shown as text.
            guard value.contains("@"), !hasAddressBreaker(value) else { return nil }
            target = "mailto:" + value
        case .url:
            let lower = value.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
            target = value
        case .other:
            return nil
        }
        return "<a href=\"\(escape(target))\">\(escape(value))</a>"
    }

    /// Whether `value` holds white space or a character that makes it more than a plain address (quotes,
    /// brackets, `\`, `,`, `;`, `:`). An ASCII value is checked byte by byte, with the answer the characters give:
    /// a check by characters was most of the work of linking a book's addresses.
    private static func hasAddressBreaker(_ value: String) -> Bool {
        let ascii = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            // White space (as `Character.isWhitespace` has it in ASCII: tab to CR, and space) and the breakers.
            return bytes.contains { byte in
                switch byte {
                // Tab to CR, space, `"`, `'`, `(`, `)`, `,`, `:`, `;`, `<`, `>`, `[`, `\`, `]`.
                case 0x09...0x0D, 0x20, 0x22, 0x27, 0x28, 0x29, 0x2C, 0x3A, 0x3B, 0x3C, 0x3E, 0x5B, 0x5C, 0x5D: true
                default: false
                }
            }
        }
        if let answer = ascii ?? nil { return answer }
        return value.contains(where: { $0.isWhitespace || "<>\"'()[]\\,;:".contains($0) })
    }

    /// The digits (and a leading `+`) of a value that is written as a phone number and nothing else: digits
    /// with the usual separators (space, `-`, `.`, `/`, parentheses), optionally after `tel:`. Anything else
    /// (`javascript:alert(7)`, `call 555-0100 now`, letters for digits) gets no link: taking the digits out of
    /// it would link to a number the text never showed.
    static func dialable(_ value: String) -> String? {
        var text = Substring(value.trimmingCharacters(in: .whitespaces))
        if text.lowercased().hasPrefix("tel:") { text = text.dropFirst(4) }
        if text.hasPrefix("+") { text = text.dropFirst() }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || " -./()".contains($0)) }) else {
            return nil
        }
        let digits = text.filter(\.isNumber)
        guard digits.count >= 3 else { return nil }
        return
            (value.trimmingCharacters(in: .whitespaces).hasPrefix("+")
            || value.lowercased().hasPrefix("tel:+") ? "+" : "") + digits
    }

    /// The media type of a raster image known by its first bytes; other data (SVG, garbage) is not shown.
    static func imageType(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        return nil
    }

    /// Up to two initials, as a photo placeholder: the first letters of the first and last words.
    static func initials(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0.isWhitespace }).filter { $0.first?.isLetter == true }
        guard let first = words.first?.first else { return "?" }
        guard words.count > 1, let last = words.last?.first else { return String(first).uppercased() }
        return (String(first) + String(last)).uppercased()
    }

    /// Escapes text for HTML element content and double- or single-quoted attributes, after the one sanitiser
    /// everything shown to a person passes (`TerminalText`): a bidi override, a zero-width space or a control
    /// character is shown as its code (`<U+202E>`), as on a terminal, so a link cannot read backwards. Line
    /// breaks and tabs are kept (values are laid out `pre-wrap`): Apple's two-line street was shown with U+FFFD
    /// between its lines.
    public static func escape(_ text: String) -> String {
        // Printable ASCII without `&<>"'` is its own escape: most values of a book, given back as they are.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { byte in
                switch byte {
                // `"`, `&`, `'`, `<`, `>`.
                case 0x22, 0x26, 0x27, 0x3C, 0x3E: false
                default: byte >= 0x20 && byte < 0x7F
                }
            }
        }
        if plain == true { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // CR LF is a line break; a lone CR is shown as the sanitiser shows it.
            case "\r" where index + 1 < scalars.count && scalars[index + 1] == "\n": continue
            default:
                if TerminalText.needsEscape(scalar, lineBreaks: .keep) {
                    // The sanitiser's mark (`\u{202E}`) is plain ASCII with nothing to escape.
                    out += TerminalText.sanitized(String(scalar), lineBreaks: .keep)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private static let css = """

        :root { color-scheme: light dark; --bg: #f2f2f7; --card: #fff; --text: #1c1c1e; --muted: #6e6e73; --line: #e5e5ea; --accent: #0a64d6; }
        @media (prefers-color-scheme: dark) { :root { --bg: #000; --card: #1c1c1e; --text: #f2f2f7; --muted: #98989d; --line: #38383a; --accent: #409cff; } }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 24px; background: var(--bg); color: var(--text); font: 15px/1.4 -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
        main { display: grid; gap: 16px; max-width: 560px; margin: 0 auto; }
        .card { background: var(--card); border-radius: 14px; padding: 20px; box-shadow: 0 1px 3px rgba(0,0,0,.12); overflow-wrap: anywhere; }
        header { display: flex; align-items: center; gap: 16px; }
        .photo { flex: none; width: 88px; height: 88px; border-radius: 50%; object-fit: cover; }
        .initials { display: flex; align-items: center; justify-content: center; background: linear-gradient(#a5abb8, #858994); color: #fff; font-size: 34px; font-weight: 500; }
        .title { min-width: 0; }
        h1 { margin: 0; font-size: 24px; font-weight: 600; }
        .headline { margin: 2px 0 0; color: var(--muted); }
        dl { margin: 16px 0 0; }
        .row { display: grid; grid-template-columns: 7.5em 1fr; gap: 12px; padding: 8px 0; border-top: 1px solid var(--line); }
        dt { color: var(--muted); font-size: 13px; padding-top: 1px; }
        dd { margin: 0; white-space: pre-wrap; }
        a { color: var(--accent); text-decoration: none; }
        footer { max-width: 560px; margin: 16px auto 0; color: var(--muted); text-align: center; }

        """
}
