/// The content lines between one `BEGIN:VCARD` and its `END:VCARD`, stored compactly.
///
/// A card is one byte buffer (its logical lines, unfolded and transfer-decoded, names upper-cased) and
/// offset records into it, so lexing a card costs a handful of allocations however many lines it has.
/// `lines` gives the lines as `ContentLine` values; `withView` reads them in place without copying.
public struct RawCard: Sendable {
    // The records are usable from inlinable code so that readers in other modules compile the accessors
    // below into their loops instead of calling across the module boundary for every byte range.

    /// A byte range in `bytes`.
    @usableFromInline struct Span: Hashable, Sendable {
        @usableFromInline var start: Int
        @usableFromInline var end: Int
        @usableFromInline init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }
        var count: Int { end - start }
        static let none = Span(start: -1, end: -1)
    }

    @usableFromInline struct LineRecord: Hashable, Sendable {
        @usableFromInline var group: Span
        @usableFromInline var name: Span
        /// The name as written (the same span as `name` when it has no lower-case letter).
        @usableFromInline var writtenName: Span
        @usableFromInline var value: Span
        @usableFromInline var firstParameter: Int
        @usableFromInline var parameterCount: Int
        @usableFromInline var line: Int

        @usableFromInline
        init(
            group: Span, name: Span, writtenName: Span? = nil, value: Span, firstParameter: Int, parameterCount: Int,
            line: Int
        ) {
            self.group = group
            self.name = name
            self.writtenName = writtenName ?? name
            self.value = value
            self.firstParameter = firstParameter
            self.parameterCount = parameterCount
            self.line = line
        }
    }

    @usableFromInline struct ParameterRecord: Hashable, Sendable {
        @usableFromInline var name: Span
        @usableFromInline var firstValue: Int
        @usableFromInline var valueCount: Int
    }

    @usableFromInline var bytes: [UInt8]
    @usableFromInline var records: [LineRecord]
    @usableFromInline var parameters: [ParameterRecord]
    @usableFromInline var parameterValues: [Span]
    /// Whether some parameter value holds a `^` (so RFC 6868 decoding has work to do).
    var parameterValuesHoldCaret = false
    /// The legacy charsets the card's lines declare, in the order first declared.
    var declaredCharsets: [Charset] = []
    /// Values that are not UTF-8 and declare no charset, left as bytes until the card has ended.
    var undecided: [Undecided] = []

    /// The physical line of `BEGIN:VCARD`.
    public var beginLine: Int
    /// The physical line of `END:VCARD`, or nil when the card was cut short.
    public var endLine: Int?
    /// The group written on the BEGIN line (`home.begin:vcard`), if any.
    public var group: String?
    /// The byte offsets of the card in the input (from BEGIN to the end of the END line terminator).
    public var byteRange: Range<Int>
    /// Whether the lexer found an error on the card's lines, reported or not: one problem on line after line is
    /// reported a hundred times, and a card past those must still be told from one read whole.
    package var hadErrors = false
    /// The first error the lexer found on the card's lines, reported or not (nil without one): what a command
    /// that leaves the card out says of it.
    package var firstError: Diagnostic?

    init(beginLine: Int, group: String?, capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
        records = []
        records.reserveCapacity(32)
        parameters = []
        parameters.reserveCapacity(32)
        parameterValues = []
        parameterValues.reserveCapacity(32)
        self.beginLine = beginLine
        endLine = nil
        self.group = group
        byteRange = 0..<0
    }

    /// Creates a card holding `lines` (a card built in memory rather than lexed).
    public init(
        lines: [ContentLine], beginLine: Int = 0, endLine: Int? = nil, group: String? = nil,
        byteRange: Range<Int> = 0..<0
    ) {
        self.init(beginLine: beginLine, group: group, capacity: 0)
        self.endLine = endLine
        self.byteRange = byteRange
        for line in lines { append(line) }
    }

    /// Where the card is, without its lines: its BEGIN and END lines, group and bytes.
    package var position: RawCard {
        // Built without the room a card being lexed reserves for its lines (4 KB a card, kept for as long as the
        // position is: a merge holds one for every incoming card).
        var card = self
        card.bytes = []
        card.records = []
        card.parameters = []
        card.parameterValues = []
        card.parameterValuesHoldCaret = false
        card.declaredCharsets = []
        card.undecided = []
        return card
    }

    /// The number of content lines.
    public var count: Int { records.count }

    /// The content lines in source order, without BEGIN and END.
    public var lines: [ContentLine] {
        withView { view in (0..<view.count).map { view[$0].contentLine } }
    }

    /// Calls `body` with a view that reads the lines in place; the view must not escape the call.
    @inlinable
    public func withView<R>(_ body: (View) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { b in
            try records.withUnsafeBufferPointer { r in
                try parameters.withUnsafeBufferPointer { p in
                    try parameterValues.withUnsafeBufferPointer { v in
                        try body(View(bytes: b, records: r, parameters: p, values: v))
                    }
                }
            }
        }
    }

    // MARK: Building

    mutating func appendBytes(_ source: UnsafeBufferPointer<UInt8>) -> Span {
        let start = bytes.count
        bytes.append(contentsOf: source)
        return Span(start: start, end: bytes.count)
    }

    mutating func appendBytes(_ text: String) -> Span {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        return Span(start: start, end: bytes.count)
    }

    mutating func appendBytes(_ text: StaticString) -> Span {
        appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a ContentLine as it stands (names are upper-cased as the lexer would, and kept as written).
    mutating func append(_ line: ContentLine) {
        let group = line.group.map { appendBytes($0) } ?? .none
        let upper = line.name.uppercased()
        let name = appendBytes(upper)
        let written = upper == line.name ? name : appendBytes(line.name)
        let first = parameters.count
        for parameter in line.parameters {
            let pName = appendBytes(parameter.name.uppercased())
            let firstValue = parameterValues.count
            for value in parameter.values { parameterValues.append(appendBytes(value)) }
            parameters.append(ParameterRecord(name: pName, firstValue: firstValue, valueCount: parameter.values.count))
        }
        let value = appendBytes(line.value)
        records.append(
            LineRecord(
                group: group, name: name, writtenName: written, value: value, firstParameter: first,
                parameterCount: parameters.count - first, line: line.line))
    }

    /// Notes a charset a line declares, for the card's other 8-bit text.
    mutating func noteDeclared(_ charset: Charset) {
        if !charset.isUTF8 && !declaredCharsets.contains(charset) { declaredCharsets.append(charset) }
    }

    /// Replaces the value of line `index` with `text`.
    mutating func setValue(_ index: Int, _ text: String) {
        records[index].value = appendBytes(text)
    }
}

extension RawCard: Hashable {
    public static func == (a: RawCard, b: RawCard) -> Bool {
        a.beginLine == b.beginLine && a.endLine == b.endLine && a.group == b.group && a.byteRange == b.byteRange
            && a.lines == b.lines
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(beginLine)
        hasher.combine(lines)
    }
}

extension RawCard {
    /// The lines of a card read in place. Valid only inside `RawCard.withView`.
    public struct View {
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
        @usableFromInline let records: UnsafeBufferPointer<LineRecord>
        @usableFromInline let parameters: UnsafeBufferPointer<ParameterRecord>
        @usableFromInline let values: UnsafeBufferPointer<Span>

        @usableFromInline
        init(
            bytes: UnsafeBufferPointer<UInt8>, records: UnsafeBufferPointer<LineRecord>,
            parameters: UnsafeBufferPointer<ParameterRecord>, values: UnsafeBufferPointer<Span>
        ) {
            self.bytes = bytes
            self.records = records
            self.parameters = parameters
            self.values = values
        }

        /// The number of content lines.
        @inlinable
        public var count: Int { records.count }

        /// The line at `index`.
        @inlinable
        public subscript(index: Int) -> Line { Line(view: self, record: records[index]) }
    }

    /// One content line read in place: byte-level accessors, and Strings only when asked for.
    public struct Line {
        @usableFromInline let view: View
        @usableFromInline let record: LineRecord

        @usableFromInline
        init(view: View, record: LineRecord) {
            self.view = view
            self.record = record
        }

        @inlinable
        func slice(_ span: Span) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: view.bytes[span.start..<span.end])
        }

        /// The 1-based physical line the content line starts on.
        @inlinable
        public var line: Int { record.line }
        /// The name's bytes, upper-cased.
        @inlinable
        public var nameBytes: UnsafeBufferPointer<UInt8> { slice(record.name) }
        /// The property name, upper-cased.
        @inlinable
        public var name: String { String(decoding: nameBytes, as: UTF8.self) }
        /// The property name as the card wrote it (`X-messaging/xmpp-All`): names are case-insensitive, but an
        /// application may look its own up by these bytes.
        @inlinable
        public var writtenName: String { String(decoding: slice(record.writtenName), as: UTF8.self) }
        /// Whether the name is `upper` (an upper-case ASCII name).
        @inlinable
        public func nameIs(_ upper: StaticString) -> Bool { nameBytes.isEqual(to: upper) }
        /// Whether the line has a group.
        @inlinable
        public var hasGroup: Bool { record.group.start >= 0 }
        /// The group's bytes (empty when there is none).
        @inlinable
        public var groupBytes: UnsafeBufferPointer<UInt8> {
            hasGroup ? slice(record.group) : UnsafeBufferPointer(start: nil, count: 0)
        }
        /// The group, if any.
        @inlinable
        public var group: String? { hasGroup ? String(decoding: slice(record.group), as: UTF8.self) : nil }
        /// The value's bytes: unfolded, transfer-decoded, still escaped.
        @inlinable
        public var valueBytes: UnsafeBufferPointer<UInt8> { slice(record.value) }
        /// The value as text, still escaped.
        @inlinable
        public var value: String { String(decoding: valueBytes, as: UTF8.self) }
        /// The number of parameters.
        @inlinable
        public var parameterCount: Int { record.parameterCount }

        /// The name's bytes of parameter `index` (upper-cased).
        @inlinable
        public func parameterNameBytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            slice(view.parameters[record.firstParameter + index].name)
        }

        /// Whether parameter `index` is named `upper`.
        @inlinable
        public func parameterNameIs(_ index: Int, _ upper: StaticString) -> Bool {
            parameterNameBytes(index).isEqual(to: upper)
        }

        /// The number of values of parameter `index`.
        @inlinable
        public func parameterValueCount(_ index: Int) -> Int {
            view.parameters[record.firstParameter + index].valueCount
        }

        /// The bytes of value `valueIndex` of parameter `index`.
        @inlinable
        public func parameterValueBytes(_ index: Int, _ valueIndex: Int) -> UnsafeBufferPointer<UInt8> {
            slice(view.values[view.parameters[record.firstParameter + index].firstValue + valueIndex])
        }

        /// Parameter `index` as a value.
        @inlinable
        public func parameter(at index: Int) -> Parameter {
            let record = view.parameters[self.record.firstParameter + index]
            var values: [String] = []
            values.reserveCapacity(record.valueCount)
            for v in 0..<record.valueCount {
                values.append(String(decoding: slice(view.values[record.firstValue + v]), as: UTF8.self))
            }
            return Parameter(name: String(decoding: slice(record.name), as: UTF8.self), values: values)
        }

        /// Every parameter, in source order.
        @inlinable
        public var parameters: [Parameter] { (0..<parameterCount).map { parameter(at: $0) } }

        /// The line as a `ContentLine` value.
        @inlinable
        public var contentLine: ContentLine {
            ContentLine(group: group, name: name, parameters: parameters, value: value, line: line)
        }
    }
}
