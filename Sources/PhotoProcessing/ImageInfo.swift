/// What an image file holds, read from its headers without decoding the pixels.
public struct ImageInfo: Equatable, Sendable {
    /// The container format.
    public enum Format: String, Sendable {
        case jpeg, png
    }

    /// How the colour is stored.
    public enum ColorModel: String, Sendable {
        case gray, rgb, ycbcr, cmyk, ycck, other
    }

    /// JPEG or PNG.
    public var format: Format
    /// Stored width in pixels (before orientation).
    public var width: Int
    /// Stored height in pixels (before orientation).
    public var height: Int
    /// Colour components (1 gray, 3 colour, 4 CMYK; PNG counts alpha).
    public var components: Int
    /// How the colour is stored.
    public var colorModel: ColorModel
    /// JPEG start-of-frame number: 0 baseline, 1 extended, 2 progressive; nil for PNG.
    public var frameType: Int?
    /// The EXIF orientation, `.up` when absent.
    public var orientation: ExifOrientation
    /// Whether the file carries metadata beyond what decoding needs (EXIF, XMP, ICC, IPTC, comments, PNG text).
    public var hasMetadata: Bool
    /// Whether the image has an alpha channel (PNG only).
    public var hasAlpha: Bool

    /// Whether the JPEG frame is progressive.
    public var isProgressive: Bool { frameType == 2 }

    /// Width as displayed, after orientation.
    public var displayWidth: Int { orientation.swapsAxes ? height : width }
    /// Height as displayed, after orientation.
    public var displayHeight: Int { orientation.swapsAxes ? width : height }
    /// The media type for a vCard or data URI.
    public var mediaType: String { format == .jpeg ? "image/jpeg" : "image/png" }
}

extension ImageInfo {
    /// Reads the headers of a JPEG or PNG file through `codec`.
    /// - Throws: `PhotoError` `.unsupportedFormat` or `.corrupt`.
    public static func inspect(_ bytes: [UInt8], codec: any ImageCodec = SystemImageCodec()) throws -> ImageInfo {
        try codec.inspect(bytes)
    }
}

extension ImageInfo {
    /// Refuses an image whose header claims more than `maxPixels`, before anything is decoded.
    func checkPixels(_ maxPixels: Int) throws {
        guard width * height <= maxPixels else {
            throw PhotoError(
                .tooManyPixels,
                "the image is \(width)x\(height) pixels, over the limit of "
                    + "\(maxPixels) pixels; it was not decoded")
        }
    }
}

/// The markers of a JPEG file up to its first scan, walked without libjpeg.
///
/// libjpeg skips stray bytes between segments; this walk does not. Where it cannot go on (no marker where a
/// segment should start, or a segment shorter than its own length field) it stops and counts the file as
/// holding metadata, so that the photo is re-encoded rather than kept with whatever the rest carries.
struct JPEGMarkers {
    var frameType: Int?
    var orientation: ExifOrientation = .up
    var hasMetadata = false

    init(_ bytes: [UInt8]) {
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else {
                hasMetadata = true
                break
            }
            let marker = bytes[i + 1]
            if marker == 0xFF {
                i += 1
                continue
            }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                i += 2
                continue
            }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2 else {
                hasMetadata = true
                break
            }
            let payload = (i + 4)..<min(bytes.count, i + 2 + length)
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                if frameType == nil { frameType = Int(marker - 0xC0) }
            case 0xE1:
                hasMetadata = true
                if let value = Self.exifOrientation(bytes[payload]) { orientation = value }
            case 0xE2...0xED, 0xEF, 0xFE:  // APP2 ICC .. APP13 IPTC, APP15, COM; APP0 JFIF and APP14 Adobe are format
                hasMetadata = true
            default: break
            }
            if marker == 0xDA || marker == 0xD9 { break }
            i += 2 + length
        }
    }

    /// The orientation tag of an APP1 Exif segment's first IFD.
    static func exifOrientation(_ segment: ArraySlice<UInt8>) -> ExifOrientation? {
        let s = Array(segment)
        guard s.count >= 14, s.starts(with: Array("Exif\0\0".utf8)) else { return nil }
        let tiff = 6
        let little: Bool
        switch (s[tiff], s[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= s.count else { return nil }
            return little ? Int(s[at]) | Int(s[at + 1]) << 8 : Int(s[at]) << 8 | Int(s[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(tiff + 4), let count = u16(tiff + ifd) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = tiff + ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112, let type = u16(at + 2), type == 3, let value = u16(at + 8) {
                return ExifOrientation(rawValue: value)
            }
        }
        return nil
    }
}
