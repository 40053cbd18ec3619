/// A telephone number as vCard spells it: text (3.0, and 4.0's default) or a `tel:` URI (RFC 3966, 4.0's
/// `VALUE=uri`). The model keeps the number as a person reads and a phone dials it, and remembers that it
/// was a URI, so 4.0 writes the URI back and 3.0 the text:
/// `tel:+1-418-656-9254;ext=102` <-> `+1-418-656-9254 ext. 102`.
enum TelephoneValue {
    /// The number as the model keeps it, and whether it was a URI, from a TEL value (text escapes undone)
    /// and whether its line said `VALUE=uri`.
    static func read(_ value: String, valueTypeIsURI: Bool) -> (value: String, isURI: Bool) {
        var body = value
        var hadScheme = false
        // Every `tel:`, not one: a number left starting with `tel:` would lose it when read back.
        while hasTelScheme(body) {
            body = String(decoding: body.utf8.dropFirst(4), as: UTF8.self)
            hadScheme = true
        }
        if hadScheme { return (personForm(ofURIBody: body), true) }
        if valueTypeIsURI && hasScheme(value) { return (value, true) }
        // Our own 3.0 spelling of a URI with an extension reads back as that URI.
        return (value, isPersonFormOfURI(value))
    }

    /// The `tel:` URI, or other URI, to write in 4.0 for a number the model holds as a URI.
    static func uri(_ value: String) -> String {
        if hasScheme(value) { return value }
        if let (number, ext) = splitExtension(value) { return "tel:\(number);ext=\(ext)" }
        return "tel:" + value
    }

    /// `+1-418-656-9254;ext=102` -> `+1-418-656-9254 ext. 102`; a URI with any other parameter
    /// (`;phone-context=`, `;isub=`) keeps its body as it stands, so nothing of it is lost.
    static func personForm(ofURIBody body: String) -> String {
        let parts = body.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 2, let ext = extensionValue(parts[1]), !parts[0].isEmpty else { return body }
        return "\(parts[0]) ext. \(ext)"
    }

    /// Whether text is the person form of a URI with an extension: a global number (`+`, digits and the
    /// separators RFC 3966 allows) and ` ext. ` digits.
    static func isPersonFormOfURI(_ text: String) -> Bool {
        splitExtension(text) != nil
    }

    private static func splitExtension(_ text: String) -> (number: Substring, ext: Substring)? {
        // Searched as bytes: every number is tested, and Foundation's `range(of:)` costs more than the rest of
        // reading a TEL. Both parts must be ASCII to pass, so a byte match finds what a character match would.
        let utf8 = text.utf8
        guard utf8.first == UInt8(ascii: "+") else { return nil }
        var copy = text
        guard let offset = copy.withUTF8(firstExtensionMark) else { return nil }
        let markStart = utf8.index(utf8.startIndex, offsetBy: offset)
        let markEnd = utf8.index(markStart, offsetBy: extensionMark.utf8CodeUnitCount)
        let number = text[..<markStart]
        let ext = text[markEnd...]
        guard isGlobalNumber(number), !ext.isEmpty, ext.utf8.allSatisfy(isPhoneDigit) else { return nil }
        return (number, ext)
    }

    /// What separates a number from its extension in the person form.
    private static let extensionMark: StaticString = " ext. "

    /// The offset of the first ` ext. ` in `bytes`.
    private static func firstExtensionMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let mark = UnsafeBufferPointer(start: extensionMark.utf8Start, count: extensionMark.utf8CodeUnitCount)
        guard bytes.count >= mark.count else { return nil }
        for start in 0...(bytes.count - mark.count) where bytes[start] == mark[0] {
            if UnsafeBufferPointer(rebasing: bytes[start..<start + mark.count]).elementsEqual(mark) { return start }
        }
        return nil
    }

    private static func extensionValue(_ parameter: Substring) -> Substring? {
        let lower = parameter.lowercased()
        guard lower.hasPrefix("ext=") else { return nil }
        let value = parameter.dropFirst(4)
        return value.isEmpty ? nil : value
    }

    /// `+` then digits and visual separators (RFC 3966 global-number-digits), with at least one digit.
    private static func isGlobalNumber(_ text: Substring) -> Bool {
        guard text.utf8.first == UInt8(ascii: "+") else { return false }
        let rest = text.utf8.dropFirst()
        return rest.contains { $0 >= 0x30 && $0 <= 0x39 } && rest.allSatisfy(isPhoneDigit)
    }

    private static func isPhoneDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
    }

    static func hasTelScheme(_ value: String) -> Bool {
        var utf8 = value.utf8.makeIterator()
        for expected in "tel:".utf8 {
            guard let byte = utf8.next() else { return false }
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            if lower != expected { return false }
        }
        return true
    }

    /// Whether the value starts with a URI scheme (RFC 3986 3.1: a letter, then letters, digits, `+ - .`, then
    /// a colon).
    static func hasScheme(_ value: String) -> Bool {
        var first = true
        for byte in value.utf8 {
            let letter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            if byte == UInt8(ascii: ":") { return !first }
            if first {
                guard letter else { return false }
                first = false
                continue
            }
            let allowed =
                letter || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
            if !allowed { return false }
        }
        return false
    }
}
