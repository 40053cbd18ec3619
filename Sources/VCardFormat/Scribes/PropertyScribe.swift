import ContactModel
import VCardSyntax

/// Reads and writes one property (as ez-vcard's scribes do): the only place that knows its meaning.
protocol PropertyScribe: Sendable {
    /// Reads one content line into the contact; false when it cannot be understood, so it is kept raw.
    func read(_ line: RawCard.Line, into context: inout ReadContext) -> Bool
    /// Appends this property's content lines for the contact.
    func write(_ contact: Contact, into context: inout WriteContext)
}

/// What a scribe sees while reading a card.
struct ReadContext {
    var contact = Contact()
    let version: VCardVersion
    var diagnostics: [Diagnostic] = []
    /// Labels from `groupN.X-ABLabel` (group in ASCII lower case, label), for the groups whose label belongs
    /// to one modeled property. Cards hold few groups, so a list beats a dictionary.
    var labels: [(group: [UInt8], label: AppleLabel)] = []
    /// The labels by group, for a card with more than a few (`VCardReader.fewGroups`); nil otherwise.
    var labelIndex: [[UInt8]: AppleLabel]?

    /// The contact and diagnostics read, moved out of the context that ends here.
    consuming func result() -> (contact: Contact, diagnostics: [Diagnostic]) {
        (contact, diagnostics)
    }

    /// The label for the line's group, if any.
    func label(for line: RawCard.Line) -> AppleLabel? {
        guard line.hasGroup, !labels.isEmpty else { return nil }
        let group = line.groupBytes
        if let labelIndex { return labelIndex[ASCIIFold.lowered(group)] }
        for entry in labels where entry.group.count == group.count {
            var same = true
            for (i, byte) in group.enumerated() where ASCIIFold.lower(byte) != entry.group[i] {
                same = false
                break
            }
            if same { return entry.label }
        }
        return nil
    }
}

/// What a scribe appends to while writing a card: lines go straight into the output bytes.
struct WriteContext {
    let version: VCardVersion
    var builder: LineBuilder
    /// Groups in use (lower-cased), computed only when a label needs a fresh `itemN` group.
    private var usedGroups: Set<String>?
    private let allGroups: () -> [String]
    private var nextItem = 1

    init(version: VCardVersion, output: [UInt8], allGroups: @escaping () -> [String]) {
        self.version = version
        builder = LineBuilder(caretEncoding: true)
        builder.output = output
        self.allGroups = allGroups
    }

    /// A group for a labeled value: its own, or a fresh `itemN` when it has a label but no group.
    mutating func group(for group: String?, label: String?) -> String? {
        if let group { return group }
        guard label != nil else { return nil }
        if usedGroups == nil { usedGroups = Set(allGroups().map { $0.lowercased() }) }
        while usedGroups!.contains("item\(nextItem)") { nextItem += 1 }
        let fresh = "item\(nextItem)"
        usedGroups!.insert(fresh)
        return fresh
    }

    /// Writes `NAME:value` (`group.NAME:value`) with the value escaped as text.
    mutating func appendText(_ name: String, _ text: String, group: String? = nil) {
        builder.start(group: group, name: name)
        builder.beginValue()
        builder.appendText(text)
        builder.finish()
    }

    /// Writes a whole content line (value already in escaped form).
    mutating func append(_ line: ContentLine) {
        builder.append(line)
    }

    /// Writes an extension as its own content line, as `append(_:)` writes the `ContentLine` made of it.
    mutating func append(_ item: Extension) {
        builder.start(group: item.group, name: item.name)
        for parameter in item.parameters { builder.parameter(parameter.name, parameter.values) }
        builder.beginValue()
        builder.appendEscaped(item.value)
        builder.finish()
    }

    /// Writes a value with kinds, preference, extra parameters and label (as `group.X-ABLabel` beside it).
    /// `value` writes the value part into the builder.
    mutating func appendLabeled(
        _ name: String, group: String?, label: String?, appleLabel: Bool, types: [String], pref: Int?,
        extras: [ExtraParameter], valueType: String? = nil, value: (inout LineBuilder) -> Void
    ) {
        let group = self.group(for: group, label: label)
        builder.start(group: group, name: name)
        // TYPE first (with `pref` folded in for 2.1 and 3.0 when it is 1), then PREF, then the rest.
        let prefInType = pref == 1 && version != .v4_0
        if !types.isEmpty || prefInType {
            builder.beginParameter("TYPE")
            var first = true
            for type in types {
                builder.parameterValue(type, first: first)
                first = false
            }
            if prefInType { builder.parameterValue("pref", first: first) }
        }
        if let pref, !prefInType {
            builder.beginParameter("PREF")
            builder.parameterValue(String(pref), first: true)
        }
        if let valueType {
            builder.beginParameter("VALUE")
            builder.parameterValue(valueType, first: true)
        }
        for extra in extras { builder.parameter(extra.name, extra.values) }
        builder.beginValue()
        value(&builder)
        builder.finish()
        if let label {
            builder.start(group: group, name: "X-ABLabel")
            builder.beginValue()
            builder.appendText(AppleLabel(text: label, apple: appleLabel).written)
            builder.finish()
        }
    }
}

extension Contact {
    /// The groups of the values that can carry a label (emails, phones, URLs, IM, social, addresses).
    var labelableGroups: [String] {
        (emails + phones + urls + instantMessaging + socialProfiles).compactMap(\.group) + addresses.compactMap(\.group)
    }

    /// Every group in use, so a new `itemN` never collides with one.
    var allGroups: [String] { labelableGroups + extensions.compactMap(\.group) + spelling.groups.values }

    /// Whether a value with a label has no group, so the writer must give it one.
    var hasUngroupedLabel: Bool {
        func ungrouped(_ values: [LabeledValue]) -> Bool { values.contains { $0.label != nil && $0.group == nil } }
        return ungrouped(emails) || ungrouped(phones) || ungrouped(urls) || ungrouped(instantMessaging)
            || ungrouped(socialProfiles) || addresses.contains { $0.label != nil && $0.group == nil }
    }
}

/// A label as `X-ABLabel` writes it: Apple wraps the labels its apps know (`_$!<Mobile>!$_`) so that they are
/// shown in the reader's language; any other label (Google's `Other`, a user's `Ferienhaus`) is plain text.
/// A label goes back out in the form it came in, so an Apple token stays a token and plain text stays plain.
struct AppleLabel: Hashable {
    /// The label as a person reads it.
    var text: String
    /// Whether it was written as an Apple token.
    var apple: Bool

    init(text: String, apple: Bool) {
        self.text = text
        self.apple = apple
    }

    /// Reads an `X-ABLabel` value (unescaped).
    init(reading raw: String) {
        // Compared as bytes when the characters next to the wrapper are ASCII, where bytes and characters agree
        // (nothing can join an ASCII character to `<` or `>`); otherwise as characters, as before.
        let utf8 = raw.utf8
        if let fast = utf8.withContiguousStorageIfAvailable({ Self.unwrapped($0) }), let (text, apple) = fast {
            self.init(text: text ?? raw, apple: apple)
        } else if raw.hasPrefix("_$!<"), raw.hasSuffix(">!$_"), raw.count >= 8 {
            self.init(text: String(raw.dropFirst(4).dropLast(4)), apple: true)
        } else {
            self.init(text: raw, apple: false)
        }
    }

    /// The label inside an Apple token and true, or nil and false when `bytes` is plain text (the text is the
    /// whole); nil when only a comparison by characters can tell.
    private static func unwrapped(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String?, apple: Bool)? {
        let n = bytes.count
        guard n >= 8, bytes[0] == 0x5F, bytes[1] == 0x24, bytes[2] == 0x21, bytes[3] == 0x3C,
            bytes[n - 4] == 0x3E, bytes[n - 3] == 0x21, bytes[n - 2] == 0x24, bytes[n - 1] == 0x5F
        else {
            // Without the wrapper's bytes there are not its characters either: no other spelling of an ASCII
            // character is canonically equal to it.
            return (nil, false)
        }
        guard n == 8 || (bytes[4] < 0x80 && bytes[n - 5] < 0x80) else { return nil }
        return (String(decoding: UnsafeBufferPointer(rebasing: bytes[4..<(n - 4)]), as: UTF8.self), true)
    }

    /// The `X-ABLabel` value to write (before escaping).
    var written: String { apple ? "_$!<\(text)>!$_" : text }
}

/// TYPE and PREF parameters: kinds lower-cased, `pref` read from `TYPE=pref` (2.1, 3.0) or `PREF=n` (4.0).
enum TypeParameters {
    static func read(_ line: RawCard.Line) -> (types: [String], pref: Int?, extras: [ExtraParameter]) {
        var types: [String] = []
        var pref: Int?
        var extras: [ExtraParameter] = []
        for index in 0..<line.parameterCount {
            if line.parameterNameIs(index, "TYPE") {
                if types.isEmpty { types.reserveCapacity(4) }
                for v in 0..<line.parameterValueCount(index) {
                    let raw = line.parameterValueBytes(index, v)
                    // Most values are one plain word: take the fast path without splitting.
                    if let plain = plainLowercased(raw) {
                        add(plain, to: &types, pref: &pref)
                        continue
                    }
                    // A quoted list of words (`TYPE="HOME,VOICE"`) is how many 3.0 writers write a list; any
                    // other quoted value is one value, as RFC 6350 reads it (`"Mike's IM, custom"`).
                    let text = String(decoding: raw, as: UTF8.self).lowercased()
                    let items = text.split(separator: ",", omittingEmptySubsequences: true).map {
                        typeName(trimmed(String($0)))
                    }
                    if items.count > 1 && items.allSatisfy(isWord) {
                        for item in items { add(item, to: &types, pref: &pref) }
                    } else {
                        add(typeName(trimmed(text)), to: &types, pref: &pref)
                    }
                }
            } else if line.parameterNameIs(index, "PREF") {
                // A PREF that is no number (`PREF=abc`, `PREF=2.5`) is kept as written: it was dropped.
                if line.parameterValueCount(index) == 1,
                    let number = Int(
                        String(decoding: line.parameterValueBytes(index, 0), as: UTF8.self).trimmingASCIIWhitespace())
                {
                    pref = number
                } else if line.parameterValueCount(index) > 0 {
                    extras.append(ExtraParameter(line.parameter(at: index)))
                }
            } else if line.parameterNameIs(index, "VALUE") || line.parameterNameIs(index, "ENCODING") {
                continue
            } else {
                extras.append(ExtraParameter(line.parameter(at: index)))
            }
        }
        return (types, pref, extras)
    }

    @inline(__always)
    private static func add(_ type: String, to types: inout [String], pref: inout Int?) {
        if type == "pref" {
            pref = pref ?? 1
        } else if !type.isEmpty && !types.contains(type) {
            types.append(type)
        }
    }

    /// A list item that repeats the parameter's name (`TYPE=HOME,TYPE=VOICE`, a `,` written for a `;`) names the
    /// type after it: readers either drop the item or the whole list, and `type=voice` is no type of anyone's.
    private static func typeName(_ item: String) -> String {
        item.hasPrefix("type=") ? trimmed(String(item.dropFirst(5))) : item
    }

    /// Letters, digits and dashes only: a type name, not a phrase.
    private static func isWord(_ item: String) -> Bool {
        !item.isEmpty && item.utf8.allSatisfy { $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) }
    }

    /// The type without white space or control characters around it: a writer can only write a control
    /// character in a parameter value as a space (RFC 6868), so `\u{1}pref` would be read back as `pref`.
    private static func trimmed(_ type: String) -> String {
        let utf8 = type.utf8
        guard let start = utf8.firstIndex(where: { $0 > 0x20 }), let end = utf8.lastIndex(where: { $0 > 0x20 })
        else { return "" }
        if start == utf8.startIndex && end == utf8.index(before: utf8.endIndex) { return type }
        return String(decoding: utf8[start...end], as: UTF8.self)
    }

    /// The types RFC 2426 and RFC 6350 define for TEL, EMAIL and ADR (and Apple's `iPhone`), in any case, as
    /// their lower-case literals: nearly every TYPE value is one, and a literal costs no String to build.
    private static func knownType(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        switch value.count {
        case 3:
            if value.isEqualIgnoringCase(to: "FAX") { return "fax" }
            if value.isEqualIgnoringCase(to: "CAR") { return "car" }
            if value.isEqualIgnoringCase(to: "MSG") { return "msg" }
            if value.isEqualIgnoringCase(to: "DOM") { return "dom" }
        case 4:
            if value.isEqualIgnoringCase(to: "HOME") { return "home" }
            if value.isEqualIgnoringCase(to: "WORK") { return "work" }
            if value.isEqualIgnoringCase(to: "CELL") { return "cell" }
            if value.isEqualIgnoringCase(to: "PREF") { return "pref" }
            if value.isEqualIgnoringCase(to: "MAIN") { return "main" }
            if value.isEqualIgnoringCase(to: "TEXT") { return "text" }
            if value.isEqualIgnoringCase(to: "INTL") { return "intl" }
            if value.isEqualIgnoringCase(to: "X400") { return "x400" }
        case 5:
            if value.isEqualIgnoringCase(to: "VOICE") { return "voice" }
            if value.isEqualIgnoringCase(to: "OTHER") { return "other" }
            if value.isEqualIgnoringCase(to: "PAGER") { return "pager" }
            if value.isEqualIgnoringCase(to: "VIDEO") { return "video" }
        case 6:
            if value.isEqualIgnoringCase(to: "IPHONE") { return "iphone" }
            if value.isEqualIgnoringCase(to: "POSTAL") { return "postal" }
            if value.isEqualIgnoringCase(to: "PARCEL") { return "parcel" }
        case 8:
            if value.isEqualIgnoringCase(to: "INTERNET") { return "internet" }
        default: break
        }
        return nil
    }

    /// The value lower-cased when it is one ASCII word (letters, digits, dashes); nil otherwise.
    private static func plainLowercased(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        if let known = knownType(value) { return known }
        for byte in value {
            switch byte {
            case 0x61...0x7A, 0x30...0x39, 0x2D, 0x41...0x5A: continue
            default: return nil
            }
        }
        return String(unsafeUninitializedCapacity: value.count) { out in
            for (i, byte) in value.enumerated() { out[i] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
            return value.count
        }
    }
}

extension ExtraParameter {
    /// A parameter whose grammar holds one value has no list: a comma in it is text (`LABEL=Baytown, LA`
    /// unquoted), so the values the lexer split it into are joined again, and written back quoted as one.
    init(_ parameter: Parameter) {
        if parameter.values.count > 1, Self.singleValued.contains(parameter.name.uppercased()) {
            self.init(name: parameter.name, values: [parameter.values.joined(separator: ",")])
        } else {
            self.init(name: parameter.name, values: parameter.values)
        }
    }

    /// The parameters of RFC 6350 section 5 (and RFC 2426's) that take exactly one value.
    static let singleValued: Set<String> = [
        "LABEL", "LANGUAGE", "GEO", "TZ", "ALTID", "MEDIATYPE", "CALSCALE", "VALUE", "ENCODING", "CHARSET", "CC",
    ]
}

/// ASCII case folding for group names, which are ASCII tokens.
enum ASCIIFold {
    @inline(__always) static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    static func lowered(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] { bytes.map(lower) }

    /// Whether two names are the same ignoring ASCII case.
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where lower(a[i]) != lower(b[i]) { return false }
        return true
    }
}
