/// Decodes a JPEG or PNG and turns it upright, for callers that want to look at the pixels (previews, tests).
public enum ImageDecoder {
    /// The image as a viewer shows it: EXIF orientation applied, CMYK and YCCK converted, alpha on white;
    /// if `maxEdge` is given, shrunk (never enlarged) so its longest side is at most that.
    /// - Throws: `PhotoError` for unreadable data or an image over `maxPixels`.
    public static func upright(
        _ bytes: [UInt8], maxEdge: Int? = nil, maxPixels: Int = 100_000_000,
        codec: any ImageCodec = SystemImageCodec()
    ) throws -> (image: PixelImage, info: ImageInfo, warning: String?) {
        let info = try codec.inspect(bytes)
        try info.checkPixels(maxPixels)
        let edge = min(maxEdge ?? Int.max, max(info.width, info.height))
        let (w, h) = PhotoFitter.size(width: info.width, height: info.height, edge: edge)
        let decoded: (image: PixelImage, warning: String?)
        switch info.format {
        case .png: decoded = try codec.decodePNG(bytes, maxPixels: maxPixels)
        case .jpeg:
            // At least twice the target: libjpeg's reduced IDCTs alias a little, and leaving the last halving to
            // the Lanczos filter measurably keeps more detail (SSIM) at no measurable cost in time.
            decoded = try codec.decodeJPEG(bytes, minimumWidth: 2 * w, minimumHeight: 2 * h, maxPixels: maxPixels)
        }
        let image = decoded.image.downscaled(width: min(w, decoded.image.width), height: min(h, decoded.image.height))
        return (image.oriented(info.orientation), info, decoded.warning)
    }
}
