import PhotoProcessing
import TestSupport
import Testing

/// SSIM against scikit-image's `structural_similarity` (7 x 7 uniform window, sample covariance) on Rec. 601 luma,
/// and the fitter's use of it to choose between a smaller image and a lower quality.
@Suite struct SimilarityTests {
    @Test func matchesScikitImageOnAKnownPair() throws {
        let photo = try JPEGCodec.decode(try FixturePaths.bytes("photos/photo-640x480.jpg"), maxPixels: 1_000_000).image
        #expect(photo.structuralSimilarity(to: photo) == 1)
        // skimage.metrics.structural_similarity(Y, Y[::-1], data_range=255, win_size=7) = 0.62843
        let flipped = photo.oriented(.downMirrored)
        #expect(abs(photo.structuralSimilarity(to: flipped) - 0.62843) < 0.002)
    }

    @Test(arguments: [
        ("photo-640x480.jpg", 1_500), ("photo-640x480.jpg", 3_000), ("photo-640x480.jpg", 6_000),
        ("starfield.png", 3_000), ("starfield.png", 6_000),
    ])
    func belowTheFloorTheFitLooksAtLeastAsGoodAsShrinkingAlone(_ name: String, _ budget: Int) throws {
        let source = try FixturePaths.bytes("photos/\(name)")
        var options = PhotoFitter.Options()
        options.maxEdge = 512
        var shrinkOnly = options
        shrinkOnly.lowestQuality = shrinkOnly.minQuality
        let chosen = try PhotoFitter(options: options).fit(source, maxBytes: budget)
        let shrunk = try PhotoFitter(options: shrinkOnly).fit(source, maxBytes: budget)
        #expect(chosen.bytes.count <= budget && shrunk.bytes.count <= budget)
        #expect(shrunk.quality! >= options.minQuality)
        let reference = try ImageDecoder.upright(source, maxEdge: 512).image
        func score(_ result: PhotoFitter.Result) throws -> Double {
            let shown = try ImageDecoder.upright(result.bytes).image
            return PhotoFitter.compare(shown, to: reference)
        }
        if name == "starfield.png" && budget == 6_000 {
            // Fine points: the full size at a low quality beats a smaller image at the floor.
            #expect((chosen.width, chosen.height) == (512, 384) && chosen.quality! < options.minQuality)
            #expect(try score(chosen) > score(shrunk))
        }
        #expect(
            try score(chosen) >= score(shrunk),
            "\(chosen.width)x\(chosen.height) q\(chosen.quality!) vs \(shrunk.width)x\(shrunk.height) q\(shrunk.quality!)"
        )
    }
}
