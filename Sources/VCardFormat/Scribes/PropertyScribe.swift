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
    /// Labels from `groupN.X-ABLabel` (group lower-cased, label), for the groups whose label belongs to one
    /// modeled property. Cards hold few groups, so a list beats a dictionary.
    var labels: [(group: String, label: String)] = []

    /// The label for the line's group, if any.
    func label(for line: RawCard.Line) -> String? {
        guard line.hasGroup, !labels.isEmpty, let group = line.group?.lowercased() else { return nil }
        return labels.first { $0.group == group }?.label
    }

    mutating func warn(_ code: DiagnosticCode, _ message: String, line: Int) {
        diagnostics.append(Diagnostic(.warning, code, message, line: line))
    }
}

/// What a scribe appends to while writing a card.
struct WriteContext {
    let version: VCardVersion
    var lines: [ContentLine] = []
    private var usedGroups: Set<String>
    private var nextItem = 1

    init(version: VCardVersion, contact: Contact) {
        self.version = version
        var used = Set<String>()
        for group in contact.allGroups { used.insert(group.lowercased()) }
        usedGroups = used
    }

    /// A group for a labeled value: its own, or a fresh `itemN` when it has a label but no group.
    mutating func group(for group: String?, label: String?) -> String? {
        if let group { return group }
        guard label != nil else { return nil }
        while usedGroups.contains("item\(nextItem)") { nextItem += 1 }
        let fresh = "item\(nextItem)"
        usedGroups.insert(fresh)
        return fresh
    }

    mutating func append(_ name: String, _ value: String, parameters: [Parameter] = [], group: String? = nil) {
        lines.append(ContentLine(group: group, name: name, parameters: parameters, value: value))
    }

    /// Appends a labeled property and, when it has a label, the `X-ABLabel` line beside it.
    mutating func appendLabeled(_ name: String, _ value: String, parameters: [Parameter], group: String?,
                                label: String?)
    {
        let group = self.group(for: group, label: label)
        append(name, value, parameters: parameters, group: group)
        if let label { append("X-ABLabel", ValueEscaping.escapeText(AppleLabel.encode(label)), group: group) }
    }
}

extension Contact {
    /// The groups of the values that can carry a label (emails, phones, URLs, IM, social, addresses).
    var labelableGroups: [String] {
        (emails + phones + urls + instantMessaging + socialProfiles).compactMap(\.group) + addresses.compactMap(\.group)
    }

    /// Every group in use, so a new `itemN` never collides with one.
    var allGroups: [String] { labelableGroups + extensions.compactMap(\.group) }
}

/// Apple's label encoding: `_$!<Mobile>!$_` is a built-in label, anything else is the user's own text.
enum AppleLabel {
    static func decode(_ raw: String) -> String {
        guard raw.hasPrefix("_$!<"), raw.hasSuffix(">!$_"), raw.count >= 8 else { return raw }
        return String(raw.dropFirst(4).dropLast(4))
    }

    /// Built-in labels go back in Apple's form so Apple clients localise them; others as written.
    static func encode(_ label: String) -> String {
        builtIn.contains(label) ? "_$!<\(label)>!$_" : label
    }

    private static let builtIn: Set<String> = [
        "Mobile", "Home", "Work", "Other", "Main", "HomePage", "HomeFAX", "WorkFAX", "OtherFAX", "Pager", "iPhone",
        "Anniversary", "Father", "Mother", "Parent", "Brother", "Sister", "Child", "Friend", "Spouse", "Partner",
        "Assistant", "Manager", "School", "AppleWatch",
    ]
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
                    for item in String(decoding: raw, as: UTF8.self).split(separator: ",", omittingEmptySubsequences: true) {
                        add(item.lowercased().trimmingASCIIWhitespace(), to: &types, pref: &pref)
                    }
                }
            } else if line.parameterNameIs(index, "PREF") {
                if line.parameterValueCount(index) > 0 {
                    pref = Int(String(decoding: line.parameterValueBytes(index, 0), as: UTF8.self)
                        .trimmingASCIIWhitespace()) ?? pref
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

    /// The value lower-cased when it is one ASCII word (letters, digits, dashes); nil otherwise.
    private static func plainLowercased(_ value: UnsafeBufferPointer<UInt8>) -> String? {
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

    static func write(types: [String], pref: Int?, extras: [ExtraParameter], version: VCardVersion) -> [Parameter] {
        var parameters: [Parameter] = []
        var typeValues = types
        if let pref {
            if version == .v4_0 {
                parameters.append(Parameter("PREF", String(pref)))
            } else if pref == 1 {
                typeValues.append("pref")
            } else {
                parameters.append(Parameter("PREF", String(pref)))
            }
        }
        if !typeValues.isEmpty { parameters.insert(Parameter(name: "TYPE", values: typeValues), at: 0) }
        for extra in extras { parameters.append(Parameter(name: extra.name, values: extra.values)) }
        return parameters
    }
}

extension ExtraParameter {
    init(_ parameter: Parameter) { self.init(name: parameter.name, values: parameter.values) }
}
