// Over 400 lines on purpose: one byte-level state machine for a content line (group, name, parameters,
// value), hot and allocation-free; splitting its states apart would cost a call per byte.

/// Parses one unfolded logical line, on bytes: `[group "."] name *(";" param) ":" value`.
///
/// One parser is reused for every line of a lexer, so its scratch arrays are allocated once.
struct ContentLineParser {
    var group: Range<Int>?
    var name: Range<Int>?
    var valueStart: Int?
    var line = 0
    var problems: [Diagnostic] = []
    // Parameters, flattened: parameter i has name `parameterNames[i]` and values
    // `valueRanges[parameterValueStart[i]..<parameterValueStart[i + 1]]` (none for a bare one).
    private var parameterNames: [Range<Int>] = []
    private var parameterBare: [Bool] = []
    private var parameterValueStart: [Int] = []
    private var valueRanges: [Range<Int>] = []
    /// Whether this line already said it has too many parameters: once a line, not once per extra parameter
    /// (a million parameters must not become a million diagnostics).
    private var reportedParameterLimit = false

    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int, limits: Limits) {
        group = nil
        name = nil
        valueStart = nil
        self.line = line
        if !problems.isEmpty { problems.removeAll() }
        reportedParameterLimit = false
        if !parameterNames.isEmpty {
            parameterNames.removeAll(keepingCapacity: true)
            parameterBare.removeAll(keepingCapacity: true)
            parameterValueStart.removeAll(keepingCapacity: true)
        }
        if !valueRanges.isEmpty { valueRanges.removeAll(keepingCapacity: true) }

        var index = range.lowerBound
        let end = range.upperBound
        var nameStart = index
        // Name, with an optional group before a dot. A comma ends it too: no writer means a comma in a name, and
        // `LABEL,TYPE=HOME:` is a LABEL whose writer typed `,` for the `;` before its parameters.
        while index < end {
            let byte = bytes[index]
            if byte == ASCII.colon || byte == ASCII.semicolon || byte == ASCII.comma { break }
            if byte == ASCII.dot && group == nil {
                group = nameStart..<index
                nameStart = index + 1
            }
            index += 1
        }
        name = nameStart..<index
        let nameEnd = index
        if index < end && bytes[index] == ASCII.comma {
            problems.append(
                Diagnostic(
                    .warning, .invalidValue, "a comma follows the property name; read as the `;` before a parameter",
                    line: line, column: index - range.lowerBound + 1))
        }
        // Parameters (the first may follow a comma, as above).
        while index < end && (bytes[index] == ASCII.semicolon || (index == nameEnd && bytes[index] == ASCII.comma)) {
            index += 1
            let pStart = index
            while index < end {
                let byte = bytes[index]
                if byte == ASCII.equals || byte == ASCII.semicolon || byte == ASCII.colon { break }
                index += 1
            }
            let pName = Self.trimmed(bytes, pStart..<index)
            guard index < end, bytes[index] == ASCII.equals else {
                if !pName.isEmpty { beginParameter(pName, bare: true, limits: limits) }
                continue
            }
            index += 1
            let keep = !pName.isEmpty && beginParameter(pName, bare: false, limits: limits)
            while true {
                var valueRange: Range<Int>
                if index < end && bytes[index] == ASCII.quote {
                    let qStart = index + 1
                    var close = qStart
                    while close < end && bytes[close] != ASCII.quote { close += 1 }
                    if close < end {
                        valueRange = qStart..<close
                        index = close + 1
                        // Anything between the closing quote and the next separator is kept with the value.
                        while index < end, bytes[index] != ASCII.comma, bytes[index] != ASCII.semicolon,
                            bytes[index] != ASCII.colon
                        {
                            index += 1
                        }
                        if index > close + 1 { valueRange = qStart..<index }
                    } else {
                        problems.append(
                            Diagnostic(
                                .warning, .unterminatedQuote,
                                "parameter value has no closing quote", line: line,
                                column: index - range.lowerBound + 1))
                        let vStart = index + 1
                        index = vStart
                        while index < end, bytes[index] != ASCII.comma, bytes[index] != ASCII.semicolon,
                            bytes[index] != ASCII.colon
                        {
                            index += 1
                        }
                        valueRange = vStart..<index
                    }
                } else {
                    let vStart = index
                    while index < end, bytes[index] != ASCII.comma, bytes[index] != ASCII.semicolon,
                        bytes[index] != ASCII.colon
                    {
                        index += 1
                    }
                    valueRange = vStart..<index
                }
                if keep { valueRanges.append(valueRange) }
                if index < end && bytes[index] == ASCII.comma {
                    index += 1
                    continue
                }
                break
            }
        }
        if index < end && bytes[index] == ASCII.colon { valueStart = index + 1 }
    }

    @discardableResult
    private mutating func beginParameter(_ name: Range<Int>, bare: Bool, limits: Limits) -> Bool {
        guard parameterNames.count < limits.maxParameters else {
            if !reportedParameterLimit {
                reportedParameterLimit = true
                problems.append(
                    Diagnostic(
                        .warning, .tooManyParameters,
                        "more than \(limits.maxParameters) parameters; the rest were ignored",
                        line: line))
            }
            return false
        }
        parameterNames.append(name)
        parameterBare.append(bare)
        parameterValueStart.append(valueRanges.count)
        return true
    }

    /// `range` without the spaces and tabs around it.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper && ASCII.isSpaceOrTab(bytes[lower]) { lower += 1 }
        while upper > lower && ASCII.isSpaceOrTab(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The transfer encoding the parsed line's parameters ask for: a bare `QUOTED-PRINTABLE`, `BASE64` or `B`
    /// (vCard 2.1), or an `ENCODING` whose first value is one of those or `QP`, case aside. The lexer asks
    /// before it joins continuation lines, so it joins exactly the lines `emit` decodes.
    func transferEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> (quotedPrintable: Bool, base64: Bool) {
        var quotedPrintable = false
        var base64 = false
        for p in parameterNames.indices {
            let name = UnsafeBufferPointer(rebasing: bytes[parameterNames[p]])
            let word: UnsafeBufferPointer<UInt8>
            if parameterBare[p] {
                word = name
            } else if name.isEqualIgnoringCase(to: "ENCODING") {
                let valueEnd = p + 1 < parameterValueStart.count ? parameterValueStart[p + 1] : valueRanges.count
                guard parameterValueStart[p] < valueEnd else { continue }
                word = UnsafeBufferPointer(rebasing: bytes[valueRanges[parameterValueStart[p]]])
                if word.isEqualIgnoringCase(to: "QP") { quotedPrintable = true }
            } else {
                continue
            }
            if word.isEqualIgnoringCase(to: "QUOTED-PRINTABLE") {
                quotedPrintable = true
            } else if word.isEqualIgnoringCase(to: "BASE64") || word.isEqualIgnoringCase(to: "B") {
                base64 = true
            }
        }
        return (quotedPrintable, base64)
    }

    /// Whether `emit` would take the parsed line without a word: nothing found while parsing it, and a property
    /// name (`trimmedName`) and parameter names kept as written. A line left out of a card must not take a
    /// warning with it: the log counts runs of one problem, and a warning ends a run.
    func emitsQuietly(_ bytes: UnsafeBufferPointer<UInt8>, name trimmedName: Range<Int>) -> Bool {
        guard problems.isEmpty, Self.isSafeName(bytes, trimmedName) else { return false }
        for p in parameterNames.indices where !parameterBare[p] && !Self.isSafeName(bytes, parameterNames[p]) {
            return false
        }
        return true
    }

    /// Whether the parsed line declares a CHARSET or quoted-printable, as `emit` reads its parameters: such a line
    /// weighs in its card's charset decision even when its bytes are ASCII.
    func declaresCharsetOrQuotedPrintable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for p in parameterNames.indices {
            let word = UnsafeBufferPointer(rebasing: bytes[parameterNames[p]])
            if parameterBare[p] {
                if word.isEqualIgnoringCase(to: "QUOTED-PRINTABLE") { return true }
                continue
            }
            if word.isEqualIgnoringCase(to: "CHARSET") { return true }
            guard word.isEqualIgnoringCase(to: "ENCODING") else { continue }
            let valueEnd = p + 1 < parameterValueStart.count ? parameterValueStart[p + 1] : valueRanges.count
            guard parameterValueStart[p] < valueEnd else { continue }
            let first = UnsafeBufferPointer(rebasing: bytes[valueRanges[parameterValueStart[p]]])
            if first.isEqualIgnoringCase(to: "QUOTED-PRINTABLE") || first.isEqualIgnoringCase(to: "QP") { return true }
        }
        return false
    }

    /// Appends the parsed line to `card`, decoding quoted-printable and CHARSET; false when the line is
    /// unusable (reported in `diagnostics`).
    ///
    /// The line's bytes are copied into the card once; names are upper-cased there in place, and only a
    /// value or parameter that needs transcoding is appended again in its decoded form.
    func emit(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into card: inout RawCard,
        diagnostics: inout [Diagnostic]
    ) -> Bool {
        if !problems.isEmpty { diagnostics += problems }
        guard let valueStart else {
            if let name, name.upperBound == range.upperBound, parameterNames.isEmpty, Self.isNameToken(bytes, name) {
                // Old Evolution writes an empty property as its bare name (`FN`): read it as an empty value.
                diagnostics.append(
                    Diagnostic(
                        .warning, .missingColon,
                        "expected `NAME:value`, found a bare name; read as an empty value",
                        line: line, column: range.count + 1))
                let base = card.bytes.count - range.lowerBound
                _ = card.appendBytes(UnsafeBufferPointer(rebasing: bytes[range]))
                let groupSpan =
                    group.map { readGroup(bytes, $0, base: base, into: &card, diagnostics: &diagnostics) }
                    ?? .none
                let nameSpan = RawCard.Span(start: name.lowerBound + base, end: name.upperBound + base)
                Self.upperInPlace(&card.bytes, nameSpan)
                let empty = RawCard.Span(start: card.bytes.count, end: card.bytes.count)
                card.records.append(
                    RawCard.LineRecord(
                        group: groupSpan, name: nameSpan, value: empty,
                        firstParameter: card.parameters.count, parameterCount: 0,
                        line: line))
                return true
            }
            diagnostics.append(
                Diagnostic(
                    .error, .missingColon,
                    "expected `NAME:value`, found a line with no colon; the line was skipped",
                    line: line, column: range.count + 1))
            return false
        }
        guard let name, !Self.trimmed(bytes, name).isEmpty else {
            diagnostics.append(
                Diagnostic(
                    .error, .missingName,
                    "expected a property name before the colon; the line was skipped",
                    line: line))
            return false
        }
        let lineStart = card.bytes.count
        let base = lineStart - range.lowerBound
        _ = card.appendBytes(UnsafeBufferPointer(rebasing: bytes[range]))
        let trimmedName = Self.trimmed(bytes, name)
        var nameSpan = RawCard.Span(start: trimmedName.lowerBound + base, end: trimmedName.upperBound + base)
        var writtenName = nameSpan
        // Most names are written in upper case already: only those with a lower-case letter are touched.
        if Self.hasLowerCase(bytes, trimmedName) {
            writtenName = card.appendBytes(UnsafeBufferPointer(rebasing: bytes[trimmedName]))
            Self.upperInPlace(&card.bytes, nameSpan)
        }
        if !Self.isSafeName(bytes, trimmedName) {
            nameSpan = cleanedNameSpan(
                bytes, trimmedName, kind: "property name", into: &card,
                diagnostics: &diagnostics)
            writtenName = nameSpan
        }
        let groupSpan = group.map { readGroup(bytes, $0, base: base, into: &card, diagnostics: &diagnostics) } ?? .none

        let firstParameter = card.parameters.count
        var quotedPrintable = false
        var base64 = false
        var charset: Range<Int>?
        for p in parameterNames.indices {
            let pName = parameterNames[p]
            var nameInCard = RawCard.Span(start: pName.lowerBound + base, end: pName.upperBound + base)
            if parameterBare[p] {
                let word = UnsafeBufferPointer(rebasing: bytes[pName])
                if word.isEqualIgnoringCase(to: "QUOTED-PRINTABLE") {
                    quotedPrintable = true
                } else if word.isEqualIgnoringCase(to: "BASE64") || word.isEqualIgnoringCase(to: "B") {
                    base64 = true
                    let encodingName = card.appendBytes("ENCODING")
                    let value = word.count == 1 ? card.appendBytes("b") : card.appendBytes("BASE64")
                    card.parameterValues.append(value)
                    card.parameters.append(
                        RawCard.ParameterRecord(
                            name: encodingName,
                            firstValue: card.parameterValues.count - 1,
                            valueCount: 1))
                } else if word.isEqualIgnoringCase(to: "8BIT") || word.isEqualIgnoringCase(to: "7BIT") {
                    continue
                } else {
                    // vCard 2.1 bare parameters are TYPE values (`TEL;WORK;VOICE:`).
                    let typeName = card.appendBytes("TYPE")
                    card.parameterValues.append(decodedSpan(bytes, pName, base: base, into: &card, of: nameSpan))
                    card.parameters.append(
                        RawCard.ParameterRecord(
                            name: typeName,
                            firstValue: card.parameterValues.count - 1,
                            valueCount: 1))
                }
                continue
            }
            let valueEnd = p + 1 < parameterValueStart.count ? parameterValueStart[p + 1] : valueRanges.count
            let valueBegin = parameterValueStart[p]
            let nameBytes = UnsafeBufferPointer(rebasing: bytes[pName])
            if nameBytes.isEqualIgnoringCase(to: "ENCODING") {
                let first =
                    valueBegin < valueEnd
                    ? UnsafeBufferPointer(rebasing: bytes[valueRanges[valueBegin]])
                    : UnsafeBufferPointer(rebasing: bytes[pName.upperBound..<pName.upperBound])
                if first.isEqualIgnoringCase(to: "QUOTED-PRINTABLE") || first.isEqualIgnoringCase(to: "QP") {
                    quotedPrintable = true
                    continue
                }
                if first.isEqualIgnoringCase(to: "8BIT") || first.isEqualIgnoringCase(to: "7BIT") { continue }
                if first.isEqualIgnoringCase(to: "BASE64") || first.isEqualIgnoringCase(to: "B") { base64 = true }
            } else if nameBytes.isEqualIgnoringCase(to: "CHARSET") {
                if valueBegin < valueEnd { charset = valueRanges[valueBegin] }
                continue
            }
            if Self.hasLowerCase(bytes, pName) { Self.upperInPlace(&card.bytes, nameInCard) }
            if !Self.isSafeName(bytes, pName) {
                // Read as written back: a name that kept a character it cannot hold could be written as
                // another (`ENCODIN\u{CD}G` as `ENCODING`) and mean something else when read again.
                nameInCard = cleanedNameSpan(
                    bytes, pName, kind: "parameter name", into: &card,
                    diagnostics: &diagnostics)
            }
            let firstValue = card.parameterValues.count
            for v in valueBegin..<valueEnd {
                card.parameterValues.append(decodedSpan(bytes, valueRanges[v], base: base, into: &card, of: nameSpan))
            }
            card.parameters.append(
                RawCard.ParameterRecord(
                    name: nameInCard, firstValue: firstValue,
                    valueCount: valueEnd - valueBegin))
        }

        let valueRange = valueStart..<range.upperBound
        let column = valueStart - range.lowerBound + 1
        var valueSpan = RawCard.Span(start: valueStart + base, end: range.upperBound + base)
        let charsetName = charset.map { TextDecoding.string(bytes, $0) }
        if let declared = charsetName.flatMap(Charset.init(named:)) { card.noteDeclared(declared) }
        if quotedPrintable {
            var qpProblem = false
            let decoded = QuotedPrintable.decode(bytes, valueRange, malformed: &qpProblem)
            if qpProblem {
                let dangling = valueRange.count > 0 && bytes[valueRange.upperBound - 1] == ASCII.equals
                let message =
                    dangling
                    ? "quoted-printable \(Self.text(of: nameSpan, in: card)) ends with a soft line break (`=`) with no line of the card after it; the `=` was dropped"
                    : "quoted-printable \(Self.text(of: nameSpan, in: card)) has an `=` not followed by two hex digits; it was kept as written"
                diagnostics.append(Diagnostic(.warning, .invalidQuotedPrintable, message, line: line, column: column))
            }
            let result = decoded.withUnsafeBufferPointer { TextDecoding.decode($0, charset: charsetName) }
            report(result, nameSpan, card, column: column, into: &diagnostics)
            if let text = result.text {
                valueSpan = card.appendBytes(text)
            } else {
                valueSpan = decoded.withUnsafeBufferPointer { card.appendBytes($0) }
                card.undecided.append(
                    .init(
                        place: .value(card.records.count), line: line, column: column,
                        name: Self.text(of: nameSpan, in: card)))
            }
        } else if base64 {
            // Base64 may hold folding white space; squeeze it out in place, from the first byte that might be.
            valueSpan.end = card.bytes.withUnsafeMutableBufferPointer { b in
                let first = Self.firstControlOrSpace(UnsafeBufferPointer(b), from: valueSpan.start, to: valueSpan.end)
                var write = first
                for read in first..<valueSpan.end {
                    let byte = b[read]
                    if !ASCII.isSpaceOrTab(byte) && byte != ASCII.cr && byte != ASCII.lf {
                        b[write] = byte
                        write += 1
                    }
                }
                return write
            }
        } else if charsetName == nil, TextDecoding.isUTF8(UnsafeBufferPointer(rebasing: bytes[valueRange])) {
            // The common case: the value stays where it was copied.
        } else {
            let result = TextDecoding.decode(UnsafeBufferPointer(rebasing: bytes[valueRange]), charset: charsetName)
            report(result, nameSpan, card, column: column, into: &diagnostics)
            if let text = result.text {
                valueSpan = card.appendBytes(text)
            } else {
                // Left where it was copied, as bytes, for the card's decision.
                card.undecided.append(
                    .init(
                        place: .value(card.records.count), line: line, column: column,
                        name: Self.text(of: nameSpan, in: card)))
            }
        }
        card.records.append(
            RawCard.LineRecord(
                group: groupSpan, name: nameSpan, writtenName: writtenName, value: valueSpan,
                firstParameter: firstParameter,
                parameterCount: card.parameters.count - firstParameter, line: line))
        return true
    }

    private func report(
        _ result: TextDecoding.Result, _ nameSpan: RawCard.Span, _ card: RawCard, column: Int,
        into diagnostics: inout [Diagnostic]
    ) {
        guard let problem = result.problem else { return }
        let nameString = String(decoding: card.bytes[nameSpan.start..<nameSpan.end], as: UTF8.self)
        diagnostics.append(
            Diagnostic(
                .warning, problem, "\(nameString): \(result.detail ?? "")", line: line,
                column: column))
    }

    /// The span in `card` of a line's group, which is a name too: a character a name cannot hold is read as a
    /// dash, since the writer could not keep it, and dropping it could join the line to another group
    /// (`it\u{CD}em1` would become `item1`). An empty group (`.N:`) is none, as the writer writes it.
    private func readGroup(
        _ bytes: UnsafeBufferPointer<UInt8>, _ group: Range<Int>, base: Int,
        into card: inout RawCard, diagnostics: inout [Diagnostic]
    ) -> RawCard.Span {
        if group.isEmpty { return .none }
        if Self.isSafeName(bytes, group) { return decodedSpan(bytes, group, base: base, into: &card) }
        return cleanedNameSpan(bytes, group, kind: "group", upperCased: false, into: &card, diagnostics: &diagnostics)
    }

    /// The span of a name that holds characters names cannot hold, cleaned as `cleanedName` does and appended,
    /// with a warning that says how it was read.
    private func cleanedNameSpan(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, kind: String,
        upperCased: Bool = true, into card: inout RawCard,
        diagnostics: inout [Diagnostic]
    ) -> RawCard.Span {
        let (written, cleaned) = Self.cleanedName(bytes, range, upperCased: upperCased)
        diagnostics.append(
            Diagnostic(
                .warning, .invalidValue,
                "\(kind) `\(written)` has characters names cannot hold; read as `\(cleaned)`",
                line: line))
        return card.appendBytes(cleaned)
    }

    /// The span in `card` of a parameter value (or group): in place; a parameter value that is not UTF-8 waits
    /// for the card's charset decision like a value.
    private func decodedSpan(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, base: Int,
        into card: inout RawCard, of property: RawCard.Span = .none
    ) -> RawCard.Span {
        let source = UnsafeBufferPointer(rebasing: bytes[range])
        if source.containsByte(ASCII.caret) { card.parameterValuesHoldCaret = true }
        if !TextDecoding.isUTF8(source) {
            // The caller appends the span to `parameterValues` next.
            let owner =
                property.start >= 0 ? String(decoding: card.bytes[property.start..<property.end], as: UTF8.self) : ""
            card.undecided.append(
                .init(
                    place: .parameter(card.parameterValues.count), line: line,
                    column: 1, name: owner + " parameter"))
        }
        return RawCard.Span(start: range.lowerBound + base, end: range.upperBound + base)
    }

    /// The text of a span of the card (a name, for a message).
    static func text(of span: RawCard.Span, in card: RawCard) -> String {
        String(decoding: card.bytes[span.start..<span.end], as: UTF8.self)
    }

    @inline(__always)
    private static func hasLowerCase(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        for index in range where bytes[index] >= 0x61 && bytes[index] <= 0x7A { return true }
        return false
    }

    private static func upperInPlace(_ bytes: inout [UInt8], _ span: RawCard.Span) {
        bytes.withUnsafeMutableBufferPointer { b in
            for index in span.start..<span.end where b[index] >= 0x61 && b[index] <= 0x7A { b[index] &-= 0x20 }
        }
    }

    /// A name as written (upper-cased unless a group) and as read: a character that cannot be written back on a
    /// content line as it stands (a control character, a byte that is not UTF-8) is read as a dash, since the
    /// writer could not keep it.
    private static func cleanedName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, upperCased: Bool = true)
        -> (written: String, cleaned: String)
    {
        let written =
            upperCased
            ? upperString(bytes, range)
            : String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        let cleaned = String(
            written.unicodeScalars.map { scalar -> Character in
                scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{FFFD}" ? "-" : Character(scalar)
            })
        return (written, cleaned)
    }

    /// Whether a name (property, parameter or group) can be kept byte for byte: UTF-8 without control
    /// characters. The grammar's tokens (RFC 2425 5.8.2: letters, digits, dashes) are only what writers should
    /// write; applications name their own properties with more (`X-MESSAGING/XMPP-All`, `X-WAB-SPOUSE_NAME`)
    /// and look them up by those bytes, so any name the parser could delimit is kept as it was written.
    static func isSafeName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        // Printable ASCII is the common case, decided in one pass with one comparison a byte.
        var printable = true
        for index in range where bytes[index] &- 0x20 >= 0x5F {
            printable = false
            break
        }
        if printable { return true }
        for index in range where bytes[index] < 0x20 || bytes[index] == 0x7F { return false }
        return TextDecoding.isUTF8(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// The offset of the first byte at or below 0x20 (space, tab, CR, LF and other controls) in `bytes[start..<end]`,
    /// or `end`; base64 holds none, so a photo is passed over eight bytes at a time.
    @inline(__always)
    static func firstControlOrSpace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            while index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                // A byte below 0x21 sets its high bit in (word - 0x21..) & ~word (a byte of 0x80 or more never does).
                if (word &- 0x2121_2121_2121_2121) & ~word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
        }
        while index < end && bytes[index] > 0x20 { index += 1 }
        return index
    }

    private static func isNameToken(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty, range.count <= 256 else { return false }
        for index in range {
            let byte = ASCII.upper(bytes[index])
            if !((byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D) { return false }
        }
        return true
    }

    @inline(__always)
    static func upperString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var hasLower = false
        for index in range where bytes[index] >= 0x61 && bytes[index] <= 0x7A {
            hasLower = true
            break
        }
        if !hasLower { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        return String(unsafeUninitializedCapacity: range.count) { out in
            var i = 0
            for index in range {
                out[i] = ASCII.upper(bytes[index])
                i += 1
            }
            return range.count
        }
    }
}

/// Quoted-printable decoding (RFC 2045 section 6.7) of a value whose soft line breaks are already joined.
enum QuotedPrintable {
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, malformed: inout Bool) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == ASCII.equals {
                if index + 2 < range.upperBound, let high = ASCII.hexValue(bytes[index + 1]),
                    let low = ASCII.hexValue(bytes[index + 2])
                {
                    out.append(high << 4 | low)
                    index += 3
                    continue
                }
                if index == range.upperBound - 1 {
                    // A trailing `=` is a soft break with nothing after it (the input or the card ended).
                    malformed = true
                    index += 1
                    continue
                }
                malformed = true
            }
            out.append(byte)
            index += 1
        }
        return out
    }
}
