/// Makes a photo fit a byte budget as a baseline JPEG of the best quality that fits: upright, no metadata, at
/// most `maxEdge` pixels on its longest side, never enlarged. Deterministic for the same input and options.
///
/// The search is Swift; the pixels are read and written by an `ImageCodec` (`SystemImageCodec` unless told).
public struct PhotoFitter: Sendable {
    /// Bounds and preferences of a fit.
    public struct Options: Equatable, Sendable {
        /// Longest edge of the output in pixels.
        public var maxEdge: Int = 1024
        /// The output is never made smaller than this on its longest edge (unless the input is).
        public var minEdge: Int = 32
        /// Below this quality a smaller image is tried too, and kept when it looks better (by SSIM).
        public var minQuality: Int = 40
        /// Quality is never lowered below this. Equal to `minQuality`, the image is always made smaller instead.
        public var lowestQuality: Int = 10
        /// Quality is not raised above this.
        public var maxQuality: Int = 100
        /// Full-resolution colour is chosen when it fits at this quality or better; below it 4:2:0 looks better
        /// for the same bytes.
        public var fullChromaQuality: Int = 90
        /// Images with more pixels are refused before decoding.
        public var maxPixels: Int = 100_000_000

        /// The defaults: 1024 px, quality 40 to 100 (10 when it looks better than shrinking), 100 megapixels.
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
    /// What reads and writes the pixels.
    public var codec: any ImageCodec

    /// Creates a fitter that reads and writes images through `codec`.
    public init(options: Options = Options(), codec: any ImageCodec = SystemImageCodec()) {
        self.options = options
        self.codec = codec
    }

    /// The best JPEG of at most `maxBytes` bytes for the image in `bytes` (JPEG or PNG).
    /// - Throws: `PhotoError`: unreadable input, too many pixels, or `.doesNotFit` when even the smallest allowed
    ///   image at the lowest allowed quality is over `maxBytes`.
    public func fit(_ bytes: [UInt8], maxBytes: Int) throws -> Result {
        let info = try codec.inspect(bytes)
        try info.checkPixels(options.maxPixels)
        if canKeep(info, byteCount: bytes.count, maxBytes: maxBytes) {
            return Result(
                bytes: bytes, source: info, width: info.width, height: info.height, quality: nil,
                chroma: nil, keptOriginal: true, encodes: 0, warning: nil)
        }
        let longest = max(info.width, info.height)
        let fullEdge = min(options.maxEdge, longest)
        let (decoded, warning) = try decode(bytes, info: info, edge: fullEdge, maxBytes: maxBytes)
        var encodes = 0
        let full = scaled(decoded, info: info, edge: fullEdge)
        func result(_ found: Candidate) -> Result {
            Result(
                bytes: found.bytes, source: info, width: found.image.width, height: found.image.height,
                quality: found.quality, chroma: found.chroma, keptOriginal: false, encodes: encodes,
                warning: warning)
        }
        if let found = try search(
            full, qualities: options.minQuality...options.maxQuality, maxBytes: maxBytes,
            encodes: &encodes)
        {
            return result(found)
        }
        // Below the quality floor at full size there are two ways down: a smaller image at the floor, or the
        // full-size image at a lower quality. Which looks better depends on the picture (fine texture such as a
        // star field survives low quality better than shrinking), so both, and a size between, are scored by
        // SSIM against the full-size image.
        let smaller = try shrinkToFloor(full, info: info, edge: fullEdge, maxBytes: maxBytes, encodes: &encodes)
        var candidates: [Candidate] = []
        if let smaller = smaller.found { candidates.append(smaller) }
        if options.lowestQuality < options.minQuality {
            let lower = options.lowestQuality...(options.minQuality - 1)
            if let found = try search(full, qualities: lower, maxBytes: maxBytes, encodes: &encodes) {
                candidates.append(found)
            }
            if let smallerEdge = smaller.found.map({ max($0.image.width, $0.image.height) }), candidates.count == 2 {
                let between = Int((Double(smallerEdge) * Double(fullEdge)).squareRoot().rounded())
                if between > smallerEdge && between < fullEdge,
                    let found = try search(
                        Self.shrunk(full, edge: between),
                        qualities: options.lowestQuality...options.maxQuality, maxBytes: maxBytes,
                        encodes: &encodes)
                {
                    candidates.append(found)
                }
            }
        }
        if candidates.count == 1 { return result(candidates[0]) }
        var best: (candidate: Candidate, score: Double)?
        for candidate in candidates {
            let score = Self.compare(
                try codec.decodeJPEG(
                    candidate.bytes, minimumWidth: candidate.image.width, minimumHeight: candidate.image.height,
                    maxPixels: options.maxPixels
                )
                .image, to: full)
            if best == nil || score > best!.score { best = (candidate, score) }
        }
        if let best { return result(best.candidate) }
        let tried =
            smaller.smallest.map { " (\($0.edge) px at quality \(options.lowestQuality) takes \($0.bytes) bytes)" }
            ?? ""
        throw PhotoError(.doesNotFit, "the photo cannot be made to fit in \(maxBytes) bytes\(tried)")
    }

    /// How much `shown` (any size, same aspect) looks like `reference`: SSIM after resampling `shown` to the
    /// reference size, as a viewer showing both at the same size would.
    package static func compare(_ shown: PixelImage, to reference: PixelImage) -> Double {
        shown.resampled(width: reference.width, height: reference.height).structuralSimilarity(to: reference)
    }

    /// One encoding that fits, with the image it encodes.
    private struct Candidate {
        var image: PixelImage
        var bytes: [UInt8]
        var quality: Int
        var chroma: JPEGCodec.Chroma
    }

    /// Steps the edge down from the full-size image until the image fits at the quality floor (the smallest allowed edge
    /// may go down to the lowest quality); with the smallest size tried for the error when nothing fits.
    private func shrinkToFloor(
        _ full: PixelImage, info: ImageInfo, edge fullEdge: Int, maxBytes: Int,
        encodes: inout Int
    ) throws
        -> (found: Candidate?, smallest: (edge: Int, bytes: Int)?)
    {
        let longest = max(info.width, info.height)
        let floorEdge = min(options.minEdge, longest)
        var edge = fullEdge
        var image = full
        while true {
            let atFloor = try codec.encodeJPEG(
                image, quality: options.minQuality, chroma: image.channels == 3 ? .half : .full)
            encodes += 1
            if edge <= floorEdge {
                let last = try search(
                    image, qualities: options.lowestQuality...options.maxQuality, maxBytes: maxBytes,
                    encodes: &encodes)
                if last != nil { return (last, nil) }
                let lowest = try codec.encodeJPEG(
                    image, quality: options.lowestQuality,
                    chroma: image.channels == 3 ? .half : .full)
                encodes += 1
                return (nil, (edge, lowest.count))
            }
            // Bytes grow roughly with the pixel count: aim a little under the budget to land in one step.
            let ratio = (Double(maxBytes) / Double(atFloor.count)).squareRoot() * 0.95
            edge = max(floorEdge, min(edge - 1, Int(Double(edge) * min(ratio, 0.9))))
            image = Self.shrunk(full, edge: edge)
            if let found = try search(
                image, qualities: options.minQuality...options.maxQuality, maxBytes: maxBytes,
                encodes: &encodes)
            {
                return (found, nil)
            }
        }
    }

    /// Already fitting, baseline, upright, free of metadata, within the edge: re-encoding would only lose quality.
    private func canKeep(_ info: ImageInfo, byteCount: Int, maxBytes: Int) -> Bool {
        info.format == .jpeg && byteCount <= maxBytes && info.frameType == 0 && info.orientation == .up
            && !info.hasMetadata && (info.colorModel == .ycbcr || info.colorModel == .gray)
            && max(info.width, info.height) <= options.maxEdge
    }

    /// Bytes per output pixel from which a JPEG is decoded at full size rather than with a reduced IDCT.
    static let fullDecodeBytesPerPixel = 0.2

    /// Decodes once: at the smallest size the codec offers of at least twice the target, or at full size when
    /// half size would do and the budget is generous enough to keep fine detail.
    private func decode(_ bytes: [UInt8], info: ImageInfo, edge: Int, maxBytes: Int) throws -> (PixelImage, String?) {
        switch info.format {
        case .png:
            return try codec.decodePNG(bytes, maxPixels: options.maxPixels)
        case .jpeg:
            let (targetWidth, targetHeight) = Self.size(width: info.width, height: info.height, edge: edge)
            // The small reduced IDCTs (half size or less) lose detail that quantisation at a small budget would
            // lose anyway, but that a generous one keeps (measured: SSIM 0.9982 against 0.9986 at quality 100
            // for a 12 MP photo shrunk to 512 px). Full size costs two to three times the time, so only budgets
            // that can show the difference pay for it.
            let halfSizeWouldDo = (info.width + 1) / 2 >= 2 * targetWidth && (info.height + 1) / 2 >= 2 * targetHeight
            let generous = Double(maxBytes) >= Self.fullDecodeBytesPerPixel * Double(targetWidth * targetHeight)
            let (minimumWidth, minimumHeight) =
                generous && halfSizeWouldDo ? (info.width, info.height) : (2 * targetWidth, 2 * targetHeight)
            return try codec.decodeJPEG(
                bytes, minimumWidth: minimumWidth, minimumHeight: minimumHeight, maxPixels: options.maxPixels)
        }
    }

    /// The upright full-size image shrunk to `edge` on its longest side: smaller sizes are made from it rather
    /// than from the decoded image, which is several times larger and would cost a full filter pass each time.
    private static func shrunk(_ full: PixelImage, edge: Int) -> PixelImage {
        let (w, h) = size(width: full.width, height: full.height, edge: edge)
        return full.downscaled(width: w, height: h)
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
    private func search(_ image: PixelImage, qualities: ClosedRange<Int>, maxBytes: Int, encodes: inout Int) throws
        -> Candidate?
    {
        var start = min(75, qualities.upperBound)
        if image.channels == 3 && qualities.contains(options.fullChromaQuality) {
            // One encode at the threshold decides whether full-resolution colour is in reach at all.
            let threshold = options.fullChromaQuality
            let (full, firstSize) = try highestQuality(
                image, chroma: .full, range: threshold...options.maxQuality,
                start: threshold, maxBytes: maxBytes, encodes: &encodes)
            if let full { return Candidate(image: image, bytes: full.bytes, quality: full.quality, chroma: .full) }
            // 4:2:0 is about 0.7 of the 4:4:4 size at the same quality: start the search where that predicts.
            if let firstSize { start = threshold - Self.steps(from: Double(firstSize) * 0.7, to: maxBytes) }
        }
        let chroma: JPEGCodec.Chroma = image.channels == 3 ? .half : .full
        let (half, _) = try highestQuality(
            image, chroma: chroma, range: qualities, start: start, maxBytes: maxBytes,
            encodes: &encodes)
        return half.map { Candidate(image: image, bytes: $0.bytes, quality: $0.quality, chroma: chroma) }
    }

    /// Quality steps between two sizes: in the usual range each step changes the size by about 3.5%.
    private static func steps(from size: Double, to target: Int) -> Int {
        let steps = log(size / Double(target)) / 0.035
        return steps >= 0 ? Int(steps.rounded(.up)) : -Int((-steps).rounded(.up))
    }

    /// The highest quality in `range` whose encoding is at most `maxBytes`, and the size of the first encode.
    /// Log bytes is close to linear in quality, so each guess interpolates between the closest quality known
    /// to fit and the closest known not to (or extrapolates from one), and the bracket shrinks every step.
    private func highestQuality(
        _ image: PixelImage, chroma: JPEGCodec.Chroma, range: ClosedRange<Int>, start: Int,
        maxBytes: Int, encodes: inout Int
    ) throws
        -> (best: (bytes: [UInt8], quality: Int)?, firstSize: Int?)
    {
        var fits: (quality: Int, bytes: [UInt8])?
        var over: (quality: Int, size: Int)?
        var firstSize: Int?
        var low = range.lowerBound
        var high = range.upperBound
        var quality = min(high, max(low, start))
        while low <= high {
            let data = try codec.encodeJPEG(image, quality: quality, chroma: chroma)
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
