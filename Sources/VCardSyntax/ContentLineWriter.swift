#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes content lines: CRLF line ends, folding at 75 octets with one leading space, never inside a
/// UTF-8 sequence or an escape, and parameter values quoted when they need it.
public enum ContentLineWriter {
    /// The most octets on one physical line, excluding CRLF (RFC 2426 section 2.6, RFC 6350 section 3.2).
    public static let maxLineOctets = 75

    /// Appends `line`, folded and terminated by CRLF, to `out`.
    ///
    /// - Parameter caretEncoding: encode `^`, `"` and line breaks in parameter values as RFC 6868 says
    ///   (vCard 4.0); otherwise such characters are replaced by the nearest safe one.
    public static func write(_ line: ContentLine, into out: inout [UInt8], caretEncoding: Bool = false) {
        var builder = LineBuilder(caretEncoding: caretEncoding)
        swap(&builder.output, &out)
        builder.append(line)
        builder.flush()
        swap(&builder.output, &out)
    }

    /// The line as one unfolded string without a line end (used to embed inline cards as text).
    public static func unfolded(_ line: ContentLine) -> String {
        var builder = LineBuilder(caretEncoding: false)
        builder.start(line)
        return String(decoding: builder.line, as: UTF8.self)
    }

    /// Appends the literal `text` and CRLF, for BEGIN, END and VERSION lines.
    package static func writeRaw(_ text: StaticString, into out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        out.append(ASCII.cr)
        out.append(ASCII.lf)
    }
}

/// Builds content lines one at a time and appends them, folded, to `output`.
///
/// A line is assembled unfolded in the builder's own storage (`start`, `parameter`, `beginValue`, the `append...`
/// calls), then `finish` ends it there, folded when it is longer than a physical line, and `flush` appends the
/// lines finished so far to `output`. Writers that know what each part is escape straight into the line, so no
/// intermediate String or parameter array is made.
package struct LineBuilder {
    /// The lines flushed so far.
    public var output: [UInt8] = []
    /// The lines finished and not yet flushed (the first `lineStart` bytes), then the line being assembled,
    /// unfolded, up to `length`. A plain allocation written through its pointer, so adding a byte is a store, not
    /// an array's uniqueness and capacity checks (a few for every byte of punctuation, which made up much of the
    /// writer's time), and a card's lines reach `output` in one copy.
    private var storage = LineStorage.empty
    private var lineStart = 0
    private var length = 0
    /// Whether parameter values get RFC 6868 caret escapes.
    public var caretEncoding: Bool

    /// Creates a builder.
    public init(caretEncoding: Bool) {
        self.caretEncoding = caretEncoding
    }

    /// The line being assembled, unfolded.
    var line: [UInt8] { Array(UnsafeBufferPointer(start: storage.base + lineStart, count: length - lineStart)) }

    /// Starts a line, dropping a line that was started and never finished.
    private mutating func beginLine() {
        length = lineStart
    }

    /// Makes room for `count` bytes of lines in all, so a card's lines need not grow the storage line by line.
    package mutating func reserveCapacity(_ count: Int) {
        if count > storage.capacity { grow(to: count) }
    }

    /// Appends the lines finished so far to `output`; a line being assembled stays where it is.
    package mutating func flush() {
        guard lineStart > 0 else { return }
        output.append(contentsOf: UnsafeBufferPointer(start: storage.base, count: lineStart))
        let open = length - lineStart
        if open > 0 {
            UnsafeMutableRawPointer(storage.base).copyMemory(from: storage.base + lineStart, byteCount: open)
        }
        lineStart = 0
        length = open
    }

    /// Makes room for `count` more bytes of the line.
    @inline(__always)
    private mutating func reserve(_ count: Int) {
        if length &+ count > storage.capacity { grow(to: length + count) }
    }

    private mutating func grow(to needed: Int) {
        let bigger = LineStorage(capacity: max(needed, storage.capacity * 2, 256))
        UnsafeMutableRawPointer(bigger.base).copyMemory(from: storage.base, byteCount: length)
        storage = bigger
    }

    /// Adds one byte to the line.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        reserve(1)
        storage.base[length] = byte
        length &+= 1
    }

    /// Adds bytes to the line.
    @inline(__always)
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(storage.base + length).copyMemory(from: source, byteCount: bytes.count)
        length &+= bytes.count
    }

    /// Adds a literal to the line.
    @inline(__always)
    private mutating func put(_ text: StaticString) {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Starts a line with an optional group and a name, each kept byte for byte where the line can hold it (see
    /// `appendName`).
    public mutating func start(group: String?, name: String) {
        beginLine()
        let grouped = group.map { !$0.isEmpty } ?? false
        if let group, grouped {
            appendName(group, unsafe: Self.unsafeInGroup)
            put(ASCII.dot)
        }
        // Without a group, a dot in the name would be read as the end of one.
        appendName(name, unsafe: grouped ? Self.unsafeInName : Self.unsafeInGroup)
    }

    /// Starts a line with a known name and no group.
    public mutating func start(name: StaticString) {
        beginLine()
        put(name)
    }

    /// Adds `;NAME=value1,value2`.
    public mutating func parameter(_ name: String, _ values: [String]) {
        put(ASCII.semicolon)
        appendName(name, unsafe: Self.unsafeInParameterName)
        put(ASCII.equals)
        for (index, value) in values.enumerated() {
            if index > 0 { put(ASCII.comma) }
            appendParameterValue(value)
        }
    }

    /// Adds `;NAME=` for values to follow with `parameterValue`.
    public mutating func beginParameter(_ name: StaticString) {
        put(ASCII.semicolon)
        put(name)
        put(ASCII.equals)
    }

    /// Adds one parameter value, after a comma unless it is the first.
    public mutating func parameterValue(_ value: String, first: Bool) {
        if !first { put(ASCII.comma) }
        appendParameterValue(value)
    }

    /// Ends the name and parameters: adds the colon.
    public mutating func beginValue() {
        put(ASCII.colon)
    }

    /// Adds text escaped for a text value: backslash, comma, semicolon, and every line break as `\n`; a NUL
    /// becomes U+FFFD (see `appendEscaped`).
    public mutating func appendText(_ text: String) {
        append(text, escapingSpecials: true)
    }

    /// Adds a value that is already escaped (or needs no escapes, like a URI); a raw CR or LF still
    /// becomes `\n`, so a value can never start a line of its own.
    ///
    /// A NUL is written as U+FFFD REPLACEMENT CHARACTER: vCard has no escape for it, and readers written in C
    /// (Evolution's EVCard among them) take it as the end of the text, losing the rest of the value and
    /// sometimes of the card. The replacement keeps the place visible; `vcf lint` reports the NUL.
    /// Other control characters are written as they are, since they read back unchanged.
    public mutating func appendEscaped(_ value: String) {
        append(value, escapingSpecials: false)
    }

    private mutating func append(_ text: String, escapingSpecials: Bool) {
        // Empty address and name components are common, and need nothing at all.
        if text.isEmpty { return }
        text.withUTF8Bytes { bytes in
            // Most values hold nothing to escape: copy them whole.
            if !Self.needsEscaping(bytes, specials: escapingSpecials) {
                put(bytes)
                return
            }
            // The text between the bytes that change is copied a run at a time.
            var run = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                switch byte {
                case ASCII.backslash, ASCII.comma, ASCII.semicolon, ASCII.cr, ASCII.lf, 0: break
                default: continue
                }
                put(UnsafeBufferPointer(rebasing: bytes[run..<index]))
                run = index + 1
                switch byte {
                case ASCII.cr:
                    put(ASCII.backslash)
                    put(UInt8(ascii: "n"))
                case ASCII.lf:
                    // A CR LF is one line break, written for the CR.
                    if index == 0 || bytes[index - 1] != ASCII.cr {
                        put(ASCII.backslash)
                        put(UInt8(ascii: "n"))
                    }
                case 0:
                    Self.replacementCharacter.withUnsafeBufferPointer { put($0) }
                default:
                    if escapingSpecials { put(ASCII.backslash) }
                    put(byte)
                }
            }
            put(UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
        }
    }

    /// U+FFFD in UTF-8, written for a NUL.
    static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// Whether `bytes` holds a CR, LF or NUL, or (with `specials`) a backslash, comma or semicolon. Eight bytes
    /// at a time, since notes make many of the bytes written; a word with any byte below 0x0E (a tab, say) is
    /// sent the long way too, which writes such bytes as they are.
    private static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>, specials: Bool) -> Bool {
        @inline(__always) func has(_ word: UInt64, _ byte: UInt8) -> Bool {
            let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
            return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
        }
        var index = 0
        let count = bytes.count
        if let base = bytes.baseAddress {
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                // Some byte below 0x0E: a NUL, LF or CR among them.
                if (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080 != 0 { return true }
                if specials && (has(word, ASCII.backslash) || has(word, ASCII.comma) || has(word, ASCII.semicolon)) {
                    return true
                }
                index += 8
            }
        }
        // The bytes below 0x40 to escape, as a bit mask (the backslash, 0x5C, is tested apart).
        let below40: UInt64 = specials ? escapedBelow40 | 1 << 0x2C | 1 << 0x3B : escapedBelow40
        while index < count {
            let byte = bytes[index]
            if byte < 0x40 ? below40 & 1 << UInt64(byte) != 0 : specials && byte == ASCII.backslash { return true }
            index += 1
        }
        return false
    }

    /// NUL, LF and CR as a mask of bytes below 0x40.
    private static let escapedBelow40: UInt64 = 1 << 0x00 | 1 << 0x0A | 1 << 0x0D

    /// Adds `data` as base64 (whose alphabet needs no escapes), without line breaks: `finish` folds it.
    public mutating func appendBase64(_ data: Data) {
        let count = Base64.encodedCount(data.count)
        reserve(count)
        Base64.encode(data, to: storage.base + length)
        length += count
    }

    /// Adds one separator byte (`;` between components, `,` between list items).
    public mutating func appendSeparator(_ byte: UInt8) {
        put(byte)
    }

    /// Starts a line from a `ContentLine`, through its value.
    mutating func start(_ contentLine: ContentLine) {
        start(group: contentLine.group, name: contentLine.name)
        for parameter in contentLine.parameters { self.parameter(parameter.name, parameter.values) }
        beginValue()
        appendEscaped(contentLine.value)
    }

    /// Appends a whole `ContentLine`.
    public mutating func append(_ contentLine: ContentLine) {
        start(contentLine)
        finish()
    }

    /// Ends the line: folded into physical lines of at most 75 octets, each ended by CRLF, for `flush` to append.
    ///
    /// A line that needs no fold (nearly every one) is only ended; a longer one is copied out and folded back.
    public mutating func finish() {
        let count = length - lineStart
        if count <= ContentLineWriter.maxLineOctets {
            put(ASCII.cr)
            put(ASCII.lf)
            lineStart = length
            return
        }
        let unfolded = Array(UnsafeBufferPointer(start: storage.base + lineStart, count: count))
        length = lineStart
        // A fold adds three bytes (CR, LF, space) for every 74 or fewer.
        reserve(count + count / 24 + 3)
        unfolded.withUnsafeBufferPointer { logical in
            var start = 0
            var limit = ContentLineWriter.maxLineOctets
            while count - start > limit {
                var cut = start + limit
                // Never split a UTF-8 sequence: back up to the first byte of the character.
                while cut > start + 1 && logical[cut] & 0xC0 == 0x80 { cut -= 1 }
                // Never split an escape: if the byte before the cut opens an escape, cut before it.
                if cut > start + 1 && logical[cut - 1] == ASCII.backslash && Self.opensEscape(logical, at: cut - 1) {
                    cut -= 1
                }
                put(UnsafeBufferPointer(rebasing: logical[start..<cut]))
                put(ASCII.cr)
                put(ASCII.lf)
                put(ASCII.space)
                start = cut
                limit = ContentLineWriter.maxLineOctets - 1
            }
            put(UnsafeBufferPointer(rebasing: logical[start..<count]))
        }
        put(ASCII.cr)
        put(ASCII.lf)
        lineStart = length
    }

    /// Writes a name as it came: applications find their own properties by the exact bytes of their names
    /// (`X-MESSAGING/XMPP-All`, `X-WAB-WEDDING_ANNIVERSARY`), so only a character that would end the name early
    /// or cannot stand on a content line (a control character) is changed, to a dash, which keeps the length
    /// and the words apart. The reader already warned about any name it read so.
    ///
    /// - Parameter unsafe: the bytes below 0x40 that the name cannot hold, as a bit mask (`unsafeInName`...);
    ///   control characters and DEL are unsafe in every name.
    private mutating func appendName(_ name: String, unsafe: UInt64) {
        name.withUTF8Bytes { bytes in
            let start = length
            put(bytes)
            // Names are short and nearly always clean: copied whole, then mended in place if need be.
            for byte in bytes where Self.isUnsafe(byte, unsafe) {
                let line = storage.base
                for index in start..<length where Self.isUnsafe(line[index], unsafe) {
                    line[index] = ASCII.dash
                }
                break
            }
        }
    }

    @inline(__always)
    private static func isUnsafe(_ byte: UInt8, _ mask: UInt64) -> Bool {
        byte < 0x40 ? mask & (1 << UInt64(byte)) != 0 : byte == 0x7F
    }

    // The masks below have bit n set for byte n below 0x40, with every control character (0x00-0x1F) set. They are
    // written as literals so that they are constants: a `static let` computed by a function is initialised
    // lazily, and reading it costs a `swift_once` call for every byte tested.

    /// What ends a property name: `:`, `;`, and the comma the reader takes for a `;`.
    static let unsafeInName: UInt64 = 0xFFFF_FFFF | 1 << 0x3A | 1 << 0x3B | 1 << 0x2C

    /// What ends a group, or a name without a group: the same, and the dot before a name.
    static let unsafeInGroup: UInt64 = 0xFFFF_FFFF | 1 << 0x3A | 1 << 0x3B | 1 << 0x2C | 1 << 0x2E

    /// What ends a parameter name: `=`, `;`, `:`.
    static let unsafeInParameterName: UInt64 = 0xFFFF_FFFF | 1 << 0x3D | 1 << 0x3B | 1 << 0x3A

    /// The bytes below 0x40 that send a parameter value the long way: what needs quotes (`:;,= `, controls,
    /// including the tab that is kept), the quote, and what RFC 6868 encodes (CR, LF; `^` is tested apart).
    private static let specialInParameterValue: UInt64 =
        0xFFFF_FFFF | 1 << 0x3A | 1 << 0x3B | 1 << 0x2C | 1 << 0x20 | 1 << 0x3D | 1 << 0x22

    private mutating func appendParameterValue(_ value: String) {
        // Most values are one plain ASCII word (`work`, `JPEG`): copied as they stand.
        let plain = value.withUTF8Bytes { bytes in
            for byte in bytes
            where byte >= 0x80 || byte == ASCII.caret || Self.isUnsafe(byte, Self.specialInParameterValue) {
                return false
            }
            put(bytes)
            return true
        }
        if !plain { appendQuotedParameterValue(value) }
    }

    /// `appendParameterValue` for a value that may need quotes, caret escapes or replaced characters.
    private mutating func appendQuotedParameterValue(_ value: String) {
        let text = caretEncoding ? ValueEscaping.encodeCaret(value) : value
        var needsQuotes = false
        for byte in text.utf8
        where byte == ASCII.colon || byte == ASCII.semicolon || byte == ASCII.comma
            || byte == ASCII.space || byte == ASCII.equals || byte >= 0x80 || (byte < 0x20 && byte != ASCII.tab)
        {
            needsQuotes = true
            break
        }
        if needsQuotes { put(ASCII.quote) }
        for byte in text.utf8 {
            switch byte {
            case ASCII.quote: put(UInt8(ascii: "'"))
            // A parameter value cannot hold control characters (RFC 6868): each is written as a space, which
            // keeps the words around it apart (dropped, `QU\0OTED-PRINTABLE` would be read back as an encoding).
            case 0..<0x20 where byte != ASCII.tab: put(ASCII.space)
            default: put(byte)
            }
        }
        if needsQuotes { put(ASCII.quote) }
    }

    /// Whether the backslash at `index` starts an escape (an even number of backslashes precede it).
    private static func opensEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var run = 0
        var i = index - 1
        while i >= 0 && bytes[i] == ASCII.backslash {
            run += 1
            i -= 1
        }
        return run % 2 == 0
    }
}

/// The storage of the line a `LineBuilder` assembles. Replaced by a larger one, never resized, so a copy of a
/// builder never sees the bytes it points at move or go away. Only the builder that made one writes to it; the
/// shared empty one, which a builder starts with so that making one allocates nothing, has no room to write.
final class LineStorage: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int

    static let empty = LineStorage(capacity: 0)

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }
}
