import ContactModel
import VCardSyntax

/// Gives meaning to a card's content lines: each property goes to its scribe, and anything a scribe
/// cannot understand is kept raw in `Contact.extensions` with its group, parameters and value.
public enum VCardReader {
    /// Reads one card into a contact, with the problems found (line numbers are the card's).
    public static func contact(from card: RawCard) -> (contact: Contact, diagnostics: [Diagnostic]) {
        let version = VCardVersion(versionValue: card.version)
        var context = ReadContext(version: version)
        var consumedLabelLines = Set<Int>()
        let names = card.lines.map { PropertyName($0.name) }
        if card.lines.contains(where: { $0.group != nil }) {
            collectLabels(card, names: names, into: &context, consumed: &consumedLabelLines)
        }

        var sawVersion = false
        var sawFormattedName = false
        for (index, line) in card.lines.enumerated() {
            let name = names[index]
            if case .version = name, !sawVersion {
                sawVersion = true
                continue
            }
            if consumedLabelLines.contains(index) { continue }
            // PROFILE:VCARD (RFC 2426 2.1.2) only restates what BEGIN says, and Python vobject rejects a card
            // that holds it, so like VERSION it is a marker rather than a property to keep.
            if line.name == "PROFILE" && line.value.trimmingASCIIWhitespace().uppercased() == "VCARD" { continue }
            if case .formattedName = name { sawFormattedName = true }
            if let scribe = ScribeIndex.scribe(for: name), scribe.read(line, into: &context) { continue }
            if Self.binaryCapable.contains(line.name), case .undecodable? = BinaryValue(line) {
                // Writing it back would give invalid base64 that other readers reject outright.
                context.diagnostics.append(Diagnostic(
                    .warning, .invalidBase64,
                    "\(line.name) claims base64 but holds no decodable data (raw bytes?); it was left out",
                    line: line.line))
                continue
            }
            if Self.binaryCapable.contains(line.name), BinaryValue.needsLenientDecoding(line) {
                context.diagnostics.append(Diagnostic(
                    .warning, .invalidBase64, "\(line.name) base64 is damaged; the readable part was kept", line: line.line))
            }
            context.contact.extensions.append(rawExtension(line, version: version))
        }
        // A label whose property was kept raw goes back out raw too, beside it.
        for index in consumedLabelLines.sorted() {
            let line = card.lines[index]
            guard let group = line.group, !context.contact.labeledGroups.contains(group.lowercased()) else { continue }
            context.contact.extensions.append(Extension(
                group: group, name: line.name, parameters: [], value: rawValue(line)))
        }
        if !sawVersion {
            context.diagnostics.append(Diagnostic(.warning, .missingVersion, "card has no VERSION; read as 3.0",
                                                  line: card.beginLine))
        }
        if !sawFormattedName {
            // Every reader shows some name; deriving it here keeps read -> write -> read stable.
            let derived = context.contact.derivedDisplayName
            context.contact.formattedName = derived
            context.diagnostics.append(Diagnostic(
                .warning, .missingFormattedName,
                derived.isEmpty ? "card has no FN and nothing to derive one from; FN is empty"
                    : "card has no FN; the display name was derived from its other fields",
                line: card.beginLine))
        }
        return (context.contact, context.diagnostics)
    }

    private static let binaryCapable: Set<String> = ["PHOTO", "LOGO", "SOUND", "KEY"]

    /// A property kept raw. Embedded binary is stored in one spelling (3.0's `ENCODING=b;TYPE=...`) whatever
    /// the source version, so a card reads to the same model before and after a conversion.
    static func rawExtension(_ line: ContentLine, version: VCardVersion) -> Extension {
        if binaryCapable.contains(line.name), let binary = BinaryValue(line), case .embedded = binary {
            let extras = BinaryValue.extraParameters(line).map { Parameter(name: $0.name, values: $0.values) }
            let canonical = binary.contentLine(name: line.name, version: .v3_0, group: line.group,
                                               extraParameters: extras)
            return Extension(group: line.group, name: line.name,
                             parameters: canonical.parameters.map(ExtraParameter.init), value: canonical.value)
        }
        return Extension(group: line.group, name: line.name, parameters: line.parameters.map(ExtraParameter.init),
                         value: rawValue(line))
    }

    /// A raw value in 3.0 escaped form: as written for 3.0 and 4.0; for 2.1, whose decoded
    /// quoted-printable text may hold line breaks, with those breaks escaped.
    static func rawValue(_ line: ContentLine) -> String {
        ValueEscaping.neutralizeLineBreaks(line.value)
    }

    /// Finds `group.X-ABLabel` lines whose group holds exactly one labelable modeled property.
    private static func collectLabels(_ card: RawCard, names: [PropertyName], into context: inout ReadContext,
                                      consumed: inout Set<Int>)
    {
        var labelLines: [String: [Int]] = [:]
        var labelable: [String: Int] = [:]
        for (index, line) in card.lines.enumerated() {
            guard let group = line.group?.lowercased() else { continue }
            let name = names[index]
            if case .xABLabel = name {
                labelLines[group, default: []].append(index)
            } else if ScribeIndex.takesLabel(name) {
                labelable[group, default: 0] += 1
            }
        }
        for (group, indexes) in labelLines where indexes.count == 1 && labelable[group] == 1 {
            let line = card.lines[indexes[0]]
            guard line.parameters.isEmpty else { continue }
            context.labels[group] = AppleLabel.decode(ValueEscaping.unescapeText(line.value))
            consumed.insert(indexes[0])
        }
    }
}

extension Contact {
    /// The groups (lower-cased) of the values that carry labels.
    var labeledGroups: Set<String> { Set(labelableGroups.map { $0.lowercased() }) }
}
