import ContactModel
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// PHOTO: embedded (3.0 `ENCODING=b;TYPE=JPEG`, 2.1 `ENCODING=BASE64`, Apple `PHOTO;BASE64:`, 4.0 `data:`
/// URI) or linked (`VALUE=uri`, a URL). A second photo, or one that does not decode, is kept raw.
struct PhotoScribe: PropertyScribe {
    func read(_ line: RawCard.Line, into context: inout ReadContext) -> Bool {
        guard context.contact.photo == nil, !line.hasGroup else { return false }
        if let photo = Self.embeddedBase64(line) {
            context.contact.photo = photo
            return true
        }
        return read(line.contentLine, into: &context)
    }

    /// The photo `BinaryValue` reads from base64 that decodes strictly (nearly every embedded photo), decoded
    /// from the card's bytes without making a String of the value first; nil for any other value.
    private static func embeddedBase64(_ line: RawCard.Line) -> Photo? {
        let header = ContentLine(name: line.name, parameters: line.parameters, value: "", line: line.line)
        let encoding = header.parameter("ENCODING")?.lowercased()
        guard encoding == "b" || encoding == "base64" else { return nil }
        let value = line.valueBytes
        var start = 0
        while start < value.count && asciiWhitespace.contains(value[start]) { start += 1 }
        let looksLikeDataURI =
            value.count - start >= 5
            && (UnsafeBufferPointer(rebasing: value[start..<start + 5]).elementsEqual("data:".utf8)
                || UnsafeBufferPointer(rebasing: value[start..<start + 5]).elementsEqual("DATA:".utf8))
        guard !looksLikeDataURI, let data = Base64.decode(value) else { return nil }
        let typeParameter = header.parameterValues("TYPE").first { BinaryValue.mediaType(forType: $0) != nil }
        let mediaType = header.parameter("MEDIATYPE") ?? typeParameter.flatMap(BinaryValue.mediaType(forType:))
        return Photo(
            data: data, mediaType: MediaSignature.resolved(mediaType, data: data),
            parameters: BinaryValue.extraParameters(header))
    }

    /// What `trimmingASCIIWhitespace` trims.
    private static let asciiWhitespace: [UInt8] = [0x20, 0x09, 0x0D, 0x0A]

    private func read(_ line: ContentLine, into context: inout ReadContext) -> Bool {
        var decodedStrictly = false
        guard let binary = BinaryValue(line, decodedStrictly: &decodedStrictly) else { return false }
        let extras = BinaryValue.extraParameters(line)
        switch binary {
        case .embedded(let data, let mediaType):
            context.contact.photo = Photo(data: data, mediaType: mediaType, parameters: extras)
        case .link(let uri, let mediaType):
            context.contact.photo = Photo(uri: uri, mediaType: mediaType, parameters: extras)
        case .undecodable:
            return false
        }
        if !decodedStrictly && BinaryValue.needsLenientDecoding(line) {
            context.diagnostics.append(
                Diagnostic(
                    .warning, .invalidBase64,
                    "PHOTO base64 is damaged; the readable part was kept",
                    line: line.line))
        }
        return true
    }

    func write(_ contact: Contact, into context: inout WriteContext) {
        guard let photo = contact.photo else { return }
        if let data = photo.data {
            // The bytes `BinaryValue.contentLine` spells, with the base64 encoded straight into the line: a
            // photo is most of a card's bytes, and a String and a ContentLine of it would copy it twice more.
            let mediaType = MediaSignature.resolved(photo.mediaType, data: data)
            context.builder.start(group: nil, name: "PHOTO")
            if context.version != .v4_0 {
                context.builder.parameter("ENCODING", ["b"])
                if let type = BinaryValue.typeParameter(mediaType) { context.builder.parameter("TYPE", [type]) }
            }
            for extra in photo.parameters { context.builder.parameter(extra.name, extra.values) }
            context.builder.beginValue()
            if context.version == .v4_0 {
                context.builder.appendEscaped("data:\(mediaType ?? "application/octet-stream");base64,")
            }
            context.builder.appendBase64(data)
            context.builder.finish()
            return
        }
        let extras = photo.parameters.map { Parameter(name: $0.name, values: $0.values) }
        if let uri = photo.uri {
            context.append(
                BinaryValue.link(uri, photo.mediaType).contentLine(
                    name: "PHOTO", version: context.version, extraParameters: extras))
        }
    }
}

/// A binary-capable value (PHOTO, LOGO, SOUND, KEY) in any version's spelling. Embedded data that declares
/// no media type (or only `application/octet-stream`) gets the one its bytes name (`MediaSignature`), when
/// read and when written.
enum BinaryValue {
    case embedded(Data, String?)
    case link(String, String?)
    case undecodable

    /// Reads the value; nil when it is neither base64 nor a URI (free text, for instance).
    init?(_ line: ContentLine) {
        var decodedStrictly = false
        self.init(line, decodedStrictly: &decodedStrictly)
    }

    /// Reads the value, and sets `decodedStrictly` when it was base64 that `Base64.decode` took as it stands
    /// (so `needsLenientDecoding` is false without a second pass over the data).
    init?(_ line: ContentLine, decodedStrictly: inout Bool) {
        let encoding = line.parameter("ENCODING")?.lowercased()
        let typeParameter = line.parameterValues("TYPE").first { Self.mediaType(forType: $0) != nil }
        let mediaTypeParameter = line.parameter("MEDIATYPE")
        let value = line.value.trimmingASCIIWhitespace()
        let looksLikeDataURI = value.hasPrefix("data:") || value.hasPrefix("DATA:")
        if (encoding == "b" || encoding == "base64") && !looksLikeDataURI {
            let mediaType = mediaTypeParameter ?? typeParameter.flatMap(Self.mediaType(forType:))
            let strict = Self.decodeBase64(line.value)
            decodedStrictly = strict != nil
            guard let data = strict ?? Self.decodeBase64Leniently(line.value) else {
                self = .undecodable
                return
            }
            self = .embedded(data, MediaSignature.resolved(mediaType, data: data))
            return
        }
        if looksLikeDataURI {
            // Some writers escape the `;` and `,` of a data URI as if it were text.
            let value = ValueEscaping.unescapeText(value)
            guard let (data, mediaType) = Self.decodeDataURI(value) else {
                self = .undecodable
                return
            }
            // A data URI that names no type (`data:base64,...`) takes the one the parameters give.
            let declared = mediaType ?? mediaTypeParameter ?? typeParameter.flatMap(Self.mediaType(forType:))
            self = .embedded(data, MediaSignature.resolved(declared, data: data))
            return
        }
        let valueType = line.parameter("VALUE")?.lowercased()
        // A link says so (VALUE=uri, 2.1's VALUE=URL) or starts with a scheme; a value another VALUE names
        // (KEY;VALUE=text in 4.0) is not one.
        if valueType == "uri" || valueType == "url" || (valueType == nil && TelephoneValue.hasScheme(value)) {
            self = .link(
                ValueEscaping.unescapeText(value),
                mediaTypeParameter ?? typeParameter.flatMap(Self.mediaType(forType:)))
            return
        }
        return nil
    }

    /// Whether the value claimed base64 but holds none.
    var isUndecodable: Bool {
        if case .undecodable = self { return true }
        return false
    }

    /// The content line for this value in `version`'s spelling.
    func contentLine(
        name: String, version: VCardVersion, group: String? = nil,
        extraParameters: [Parameter] = []
    ) -> ContentLine {
        switch self {
        case .embedded(let data, let declared):
            // A value made in memory (Contact JSON, CSV) may name no type; its bytes still say what it is.
            let mediaType = MediaSignature.resolved(declared, data: data)
            var encoded: [UInt8] = []
            Base64.encode(data, into: &encoded)
            let base64 = String(decoding: encoded, as: UTF8.self)
            if version == .v4_0 {
                let uri = "data:\(mediaType ?? "application/octet-stream");base64,\(base64)"
                return ContentLine(group: group, name: name, parameters: extraParameters, value: uri)
            }
            var parameters = [Parameter("ENCODING", "b")]
            if let type = Self.typeParameter(mediaType) { parameters.append(Parameter("TYPE", type)) }
            return ContentLine(group: group, name: name, parameters: parameters + extraParameters, value: base64)
        case .link(let uri, let mediaType):
            var parameters: [Parameter] = []
            if version == .v4_0 {
                if let mediaType { parameters.append(Parameter("MEDIATYPE", mediaType)) }
            } else {
                parameters.append(Parameter("VALUE", "uri"))
                if let type = Self.typeParameter(mediaType) { parameters.append(Parameter("TYPE", type)) }
            }
            // Read with escapes undone (`http\://`), so a backslash that would read as one is written doubled.
            return ContentLine(
                group: group, name: name, parameters: parameters + extraParameters,
                value: ValueEscaping.protectingBackslashes(uri))
        case .undecodable:
            return ContentLine(group: group, name: name, parameters: extraParameters, value: "")
        }
    }

    /// Parameters other than those that spell the encoding and media type.
    static func extraParameters(_ line: ContentLine) -> [ExtraParameter] {
        var extras: [ExtraParameter] = []
        for parameter in line.parameters {
            switch parameter.name {
            case "ENCODING", "VALUE", "MEDIATYPE": continue
            case "TYPE":
                let kept = parameter.values.filter { mediaType(forType: $0) == nil }
                if !kept.isEmpty { extras.append(ExtraParameter(name: "TYPE", values: kept)) }
            default: extras.append(ExtraParameter(parameter))
            }
        }
        return extras
    }

    static func decodeBase64(_ text: String) -> Data? {
        var text = text
        return text.withUTF8 { Base64.decode($0) }
    }

    /// Base64 as damaged files hold it (see `Base64.decodeLeniently`).
    static func decodeBase64Leniently(_ text: String) -> Data? {
        var text = text
        return text.withUTF8 { Base64.decodeLeniently($0) }
    }

    /// Whether the value decodes only leniently (so a warning is due).
    static func needsLenientDecoding(_ line: ContentLine) -> Bool {
        let encoding = line.parameter("ENCODING")?.lowercased()
        guard encoding == "b" || encoding == "base64", !line.value.hasPrefix("data:") else { return false }
        var value = line.value
        return !value.withUTF8 { Base64.isValid($0) }
    }

    static func decodeDataURI(_ uri: String) -> (Data, String?)? {
        guard let comma = uri.firstIndex(of: ",") else { return nil }
        let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma]
        let payload = String(uri[uri.index(after: comma)...])
        let parts = header.split(separator: ";").map(String.init)
        let mediaType = parts.first.flatMap { $0.contains("/") ? $0.lowercased() : nil }
        if parts.contains(where: { $0.lowercased() == "base64" }) {
            guard let data = decodeBase64(payload) else { return nil }
            return (data, mediaType)
        }
        guard let decoded = payload.removingPercentEncoding else { return nil }
        return (Data(decoded.utf8), mediaType)
    }

    /// `JPEG` -> `image/jpeg`; nil for TYPE values that are not image, sound or key formats.
    static func mediaType(forType type: String) -> String? {
        let upper = type.uppercased()
        if upper.contains("/") { return type.lowercased() }
        switch upper {
        case "JPEG", "JPG": return "image/jpeg"
        case "PNG": return "image/png"
        case "GIF": return "image/gif"
        case "BMP": return "image/bmp"
        case "TIFF": return "image/tiff"
        case "HEIC": return "image/heic"
        case "WEBP": return "image/webp"
        case "WAVE", "WAV": return "audio/wav"
        case "PGP": return "application/pgp-keys"
        case "X509": return "application/pkix-cert"
        default: return nil
        }
    }

    /// The 3.0 TYPE for a media type, or nil when there is none or it says nothing: `application/octet-stream`
    /// is what a 4.0 data URI without a type means, so writing it as `TYPE=OCTET-STREAM` would make the next
    /// 4.0 write add a TYPE the card never had.
    static func typeParameter(_ mediaType: String?) -> String? {
        guard let mediaType, mediaType.lowercased() != "application/octet-stream" else { return nil }
        return type(forMediaType: mediaType)
    }

    /// `image/jpeg` -> `JPEG`, the 3.0 TYPE spelling.
    static func type(forMediaType mediaType: String) -> String {
        switch mediaType.lowercased() {
        case "image/jpeg", "image/jpg": return "JPEG"
        case "audio/wav": return "WAVE"
        case "application/pgp-keys": return "PGP"
        case "application/pkix-cert": return "X509"
        default:
            let subtype = mediaType.split(separator: "/").last.map(String.init) ?? mediaType
            return subtype.uppercased()
        }
    }
}
