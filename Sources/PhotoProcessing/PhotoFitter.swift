/// Makes a photo fit a byte budget as a baseline JPEG of the best quality that fits: upright, no metadata, at
/// most `maxEdge` pixels on its longest side, never enlarged. Deterministic for the same input and options.
public struct PhotoFitter: Sendable {
    /// Bounds and preferences of a fit.
    public struct Options: Equatable, Sendable {
        /// Longest edge of the output in pixels.
        public var maxEdge: Int = 1024
        /// The output is never made smaller than this on its longest edge (unless the input is).
        public var minEdge: Int = 32
        /// Quality is not lowered below this; the image is made smaller instead.
        public var minQuality: Int = 40
        /// Quality is not raised above this.
        public var maxQuality: Int = 100
        /// Full-resolution colour is chosen when it fits at this quality or better; below it 4:2:0 looks better
        /// for the same bytes.
        public var fullChromaQuality: Int = 90
        /// Images with more pixels are refused before decoding.
        public var maxPixels: Int = 100_000_000

        /// The defaults: 1024 px, quality 40 to 100, 100 megapixels.
        public init() {}
    }

    /// What a fit produced and why.
    public struct Result: Sendable {
        /// The JPEG bytes.
        public var bytes: [UInt8]
        /// The source's headers.
        public var source: ImageInfo
        /// Output width and height in pixels (upright).
        public var width: Int
        public var height: Int
        /// The encoder quality, nil when the input was kept unchanged.
        public var quality: Int?
        /// The chroma subsampling, nil when the input was kept unchanged.
        public var chroma: JPEGCodec.Chroma?
        /// Whether the input bytes were kept as they were (already fitting, baseline, upright, no metadata).
        public var keptOriginal: Bool
        /// How many encodes the search took.
        public var encodes: Int
        /// A recoverable problem the decoder worked around (a truncated file, for instance).
        public var warning: String?
    }

    /// The bounds used.
    public var options: Options

    /// Creates a fitter.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The best JPEG of at most `maxBytes` bytes for the image in `bytes` (JPEG or PNG).
    /// - Throws: `PhotoError`: unreadable input, too many pixels, or `.doesNotFit` when even the smallest allowed
    ///   image at the lowest allowed quality is over `maxBytes`.
    public func fit(_ bytes: [UInt8], maxBytes: Int) throws -> Result {
        let info = try ImageInfo.inspect(bytes)
        try info.checkPixels(options.maxPixels)
        if canKeep(info, byteCount: bytes.count, maxBytes: maxBytes) {
            return Result(bytes: bytes, source: info, width: info.width, height: info.height, quality: nil,
                          chroma: nil, keptOriginal: true, encodes: 0, warning: nil)
        }
        let longest = max(info.width, info.height)
        var edge = min(options.maxEdge, longest)
        let (decoded, warning) = try decode(bytes, info: info, edge: edge)
        var encodes = 0
        var smallestTried: (edge: Int, bytes: Int)?
        while true {
            let image = scaled(decoded, info: info, edge: edge)
            if let found = try search(image, maxBytes: maxBytes, encodes: &encodes) {
                return Result(bytes: found.bytes, source: info, width: image.width, height: image.height,
                              quality: found.quality, chroma: found.chroma, keptOriginal: false, encodes: encodes,
                              warning: warning)
            }
            let atFloor = try JPEGCodec.encode(image, quality: options.minQuality, chroma: .half)
            encodes += 1
            smallestTried = (edge, atFloor.count)
            let floorEdge = min(options.minEdge, longest)
            if edge <= floorEdge { break }
            // Bytes grow roughly with the pixel count: aim a little under the budget to land in one step.
            let ratio = (Double(maxBytes) / Double(atFloor.count)).squareRoot() * 0.95
            edge = max(floorEdge, min(edge - 1, Int(Double(edge) * min(ratio, 0.9))))
        }
        let tried = smallestTried.map { " (\($0.edge) px at quality \(options.minQuality) takes \($0.bytes) bytes)" } ?? ""
        throw PhotoError(.doesNotFit, "the photo cannot be made to fit in \(maxBytes) bytes\(tried)")
    }

    /// Already fitting, baseline, upright, free of metadata, within the edge: re-encoding would only lose quality.
    private func canKeep(_ info: ImageInfo, byteCount: Int, maxBytes: Int) -> Bool {
        info.format == .jpeg && byteCount <= maxBytes && info.frameType == 0 && info.orientation == .up
            && !info.hasMetadata && (info.colorModel == .ycbcr || info.colorModel == .gray)
            && max(info.width, info.height) <= options.maxEdge
    }

    /// Decodes once at the smallest DCT scale whose output is at least the target size.
    private func decode(_ bytes: [UInt8], info: ImageInfo, edge: Int) throws -> (PixelImage, String?) {
        switch info.format {
        case .png:
            return try PNGCodec.decode(bytes, maxPixels: options.maxPixels)
        case .jpeg:
            let (targetWidth, targetHeight) = Self.size(width: info.width, height: info.height, edge: edge)
            return try JPEGCodec.decode(bytes, scale: JPEGCodec.scale(for: info, width: targetWidth, height: targetHeight),
                                        maxPixels: options.maxPixels)
        }
    }

    /// The stored-orientation size whose longest edge is `edge`, keeping the aspect ratio.
    static func size(width: Int, height: Int, edge: Int) -> (Int, Int) {
        let longest = max(width, height)
        guard edge < longest else { return (width, height) }
        let w = max(1, Int((Double(width) * Double(edge) / Double(longest)).rounded()))
        let h = max(1, Int((Double(height) * Double(edge) / Double(longest)).rounded()))
        return (w, h)
    }

    /// The decoded image at `edge` on its longest side, turned upright (shrinking first: fewer pixels to turn).
    private func scaled(_ decoded: PixelImage, info: ImageInfo, edge: Int) -> PixelImage {
        let (w, h) = Self.size(width: info.width, height: info.height, edge: edge)
        let image = decoded.downscaled(width: min(w, decoded.width), height: min(h, decoded.height))
        return image.oriented(info.orientation)
    }

    /// The highest quality that fits, with full-resolution colour when that still fits at a high quality.
    private func search(_ image: PixelImage, maxBytes: Int, encodes: inout Int) throws
        -> (bytes: [UInt8], quality: Int, chroma: JPEGCodec.Chroma)?
    {
        var start = 75
        if image.channels == 3 {
            // One encode at the threshold decides whether full-resolution colour is in reach at all.
            let threshold = options.fullChromaQuality
            let (full, firstSize) = try highestQuality(image, chroma: .full, range: threshold...options.maxQuality,
                                                       start: threshold, maxBytes: maxBytes, encodes: &encodes)
            if let full { return (full.bytes, full.quality, .full) }
            // 4:2:0 is about 0.7 of the 4:4:4 size at the same quality: start the search where that predicts.
            if let firstSize { start = threshold - Self.steps(from: Double(firstSize) * 0.7, to: maxBytes) }
        }
        let chroma: JPEGCodec.Chroma = image.channels == 3 ? .half : .full
        let (half, _) = try highestQuality(image, chroma: chroma, range: options.minQuality...options.maxQuality,
                                           start: start, maxBytes: maxBytes, encodes: &encodes)
        return half.map { ($0.bytes, $0.quality, chroma) }
    }

    /// Quality steps between two sizes: in the usual range each step changes the size by about 3.5%.
    private static func steps(from size: Double, to target: Int) -> Int {
        let steps = log(size / Double(target)) / 0.035
        return steps >= 0 ? Int(steps.rounded(.up)) : -Int((-steps).rounded(.up))
    }

    /// The highest quality in `range` whose encoding is at most `maxBytes`, and the size of the first encode.
    /// Log bytes is close to linear in quality, so each guess interpolates between the closest quality known
    /// to fit and the closest known not to (or extrapolates from one), and the bracket shrinks every step.
    private func highestQuality(_ image: PixelImage, chroma: JPEGCodec.Chroma, range: ClosedRange<Int>, start: Int,
                                maxBytes: Int, encodes: inout Int) throws
        -> (best: (bytes: [UInt8], quality: Int)?, firstSize: Int?)
    {
        var fits: (quality: Int, bytes: [UInt8])?
        var over: (quality: Int, size: Int)?
        var firstSize: Int?
        var low = range.lowerBound, high = range.upperBound
        var quality = min(high, max(low, start))
        while low <= high {
            let data = try JPEGCodec.encode(image, quality: quality, chroma: chroma)
            encodes += 1
            if firstSize == nil { firstSize = data.count }
            if data.count <= maxBytes {
                fits = (quality, data)
                low = quality + 1
            } else {
                over = (quality, data.count)
                high = quality - 1
            }
            guard low <= high else { break }
            let guess: Int
            if let f = fits, let o = over, o.size > f.bytes.count {
                let t = log(Double(maxBytes) / Double(f.bytes.count)) / log(Double(o.size) / Double(f.bytes.count))
                guess = f.quality + Int((t * Double(o.quality - f.quality)).rounded(.down))
            } else if let o = over {
                guess = o.quality - max(1, Self.steps(from: Double(o.size), to: maxBytes))
            } else if let f = fits {
                guess = f.quality + max(1, -Self.steps(from: Double(f.bytes.count), to: maxBytes) - 1)
            } else {
                guess = (low + high) / 2
            }
            quality = min(high, max(low, guess))
        }
        return (fits.map { ($0.bytes, $0.quality) }, firstSize)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
