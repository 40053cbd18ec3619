/// The image work a photo fit needs from a library: read headers, decode JPEG and PNG, encode baseline JPEG.
///
/// `PhotoFitter`, `ImageDecoder` and `ImageInfo.inspect(_:codec:)` reach pixels only through this protocol, so a
/// codec over another library (ImageIO on Apple platforms, say) can be added without touching them. The one
/// shipped is `SystemImageCodec` (libjpeg-turbo and libpng); the fitter's search, resampling and similarity
/// scoring are pure Swift.
///
/// Every requirement refuses an image whose header claims more than `maxPixels` before allocating for it, and
/// throws `PhotoError` (`.corrupt`, `.tooManyPixels`, `.outOfMemory`) rather than crashing on bad data.
public protocol ImageCodec: Sendable {
    /// A JPEG's headers without decoding: size, colour model, frame type, EXIF orientation, metadata.
    func inspectJPEG(_ bytes: [UInt8]) throws -> ImageInfo

    /// A PNG's headers without decoding: size, colour, alpha, metadata chunks.
    func inspectPNG(_ bytes: [UInt8]) throws -> ImageInfo

    /// The JPEG's pixels as stored (orientation not applied): gray as one channel, everything else as RGB.
    ///
    /// The codec may decode at a reduced size (libjpeg's DCT scaling) as long as the result is at least
    /// `minimumWidth` x `minimumHeight`, or full size when that is smaller; the fitter shrinks it further with its
    /// own filter. Recoverable damage (a truncated scan) is returned in `warning`.
    func decodeJPEG(_ bytes: [UInt8], minimumWidth: Int, minimumHeight: Int, maxPixels: Int) throws -> (
        image: PixelImage, warning: String?
    )

    /// The PNG's pixels: gray as one channel, colour as RGB, any alpha composited over white.
    func decodePNG(_ bytes: [UInt8], maxPixels: Int) throws -> (image: PixelImage, warning: String?)

    /// A baseline (SOF0) JPEG of `image` at `quality` (1...100) with the given chroma subsampling and no
    /// metadata beyond the JFIF header. The same input must give the same bytes, so fits are deterministic.
    func encodeJPEG(_ image: PixelImage, quality: Int, chroma: JPEGCodec.Chroma) throws -> [UInt8]
}

extension ImageCodec {
    /// The headers of a JPEG or PNG, told apart by their signatures.
    /// - Throws: `PhotoError` `.unsupportedFormat` for anything else, `.corrupt` for a damaged header.
    public func inspect(_ bytes: [UInt8]) throws -> ImageInfo {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try inspectJPEG(bytes) }
        if bytes.starts(with: PNGCodec.signature) { return try inspectPNG(bytes) }
        throw PhotoError(
            .unsupportedFormat, "the image is neither JPEG nor PNG (it does not start with either signature)")
    }
}

/// JPEG through the system's libjpeg-turbo and PNG through its libpng (pkg-config `libjpeg` and `libpng`): the
/// codec on Linux and on macOS with Homebrew's libraries. Calls share no state and may run on several threads.
public struct SystemImageCodec: ImageCodec {
    /// Creates the codec; it holds nothing.
    public init() {}

    public func inspectJPEG(_ bytes: [UInt8]) throws -> ImageInfo { try JPEGCodec.inspect(bytes) }

    public func inspectPNG(_ bytes: [UInt8]) throws -> ImageInfo { try PNGCodec.inspect(bytes) }

    public func decodeJPEG(_ bytes: [UInt8], minimumWidth: Int, minimumHeight: Int, maxPixels: Int) throws -> (
        image: PixelImage, warning: String?
    ) {
        let header = try JPEGCodec.frameSize(bytes)
        let scale = JPEGCodec.scale(
            width: header.width, height: header.height, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        return try JPEGCodec.decode(bytes, scale: scale, maxPixels: maxPixels)
    }

    public func decodePNG(_ bytes: [UInt8], maxPixels: Int) throws -> (image: PixelImage, warning: String?) {
        try PNGCodec.decode(bytes, maxPixels: maxPixels)
    }

    public func encodeJPEG(_ image: PixelImage, quality: Int, chroma: JPEGCodec.Chroma) throws -> [UInt8] {
        try JPEGCodec.encode(image, quality: quality, chroma: chroma)
    }
}
