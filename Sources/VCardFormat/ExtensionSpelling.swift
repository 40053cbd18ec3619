import ContactModel
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How properties the model keeps raw (`Contact.extensions`) are spelled in each version, for those whose
/// spelling the versions disagree on. The model holds one spelling, 3.0's, whatever the source version, so a
/// card reads to the same model before and after a conversion; the writer spells it for the version it writes.
///
/// | property | 3.0 (and the model) | 4.0 |
/// | --- | --- | --- |
/// | GEO | `45.0;-87.3` | `geo:45.0,-87.3` (RFC 6350 6.5.2) |
/// | PHOTO, LOGO, SOUND, KEY link | `VALUE=uri;TYPE=GIF` | `MEDIATYPE=image/gif`, no VALUE |
/// | PHOTO, LOGO, SOUND text that is no URI | as written | inline data if it is base64, else `X-PHOTO`... |
/// | AGENT | the nested card as 3.0 text | `RELATED;TYPE=agent` with a `data:text/vcard` URI or the link |
/// | PROFILE:VCARD | kept | left out (RFC 6350 removed it) |
/// | LABEL | a property | the `LABEL` parameter of the ADR with the same types |
enum ExtensionSpelling {
    /// How deep AGENT cards nested in AGENT cards are converted; deeper ones stay as written.
    static let maxAgentDepth = 4

    // MARK: Reading: the model's spelling

    /// The model's spelling of a raw line read from a card; nil when the line is not one of these.
    static func canonical(_ line: ContentLine, depth: Int) -> Extension? {
        switch line.name {
        case "GEO": return canonicalGeo(line)
        case "AGENT": return canonicalAgent(line, depth: depth)
        case "PROFILE":
            // PROFILE:VCARD in the one spelling Python vobject accepts (it rejects `PROFILE:VCard`).
            guard line.value.trimmingASCIIWhitespace().uppercased() == "VCARD" else { return nil }
            return Extension(group: line.group, name: "PROFILE", parameters: extras(line), value: "VCARD")
        default: return nil
        }
    }

    /// `geo:lat,lon` as 3.0's `lat;lon`. A URI with more (altitude, `;u=` uncertainty) stays as written: 3.0
    /// cannot say it.
    private static func canonicalGeo(_ line: ContentLine) -> Extension? {
        let value = line.value.trimmingASCIIWhitespace()
        guard value.lowercased().hasPrefix("geo:") else { return nil }
        let numbers = value.dropFirst(4).split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2, numbers.allSatisfy(isDecimal) else { return nil }
        let parameters = extras(line).filter { $0.name != "VALUE" }
        return Extension(group: line.group, name: "GEO", parameters: parameters, value: "\(numbers[0]);\(numbers[1])")
    }

    /// A nested card in AGENT (2.1 writes it inline, 3.0 as escaped text) converted like any other card: read
    /// and written as 3.0 text, so a 2.1 card inside a 3.0 output is no longer a 2.1 card.
    private static func canonicalAgent(_ line: ContentLine, depth: Int) -> Extension? {
        guard depth < maxAgentDepth, let nested = nestedCard(line.value) else { return nil }
        let contact = VCardReader.contact(from: nested, depth: depth + 1).contact
        let text = unfoldedCard(VCardWriter(version: .v3_0).bytes([contact]))
        return Extension(
            group: line.group, name: "AGENT", parameters: extras(line), value: ValueEscaping.escapeText(text))
    }

    /// The card an AGENT value holds, if it holds one.
    static func nestedCard(_ escaped: String) -> RawCard? {
        let text = ValueEscaping.unescapeText(escaped)
        guard text.trimmingASCIIWhitespace().uppercased().hasPrefix("BEGIN:VCARD") else { return nil }
        let cards = VCardLexer.parse(Array(text.utf8)).cards
        return cards.count == 1 ? cards[0] : nil
    }

    /// A written card as one text: lines unfolded and joined by LF, no line end after END.
    static func unfoldedCard(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        text = text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n", with: "\n")
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    // MARK: Writing

    /// The line to write for an extension in `version`, or nil when that version leaves it out.
    /// Whether `written` gives the extension's own line unchanged, so it can be written without making one: an
    /// `X` name (which `written` changes only by escaping the commas of a text value) and no comma in the value.
    static func isWrittenAsIs(_ item: Extension) -> Bool {
        item.name.utf8.first == UInt8(ascii: "X") && !item.value.containsUTF8Byte(UInt8(ascii: ","))
    }

    static func written(_ item: Extension, version: VCardVersion) -> ContentLine? {
        let parameters = item.parameters.map { Parameter(name: $0.name, values: $0.values) }
        let line = ContentLine(group: item.group, name: item.name, parameters: parameters, value: item.value)
        // Most extensions are `X-` ones, none of which the cases below name: no comparison with each.
        if item.name.utf8.first == UInt8(ascii: "X") { return isSingleText(line) ? commasEscaped(line) : line }
        switch item.name {
        case "PHOTO", "LOGO", "SOUND", "KEY": return binaryLine(line, item, version: version)
        case "GEO" where version == .v4_0: return geoURI(line)
        case "AGENT" where version == .v4_0: return related(line)
        case "PROFILE" where version == .v4_0: return nil
        default: return isSingleText(line) ? commasEscaped(line) : line
        }
    }

    /// Properties whose value is one text (RFC 2426 3.x and RFC 6350 6.x value type `text`, not a list, a
    /// structure or a URI). `X-` properties are text unless their VALUE says otherwise (RFC 6350 3.3), the `X-N`
    /// `SingleInstance` gives a second N among them: its `;` and `,` are characters of one text to every reader.
    private static let singleTextNames: Set<String> = [
        "FN", "LABEL", "TITLE", "ROLE", "NOTE", "PRODID", "SORT-STRING", "MAILER", "CLASS", "UID",
    ]

    private static func isSingleText(_ line: ContentLine) -> Bool {
        if let type = line.parameter("VALUE"), type.lowercased() != "text" { return false }
        return line.name.hasPrefix("X-") || singleTextNames.contains(line.name)
    }

    /// The line with each comma its value holds as text escaped (`\,`), as RFC 2426 4 and RFC 6350 3.4 require of
    /// a text value: a reader that takes a bare comma for a list separator (Python vobject, and so every CardDAV
    /// server built on it, Radicale among them) keeps only the text before it.
    private static func commasEscaped(_ line: ContentLine) -> ContentLine {
        guard line.value.containsUTF8Byte(UInt8(ascii: ",")) else { return line }
        var written = line
        written.value = commasEscaped(line.value)
        return written
    }

    private static func commasEscaped(_ value: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count + 4)
        var escaped = false
        for byte in value.utf8 {
            if byte == UInt8(ascii: ","), !escaped { out.append(UInt8(ascii: "\\")) }
            escaped = !escaped && byte == UInt8(ascii: "\\")
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value the writer writes for an extension that keeps its name: a text value with its commas escaped
    /// (what a reader of our output reads back into `Extension.value`).
    package static func writtenValue(_ item: Extension) -> String {
        guard item.value.containsUTF8Byte(UInt8(ascii: ",")) else { return item.value }
        let line = ContentLine(
            group: item.group, name: item.name,
            parameters: item.parameters.map { Parameter(name: $0.name, values: $0.values) }, value: item.value)
        return isSingleText(line) ? commasEscaped(item.value) : item.value
    }

    /// Binary values take this version's spelling; in 4.0, where these properties hold only URIs, text that is
    /// no URI becomes inline data when it is base64, and otherwise keeps its text under an `X-` name (PHOTO,
    /// LOGO, SOUND; KEY may be text in 4.0).
    private static func binaryLine(_ line: ContentLine, _ item: Extension, version: VCardVersion) -> ContentLine {
        let encoding = line.parameter("ENCODING")?.lowercased()
        let isBase64 = encoding == "b" || encoding == "base64"
        let isDataURI = item.value.hasPrefix("data:")
        let extras = BinaryValue.extraParameters(line).map { Parameter(name: $0.name, values: $0.values) }
        if let binary = BinaryValue(line) {
            switch binary {
            case .embedded where (version == .v4_0 && isBase64) || (version == .v3_0 && isDataURI),
                .link where line.hasParameter("VALUE") == (version == .v4_0) || line.hasParameter("MEDIATYPE"):
                return binary.contentLine(name: item.name, version: version, group: item.group, extraParameters: extras)
            default: return line
            }
        }
        // An empty value says "no photo" in every version, so it keeps its name.
        guard version == .v4_0, item.name != "KEY", !isLink(line), !item.value.trimmingASCIIWhitespace().isEmpty
        else { return line }
        if let data = strictBase64(item.value) {
            return BinaryValue.embedded(data, nil).contentLine(
                name: item.name, version: version, group: item.group, extraParameters: extras)
        }
        return ContentLine(group: item.group, name: "X-" + item.name, parameters: line.parameters, value: item.value)
    }

    /// Whether a PHOTO, LOGO or SOUND value is text that is neither a URI nor inline data, which 4.0 cannot
    /// hold as it stands (the reader warns about it).
    /// `VALUE=binary` or `VALUE=text` (neither a 4.0 value type of these) counts as none.
    static func isTextWithoutURI(_ line: ContentLine) -> Bool {
        guard ["PHOTO", "LOGO", "SOUND"].contains(line.name), !isLink(line), case .none = BinaryValue(line)
        else { return false }
        return strictBase64(line.value) == nil && !line.value.trimmingASCIIWhitespace().isEmpty
    }

    /// Whether the line says its value is a URI.
    private static func isLink(_ line: ContentLine) -> Bool {
        guard let type = line.parameter("VALUE")?.lowercased() else { return false }
        return type == "uri" || type == "url"
    }

    /// The bytes of a value that is base64 and nothing else (length a multiple of four, at least one
    /// group), so that a word such as `Lars` is not taken for data.
    private static func strictBase64(_ value: String) -> Data? {
        let bytes = Array(value.trimmingASCIIWhitespace().utf8)
        guard bytes.count >= 4, bytes.count % 4 == 0 else { return nil }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return nil }
        for byte in bytes.dropLast(padding) {
            let letter =
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            guard letter || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") else { return nil }
        }
        return bytes.withUnsafeBufferPointer { Base64.decode($0) }
    }

    private static func geoURI(_ line: ContentLine) -> ContentLine {
        let parts = line.value.split(separator: ";", omittingEmptySubsequences: false).map {
            String($0).trimmingASCIIWhitespace()
        }
        guard parts.count == 2, parts.allSatisfy(isDecimal) else { return line }
        var out = line
        out.value = "geo:\(parts[0]),\(parts[1])"
        return out
    }

    /// AGENT as 4.0's RELATED;TYPE=agent: a nested card as a `data:text/vcard` URI of its 4.0 text, a link as
    /// the link, any other text as text.
    private static func related(_ line: ContentLine) -> ContentLine {
        var parameters = line.parameters.filter { $0.name != "VALUE" && $0.name != "TYPE" }
        let types = ["agent"] + line.parameterValues("TYPE").filter { $0.lowercased() != "agent" }
        parameters.insert(Parameter(name: "TYPE", values: types), at: 0)
        if let nested = nestedCard(line.value) {
            let contact = VCardReader.contact(from: nested, depth: maxAgentDepth).contact
            let card = VCardWriter(version: .v4_0).bytes([contact])
            let uri = "data:text/vcard;base64," + Data(card).base64EncodedString()
            return ContentLine(group: line.group, name: "RELATED", parameters: parameters, value: uri)
        }
        let text = ValueEscaping.unescapeText(line.value)
        let isURI = line.parameter("VALUE")?.lowercased() == "uri" || TelephoneValue.hasScheme(text)
        if !isURI { parameters.append(Parameter("VALUE", "text")) }
        return ContentLine(
            group: line.group, name: "RELATED", parameters: parameters,
            value: isURI ? ValueEscaping.protectingBackslashes(text) : line.value)
    }

    /// Moves each LABEL property onto the address whose types are the same, as 4.0's LABEL parameter
    /// (RFC 6350 6.3.1); a LABEL that matches no address, or more than one, stays a property.
    static func labelsOnAddresses(_ contact: inout Contact) {
        var moved: [Int] = []
        for (index, item) in contact.extensions.enumerated() where item.name == "LABEL" {
            let types = Set(
                item.parameters.filter { $0.name == "TYPE" }.flatMap(\.values).map { $0.lowercased() }.filter {
                    $0 != "pref"
                })
            let matches = contact.addresses.indices.filter { a in
                Set(contact.addresses[a].types) == types
                    && !contact.addresses[a].parameters.contains { $0.name == "LABEL" }
            }
            guard matches.count == 1 else { continue }
            let text = ValueEscaping.unescapeText(item.value)
            contact.addresses[matches[0]].parameters.append(ExtraParameter(name: "LABEL", values: [text]))
            moved.append(index)
        }
        for index in moved.reversed() { contact.extensions.remove(at: index) }
    }

    private static func extras(_ line: ContentLine) -> [ExtraParameter] {
        line.parameters.map { ExtraParameter(name: $0.name, values: $0.values) }
    }

    private static func isDecimal<S: StringProtocol>(_ text: S) -> Bool {
        var digits = 0
        var dots = 0
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if index != 0 { return false }
            case UInt8(ascii: "."): dots += 1
            case 0x30...0x39: digits += 1
            default: return false
            }
        }
        return digits > 0 && dots <= 1
    }
}
