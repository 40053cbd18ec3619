import ContactModel
import VCardSyntax

/// Gives meaning to a card's content lines: each property goes to its scribe, and anything a scribe
/// cannot understand is kept raw in `Contact.extensions` with its group, parameters and value.
public enum VCardReader {
    /// Reads one card into a contact, with the problems found (line numbers are the card's).
    public static func contact(from card: RawCard) -> (contact: Contact, diagnostics: [Diagnostic]) {
        contact(from: card, depth: 0)
    }

    /// Reads a card nested `depth` AGENT levels deep.
    static func contact(from card: RawCard, depth: Int) -> (contact: Contact, diagnostics: [Diagnostic]) {
        card.withView { view in contact(from: view, beginLine: card.beginLine, depth: depth) }
    }

    /// Reads only what identifies the person (UID, FN, N, NICKNAME, ORG, EMAIL, TEL, BDAY, ADR), for matching a large
    /// book without building every card in full; these fields come out exactly as `contact(from:)` gives them.
    package static func identity(from card: RawCard) -> Contact {
        card.withView { view in contact(from: view, beginLine: card.beginLine, identityOnly: true).contact }
    }

    /// The lines `identity(from:)` reads, for a lexer that keeps only those (see `LineSelection`): a card lexed
    /// with it gives the same identity as the card lexed whole.
    package static let identityLines = LineSelection(
        keeping: ["UID", "FN", "N", "NICKNAME", "ORG", "EMAIL", "TEL", "BDAY", "ADR"])

    private static func isIdentity(_ name: PropertyName?) -> Bool {
        switch name {
        case .uid?, .formattedName?, .name?, .nickname?, .organization?, .email?, .telephone?, .birthday?, .address?:
            true
        default: false
        }
    }

    private static func contact(
        from view: RawCard.View, beginLine: Int,
        identityOnly: Bool = false, depth: Int = 0
    ) -> (contact: Contact, diagnostics: [Diagnostic]) {
        var versionValue: String?
        var hasGroups = false
        var phones = 0
        var emails = 0
        var addresses = 0
        var others = 0
        for index in 0..<view.count {
            let line = view[index]
            switch PropertyName.known(line.nameBytes) {
            case .version?: if versionValue == nil { versionValue = line.value.trimmingASCIIWhitespace() }
            case .telephone?: phones += 1
            case .email?: emails += 1
            case .address?: addresses += 1
            case nil: others += 1
            default: break
            }
            if line.hasGroup { hasGroups = true }
        }
        let version = VCardVersion(versionValue: versionValue)
        var context = ReadContext(version: version)
        // Sized once from the counts, so the lists do not grow (and copy) one append at a time.
        if phones > 0 { context.contact.phones.reserveCapacity(phones) }
        if emails > 0 { context.contact.emails.reserveCapacity(emails) }
        if addresses > 0 { context.contact.addresses.reserveCapacity(addresses) }
        // The identity alone keeps no other property.
        if others > 0 && !identityOnly { context.contact.extensions.reserveCapacity(others) }
        // Lines whose X-ABLabel went onto their property (sorted; only grouped cards have any).
        var consumedLabelLines: [Int] = []
        if hasGroups { collectLabels(view, into: &context, consumed: &consumedLabelLines) }

        var sawVersion = false
        var sawFormattedName = false
        // The next consumed label line: the lines are visited in order, so one cursor finds each (searching the
        // list at every line made a card of 50,000 labelled emails quadratic).
        var nextConsumed = 0
        for index in 0..<view.count {
            let line = view[index]
            let name = PropertyName.known(line.nameBytes)
            if case .version? = name {
                if sawVersion {
                    // The writer writes the one VERSION it writes in; a second, kept, would make a reader take
                    // the card for another version (a 2.1 one reads `^'` as written, not as a quote).
                    context.diagnostics.append(
                        Diagnostic(
                            .warning, .invalidValue,
                            "card has more than one VERSION; the first was used and this one was left out",
                            line: line.line))
                }
                sawVersion = true
                continue
            }
            if nextConsumed < consumedLabelLines.count && consumedLabelLines[nextConsumed] == index {
                nextConsumed += 1
                continue
            }
            if identityOnly && !isIdentity(name) { continue }
            if case .formattedName? = name { sawFormattedName = true }
            if let name, ScribeIndex.read(line, named: name, into: &context) { continue }
            if identityOnly {
                // An FN, N, ORG or BDAY with a parameter the model cannot hold: kept, so matching reads it as the
                // model's (`Contact.promotingKeptFields`), as it does for a card read whole.
                if line.nameIs("N") || line.nameIs("FN") || line.nameIs("ORG") || line.nameIs("BDAY") {
                    context.contact.extensions.append(Self.keptAsWritten(line))
                }
                continue
            }
            if Self.isBinaryCapable(line) {
                let contentLine = line.contentLine
                if case .undecodable? = BinaryValue(contentLine) {
                    // Writing it back would give invalid base64 that other readers reject outright.
                    context.diagnostics.append(
                        Diagnostic(
                            .warning, .invalidBase64,
                            "\(contentLine.name) claims base64 but holds no decodable data (raw bytes?); it was left out",
                            line: line.line))
                    continue
                }
                if BinaryValue.needsLenientDecoding(contentLine) {
                    context.diagnostics.append(
                        Diagnostic(
                            .warning, .invalidBase64,
                            "\(contentLine.name) base64 is damaged; the readable part was kept",
                            line: line.line))
                }
                if ExtensionSpelling.isTextWithoutURI(contentLine) {
                    context.diagnostics.append(
                        Diagnostic(
                            .warning, .invalidValue,
                            "\(contentLine.name) holds text that is neither a URI nor inline data; vCard 4.0 output keeps it as X-\(contentLine.name)",
                            line: line.line))
                }
                context.contact.extensions.append(rawExtension(contentLine, version: version))
                continue
            }
            // GEO, AGENT and PROFILE in the model's one spelling (see ExtensionSpelling).
            if line.nameIs("GEO") || line.nameIs("AGENT") || line.nameIs("PROFILE"),
                let canonical = ExtensionSpelling.canonical(line.contentLine, depth: depth)
            {
                context.contact.extensions.append(canonical)
                continue
            }
            context.contact.extensions.append(Self.keptAsWritten(line))
        }
        // A label whose property was kept raw goes back out raw too, beside it.
        if !consumedLabelLines.isEmpty && !identityOnly {
            // Looked up in a table for a card with many: each label searched every labelled value.
            let labeled = consumedLabelLines.count > Self.fewGroups ? context.contact.labeledGroups() : nil
            for index in consumedLabelLines {
                let line = view[index]
                guard let group = line.group else { continue }
                if let labeled {
                    if labeled.contains(GroupKey(group)) { continue }
                } else if context.contact.hasLabeledValue(inGroup: group) {
                    continue
                }
                context.contact.extensions.append(
                    Extension(
                        group: group, name: Self.extensionName(line), parameters: [],
                        value: ValueEscaping.neutralizeLineBreaks(line.valueBytes)))
            }
        }
        if !sawVersion {
            context.diagnostics.append(
                Diagnostic(
                    .warning, .missingVersion, "card has no VERSION; read as 3.0",
                    line: beginLine))
        }
        // One line's split is the writer's own.
        if context.contact.spelling.nicknameLines.count < 2 { context.contact.spelling.nicknameLines = [] }
        if context.contact.spelling.categoryLines.count < 2 { context.contact.spelling.categoryLines = [] }
        if !sawFormattedName {
            // Every reader shows some name; deriving it here keeps read -> write -> read stable.
            let derived = displayName(context.contact)
            context.contact.formattedName = derived
            context.diagnostics.append(
                Diagnostic(
                    .warning, .missingFormattedName,
                    derived.isEmpty
                        ? "card has no FN and nothing to derive one from; FN is empty"
                        : "card has no FN; the display name was derived from its other fields",
                    line: beginLine))
        }
        // Moved out rather than copied: a copy would retain every field only to release them again.
        return context.result()
    }

    /// A line the model does not hold, kept as written: its group, name, parameters and value.
    private static func keptAsWritten(_ line: RawCard.Line) -> Extension {
        Extension(
            group: line.group, name: extensionName(line),
            parameters: (0..<line.parameterCount).map { ExtraParameter(line.parameter(at: $0)) },
            value: ValueEscaping.neutralizeLineBreaks(line.valueBytes))
    }

    /// The name a contacts app shows for a card without FN: from the modeled fields, else from the same
    /// properties kept raw (an ORG with a LANGUAGE, a grouped EMAIL...), so a card that can be named is.
    static func displayName(_ contact: Contact) -> String {
        let derived = contact.derivedDisplayName
        guard derived.isEmpty else { return derived }
        for name in ["ORG", "EMAIL", "TEL", "NICKNAME"] {
            for item in contact.extensions where item.name == name {
                let first = ValueEscaping.split(item.value, on: name == "ORG" ? ";" : ",").first ?? ""
                let text = ValueEscaping.unescapeText(first).trimmingASCIIWhitespace()
                if !text.isEmpty { return text }
            }
        }
        return ""
    }

    private static let binaryCapable: Set<String> = ["PHOTO", "LOGO", "SOUND", "KEY"]

    private static func isBinaryCapable(_ line: RawCard.Line) -> Bool {
        line.nameIs("PHOTO") || line.nameIs("LOGO") || line.nameIs("SOUND") || line.nameIs("KEY")
    }

    /// A property kept raw. Embedded binary is stored in one spelling (3.0's `ENCODING=b;TYPE=...`) whatever
    /// the source version, so a card reads to the same model before and after a conversion.
    /// The name an extension keeps: a vendor's `X-` name as the card wrote it (`X-messaging/xmpp-All`, Apple's
    /// `X-ABShowAs`), since the application that wrote it may look it up by those bytes; any other name
    /// upper-cased, the one spelling the rest of the code compares with.
    static func extensionName(_ line: RawCard.Line) -> String {
        let name = line.name
        return name.hasPrefix("X-") ? line.writtenName : name
    }

    static func rawExtension(_ line: ContentLine, version: VCardVersion) -> Extension {
        // Embedded data and links alike: a 4.0 link (`SOUND:CID:...`, MEDIATYPE) is 3.0's VALUE=uri with TYPE.
        if binaryCapable.contains(line.name), let binary = BinaryValue(line), !binary.isUndecodable {
            let extras = BinaryValue.extraParameters(line).map { Parameter(name: $0.name, values: $0.values) }
            let canonical = binary.contentLine(
                name: line.name, version: .v3_0, group: line.group,
                extraParameters: extras)
            return Extension(
                group: line.group, name: line.name,
                parameters: canonical.parameters.map(ExtraParameter.init), value: canonical.value)
        }
        return Extension(
            group: line.group, name: line.name, parameters: line.parameters.map(ExtraParameter.init),
            value: rawValue(line))
    }

    /// A raw value in 3.0 escaped form: as written for 3.0 and 4.0; for 2.1, whose decoded
    /// quoted-printable text may hold line breaks, with those breaks escaped.
    static func rawValue(_ line: ContentLine) -> String {
        ValueEscaping.neutralizeLineBreaks(line.value)
    }

    /// Finds `group.X-ABLabel` lines whose group holds exactly one labelable modeled property.
    private static func collectLabels(_ view: RawCard.View, into context: inout ReadContext, consumed: inout [Int]) {
        // (the group's first line, its last label line, label lines, labelable properties): cards hold few groups,
        // compared in place ignoring case, so that a group costs no allocation.
        var groups: [(first: Int, label: Int, labels: Int, labelable: Int)] = []
        // Past a few groups, each found in a table by its lower-cased name: searching the list made a card of
        // 50,000 labelled emails quadratic.
        var slots: [[UInt8]: Int]?
        for index in 0..<view.count {
            let line = view[index]
            guard line.hasGroup else { continue }
            let name = PropertyName.known(line.nameBytes)
            let isLabel = name == .xABLabel
            let takesLabel = name.map(ScribeIndex.takesLabel) ?? false
            guard isLabel || takesLabel else { continue }
            let group = line.groupBytes
            let key = slots == nil ? nil : ASCIIFold.lowered(group)
            var slot = key.map { slots?[$0] } ?? groups.firstIndex { ASCIIFold.equal(view[$0.first].groupBytes, group) }
            if slot == nil {
                groups.append((index, 0, 0, 0))
                slot = groups.count - 1
                if let key { slots?[key] = slot }
                if slots == nil && groups.count > Self.fewGroups {
                    slots = Dictionary(
                        groups.indices.map { (ASCIIFold.lowered(view[groups[$0].first].groupBytes), $0) }
                    ) { first, _ in first }
                }
            }
            if isLabel {
                groups[slot!].labels += 1
                groups[slot!].label = index
            } else {
                groups[slot!].labelable += 1
            }
        }
        for group in groups where group.labels == 1 && group.labelable == 1 {
            let line = view[group.label]
            guard line.parameterCount == 0 else { continue }
            context.labels.append(
                (ASCIIFold.lowered(line.groupBytes), AppleLabel(reading: ValueEscaping.unescapeText(line.valueBytes))))
            consumed.append(group.label)
        }
        consumed.sort()
        if context.labels.count > Self.fewGroups {
            context.labelIndex = Dictionary(context.labels.map { ($0.group, $0.label) }) { first, _ in first }
        }
    }

    /// Up to this many groups or labels, a card's are searched in a list (no allocation); past it, in a table.
    static let fewGroups = 16
}

/// A group's name as `Contact.hasLabeledValue(inGroup:)` compares it: its length and its lower-cased text.
struct GroupKey: Hashable {
    var count: Int
    var lowered: String

    init(_ group: String) {
        count = group.utf8.count
        lowered = group.lowercased()
    }
}

extension Contact {
    /// The groups of the values that carry labels, as `hasLabeledValue(inGroup:)` compares them.
    func labeledGroups() -> Set<GroupKey> {
        var out = Set<GroupKey>()
        for list in [emails, phones, urls, instantMessaging, socialProfiles] {
            for value in list { if let group = value.group { out.insert(GroupKey(group)) } }
        }
        for address in addresses { if let group = address.group { out.insert(GroupKey(group)) } }
        return out
    }

    /// Whether a value that carries labels was read from `group` (compared ignoring case).
    func hasLabeledValue(inGroup group: String) -> Bool {
        func same(_ other: String?) -> Bool {
            guard let other else { return false }
            return other.utf8.count == group.utf8.count && other.lowercased() == group.lowercased()
        }
        for list in [emails, phones, urls, instantMessaging, socialProfiles]
        where list.contains(where: { same($0.group) }) {
            return true
        }
        return addresses.contains { same($0.group) }
    }
}
