internal import CPNG

/// PNG through the system libpng's simplified API; alpha is composited on white. This is the PNG half of
/// `SystemImageCodec`; call it directly only for one step on its own (the fuzz targets do).
public enum PNGCodec {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the header: size, colour and alpha.
    public static func inspect(_ bytes: [UInt8]) throws -> ImageInfo {
        var status = vcf_png_status()
        var width: Int32 = 0
        var height: Int32 = 0
        var alpha: Int32 = 0
        var color: Int32 = 0
        let result = bytes.withUnsafeBufferPointer {
            vcf_png_read_header($0.baseAddress, $0.count, &width, &height, &alpha, &color, &status)
        }
        try check(result, status)
        let components = (color != 0 ? 3 : 1) + (alpha != 0 ? 1 : 0)
        return ImageInfo(
            format: .png, width: Int(width), height: Int(height), components: components,
            colorModel: color != 0 ? .rgb : .gray, frameType: nil, orientation: .up,
            hasMetadata: hasTextChunks(bytes), hasAlpha: alpha != 0)
    }

    /// The decoded image: gray stays one channel, colour is RGB, alpha composited on white.
    /// - Throws: `PhotoError` `.tooManyPixels` before decoding when the header exceeds `maxPixels`, `.corrupt`.
    public static func decode(_ bytes: [UInt8], maxPixels: Int) throws -> (image: PixelImage, warning: String?) {
        var status = vcf_png_status()
        var pointer: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var channels: Int32 = 0
        let result = bytes.withUnsafeBufferPointer {
            vcf_png_decode(
                $0.baseAddress, $0.count, UInt64(max(0, maxPixels)), 1, &pointer, &width, &height,
                &channels, &status)
        }
        try check(result, status)
        guard let pointer else { throw PhotoError(.corrupt, "the PNG decoder returned no pixels") }
        defer { vcf_png_free(pointer) }
        let count = Int(width) * Int(height) * Int(channels)
        let image = PixelImage(
            width: Int(width), height: Int(height), channels: Int(channels),
            pixels: [UInt8](UnsafeBufferPointer(start: pointer, count: count)))
        return (image, status.warnings > 0 ? message(status) : nil)
    }

    /// Whether any tEXt, zTXt, iTXt, eXIf or iCCP chunk is present.
    private static func hasTextChunks(_ bytes: [UInt8]) -> Bool {
        var i = 8
        while i + 8 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            if ["tEXt", "zTXt", "iTXt", "eXIf", "iCCP"].contains(type) { return true }
            if type == "IDAT" || type == "IEND" { return false }
            i += 12 + length
        }
        return false
    }

    private static func message(_ status: vcf_png_status) -> String { PhotoError.text(ofCString: status.message) }

    /// The one place a libpng result code becomes a Swift error.
    private static func check(_ result: Int32, _ status: vcf_png_status) throws {
        switch result {
        case Int32(VCF_PNG_OK): return
        case Int32(VCF_PNG_TOO_LARGE): throw PhotoError(.tooManyPixels, "the PNG is too large: \(message(status))")
        case Int32(VCF_PNG_NO_MEMORY):
            throw PhotoError(.outOfMemory, "the PNG could not be decoded: \(message(status))")
        default: throw PhotoError(.corrupt, "the PNG data is invalid: \(message(status))")
        }
    }
}
