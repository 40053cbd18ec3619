// What the card assembler asks of the card it is building: the last line read, the version, and RFC 6868 carets.

extension RawCard {
    /// Whether the last line is named `upper`.
    func lastLineIs(_ upper: StaticString) -> Bool {
        guard let last = records.last else { return false }
        return bytes.withUnsafeBufferPointer {
            UnsafeBufferPointer(rebasing: $0[last.name.start..<last.name.end]).isEqual(to: upper)
        }
    }

    /// Whether the last line is named `upper` and has an empty value (an AGENT that a card follows).
    func lastLineIsEmpty(_ upper: StaticString) -> Bool {
        guard let last = records.last, last.value.count == 0 else { return false }
        return lastLineIs(upper)
    }

    /// Whether the last line's value starts with `byte`.
    func lastValueStarts(with byte: UInt8) -> Bool {
        guard let last = records.last, last.value.count > 0 else { return false }
        return bytes[last.value.start] == byte
    }

    /// Whether the first VERSION line says 2.x or 1.x (the reader too goes by the first).
    var versionStartsWith21: Bool {
        withView { view in
            for index in 0..<view.count where view[index].nameIs("VERSION") {
                let value = view[index].valueBytes
                return value.first == UInt8(ascii: "2") || value.first == UInt8(ascii: "1")
            }
            return false
        }
    }

    /// Decodes RFC 6868 `^` escapes in every parameter value, in place (the decoded form is never longer).
    mutating func decodeCaretsInParameters() {
        for index in parameterValues.indices {
            let span = parameterValues[index]
            var read = span.start
            while read < span.end && bytes[read] != ASCII.caret { read += 1 }
            if read == span.end { continue }
            var write = read
            while read < span.end {
                let byte = bytes[read]
                read += 1
                guard byte == ASCII.caret, read < span.end else {
                    bytes[write] = byte
                    write += 1
                    continue
                }
                let next = bytes[read]
                read += 1
                switch next {
                case UInt8(ascii: "n"), UInt8(ascii: "N"):
                    bytes[write] = ASCII.lf
                    write += 1
                case ASCII.caret:
                    bytes[write] = ASCII.caret
                    write += 1
                case UInt8(ascii: "'"):
                    bytes[write] = ASCII.quote
                    write += 1
                default:
                    bytes[write] = byte
                    bytes[write + 1] = next
                    write += 2
                }
            }
            parameterValues[index].end = write
        }
    }
}
