/// Where UTF-8 text first breaks: JSON and jCard must be UTF-8, and a byte that is not is an error named where
/// it is, not a U+FFFD put in its place without a word.
package enum UTF8Validation {
    /// The offset of the first byte of the first sequence that is not well-formed UTF-8, or nil when all of
    /// `bytes[from...]` is. The rules are the vCard lexer's and the standard library's: no overlong forms, no
    /// surrogates, nothing past U+10FFFF.
    package static func firstInvalid(_ bytes: [UInt8], from start: Int = 0) -> Int? {
        // By hand rather than with the standard library's parser, scalar by scalar: every jCard is checked.
        bytes.withUnsafeBufferPointer { text in
            func continues(_ offset: Int) -> Bool { offset < text.count && text[offset] & 0xC0 == 0x80 }
            var index = start
            while index < text.count {
                let lead = text[index]
                if lead < 0x80 {
                    index += 1
                } else if lead < 0xC2 {
                    return index
                } else if lead < 0xE0 {
                    guard continues(index + 1) else { return index }
                    index += 2
                } else if lead < 0xF0 {
                    guard continues(index + 1), continues(index + 2) else { return index }
                    let second = text[index + 1]
                    if (lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0) { return index }
                    index += 3
                } else if lead < 0xF5 {
                    guard continues(index + 1), continues(index + 2), continues(index + 3) else { return index }
                    let second = text[index + 1]
                    if (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90) { return index }
                    index += 4
                } else {
                    return index
                }
            }
            return nil
        }
    }
}
