import Foundation
import PhotoProcessing
import TestSupport
import Testing

/// The fixtures of Fixtures/photos (made by Scripts/make-photo-fixtures.py with Pillow, an encoder independent of
/// ours) decode to the colours they were drawn with.
@Suite struct DecodingTests {
    static let red: [Int] = [255, 0, 0], green: [Int] = [0, 255, 0], blue: [Int] = [0, 0, 255]
    static let yellow: [Int] = [255, 255, 0], white: [Int] = [255, 255, 255], black: [Int] = [0, 0, 0]
    /// The pattern as displayed: 64x48, quadrants red, green / blue, yellow.
    static let pattern = [red, green, blue, yellow]

    /// The centre colour of each quadrant: top left, top right, bottom left, bottom right.
    static func quadrants(_ image: PixelImage) -> [[Int]] {
        let points = [
            (image.width / 4, image.height / 4), (3 * image.width / 4, image.height / 4),
            (image.width / 4, 3 * image.height / 4), (3 * image.width / 4, 3 * image.height / 4),
        ]
        return points.map { image.pixel(x: $0.0, y: $0.1).map(Int.init) }
    }

    static func expectColors(
        _ image: PixelImage, _ expected: [[Int]], tolerance: Int = 12,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let actual = quadrants(image)
        for (a, e) in zip(actual, expected) {
            let close = a.count == e.count && zip(a, e).allSatisfy { abs($0 - $1) <= tolerance }
            #expect(close, "quadrant \(a) expected \(e)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: 1...8)
    func everyExifOrientationIsShownUpright(_ orientation: Int) throws {
        let bytes = try FixturePaths.bytes("photos/orient-\(orientation).jpg")
        let info = try ImageInfo.inspect(bytes)
        #expect(info.orientation.rawValue == orientation)
        #expect(info.hasMetadata)
        #expect((info.width, info.height) == (orientation >= 5 ? (48, 64) : (64, 48)))
        let (image, _, warning) = try ImageDecoder.upright(bytes)
        #expect(warning == nil)
        #expect((image.width, image.height) == (64, 48))
        Self.expectColors(image, Self.pattern)
    }

    @Test func baselineAndProgressiveDecodeAlike() throws {
        for (name, frame) in [("baseline", 0), ("progressive", 2)] {
            let bytes = try FixturePaths.bytes("photos/\(name).jpg")
            let info = try ImageInfo.inspect(bytes)
            #expect(info.frameType == frame)
            #expect(info.colorModel == .ycbcr && !info.hasMetadata && info.orientation == .up)
            let (image, _, _) = try ImageDecoder.upright(bytes)
            #expect(image.channels == 3)
            Self.expectColors(image, Self.pattern)
        }
    }

    @Test func grayStaysOneChannel() throws {
        let (image, info, _) = try ImageDecoder.upright(try FixturePaths.bytes("photos/gray.jpg"))
        #expect(info.colorModel == .gray && info.components == 1)
        #expect(image.channels == 1)
        Self.expectColors(image, [[0], [85], [170], [255]], tolerance: 4)
    }

    @Test func adobeCMYKIsInvertedAndConverted() throws {
        let bytes = try FixturePaths.bytes("photos/cmyk-adobe.jpg")
        let info = try ImageInfo.inspect(bytes)
        #expect(info.colorModel == .cmyk && info.components == 4)
        let (image, _, _) = try ImageDecoder.upright(bytes)
        #expect(image.channels == 3)
        Self.expectColors(image, [Self.red, Self.green, Self.blue, [127, 127, 127]], tolerance: 8)
    }

    @Test func pngAlphaIsCompositedOnWhite() throws {
        let (image, info, _) = try ImageDecoder.upright(try FixturePaths.bytes("photos/alpha.png"))
        #expect(info.format == .png && info.hasAlpha)
        Self.expectColors(image, [Self.red, Self.white, [127, 127, 255], Self.black], tolerance: 1)
        let (opaque, _, _) = try ImageDecoder.upright(try FixturePaths.bytes("photos/opaque.png"))
        Self.expectColors(opaque, Self.pattern, tolerance: 0)
    }

    @Test func truncatedJPEGDecodesWithAWarning() throws {
        let (image, _, warning) = try ImageDecoder.upright(try FixturePaths.bytes("photos/truncated.jpg"))
        #expect((image.width, image.height) == (640, 480))
        #expect(warning?.contains("Premature end") == true)
    }

    @Test func garbageIsAClearError() throws {
        let error = #expect(throws: PhotoError.self) {
            _ = try ImageDecoder.upright(try FixturePaths.bytes("photos/garbage.jpg"))
        }
        #expect(error?.code == .corrupt)
        #expect(error?.description.hasPrefix("the JPEG data is invalid: ") == true)
        #expect(
            throws: PhotoError(
                .unsupportedFormat, "the image is neither JPEG nor PNG (it does not start with either signature)")
        ) {
            _ = try ImageInfo.inspect(Array("BEGIN:VCARD".utf8))
        }
    }

    @Test func aHugeHeaderIsRefusedBeforeDecoding() throws {
        let bytes = try FixturePaths.bytes("photos/huge-header.jpg")
        let info = try ImageInfo.inspect(bytes)
        #expect((info.width, info.height) == (60000, 60000))
        let error = #expect(throws: PhotoError.self) { _ = try ImageDecoder.upright(bytes) }
        #expect(error?.code == .tooManyPixels)
        // The C layer checks too, right after reading the header, for callers that skip the Swift check.
        let direct = #expect(throws: PhotoError.self) { _ = try JPEGCodec.decode(bytes, maxPixels: 100_000_000) }
        #expect(direct?.code == .tooManyPixels)
        #expect(direct?.description == "the JPEG is too large: 60000x60000 pixels is over the limit of 100000000")
    }
}

/// Area averaging against values worked out by hand.
@Suite struct ResamplingTests {
    @Test func halvingAveragesBlocks() {
        let image = PixelImage(width: 4, height: 2, channels: 1, pixels: [0, 10, 20, 30, 40, 50, 60, 70])
        let half = image.downscaled(width: 2, height: 1, filter: .areaAverage)
        // (0 + 10 + 40 + 50) / 4 = 25, (20 + 30 + 60 + 70) / 4 = 45
        #expect(half.pixels == [25, 45])
    }

    @Test func partialPixelsAreWeightedByCoverage() {
        let image = PixelImage(width: 3, height: 1, channels: 3, pixels: [0, 0, 0, 90, 90, 90, 180, 180, 180])
        let out = image.downscaled(width: 2, height: 1, filter: .areaAverage)
        // Each output pixel covers 1.5 source pixels: (0 + 0.5 * 90) / 1.5 = 30, (0.5 * 90 + 180) / 1.5 = 150.
        #expect(out.pixels == [30, 30, 30, 150, 150, 150])
    }

    @Test func flatColourStaysExact() {
        let image = PixelImage(
            width: 101, height: 67, channels: 3,
            pixels: [UInt8]((0..<(101 * 67)).flatMap { _ in [200, 13, 77] as [UInt8] }))
        let out = image.downscaled(width: 29, height: 17, filter: .areaAverage)
        #expect(out.pixels == [UInt8]((0..<(29 * 17)).flatMap { _ in [200, 13, 77] as [UInt8] }))
        #expect(image.downscaled(width: 29, height: 17).pixels == out.pixels, "Lanczos keeps flat areas flat too")
    }

    @Test func lanczosMatchesAStraightforwardReference() {
        // A hard step shrunk 3:1, against Lanczos-3 computed directly in double precision.
        let row: [UInt8] = Array(repeating: 40, count: 31) + Array(repeating: 200, count: 29)
        let image = PixelImage(width: 60, height: 1, channels: 1, pixels: row)
        let actual = image.downscaled(width: 20, height: 1).pixels
        func kernel(_ x: Double) -> Double {
            x == 0 ? 1 : abs(x) >= 3 ? 0 : 3 * sin(.pi * x) * sin(.pi * x / 3) / (.pi * x * .pi * x)
        }
        let expected: [UInt8] = (0..<20).map { i in
            let center = (Double(i) + 0.5) * 3
            var sum = 0.0
            var total = 0.0
            for j in 0..<60 {
                let w = kernel((Double(j) + 0.5 - center) / 3)
                sum += w * Double(row[j])
                total += w
            }
            return UInt8(min(255, max(0, (sum / total).rounded())))
        }
        #expect(zip(actual, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(actual) vs \(expected)")
        #expect(actual.contains { $0 < 40 } && actual.contains { $0 > 200 }, "Lanczos rings slightly at a hard edge")
        let area = image.downscaled(width: 20, height: 1, filter: .areaAverage).pixels
        // The output pixel straddling the step averages 1 dark and 2 light source pixels.
        #expect(area == Array(repeating: 40, count: 10) + [147] + Array(repeating: 200, count: 9))
    }
}
