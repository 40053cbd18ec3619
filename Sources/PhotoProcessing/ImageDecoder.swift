/// Decodes a JPEG or PNG and turns it upright, for callers that want to look at the pixels (previews, tests).
public enum ImageDecoder {
    /// The image as a viewer shows it: EXIF orientation applied, CMYK and YCCK converted, alpha on white;
    /// if `maxEdge` is given, shrunk (never enlarged) so its longest side is at most that.
    /// - Throws: `PhotoError` for unreadable data or an image over `maxPixels`.
    public static func upright(_ bytes: [UInt8], maxEdge: Int? = nil, maxPixels: Int = 100_000_000) throws
        -> (image: PixelImage, info: ImageInfo, warning: String?)
    {
        let info = try ImageInfo.inspect(bytes)
        try info.checkPixels(maxPixels)
        let edge = min(maxEdge ?? Int.max, max(info.width, info.height))
        let (w, h) = PhotoFitter.size(width: info.width, height: info.height, edge: edge)
        let decoded: (image: PixelImage, warning: String?)
        switch info.format {
        case .png: decoded = try PNGCodec.decode(bytes, maxPixels: maxPixels)
        case .jpeg:
            decoded = try JPEGCodec.decode(
                bytes, scale: JPEGCodec.scale(for: info, width: w, height: h),
                maxPixels: maxPixels)
        }
        let image = decoded.image.downscaled(width: min(w, decoded.image.width), height: min(h, decoded.image.height))
        return (image.oriented(info.orientation), info, decoded.warning)
    }
}

extension JPEGCodec {
    /// The smallest DCT scale (in eighths) whose output is at least twice `width` x `height`: libjpeg's reduced
    /// IDCTs alias a little, and leaving the last halving to the Lanczos filter measurably keeps more detail
    /// (SSIM) at no measurable cost in time.
    static func scale(for info: ImageInfo, width: Int, height: Int) -> Int {
        for m in 1...8 where (info.width * m + 7) / 8 >= 2 * width && (info.height * m + 7) / 8 >= 2 * height {
            return m
        }
        return 8
    }
}
