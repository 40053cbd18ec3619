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
        // 4.0 has no LABEL property: a 2.1 or 3.0 label goes onto its address.
        let movesLabels = version == .v4_0 && contact.extensions.contains(where: { $0.name == "LABEL" })
        if movesLabels || !SingleInstance.isFitted(contact, version: version) {
            var contact = contact
            if movesLabels { ExtensionSpelling.labelsOnAddresses(&contact) }
            SingleInstance.fit(&contact, version: version)
            writeProperties(contact, into: &out)
        } else {
            // Most cards need neither change: written as they are, without a copy to retain and release.
            writeProperties(contact, into: &out)
        }
        ContentLineWriter.writeRaw("END:VCARD", into: &out)
    }

    /// Appends the properties of a contact that needs no more fitting.
    private func writeProperties(_ contact: Contact, into out: inout [UInt8]) {
        // Only a label without a group needs the groups in use (for a fresh `itemN`), and few cards have one.
        let groups = contact.hasUngroupedLabel ? contact.allGroups : []
        var context = WriteContext(version: version, output: [], allGroups: { groups })
        // The output moves into the context and back, so the card's lines are appended to it in place.
        swap(&context.builder.output, &out)
        // Room for the card's lines as the caller expects them (an output sized for the card), within reason.
        context.builder.reserveCapacity(
            min(max(context.builder.output.capacity - context.builder.output.count, 512), 64 << 10))
        ScribeIndex.writeAll(contact, into: &context)
        for item in contact.extensions {
            if ExtensionSpelling.isWrittenAsIs(item) {
                context.append(item)
            } else if let line = ExtensionSpelling.written(item, version: version) {
                context.append(line)
            }
        }
        context.builder.flush()
        swap(&context.builder.output, &out)
    }

    /// The bytes of the given cards, one after another.
    public func bytes(_ contacts: [Contact]) -> [UInt8] {
        var out: [UInt8] = []
        for contact in contacts { write(contact, into: &out) }
        return out
    }
}
