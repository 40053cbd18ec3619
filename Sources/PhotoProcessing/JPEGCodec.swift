internal import CJPEG

/// JPEG through the system libjpeg-turbo: header reading, DCT-scaled decoding and baseline encoding. This is the
/// JPEG half of `SystemImageCodec`; call it directly only for one step on its own (the fuzz targets do).
/// Every call keeps its state to itself, so calls may run on several threads at once.
public enum JPEGCodec {
    /// Chroma subsampling of an encoded JPEG.
    public enum Chroma: String, Sendable {
        /// Full-resolution colour.
        case full = "4:4:4"
        /// Colour at half resolution both ways; smaller files at the same quality.
        case half = "4:2:0"
    }

    /// Reads the headers: libjpeg checks the frame, the marker walk finds frame type, orientation and metadata.
    public static func inspect(_ bytes: [UInt8]) throws -> ImageInfo {
        var header = vcf_jpeg_header()
        var status = vcf_jpeg_status()
        let result = bytes.withUnsafeBufferPointer { vcf_jpeg_read_header($0.baseAddress, $0.count, &header, &status) }
        try check(result, status)
        let markers = JPEGMarkers(bytes)
        let model: ImageInfo.ColorModel
        switch header.color_space {
        case Int32(VCF_JPEG_GRAY): model = .gray
        case Int32(VCF_JPEG_RGB): model = .rgb
        case Int32(VCF_JPEG_YCBCR): model = .ycbcr
        case Int32(VCF_JPEG_CMYK): model = .cmyk
        case Int32(VCF_JPEG_YCCK): model = .ycck
        default: model = .other
        }
        return ImageInfo(
            format: .jpeg, width: Int(header.width), height: Int(header.height),
            components: Int(header.components), colorModel: model,
            frameType: markers.frameType ?? (header.progressive != 0 ? 2 : 0),
            orientation: markers.orientation, hasMetadata: markers.hasMetadata, hasAlpha: false)
    }

    /// The decoded image scaled by `scale`/8 (1...16) with libjpeg's DCT scaling, gray kept as one channel
    /// and everything else as RGB. Recoverable damage (a truncated scan) is returned in `warning`.
    /// - Throws: `PhotoError` `.tooManyPixels` before decoding when the frame exceeds `maxPixels`, `.corrupt`.
    public static func decode(_ bytes: [UInt8], scale: Int = 8, maxPixels: Int) throws -> (
        image: PixelImage, warning: String?
    ) {
        var status = vcf_jpeg_status()
        var pointer: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var channels: Int32 = 0
        let result = bytes.withUnsafeBufferPointer {
            vcf_jpeg_decode(
                $0.baseAddress, $0.count, Int32(scale), UInt64(max(0, maxPixels)), 1, &pointer, &width,
                &height, &channels, &status)
        }
        try check(result, status)
        guard let pointer else { throw PhotoError(.corrupt, "the JPEG decoder returned no pixels") }
        defer { vcf_free(pointer) }
        let count = Int(width) * Int(height) * Int(channels)
        let pixels = [UInt8](UnsafeBufferPointer(start: pointer, count: count))
        let image = PixelImage(width: Int(width), height: Int(height), channels: Int(channels), pixels: pixels)
        return (image, status.warnings > 0 ? message(status) : nil)
    }

    /// A baseline (SOF0) JPEG with optimized Huffman tables, no metadata but the JFIF header.
    public static func encode(_ image: PixelImage, quality: Int, chroma: Chroma) throws -> [UInt8] {
        var status = vcf_jpeg_status()
        var pointer: UnsafeMutablePointer<UInt8>?
        var size = 0
        let result = image.pixels.withUnsafeBufferPointer {
            vcf_jpeg_encode(
                $0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.channels),
                Int32(quality), chroma == .half ? 1 : 0, &pointer, &size, &status)
        }
        try check(result, status)
        guard let pointer else { throw PhotoError(.corrupt, "the JPEG encoder returned no data") }
        defer { vcf_free(pointer) }
        return [UInt8](UnsafeBufferPointer(start: pointer, count: size))
    }

    /// The frame's stored width and height from its header, read by libjpeg without the marker walk.
    static func frameSize(_ bytes: [UInt8]) throws -> (width: Int, height: Int) {
        var header = vcf_jpeg_header()
        var status = vcf_jpeg_status()
        let result = bytes.withUnsafeBufferPointer { vcf_jpeg_read_header($0.baseAddress, $0.count, &header, &status) }
        try check(result, status)
        return (Int(header.width), Int(header.height))
    }

    /// The smallest DCT scale (in eighths) whose output is at least `minimumWidth` x `minimumHeight`, and full
    /// size (8) when the minimum is the whole frame. libjpeg's output at scale m is ceil(width * m / 8).
    static func scale(width: Int, height: Int, minimumWidth: Int, minimumHeight: Int) -> Int {
        if minimumWidth >= width && minimumHeight >= height { return 8 }
        for m in 1...8 where (width * m + 7) / 8 >= minimumWidth && (height * m + 7) / 8 >= minimumHeight {
            return m
        }
        return 8
    }

    private static func message(_ status: vcf_jpeg_status) -> String { PhotoError.text(ofCString: status.message) }

    /// The one place a libjpeg result code becomes a Swift error.
    private static func check(_ result: Int32, _ status: vcf_jpeg_status) throws {
        switch result {
        case Int32(VCF_JPEG_OK): return
        case Int32(VCF_JPEG_TOO_LARGE): throw PhotoError(.tooManyPixels, "the JPEG is too large: \(message(status))")
        case Int32(VCF_JPEG_NO_MEMORY):
            throw PhotoError(.outOfMemory, "the JPEG could not be decoded: \(message(status))")
        default: throw PhotoError(.corrupt, "the JPEG data is invalid: \(message(status))")
        }
    }
}
