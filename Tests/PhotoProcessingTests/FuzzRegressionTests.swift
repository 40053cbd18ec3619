import PhotoProcessing
import TestSupport
import Testing

/// What FuzzJPEG and FuzzPNG found (Fixtures/fuzz/FuzzJPEG/, Fixtures/fuzz/FuzzPNG/), run through the calls the
/// targets make: each completes, with a result or a `PhotoError`, and allocates no more than its pixels need.
@Suite struct FuzzRegressionTests {
    static let maxPixels = 4_000_000

    /// A moved or emptied fixture folder fails here instead of running the cases below zero times.
    @Test func fixturesArePresent() {
        #expect(
            FuzzFixtures.files("FuzzJPEG").count + FuzzFixtures.files("FuzzPNG").count >= 2,
            "expected at least 2 files in Fixtures/fuzz/FuzzJPEG and FuzzPNG")
    }

    /// Inspect, decode at three DCT scales, show upright, fit into 1,500 bytes at 128 px: what FuzzJPEG does.
    @Test(arguments: FuzzFixtures.files("FuzzJPEG"))
    func jpegInputCompletes(_ file: String) throws {
        let bytes = try FixturePaths.bytes(file)
        guard (try? JPEGCodec.inspect(bytes)) != nil else { return }
        for scale in [1, 2, 8] { _ = try? JPEGCodec.decode(bytes, scale: scale, maxPixels: Self.maxPixels) }
        _ = try? ImageDecoder.upright(bytes, maxEdge: 64, maxPixels: Self.maxPixels)
        Self.fit(bytes)
    }

    /// Inspect, decode, show upright, fit: what FuzzPNG does (after fixing chunk CRCs, which its inputs have).
    @Test(arguments: FuzzFixtures.files("FuzzPNG"))
    func pngInputCompletes(_ file: String) throws {
        let bytes = try FixturePaths.bytes(file)
        guard (try? PNGCodec.inspect(bytes)) != nil else { return }
        _ = try? PNGCodec.decode(bytes, maxPixels: Self.maxPixels)
        _ = try? ImageDecoder.upright(bytes, maxEdge: 64, maxPixels: Self.maxPixels)
        Self.fit(bytes)
    }

    static func fit(_ bytes: [UInt8]) {
        var options = PhotoFitter.Options()
        options.maxPixels = maxPixels
        options.maxEdge = 128
        _ = try? PhotoFitter(options: options).fit(bytes, maxBytes: 1_500)
    }

    /// libpng allocated a chunk's declared length before reading it: 53 bytes made it allocate 530 MB. A chunk
    /// claiming more bytes than the file holds is now refused before libpng sees it.
    @Test func chunkClaimingMoreThanTheFileHoldsIsRefusedBeforeLibpngAllocates() throws {
        let bytes = try FixturePaths.bytes("fuzz/FuzzPNG/text-chunk-claiming-500-mb.png")
        #expect(
            throws: PhotoError(
                .corrupt, "the PNG data is invalid: chunk tEXt claims 530645129 bytes, but only 8 follow")
        ) {
            try PNGCodec.inspect(bytes)
        }
    }

    /// Text chunks and the ICC profile are left out of what libpng reads (their lengths, compressed or not,
    /// were allocated unchecked), yet still count as metadata, and the pixels are the same.
    @Test func textAndProfileChunksAreSkippedButStillCountAsMetadata() throws {
        let plain = try FixturePaths.bytes("photos/opaque.png")
        let afterHeader = 8 + 25
        var withText = Array(plain[..<afterHeader])
        withText += Self.chunk("tEXt", Array("Comment\u{0}hello".utf8))
        withText += Self.chunk(
            "zTXt", Array("Comment\u{0}\u{0}".utf8) + [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        withText += Self.chunk("iCCP", Array("icc\u{0}\u{0}".utf8) + [0xFF, 0xFF, 0xFF, 0xFF])
        withText += plain[afterHeader...]
        #expect(try PNGCodec.inspect(withText).hasMetadata)
        #expect(try !PNGCodec.inspect(plain).hasMetadata)
        let decoded = try PNGCodec.decode(withText, maxPixels: Self.maxPixels)
        #expect(decoded.image == (try PNGCodec.decode(plain, maxPixels: Self.maxPixels)).image)
    }

    /// A PNG chunk: length, type, data, CRC-32.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    /// A segment length below 2 stopped the marker walk with a trap; it now ends the walk, and the file counts
    /// as holding metadata so that it is re-encoded rather than kept.
    @Test func segmentShorterThanItsLengthFieldEndsTheMarkerWalk() throws {
        let info = try JPEGCodec.inspect(try FixturePaths.bytes("fuzz/FuzzJPEG/segment-length-below-two.jpg"))
        #expect(info.hasMetadata)
        #expect((info.width, info.height) == (64, 53))
    }
}
