import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The image formats contact photos come in, told apart by their first bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, bmp, tiff, webp, heic, avif

    /// The name as a message shows it.
    public var name: String { rawValue.uppercased() }

    /// The 3.0 TYPE value for the format.
    public var typeValue: String { name }

    /// The media type for the format.
    public var mediaType: String { "image/\(rawValue)" }

    /// The format of `data`, from its magic number.
    public init?(sniffing data: Data) {
        let b = [UInt8](data.prefix(16))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + magic.count && Array(b[offset..<(offset + magic.count)]) == magic
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("BM".utf8)) && b.count >= 14 {
            self = .bmp
        } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            self = .tiff
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts(Array("ftyp".utf8), at: 4) {
            let brand = b.count >= 12 ? String(decoding: b[8..<12], as: UTF8.self) : ""
            switch brand {
            case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1": self = .heic
            case "avif", "avis": self = .avif
            default: return nil
            }
        } else {
            return nil
        }
    }

    /// The format a TYPE value (`JPEG`) or media type (`image/jpeg`) names; nil for anything else.
    public init?(declared: String) {
        var name = declared.lowercased().trimmingASCIIWhitespace()
        if name.hasPrefix("image/") { name.removeFirst(6) } else if name.contains("/") { return nil }
        switch name {
        case "jpeg", "jpg", "pjpeg": self = .jpeg
        case "png", "x-png": self = .png
        case "gif": self = .gif
        case "bmp", "x-bmp", "x-ms-bmp": self = .bmp
        case "tiff", "tif": self = .tiff
        case "webp": self = .webp
        case "heic", "heif": self = .heic
        case "avif": self = .avif
        default: return nil
        }
    }
}

/// The media type a binary value's own bytes name: an image format above, or one of the sound formats contact
/// cards carry (WAV, Ogg, MP3, AAC in MP4). Used where a card declares no type, or only
/// `application/octet-stream`, so that 4.0 output does not call a JPEG an octet stream.
public enum MediaSignature {
    /// The media type of `data`, or nil when its first bytes name no format we know.
    public static func mediaType(of data: Data) -> String? {
        if let image = ImageFormat(sniffing: data) { return image.mediaType }
        let b = [UInt8](data.prefix(12))
        func starts(_ magic: String, at offset: Int = 0) -> Bool {
            let m = Array(magic.utf8)
            return b.count >= offset + m.count && Array(b[offset..<(offset + m.count)]) == m
        }
        if starts("RIFF") && starts("WAVE", at: 8) { return "audio/wav" }
        if starts("OggS") { return "audio/ogg" }
        if starts("ID3") || (b.count >= 2 && b[0] == 0xFF && b[1] & 0xE0 == 0xE0) { return "audio/mpeg" }
        if starts("ftyp", at: 4) && (starts("M4A ", at: 8) || starts("M4B ", at: 8)) { return "audio/mp4" }
        return nil
    }

    /// The declared media type, or the one the bytes name when none (or `application/octet-stream`, which
    /// says only that nobody named one) was declared.
    public static func resolved(_ declared: String?, data: Data) -> String? {
        guard declared == nil || declared?.lowercased() == "application/octet-stream" else { return declared }
        return mediaType(of: data) ?? declared
    }
}
