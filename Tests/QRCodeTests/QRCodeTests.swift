import Foundation
import QRCode
import TestSupport
import Testing

/// The symbol layer: capacities against the standard's table, and every rendering read back by zbar.
@Suite struct QRCodeTests {
    /// Byte-mode capacities from ISO/IEC 18004 table 7 (version, level, bytes), which libqrencode's answers
    /// must match: the figures are the standard's, the answers the encoder's.
    @Test func capacityMatchesTheStandard() {
        let table: [(Int, ErrorCorrection, Int)] = [
            (1, .low, 17), (1, .medium, 14), (1, .quartile, 11), (1, .high, 7), (10, .medium, 213),
            (20, .low, 858), (20, .medium, 666), (20, .quartile, 482), (20, .high, 382), (40, .low, 2953),
            (40, .medium, 2331), (40, .quartile, 1663), (40, .high, 1273),
        ]
        for (version, level, bytes) in table {
            let capacity = QRCapacity(maxVersion: version, level: level)
            #expect(capacity.asciiBytes == bytes, "version \(version)-\(level)")
            // The ECI designator costs 12 bits, and libqrencode rounds that to between 1 and 3 bytes.
            #expect((bytes - 3...bytes - 1).contains(capacity.utf8Bytes), "version \(version)-\(level) UTF-8")
        }
    }

    /// At the capacity the code is the largest version allowed; one byte more needs a larger one.
    @Test func capacityIsExact() throws {
        let capacity = QRCapacity(maxVersion: 20, level: .medium)
        let ascii = [UInt8](repeating: 0x41, count: capacity.asciiBytes)
        #expect(try QRCode(utf8: ascii, level: .medium).version == 20)
        #expect(try QRCode(utf8: ascii + [0x41], level: .medium).version == 21)
        // "é" is two bytes: fill to the UTF-8 capacity exactly.
        let accent = Array("é".utf8)
        var utf8 = [UInt8](repeating: 0x41, count: capacity.utf8Bytes - 2) + accent
        #expect(utf8.count == capacity.utf8Bytes)
        #expect(try QRCode(utf8: utf8, level: .medium).version == 20)
        utf8.append(0x41)
        #expect(try QRCode(utf8: utf8, level: .medium).version == 21)
        #expect(!capacity.holds(utf8))
    }

    @Test func tooLargeForVersion40() {
        #expect(throws: QRCodeError.self) {
            try QRCode(utf8: [UInt8](repeating: 0x41, count: 2954), level: .low)
        }
    }

    static let samples: [String] = [
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nEND:VCARD\r\n",
        "FN:李小龍 · محمد الفاروق · 😀👩‍👩‍👧 · Zoë Ångström\r\n",
        "José",
    ]

    @Test(.enabled(if: QRReader.zbarimg != nil, "zbarimg (zbar-tools) is not installed: codes not read back"))
    func pngReadsBack() throws {
        for sample in Self.samples {
            let code = try QRCode(utf8: Array(sample.utf8), level: .medium)
            #expect(code.declaresUTF8 == sample.unicodeScalars.contains { !$0.isASCII })
            let png = try code.png()
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(try QRReader.decode(image: png, extension: "png") == Array(sample.utf8))
            // Decoded as text, zbar follows the ECI designator: without it, it reads "José" as Shift JIS.
            #expect(try QRReader.decode(image: png, extension: "png", raw: false) == Array(sample.utf8))
        }
    }

    @Test(.enabled(if: QRReader.zbarimg != nil, "zbarimg (zbar-tools) is not installed: codes not read back"))
    func svgReadsBack() throws {
        guard QRReader.imageMagick != nil else {
            print("skipped: ImageMagick's /usr/bin/convert is not installed, so SVG is not rasterised")
            return
        }
        for sample in Self.samples {
            let code = try QRCode(utf8: Array(sample.utf8), level: .quartile)
            let svg = code.svg()
            #expect(svg.hasPrefix("<?xml"))
            #expect(try QRReader.decode(image: Array(svg.utf8), extension: "svg") == Array(sample.utf8))
        }
    }

    /// The drawing read back cell by cell gives exactly the symbol with its quiet zone, in both styles.
    @Test func halfBlocksDrawEveryModule() throws {
        for sample in Self.samples {
            let code = try QRCode(utf8: Array(sample.utf8), level: .medium)
            let side = code.sizeWithQuietZone()
            let expected = (0..<side).map { y in
                (0..<side).map { x in code[x - QRCode.quietZone, y - QRCode.quietZone] }
            }
            for colors in [QRCode.TerminalColors.explicit, .none] {
                let drawing = code.halfBlocks(colors: colors)
                #expect(drawing.split(separator: "\n").count == (side + 1) / 2)
                var bitmap = HalfBlockReader.bitmap(drawing)
                // The last line's lower half lies past the quiet zone.
                #expect(bitmap.count == side + 1)
                #expect(bitmap.last?.allSatisfy { !$0 } == true)
                bitmap.removeLast()
                let same = bitmap == expected
                #expect(same, "the \(colors) drawing is not the symbol")
                if colors == .none { #expect(!drawing.contains("\u{1B}")) }
            }
        }
    }

    @Test(.enabled(if: QRReader.zbarimg != nil, "zbarimg (zbar-tools) is not installed: codes not read back"))
    func halfBlocksReadBack() throws {
        for sample in Self.samples {
            let code = try QRCode(utf8: Array(sample.utf8), level: .medium)
            for colors in [QRCode.TerminalColors.explicit, .none] {
                let bitmap = HalfBlockReader.bitmap(code.halfBlocks(colors: colors))
                // Without colour the drawing is made for a dark background, read here as it shows there.
                #expect(try QRReader.decode(bitmap: bitmap) == Array(sample.utf8), "\(colors)")
            }
        }
    }
}
