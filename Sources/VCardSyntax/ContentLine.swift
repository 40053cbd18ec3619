/// One logical line of a vCard (RFC 2425 section 5.8.1): `[group "."] name *(";" param) ":" value`.
///
/// The syntax layer only knows the grammar: it unfolds, decodes the transfer encodings that are part of the
/// line syntax (2.1 quoted-printable and CHARSET), and splits parameters. It does not know what a property
/// means, so `value` is still in the source's escaped form; the vCard layer decides how to unescape it.
public struct ContentLine: Hashable, Sendable {
    /// The group prefix (`item1` in `item1.TEL`), as written.
    public var group: String?
    /// The property name, upper-cased.
    public var name: String
    /// Parameters in source order; names upper-cased, values unquoted and split on unquoted commas.
    public var parameters: [Parameter]
    /// The value after the first unquoted colon: unfolded, transfer-decoded, still escaped.
    public var value: String
    /// The 1-based physical line the content line starts on (0 when built in memory).
    public var line: Int

    /// Creates a content line.
    public init(group: String? = nil, name: String, parameters: [Parameter] = [], value: String, line: Int = 0) {
        self.group = group
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// The values of every parameter named `name` (case-insensitive), flattened in order.
    public func parameterValues(_ name: String) -> [String] {
        var result: [String] = []
        for parameter in parameters where parameter.name == name {
            result.append(contentsOf: parameter.values)
        }
        return result
    }

    /// The first value of the parameter named `name`, if any.
    public func parameter(_ name: String) -> String? {
        for parameter in parameters where parameter.name == name {
            return parameter.values.first
        }
        return nil
    }

    /// Whether a parameter named `name` is present.
    public func hasParameter(_ name: String) -> Bool {
        parameters.contains { $0.name == name }
    }
}

/// A property parameter: `TYPE=work,voice` is name `TYPE` with values `["work", "voice"]`.
public struct Parameter: Hashable, Sendable, Codable {
    /// The parameter name, upper-cased.
    public var name: String
    /// The values, unquoted, in order.
    public var values: [String]

    /// Creates a parameter.
    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }

    /// Creates a parameter with one value.
    public init(_ name: String, _ value: String) {
        self.init(name: name, values: [value])
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces, tabs, CR and LF.
    package func trimmingASCIIWhitespace() -> String {
        let utf8 = self.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, Self.isASCIIWhitespace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, Self.isASCIIWhitespace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        if start == utf8.startIndex && end == utf8.endIndex { return self }
        return String(self[start..<end])
    }

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
