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

    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int, limits: Limits) {
        group = nil
        name = nil
        valueStart = nil
        self.line = line
        if !problems.isEmpty { problems.removeAll() }
        parameterNames.removeAll(keepingCapacity: true)
        parameterBare.removeAll(keepingCapacity: true)
        parameterValueStart.removeAll(keepingCapacity: true)
        valueRanges.removeAll(keepingCapacity: true)

        var index = range.lowerBound
        let end = range.upperBound
        var nameStart = index
        // Name, with an optional group before a dot.
        while index < end {
            let byte = bytes[index]
            if byte == ASCII.colon || byte == ASCII.semicolon { break }
            if byte == ASCII.dot && group == nil {
                group = nameStart..<index
                nameStart = index + 1
            }
            index += 1
        }
        name = nameStart..<index
        // Parameters.
        while index < end && bytes[index] == ASCII.semicolon {
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
                        problems.append(Diagnostic(.warning, .unterminatedQuote,
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
        if parameterNames.count == limits.maxParameters {
            problems.append(Diagnostic(.warning, .tooManyParameters,
                                       "more than \(limits.maxParameters) parameters; the rest were ignored",
                                       line: line))
        }
        guard parameterNames.count < limits.maxParameters else { return false }
        parameterNames.append(name)
        parameterBare.append(bare)
        parameterValueStart.append(valueRanges.count)
        return true
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper && ASCII.isSpaceOrTab(bytes[lower]) { lower += 1 }
        while upper > lower && ASCII.isSpaceOrTab(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    @inline(__always)
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        return TextDecoding.utf8String(slice) ?? TextDecoding.windows1252(slice)
    }

    /// Builds the content line, decoding quoted-printable and CHARSET; nil when the line is unusable.
    func makeContentLine(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                         diagnostics: inout [Diagnostic]) -> ContentLine?
    {
        diagnostics += problems
        guard let valueStart else {
            if let name, name.upperBound == range.upperBound, parameterNames.isEmpty, Self.isNameToken(bytes, name) {
                // Old Evolution writes an empty property as its bare name (`FN`): read it as an empty value.
                diagnostics.append(Diagnostic(.warning, .missingColon,
                                              "expected `NAME:value`, found a bare name; read as an empty value",
                                              line: line, column: range.count + 1))
                return ContentLine(group: group.map { Self.string(bytes, $0) }, name: Self.upperString(bytes, name),
                                   parameters: [], value: "", line: line)
            }
            diagnostics.append(Diagnostic(.error, .missingColon,
                                          "expected `NAME:value`, found a line with no colon; the line was skipped",
                                          line: line, column: range.count + 1))
            return nil
        }
        guard let name, !Self.trimmed(bytes, name).isEmpty else {
            diagnostics.append(Diagnostic(.error, .missingName,
                                          "expected a property name before the colon; the line was skipped",
                                          line: line))
            return nil
        }
        var nameString = Self.upperString(bytes, Self.trimmed(bytes, name))
        if !Self.isNameToken(bytes, Self.trimmed(bytes, name)) {
            // Names are letters, digits and dashes (RFC 2425 5.8.2); anything else would not survive a
            // reader that follows the grammar, so it is written as a dash from the start.
            let cleaned = String(nameString.unicodeScalars.map { scalar -> Character in
                let v = scalar.value
                return (v >= 0x41 && v <= 0x5A) || (v >= 0x30 && v <= 0x39) || v == 0x2D ? Character(scalar) : "-"
            })
            diagnostics.append(Diagnostic(.warning, .invalidValue,
                                          "property name `\(nameString)` has characters names cannot hold; read as `\(cleaned)`",
                                          line: line))
            nameString = cleaned
        }
        let groupString = group.map { Self.string(bytes, $0) }

        var params: [Parameter] = []
        var quotedPrintable = false
        var base64 = false
        var charset: String?
        if !parameterNames.isEmpty { params.reserveCapacity(parameterNames.count) }
        for p in parameterNames.indices {
            let pName = parameterNames[p]
            if parameterBare[p] {
                let word = Self.upperString(bytes, pName)
                switch word {
                case "QUOTED-PRINTABLE":
                    quotedPrintable = true
                case "BASE64", "B":
                    base64 = true
                    params.append(Parameter("ENCODING", word == "B" ? "b" : "BASE64"))
                case "8BIT", "7BIT":
                    break
                default:
                    // vCard 2.1 bare parameters are TYPE values (`TEL;WORK;VOICE:`).
                    params.append(Parameter("TYPE", Self.string(bytes, pName)))
                }
                continue
            }
            let upperName = Self.upperString(bytes, pName)
            let valueEnd = p + 1 < parameterValueStart.count ? parameterValueStart[p + 1] : valueRanges.count
            var values: [String] = []
            values.reserveCapacity(valueEnd - parameterValueStart[p])
            for v in parameterValueStart[p]..<valueEnd { values.append(Self.string(bytes, valueRanges[v])) }
            switch upperName {
            case "ENCODING":
                let encoding = (values.first ?? "").uppercased()
                if encoding == "QUOTED-PRINTABLE" || encoding == "QP" {
                    quotedPrintable = true
                    continue
                }
                if encoding == "8BIT" || encoding == "7BIT" { continue }
                if encoding == "BASE64" || encoding == "B" { base64 = true }
            case "CHARSET":
                charset = values.first
                continue
            default:
                break
            }
            params.append(Parameter(name: upperName, values: values))
        }

        let valueRange = valueStart..<range.upperBound
        var text: String
        if quotedPrintable {
            var qpProblem = false
            let decoded = QuotedPrintable.decode(bytes, valueRange, malformed: &qpProblem)
            if qpProblem {
                let dangling = valueRange.count > 0 && bytes[valueRange.upperBound - 1] == ASCII.equals
                let message = dangling
                    ? "quoted-printable \(nameString) ends with a soft line break at the end of the input; the `=` was dropped"
                    : "quoted-printable \(nameString) has an `=` not followed by two hex digits; it was kept as written"
                diagnostics.append(Diagnostic(.warning, .invalidQuotedPrintable, message,
                                              line: line, column: valueStart - range.lowerBound + 1))
            }
            let result = decoded.withUnsafeBufferPointer { TextDecoding.decode($0, charset: charset) }
            text = result.text
            if let problem = result.problem {
                diagnostics.append(Diagnostic(.warning, problem, "\(nameString): \(result.detail ?? "")", line: line,
                                              column: valueStart - range.lowerBound + 1))
            }
        } else if base64 {
            var stripped = [UInt8]()
            stripped.reserveCapacity(valueRange.count)
            for index in valueRange where !ASCII.isSpaceOrTab(bytes[index]) && bytes[index] != ASCII.cr
                && bytes[index] != ASCII.lf
            {
                stripped.append(bytes[index])
            }
            text = String(decoding: stripped, as: UTF8.self)
        } else {
            let result = TextDecoding.decode(UnsafeBufferPointer(rebasing: bytes[valueRange]), charset: charset)
            text = result.text
            if let problem = result.problem {
                diagnostics.append(Diagnostic(.warning, problem, "\(nameString): \(result.detail ?? "")", line: line,
                                              column: valueStart - range.lowerBound + 1))
            }
        }
        return ContentLine(group: groupString, name: nameString, parameters: params, value: text, line: line)
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
                    // A trailing `=` is a soft break with nothing after it (the value ended at EOF).
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
