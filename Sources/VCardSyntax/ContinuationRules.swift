/// The rules by which a physical line continues the logical line before it, one type each, so that each can be
/// read, named in a diagnostic or a test, and changed on its own. `Unfolder` asks them in the order below; the
/// first that applies joins the line.
///
/// Each rule decides on what it can see at the join: the pending line's last byte and transfer encoding, the next
/// physical line, and whether the card is vCard 2.1.
enum ContinuationRule: Equatable {
    /// RFC 6350 3.2 (and RFC 2425 5.8.1): a line that starts with a space or a tab continues the one before it,
    /// without that one character. Undone on bytes before any text decoding.
    case fold
    /// vCard 2.1 (RFC 2045 6.7 rule 5): a quoted-printable value whose line ends in `=` goes on with the next
    /// line as it stands, leading spaces included.
    case quotedPrintableSoftBreak
    /// Android writes a 2.1 line break inside a value as `\` at the end of the line, the value going on at the
    /// start of the next line.
    case androidBackslash
    /// vCard 2.1 base64 runs on over following lines until a blank line, indented or not; hand-written generators
    /// wrap base64 that way in 3.0 and 4.0 too (PHP's `chunk_split`).
    case base64RunOn
}

/// The quoted-printable soft line break (`ContinuationRule.quotedPrintableSoftBreak`).
enum SoftLineBreakRule {
    /// Whether a pending line may take a soft line break: it ends in `=` (only then is its encoding read).
    static func mayApply(lastByte: UInt8?) -> Bool { lastByte == ASCII.equals }

    /// Whether the next line continues a pending line that ends in `=` and is quoted-printable.
    static func applies(encoding: TransferEncoding) -> Bool { encoding == .quotedPrintable }

    /// Whether `line` stops a soft line break, and is then no continuation by any rule: the card's END. A value
    /// that ends in `=` (a writer that broke the line after its last character) must not take the END, and every
    /// card after it, into the value.
    static func stops(at line: UnsafeBufferPointer<UInt8>) -> Bool { isEndOfCard(line) }

    /// Whether the physical line is `END:VCARD` (case aside, white space around it allowed).
    static func isEndOfCard(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let trimmed = ContentLineParser.trimmed(line, 0..<line.count)
        return ASCII.equalsIgnoringCase(line, trimmed, "END:VCARD")
    }
}

/// RFC folding (`ContinuationRule.fold`).
enum FoldRule {
    /// Whether `line` is a folded continuation: it starts with a space or a tab.
    static func continues(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.count > 0 && ASCII.isSpaceOrTab(line[0])
    }
}

/// Android's backslash continuation (`ContinuationRule.androidBackslash`).
enum BackslashContinuationRule {
    /// Whether `line` continues a pending line ending in `trailingBackslashes` backslashes: only in a 2.1 card
    /// (a 3.0 or 4.0 writer folds long lines, so there the colon may be on the next line), only after an odd
    /// number of them (an even run is escaped backslashes), and only a line with no colon.
    static func continues(trailingBackslashes: Int, inV21Card: Bool, line: UnsafeBufferPointer<UInt8>) -> Bool {
        inV21Card && trailingBackslashes % 2 == 1 && line.count > 0 && !line.contains(ASCII.colon)
    }

    /// The byte the join puts after the backslash, so the value reads `\n` where the line broke.
    static let joiner = UInt8(ascii: "n")
}

/// Base64 run-on lines (`ContinuationRule.base64RunOn`), and the rule that limits them in 3.0 and 4.0.
enum Base64RunOnRule {
    /// Whether `line` continues a base64 value: it holds only base64 characters, spaces and tabs.
    static func continues(encoding: TransferEncoding, line: UnsafeBufferPointer<UInt8>) -> Bool {
        encoding == .base64 && line.count > 0 && isBase64Line(line)
    }

    /// Whether the line holds only base64 characters, spaces and tabs (and so might run on).
    static func isBase64Line(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line where !ASCII.isBase64(byte) && !ASCII.isSpaceOrTab(byte) { return false }
        return true
    }
}

/// In 3.0 and 4.0, a line followed by a fold begins a logical line of its own: an unindented line of letters after
/// base64 may be a long property name folded before its colon, which the fold after it shows. In 2.1 base64 runs
/// on whatever follows.
enum FoldedNameRule {
    /// Whether an unindented base64 run-on line may later be split off as a property name.
    static func mayBeFoldedName(inV21Card: Bool) -> Bool { !inV21Card }
}

/// The transfer encoding a logical line's parameters ask for, read once per line (as `ContentLineParser` reads it,
/// so the lexer joins exactly the lines the parser decodes).
enum TransferEncoding: Equatable {
    /// Not read yet: a line's parameters are read only when a continuation rule needs them.
    case unread
    /// Neither quoted-printable nor base64.
    case plain
    /// `ENCODING=QUOTED-PRINTABLE`, `QP` or a bare `QUOTED-PRINTABLE` (quoted-printable wins when both are asked).
    case quotedPrintable
    /// `ENCODING=BASE64`, `B` or a bare `BASE64`.
    case base64
}
