import TerminalText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The text preview: aligned, readable, safe to print on a terminal.
public enum TextPreview {
    /// How far the text may use the terminal.
    public struct Style: Sendable, Equatable {
        /// Bold name and dim labels, with ANSI escapes.
        public var color: Bool

        /// Plain text: for pipes, files, `NO_COLOR` and `TERM=dumb`.
        public static let plain = Style(color: false)
        /// Escapes for a colour terminal.
        public static let terminal = Style(color: true)

        /// Creates a style.
        public init(color: Bool) { self.color = color }
    }

    /// The preview of one card; a thumbnail, when given, is drawn at the left of the name and headline.
    public static func render(_ view: CardView, thumbnail: Thumbnail? = nil, style: Style = .plain) -> String {
        var head: [String] = []
        let name = view.name.isEmpty ? "(no name)" : oneLine(view.name)
        head.append(style.color ? "\u{1B}[1m" + name + "\u{1B}[0m" : name)
        if !view.headline.isEmpty { head.append(view.headline.map(oneLine).joined(separator: " · ")) }
        if let photo = view.photo { head.append("[photo: " + oneLine(photo.text) + "]") }

        var out = ""
        if let thumbnail {
            let block = HalfBlock.lines(thumbnail)
            for index in 0..<max(block.count, head.count) {
                let left = index < block.count ? block[index] : String(repeating: " ", count: thumbnail.width)
                let right = index < head.count ? "  " + head[index] : ""
                out += left + right + "\n"
            }
        } else {
            for line in head { out += line + "\n" }
        }

        let width = view.rows.map { $0.label.count }.max() ?? 0
        for row in view.rows {
            for (index, line) in row.lines.enumerated() {
                let label = index == 0 ? oneLine(row.label) : ""
                let padded = label + String(repeating: " ", count: max(0, width - label.count))
                out +=
                    "  " + (style.color && !label.isEmpty ? "\u{1B}[2m" + padded + "\u{1B}[0m" : padded)
                    + "  " + oneLine(line) + "\n"
            }
        }
        return out
    }

    /// A value on one line, safe for a terminal: a line break within it (a street on two lines) is shown as
    /// `⏎`, and everything else a terminal would act on (escape sequences, bidi overrides) as the visible escapes
    /// of `TerminalText`, the sanitiser every message of the tool passes through.
    public static func oneLine(_ text: String) -> String {
        let marked =
            text.contains(where: \.isNewline)
            ? text.replacingOccurrences(of: "\r\n", with: "⏎").replacingOccurrences(of: "\n", with: "⏎")
            : text
        return TerminalText.sanitized(marked)
    }
}

/// A small picture for a preview, as 8-bit gray or RGB pixels, rows top to bottom.
public struct Thumbnail: Sendable, Equatable {
    /// Width in pixels: one terminal column each.
    public var width: Int
    /// Height in pixels: two per terminal row.
    public var height: Int
    /// 1 (gray) or 3 (RGB).
    public var channels: Int
    /// `width * height * channels` bytes.
    public var pixels: [UInt8]

    /// Creates a thumbnail; `pixels` must hold `width * height * channels` bytes.
    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(channels == 1 || channels == 3, "a thumbnail is gray or RGB")
        precondition(pixels.count == width * height * channels, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    func rgb(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let offset = (y * width + x) * channels
        if channels == 1 { return (pixels[offset], pixels[offset], pixels[offset]) }
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}

/// Draws pixels with the upper half block: the foreground colour is the upper pixel and the background the
/// lower one, so a terminal cell (about twice as tall as wide) shows two square pixels.
enum HalfBlock {
    static func lines(_ image: Thumbnail) -> [String] {
        var lines: [String] = []
        var y = 0
        while y < image.height {
            var line = ""
            for x in 0..<image.width {
                let (r, g, b) = image.rgb(x: x, y: y)
                line += "\u{1B}[38;2;\(r);\(g);\(b)m"
                if y + 1 < image.height {
                    let (r2, g2, b2) = image.rgb(x: x, y: y + 1)
                    line += "\u{1B}[48;2;\(r2);\(g2);\(b2)m"
                } else {
                    line += "\u{1B}[49m"  // an odd last row leaves the lower half to the terminal's background
                }
                line += "▀"
            }
            lines.append(line + "\u{1B}[0m")
            y += 2
        }
        return lines
    }
}
