import PhotoProcessing
import TestSupport
import Testing

/// PhotoFitter: budgets met, baseline without metadata, upright, deterministic, originals kept when they can be.
@Suite struct FittingTests {
    static let budgets = [1_500, 3_000, 6_000, 12_000, 24_000, 48_000, 96_000, 400_000]

    /// The JPEG markers before the first scan.
    static func markers(_ bytes: [UInt8]) -> [UInt8] {
        var found: [UInt8] = []
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            found.append(marker)
            if marker == 0xDA { break }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return found
    }

    @Test(arguments: budgets)
    func everyBudgetIsMetWithABaselineFrameAndNoMetadata(_ budget: Int) throws {
        let source = try FixturePaths.bytes("photos/photo-640x480.jpg")
        var options = PhotoFitter.Options()
        options.maxEdge = 512
        let result = try PhotoFitter(options: options).fit(source, maxBytes: budget)
        #expect(result.bytes.count <= budget)
        #expect(!result.keptOriginal)
        let markers = Self.markers(result.bytes)
        #expect(markers.contains(0xC0), "SOF0 expected, markers \(markers)")
        #expect(!markers.contains(0xC1) && !markers.contains(0xC2))
        #expect(!markers.contains(0xE1), "no APP1 (EXIF) expected")
        let info = try ImageInfo.inspect(result.bytes)
        #expect(info.frameType == 0 && !info.hasMetadata)
        #expect(max(result.width, result.height) <= 512)
        #expect((info.width, info.height) == (result.width, result.height))
        #expect(result.quality! >= options.lowestQuality)
        // At full size, a quality one step higher would not have fitted (same pixels, same chroma).
        if max(result.width, result.height) == 512, let q = result.quality, q < options.maxQuality,
            let chroma = result.chroma
        {
            let decoded = try ImageDecoder.upright(source, maxEdge: max(result.width, result.height)).image
            let higher = try JPEGCodec.encode(decoded, quality: q + 1, chroma: chroma)
            #expect(higher.count > budget || chroma == .full, "q\(q + 1) is \(higher.count) bytes, fits \(budget)")
        }
        let again = try PhotoFitter(options: options).fit(source, maxBytes: budget)
        #expect(again.bytes == result.bytes, "repeated runs give identical bytes")
    }

    @Test func aPortraitPhotoIsTurnedUprightAndLosesItsExif() throws {
        let source = try FixturePaths.bytes("photos/orient-6.jpg")
        let result = try PhotoFitter().fit(source, maxBytes: 100_000)
        #expect((result.width, result.height) == (64, 48))
        let info = try ImageInfo.inspect(result.bytes)
        #expect(info.orientation == .up && !info.hasMetadata)
        #expect(!Self.markers(result.bytes).contains(0xE1))
        let (image, _, _) = try ImageDecoder.upright(result.bytes)
        DecodingTests.expectColors(image, DecodingTests.pattern, tolerance: 16)
    }

    @Test func aFittingCleanBaselineIsKeptByteForByte() throws {
        let source = try FixturePaths.bytes("photos/baseline.jpg")
        let result = try PhotoFitter().fit(source, maxBytes: 10_000)
        #expect(result.keptOriginal)
        #expect(result.bytes == source)
        // Over the budget, or over the edge, it is re-encoded.
        var small = PhotoFitter.Options()
        small.maxEdge = 32
        let shrunk = try PhotoFitter(options: small).fit(source, maxBytes: 10_000)
        #expect(!shrunk.keptOriginal && (shrunk.width, shrunk.height) == (32, 24))
        let tight = try PhotoFitter().fit(source, maxBytes: source.count - 1)
        #expect(!tight.keptOriginal && tight.bytes.count < source.count)
    }

    @Test func progressiveAndCMYKAreNeverKept() throws {
        for name in ["progressive", "cmyk-adobe"] {
            let source = try FixturePaths.bytes("photos/\(name).jpg")
            let result = try PhotoFitter().fit(source, maxBytes: 100_000)
            #expect(!result.keptOriginal)
            #expect(try ImageInfo.inspect(result.bytes).frameType == 0)
            let (image, _, _) = try ImageDecoder.upright(result.bytes)
            DecodingTests.expectColors(
                image,
                name == "progressive"
                    ? DecodingTests.pattern
                    : [DecodingTests.red, DecodingTests.green, DecodingTests.blue, [127, 127, 127]],
                tolerance: 16)
        }
    }

    @Test func smallImagesAreNeverEnlarged() throws {
        let result = try PhotoFitter().fit(try FixturePaths.bytes("photos/alpha.png"), maxBytes: 100_000)
        #expect((result.width, result.height) == (64, 48))
        let (image, _, _) = try ImageDecoder.upright(result.bytes)
        DecodingTests.expectColors(
            image, [DecodingTests.red, DecodingTests.white, [127, 127, 255], DecodingTests.black],
            tolerance: 16)
    }

    @Test func grayStaysGray() throws {
        let result = try PhotoFitter().fit(try FixturePaths.bytes("photos/photo-640x480.jpg"), maxBytes: 5_000)
        #expect(result.bytes.count <= 5_000)
        let gray = try PhotoFitter().fit(try FixturePaths.bytes("photos/gray.jpg"), maxBytes: 300)
        #expect(try ImageInfo.inspect(gray.bytes).components == 1)
        #expect(gray.bytes.count <= 300)
    }

    @Test func anImpossibleBudgetIsAClearError() throws {
        let error = #expect(throws: PhotoError.self) {
            _ = try PhotoFitter().fit(try FixturePaths.bytes("photos/photo-640x480.jpg"), maxBytes: 200)
        }
        #expect(error?.code == .doesNotFit)
        #expect(
            error?.description.hasPrefix("the photo cannot be made to fit in 200 bytes (32 px at quality 10 takes ")
                == true)
    }

    @Test func tooManyPixelsIsRefused() throws {
        var options = PhotoFitter.Options()
        options.maxPixels = 1_000
        let error = #expect(throws: PhotoError.self) {
            _ = try PhotoFitter(options: options).fit(try FixturePaths.bytes("photos/baseline.jpg"), maxBytes: 100_000)
        }
        #expect(error?.description == "the image is 64x48 pixels, over the limit of 1000 pixels; it was not decoded")
    }
}
