import VCardFormat
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Embedded data (PHOTO, LOGO, SOUND, KEY): base64 that decodes, and for PHOTO and LOGO image bytes that
/// are an image of the declared type.
///
/// Base64 that does not decode at all is an error (readers drop the property); base64 with stray
/// characters decodes leniently and is a warning. The image type is read from the first bytes (JPEG
/// `FF D8 FF`, PNG, GIF, BMP, TIFF, WebP, HEIC/AVIF) and compared with `TYPE` (3.0, 2.1), `MEDIATYPE` or
/// the data URI's type (4.0): a different one is an error, because readers that trust the type fail to
/// show the photo; bytes that are no image format at all are a warning.
struct EmbeddedBinaryRule: CardRule {
    static let binaryProperties: Set<String> = ["PHOTO", "LOGO", "SOUND", "KEY"]
    static let imageProperties: Set<String> = ["PHOTO", "LOGO"]

    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        for line in card.lines where Self.binaryProperties.contains(line.name) {
            guard let embedded = EmbeddedData(line) else { continue }
            let column = context.source.valueColumn(ofLine: line.line)
            switch embedded.decoding {
            case .undecodable:
                findings.append(
                    finding(
                        .error, .invalidBase64, BinaryMessages.undecodable(line.name),
                        line: line.line, column: column))
                continue
            case .damaged:
                findings.append(
                    finding(
                        .warning, .invalidBase64, BinaryMessages.damaged(line.name),
                        line: line.line, column: column))
            case .clean: break
            }
            guard Self.imageProperties.contains(line.name), let data = embedded.data, !data.isEmpty else { continue }
            guard let actual = ImageFormat(sniffing: data) else {
                findings.append(
                    finding(
                        .warning, .unknownImage, BinaryMessages.unknownImage(line.name),
                        line: line.line, column: column))
                continue
            }
            if let declared = embedded.declaredType, let declaredFormat = ImageFormat(declared: declared),
                declaredFormat != actual
            {
                findings.append(
                    finding(
                        .error, .imageTypeMismatch,
                        BinaryMessages.mismatch(line.name, declared: declaredFormat, actual: actual),
                        line: line.line, column: column))
            }
        }
    }
}

extension DiagnosticCode {
    /// Embedded image bytes are of another format than the declared one.
    public static let imageTypeMismatch: Self = "image-type-mismatch"
    /// Embedded PHOTO or LOGO bytes are no known image format.
    public static let unknownImage: Self = "unknown-image"
}

enum BinaryMessages {
    static func undecodable(_ name: String) -> String {
        "\(name) claims base64 but does not decode; readers drop it"
    }

    static func damaged(_ name: String) -> String {
        "\(name) base64 holds characters outside the alphabet; only a lenient reader recovers it"
    }

    static func unknownImage(_ name: String) -> String {
        "\(name) data is not a JPEG, PNG, GIF, BMP, TIFF, WebP or HEIC image"
    }

    static func mismatch(_ name: String, declared: ImageFormat, actual: ImageFormat) -> String {
        "\(name) is declared \(declared.name) but the data is \(actual.name)"
    }
}

/// The data a binary-capable line embeds, as any version spells it.
struct EmbeddedData {
    enum Decoding { case clean, damaged, undecodable }

    var decoding: Decoding
    var data: Data?
    /// The type the line declares: a TYPE value, MEDIATYPE or the data URI's media type.
    var declaredType: String?

    /// Nil when the line does not embed data (a link, or text).
    init?(_ line: ContentLine) {
        let encoding = line.parameter("ENCODING")?.lowercased()
        let value = line.value.trimmingASCIIWhitespace()
        let isDataURI = value.lowercased().hasPrefix("data:")
        let typeParameter = line.parameterValues("TYPE").first { ImageFormat(declared: $0) != nil }
        var payload: String
        if isDataURI {
            // Some writers escape the `;` and `,` of a data URI as if it were text.
            let uri = ValueEscaping.unescapeText(value)
            guard let comma = uri.firstIndex(of: ",") else {
                decoding = .undecodable
                data = nil
                declaredType = nil
                return
            }
            let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma].split(separator: ";")
            declaredType = header.first.flatMap { $0.contains("/") ? String($0) : nil } ?? line.parameter("MEDIATYPE")
            guard header.contains(where: { $0.lowercased() == "base64" }) else {
                decoding = .clean
                data = nil
                return
            }
            payload = String(uri[uri.index(after: comma)...])
        } else if encoding == "b" || encoding == "base64" {
            declaredType = line.parameter("MEDIATYPE") ?? typeParameter
            payload = value
        } else {
            return nil
        }
        if let clean = payload.withUTF8({ Base64.decode($0) }) {
            decoding = .clean
            data = clean
        } else if let lenient = payload.withUTF8({ Base64.decodeLeniently($0) }) {
            decoding = .damaged
            data = lenient
        } else {
            decoding = .undecodable
            data = nil
        }
    }
}
