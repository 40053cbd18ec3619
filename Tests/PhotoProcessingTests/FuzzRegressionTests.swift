import PhotoProcessing
import Testing
import TestSupport

/// What FuzzJPEG and FuzzPNG found (Fixtures/fuzz/FuzzJPEG/, Fixtures/fuzz/FuzzPNG/), run through the calls the
/// targets make: each completes, with a result or a `PhotoError`.
@Suite struct FuzzRegressionTests {
    static let maxPixels = 4_000_000

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

    /// A segment length below 2 stopped the marker walk with a trap; it now ends the walk, and the file counts
    /// as holding metadata so that it is re-encoded rather than kept.
    @Test func segmentShorterThanItsLengthFieldEndsTheMarkerWalk() throws {
        let info = try JPEGCodec.inspect(try FixturePaths.bytes("fuzz/FuzzJPEG/segment-length-below-two.jpg"))
        #expect(info.hasMetadata)
        #expect((info.width, info.height) == (64, 53))
    }
}
