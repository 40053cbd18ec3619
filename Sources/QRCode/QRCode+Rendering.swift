import CPNG

extension QRCode {
    /// The light border every reader needs around a symbol: four modules on each side (ISO/IEC 18004).
    public static let quietZone = 4

    /// Modules per side with the quiet zone on both sides.
    public func sizeWithQuietZone(_ quietZone: Int = QRCode.quietZone) -> Int { size + 2 * quietZone }

    /// The most pixels a module: version 40 at 32 is 5,920 pixels a side, a 35 MB gray buffer before compression.
    public static let maxScale = 32

    /// A gray PNG, `scale` pixels per module (1...`maxScale`), black modules on white, with the quiet zone.
    /// - Throws: `QRCodeError` when libpng cannot write it.
    public func png(scale: Int = 8, quietZone: Int = QRCode.quietZone) throws(QRCodeError) -> [UInt8] {
        let scale = min(max(scale, 1), Self.maxScale)
        let side = sizeWithQuietZone(quietZone) * scale
        var pixels = [UInt8](repeating: 0xFF, count: side * side)
        for y in 0..<size {
            for x in 0..<size where self[x, y] {
                let left = (x + quietZone) * scale
                for row in ((y + quietZone) * scale)..<((y + quietZone + 1) * scale) {
                    for column in left..<(left + scale) { pixels[row * side + column] = 0 }
                }
            }
        }
        var status = vcf_png_status()
        var pointer: UnsafeMutablePointer<UInt8>?
        var count = 0
        let result = pixels.withUnsafeBufferPointer {
            vcf_png_encode_gray($0.baseAddress, Int32(side), Int32(side), &pointer, &count, &status)
        }
        guard result == VCF_PNG_OK, let pointer else {
            let code: QRCodeError.Code = result == VCF_PNG_NO_MEMORY ? .outOfMemory : .failed
            throw QRCodeError(code: code, message: "PNG: " + Self.text(ofCString: status.message))
        }
        defer { vcf_png_free(pointer) }
        return [UInt8](UnsafeBufferPointer(start: pointer, count: count))
    }

    /// An SVG document: one path of dark runs, one unit per module, on a white square with the quiet zone;
    /// drawn `scale` pixels per module by default. `stroke="none"` is the SVG default, but written out because
    /// ImageMagick's own renderer otherwise outlines every run and fills the light modules in.
    public func svg(scale: Int = 8, quietZone: Int = QRCode.quietZone) -> String {
        let side = sizeWithQuietZone(quietZone)
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else {
                    x += 1
                    continue
                }
                var run = 1
                while x + run < size && self[x + run, y] { run += 1 }
                path += "M\(x + quietZone) \(y + quietZone)h\(run)v1h-\(run)z"
                x += run
            }
        }
        let pixels = side * min(max(scale, 1), Self.maxScale)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(pixels)" height="\(pixels)" \
            viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">
            <rect width="\(side)" height="\(side)" fill="#ffffff" stroke="none"/>
            <path fill="#000000" stroke="none" d="\(path)"/>
            </svg>

            """
    }

    /// How a terminal drawing gets its two colours.
    public enum TerminalColors: Sendable {
        /// Black on white from ANSI colours (SGR 30 on 47) set on every line, so the code reads the same on
        /// light and dark terminals.
        case explicit
        /// No colour codes (`NO_COLOR`, `TERM=dumb`, not a terminal): light modules and the quiet zone are the
        /// blocks, dark modules the background, which is right on a light-on-dark terminal (as qrencode's
        /// UTF8 output); on a dark-on-light one the code shows inverted.
        case none
    }

    /// The code drawn with half-block characters, two module rows per line (`▀` `▄` `█` and space), with the
    /// quiet zone, each line ended by `\n`.
    public func halfBlocks(colors: TerminalColors, quietZone: Int = QRCode.quietZone) -> String {
        let side = sizeWithQuietZone(quietZone)
        // With explicit colours the glyphs are the dark modules (black foreground on a white background);
        // without, they are the light ones (the terminal's light foreground on its dark background).
        let glyphIsDark = colors == .explicit
        var out = ""
        var row = 0
        while row < side {
            if colors == .explicit { out += "\u{1B}[30;47m" }
            for column in 0..<side {
                // The side is odd, so the last line's lower half lies past the border: light, as the quiet zone.
                let top = self[column - quietZone, row - quietZone] == glyphIsDark
                let bottom = self[column - quietZone, row + 1 - quietZone] == glyphIsDark
                switch (top, bottom) {
                case (true, true): out += "█"
                case (true, false): out += "▀"
                case (false, true): out += "▄"
                case (false, false): out += " "
                }
            }
            if colors == .explicit { out += "\u{1B}[0m" }
            out += "\n"
            row += 2
        }
        return out
    }
}
