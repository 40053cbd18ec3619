import Foundation
import PhotoProcessing
import TestSupport
import Testing

/// The fitter and the decoder reach pixels only through the `ImageCodec` they are given, so another codec can
/// replace the system libraries' without touching them.
@Suite struct CodecTests {
    /// Passes every call to the system codec and counts it.
    final class CountingCodec: ImageCodec, @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        private let inner = SystemImageCodec()

        func count(_ call: String) -> Int { lock.withLock { counts[call, default: 0] } }
        private func record(_ call: String) { lock.withLock { counts[call, default: 0] += 1 } }

        func inspectJPEG(_ bytes: [UInt8]) throws -> ImageInfo {
            record("inspectJPEG")
            return try inner.inspectJPEG(bytes)
        }
        func inspectPNG(_ bytes: [UInt8]) throws -> ImageInfo {
            record("inspectPNG")
            return try inner.inspectPNG(bytes)
        }
        func decodeJPEG(_ bytes: [UInt8], minimumWidth: Int, minimumHeight: Int, maxPixels: Int) throws -> (
            image: PixelImage, warning: String?
        ) {
            record("decodeJPEG")
            return try inner.decodeJPEG(
                bytes, minimumWidth: minimumWidth, minimumHeight: minimumHeight, maxPixels: maxPixels)
        }
        func decodePNG(_ bytes: [UInt8], maxPixels: Int) throws -> (image: PixelImage, warning: String?) {
            record("decodePNG")
            return try inner.decodePNG(bytes, maxPixels: maxPixels)
        }
        func encodeJPEG(_ image: PixelImage, quality: Int, chroma: JPEGCodec.Chroma) throws -> [UInt8] {
            record("encodeJPEG")
            return try inner.encodeJPEG(image, quality: quality, chroma: chroma)
        }
    }

    /// Refuses to encode, as a codec out of memory would.
    struct RefusingCodec: ImageCodec {
        let inner = SystemImageCodec()
        func inspectJPEG(_ bytes: [UInt8]) throws -> ImageInfo { try inner.inspectJPEG(bytes) }
        func inspectPNG(_ bytes: [UInt8]) throws -> ImageInfo { try inner.inspectPNG(bytes) }
        func decodeJPEG(_ bytes: [UInt8], minimumWidth: Int, minimumHeight: Int, maxPixels: Int) throws -> (
            image: PixelImage, warning: String?
        ) {
            try inner.decodeJPEG(bytes, minimumWidth: minimumWidth, minimumHeight: minimumHeight, maxPixels: maxPixels)
        }
        func decodePNG(_ bytes: [UInt8], maxPixels: Int) throws -> (image: PixelImage, warning: String?) {
            try inner.decodePNG(bytes, maxPixels: maxPixels)
        }
        func encodeJPEG(_ image: PixelImage, quality: Int, chroma: JPEGCodec.Chroma) throws -> [UInt8] {
            throw PhotoError(.outOfMemory, "this codec encodes nothing")
        }
    }

    @Test(arguments: ["photos/photo-640x480.jpg", "photos/starfield.png"])
    func everyEncodeAndDecodeOfAFitGoesThroughTheCodec(_ fixture: String) throws {
        let source = try FixturePaths.bytes(fixture)
        var options = PhotoFitter.Options()
        options.maxEdge = 512
        let codec = CountingCodec()
        // A small budget, so the search takes several encodes and compares candidates.
        let counted = try PhotoFitter(options: options, codec: codec).fit(source, maxBytes: 6_000)
        let plain = try PhotoFitter(options: options).fit(source, maxBytes: 6_000)
        #expect(counted.bytes == plain.bytes, "the same codec through the protocol gives the same bytes")
        #expect(codec.count("encodeJPEG") == counted.encodes)
        #expect(counted.encodes > 1)
        let isPNG = fixture.hasSuffix(".png")
        #expect(codec.count(isPNG ? "inspectPNG" : "inspectJPEG") == 1)
        #expect(codec.count(isPNG ? "decodePNG" : "decodeJPEG") >= 1)
    }

    @Test func aCodecThatCannotEncodeFailsTheFitWithItsOwnError() throws {
        let source = try FixturePaths.bytes("photos/photo-640x480.jpg")
        let error = #expect(throws: PhotoError.self) {
            _ = try PhotoFitter(codec: RefusingCodec()).fit(source, maxBytes: 6_000)
        }
        #expect(error?.code == .outOfMemory)
    }

    @Test func theDecoderAndTheHeaderReaderUseTheGivenCodec() throws {
        let codec = CountingCodec()
        let source = try FixturePaths.bytes("photos/orient-6.jpg")
        let (image, info, _) = try ImageDecoder.upright(source, codec: codec)
        #expect((image.width, image.height) == (info.displayWidth, info.displayHeight))
        #expect(codec.count("inspectJPEG") == 1 && codec.count("decodeJPEG") == 1)
        _ = try ImageInfo.inspect(try FixturePaths.bytes("photos/alpha.png"), codec: codec)
        #expect(codec.count("inspectPNG") == 1)
    }

    /// The system codec decodes at libjpeg's smallest DCT scale that still gives the minimum asked for.
    @Test func theSystemCodecDecodesNoSmallerThanAsked() throws {
        let source = try FixturePaths.bytes("photos/photo-640x480.jpg")
        let codec = SystemImageCodec()
        let cases: [(minimum: (Int, Int), size: (Int, Int))] = [
            ((1, 1), (80, 60)), ((81, 1), (160, 120)), ((300, 200), (320, 240)), ((400, 1), (400, 300)),
            ((640, 480), (640, 480)), ((5_000, 5_000), (640, 480)),
        ]
        for (minimum, size) in cases {
            let image = try codec.decodeJPEG(
                source, minimumWidth: minimum.0, minimumHeight: minimum.1, maxPixels: 1_000_000
            )
            .image
            #expect((image.width, image.height) == size, "minimum \(minimum)")
        }
    }
}
