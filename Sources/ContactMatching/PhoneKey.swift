/// A telephone number reduced to what identifies the line: `+` and the international digits, or the national
/// digits when the country is unknown, and the extension kept apart.
package struct PhoneKey: Hashable, Sendable, CustomStringConvertible {
    /// `+` followed by country code and number (`+15550101234`), or `national:` and the digits as written.
    public var number: String
    /// The extension digits, if any: a desk extension is a different line from the switchboard.
    public var ext: String?

    /// Numbers with fewer digits are service or short codes (112, 911, 3-digit carrier codes), never keys.
    public static let minimumDigits = 7

    /// The key of `text` (`+1 (555) 010-1234`, `0049 30 1234567`, `tel:+44-20-7946-0123;ext=12`, `555.010.1234 x7`),
    /// reading national numbers with `countryCode` (1 for North America, 44 for the UK...) when one is given.
    /// Nil for a value that is not a usable number.
    public init?(_ text: String, countryCode: Int?) {
        var text = text
        guard let key = text.withUTF8({ Self.key($0, countryCode: countryCode) }) else { return nil }
        (number, ext) = key
    }

    /// `init(_:countryCode:)` on the text's bytes: a book has a few numbers on each of its cards, so this makes
    /// no more than the digits and the key.
    private static func key(_ all: UnsafeBufferPointer<UInt8>, countryCode: Int?) -> (String, String?)? {
        // The digits go to memory on the stack: a list of them was an allocation for every number of a book.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: all.count + 1) { buffer in
            key(all, countryCode: countryCode, digits: buffer)
        }
    }

    private static func key(
        _ all: UnsafeBufferPointer<UInt8>, countryCode: Int?, digits buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> (String, String?)? {
        var count = 0
        var extDigits: [UInt8] = []
        var plus = false
        var inExtension = false
        var sawDigit = false
        var bytes = all
        // tel: URIs (vCard 4.0) and their parameters: `;ext=` is the extension, other parameters are dropped.
        if bytes.count >= 4, bytes[0] | 0x20 == 0x74, bytes[1] | 0x20 == 0x65, bytes[2] | 0x20 == 0x6C, bytes[3] == 0x3A
        {
            bytes = UnsafeBufferPointer(rebasing: bytes[4...])
        }
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x30...0x39:
                if inExtension {
                    extDigits.append(b)
                } else {
                    buffer[count] = b
                    count += 1
                }
                sawDigit = true
            case 0x2B:  // +
                if !sawDigit { plus = true }
            case 0x3B:  // ; : a tel: URI parameter
                let rest = String(decoding: bytes[(i + 1)...], as: UTF8.self).lowercased()
                if rest.hasPrefix("ext=") {
                    inExtension = true
                    i += 4
                } else if !inExtension {
                    i = bytes.count
                }
            case 0x78, 0x58, 0x23, 0x2C:  // x, X, #, and a dial pause (,): what follows is an extension
                guard sawDigit else { return nil }
                inExtension = true
            case 0x65, 0x45:  // "ext", "ext.", "extension"
                guard sawDigit else { return nil }
                inExtension = true
                while i + 1 < bytes.count, (bytes[i + 1] | 0x20) >= 0x61, (bytes[i + 1] | 0x20) <= 0x7A { i += 1 }
            default:
                if (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A && !inExtension {
                    // Letters in the number (vanity numbers, "call me"): not a key we can trust.
                    return nil
                }
            }
            i += 1
        }
        guard count >= Self.minimumDigits else { return nil }
        let digits = UnsafeBufferPointer(rebasing: buffer[0..<count])
        let number: String
        if plus {
            number = joined(Self.plus, digits[...])
        } else if digits.count > 2, digits[0] == 0x30, digits[1] == 0x30 {
            number = joined(Self.plus, digits[2...])  // 00 CC ...
        } else if let countryCode {
            number = Self.international(national: digits, countryCode: countryCode)
        } else {
            number = joined(Self.nationalPrefixBytes, digits[...])
        }
        return (number, extDigits.isEmpty ? nil : String(decoding: extDigits, as: UTF8.self))
    }

    private static let plus: [UInt8] = [0x2B]
    private static let nationalPrefixBytes = Array(nationalPrefix.utf8)

    /// `prefix` followed by `digits`, as one string.
    private static func joined(_ prefix: [UInt8], _ digits: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(unsafeUninitializedCapacity: prefix.count + digits.count) { out in
            var i = 0
            for b in prefix {
                out[i] = b
                i += 1
            }
            for b in digits {
                out[i] = b
                i += 1
            }
            return i
        }
    }

    private static let nationalPrefix = "national:"

    /// Whether the number was written without its country (and read without a country code).
    public var isNational: Bool { number.hasPrefix(Self.nationalPrefix) }

    /// A national number read with `countryCode`, as `PhoneKey(text, countryCode:)` would have read it; any other
    /// key as it is. Lets a whole book be keyed before the code its numbers mostly use is known.
    public func resolved(countryCode: Int) -> PhoneKey {
        guard isNational else { return self }
        var key = self
        var text = number
        key.number = text.withUTF8 { all in
            Self.international(
                national: UnsafeBufferPointer(rebasing: all[Self.nationalPrefix.utf8.count...]),
                countryCode: countryCode)
        }
        return key
    }

    /// `+` and the international digits of national `digits` dialled in the country of `countryCode`.
    private static func international(national digits: UnsafeBufferPointer<UInt8>, countryCode: Int) -> String {
        var national = digits[...]
        var code = String(countryCode)
        if countryCode == 1, digits.count > 3, digits[0] == 0x30, digits[1] == 0x31, digits[2] == 0x31 {
            national = digits.dropFirst(3)  // 011 CC ... from North America
            code = ""
        } else if countryCode == 1 {
            // North America: ten digits, sometimes written with the 1 trunk prefix.
            if national.count == 11 && national.first == 0x31 { national = national.dropFirst() }
        } else if national.first == 0x30 {
            national = national.dropFirst()  // trunk prefix 0 (UK, Germany, France...)
        }
        let prefix = code.utf8.count
        return String(unsafeUninitializedCapacity: 1 + prefix + national.count) { out in
            out[0] = 0x2B
            var i = 1
            for b in code.utf8 {
                out[i] = b
                i += 1
            }
            for b in national {
                out[i] = b
                i += 1
            }
            return i
        }
    }

    /// The country code of an international number, read by the ITU's code lengths (1 and 7 one digit,
    /// the 2-digit codes of zones 2-9, otherwise three digits).
    public var countryCode: Int? {
        // Read from the bytes in place: a book's every number is asked once when its prevailing code is sought.
        var text = number
        return text.withUTF8 { all -> Int? in
            guard all.count >= 2, all[0] == 0x2B else { return nil }
            let first = all[1]
            if first == 0x31 || first == 0x37 { return Int(first - 0x30) }
            guard all.count >= 3 else { return nil }
            let two = Int(all[1] - 0x30) * 10 + Int(all[2] - 0x30)
            if two < 100 && Self.isTwoDigitCode[two] { return two }
            guard all.count >= 4 else { return nil }
            return two * 10 + Int(all[3] - 0x30)
        }
    }

    /// Whether each number below 100 is a two-digit country code.
    private static let isTwoDigitCode: [Bool] = (0..<100).map(twoDigitCodes.contains)

    private static let twoDigitCodes: Set<Int> = [
        20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56, 57, 58,
        60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98,
    ]

    public var description: String { ext.map { "\(number) ext. \($0)" } ?? number }
}

/// An email address reduced to what identifies the mailbox.
package enum EmailKey {
    /// Trimmed, `mailto:` dropped, case-folded; nil when there is no `@` with text on both sides.
    public static func key(_ text: String) -> String? {
        var copy = text
        let key = copy.withUTF8 { all -> (key: String?, asWritten: Bool) in
            var start = 0
            var end = all.count
            while start < end, all[start] == 0x20 || all[start] == 0x09 { start += 1 }
            while end > start, all[end - 1] == 0x20 || all[end - 1] == 0x09 { end -= 1 }
            if end - start >= 7, zip(all[start..<start + 7], "mailto:".utf8).allSatisfy({ ASCIIBytes.lower($0) == $1 })
            {
                start += 7
            }
            var at = end - 1
            while at >= start, all[at] != 0x40 { at -= 1 }
            guard at > start, at < end - 1 else { return (nil, false) }
            let bytes = UnsafeBufferPointer(rebasing: all[start..<end])
            // Nearly every address is ASCII: lower-case its bytes without the Unicode machinery, and one already
            // in lower case is its own key (without a copy).
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return (lowercased(bytes), false) }
            if start == 0 && end == all.count && !bytes.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) {
                return (nil, true)
            }
            let lowered = String(unsafeUninitializedCapacity: bytes.count) { out in
                for i in bytes.indices { out[i] = ASCIIBytes.lower(bytes[i]) }
                return bytes.count
            }
            return (lowered, false)
        }
        return key.asWritten ? text : key.key
    }

    /// `String.lowercased()` of UTF-8 text, which maps each scalar to its lower-case mapping: here only the
    /// scalars outside ASCII ask Unicode for theirs (`lowercased()` asks for every scalar of a text that is not
    /// all ASCII, and an address at `bücher.example` cost 18,000 instructions).
    static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                out.append(ASCIIBytes.lower(UInt8(scalar.value)))
            } else {
                out += scalar.properties.lowercaseMapping.utf8
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The domain part of a key.
    public static func domain(_ key: String) -> Substring {
        // By bytes: `@` is ASCII, and walking characters (or the UTF-8 view backwards) costs more than the rest
        // of a key.
        var text = key
        let at = text.withUTF8 { bytes -> Int? in
            var i = bytes.count - 1
            while i >= 0 && bytes[i] != 0x40 { i -= 1 }
            return i >= 0 ? i : nil
        }
        guard let at else { return "" }
        return key[key.utf8.index(key.utf8.startIndex, offsetBy: at + 1)...]
    }
}
