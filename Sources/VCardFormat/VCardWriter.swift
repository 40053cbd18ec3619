import ContactModel
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes contacts as vCard 3.0 (RFC 2426, the default) or 4.0 (RFC 6350): CRLF, folded at 75 octets,
/// VERSION right after BEGIN, every value escaped for its type, and unknown properties written back with
/// their group, parameters and value.
public struct VCardWriter: Sendable {
    /// The version written; 2.1 is read only, so asking for it writes 3.0.
    public var version: VCardVersion

    /// Creates a writer for `version`.
    public init(version: VCardVersion = .v3_0) {
        self.version = version == .v2_1 ? .v3_0 : version
    }

    /// Appends one card to `out`.
    public func write(_ contact: Contact, into out: inout [UInt8]) {
        ContentLineWriter.writeRaw("BEGIN:VCARD", into: &out)
        if version == .v4_0 {
            ContentLineWriter.writeRaw("VERSION:4.0", into: &out)
        } else {
            ContentLineWriter.writeRaw("VERSION:3.0", into: &out)
        }
        var context = WriteContext(version: version, output: [], allGroups: { contact.allGroups })
        // The output moves into the context and back, so lines are written in place, never copied.
        swap(&context.builder.output, &out)
        for scribe in ScribeIndex.writeOrder { scribe.write(contact, into: &context) }
        for item in contact.extensions { context.append(extensionLine(item)) }
        swap(&context.builder.output, &out)
        ContentLineWriter.writeRaw("END:VCARD", into: &out)
    }

    /// The bytes of the given cards, one after another.
    public func bytes(_ contacts: [Contact]) -> [UInt8] {
        var out: [UInt8] = []
        for contact in contacts { write(contact, into: &out) }
        return out
    }

    private static let binaryCapable: Set<String> = ["PHOTO", "LOGO", "SOUND", "KEY"]

    /// An extension as written, except that binary values take this version's spelling.
    private func extensionLine(_ item: Extension) -> ContentLine {
        let parameters = item.parameters.map { Parameter(name: $0.name, values: $0.values) }
        var line = ContentLine(group: item.group, name: item.name, parameters: parameters, value: item.value)
        guard Self.binaryCapable.contains(item.name) else { return line }
        let encoding = line.parameter("ENCODING")?.lowercased()
        let isBase64 = encoding == "b" || encoding == "base64"
        let isDataURI = item.value.hasPrefix("data:")
        guard (version == .v4_0 && isBase64) || (version == .v3_0 && isDataURI),
            let binary = BinaryValue(line), case .embedded = binary
        else { return line }
        let extras = BinaryValue.extraParameters(line).map { Parameter(name: $0.name, values: $0.values) }
        line = binary.contentLine(name: item.name, version: version, group: item.group, extraParameters: extras)
        return line
    }
}
