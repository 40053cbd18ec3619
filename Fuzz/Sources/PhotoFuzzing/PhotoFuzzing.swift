import PhotoProcessing

/// Headers refused above this many pixels (4 MP), so that a huge claimed size is refused before decoding.
public let fuzzMaxPixels = 4_000_000

/// Runs an image the photo targets accept through what a card's photo goes through: shown upright at 64 px and
/// fitted into 1,500 bytes at 128 px. Errors are expected; only a crash, a leak or a hang is a finding.
public func showAndFit(_ bytes: [UInt8]) {
    _ = try? ImageDecoder.upright(bytes, maxEdge: 64, maxPixels: fuzzMaxPixels)
    var options = PhotoFitter.Options()
    options.maxPixels = fuzzMaxPixels
    // Small, as for a thumbnail-sized record limit, so that a JPEG is decoded with a reduced DCT.
    options.maxEdge = 128
    _ = try? PhotoFitter(options: options).fit(bytes, maxBytes: 1_500)
}
