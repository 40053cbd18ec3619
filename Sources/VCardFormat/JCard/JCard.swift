import ContactModel
import Utilities
import VCardSyntax

/// jCard (RFC 7095), the JSON form of vCard 4.0: read into vCard content lines, and written from them.
///
/// jCard maps content lines one to one, so the conversion lives at that level: reading gives `RawCard`s of
/// 4.0 lines that `VCardReader` turns into contacts, and writing maps 4.0 lines (a contact's are made by
/// `VCardWriter`) to jCard properties. A lone card is written as one jCard, any other number as an array of
/// jCards; both shapes are read.
public enum JCard {
    /// Converts jCard text (one jCard, or an array of them) into vCard 4.0 content lines, one `RawCard` each.
    ///
    /// Each line keeps the JSON line its property starts on, so later diagnostics point into the jCard.
    /// Values that do not fit their type are kept as written, with a warning.
    /// - Parameter name: the input's name (a path, or `-`), for errors and diagnostics.
    /// - Throws: `JCardError` when the text is not JSON or not shaped as jCard, naming the line and what
    ///   was expected there.
    public static func cards(from bytes: [UInt8], name: String? = nil) throws(JCardError)
        -> (cards: [RawCard], diagnostics: [Diagnostic])
    {
        var reader = JCardReader(bytes: UTF16Text.utf8(fromUTF16: bytes) ?? bytes, name: name)
        let read = try reader.read()
        return (read.map(\.card), read.flatMap(\.diagnostics))
    }

    /// Reads jCard text into cards with their meaning, as `VCardDocument.read` does for vCard text.
    /// - Throws: `JCardError` when the text is not JSON or not shaped as jCard.
    public static func read(_ bytes: [UInt8], name: String? = nil) throws(JCardError) -> [ReadCard] {
        try read(JCardReader(bytes: UTF16Text.utf8(fromUTF16: bytes) ?? bytes, name: name))
    }

    /// How `forEachCard` ended.
    package enum StreamOutcome: Sendable {
        /// Every card of the array was given.
        case done
        /// The document is not an array of jCards (one jCard, or no JSON): nothing was given.
        case notAnArray
        /// A card or the array's grammar is broken: the cards before it were given.
        case broken
    }

    /// Reads an array of jCards a card at a time from its bytes in pieces (`more`, empty at the end), giving each
    /// to `body` with the lines, columns and card numbers `read` gives it: memory holds a piece and a batch of
    /// cards' text, not the document (a 160 MB array of 100,000 jCards took 1.6 GB read whole). UTF-8 only. When
    /// the outcome is not `done`, `read` of the whole document says what is wrong, as it says it for any document.
    /// A card that is not jCard goes to `failed`, and those after it are read: one bad card lost every one after
    /// it.
    package static func forEachCard(
        more: @escaping () throws -> [UInt8], name: String?, failed: (JCardError) -> Void = { _ in },
        _ body: (ReadCard) throws -> Void
    ) throws -> StreamOutcome {
        try forEachCard(more: more, name: name, failed: failed, transform: { $0 }, body)
    }

    /// `forEachCard`, with `transform` applied to each card on every processor (it must not depend on earlier
    /// cards) and its results handed to `body` in order on this thread. The array is cut into cards here, and the
    /// cards of about `batchBytes` are read (parsed, shaped into lines, turned into contacts) together: reading
    /// is most of the work, and it ran on one thread at a fifth of the speed of a vCard input.
    package static func forEachCard<T: Sendable>(
        more: @escaping () throws -> [UInt8], name: String?, failed: (JCardError) -> Void = { _ in },
        batchBytes: Int = streamBatchBytes, transform: @escaping @Sendable (ReadCard) -> T, _ body: (T) throws -> Void
    ) throws -> StreamOutcome {
        var stream = JSONArrayStream(more: more)
        var number = 0
        var batch: [(bytes: [UInt8], origin: JSONArrayStream.Position, number: Int)] = []
        var held = 0
        // The batch gathered, read on every processor and given in order; false when a card ends the stream.
        func flush() throws -> Bool {
            let reads = Concurrently.map(batch, chunk: 8) { element -> StreamedCard<T> in
                var reader = JCardReader(bytes: element.bytes, name: name)
                reader.origin = element.origin
                reader.firstCard = element.number
                do throws(JCardError) {
                    let cards = try read(reader)
                    return cards.count == 1 ? .card(transform(cards[0])) : .broken
                } catch {
                    return .failed(error)
                }
            }
            batch = []
            held = 0
            for read in reads {
                switch read {
                case .card(let card): try body(card)
                case .failed(let error): failed(error)
                case .broken: return false
                }
            }
            return true
        }
        while true {
            switch try stream.next() {
            case .element(let bytes, let origin):
                // A jCard itself starts with the string "vcard": one card, read whole.
                if number == 0 && bytes.first == UInt8(ascii: "\"") { return .notAnArray }
                number += 1
                held += bytes.count
                batch.append((bytes, origin, number))
                if held >= batchBytes { guard try flush() else { return .broken } }
            case .end: return try flush() ? .done : .broken
            case .notAnArray: return .notAnArray
            case .malformed:
                guard try flush() else { return .broken }
                return number == 0 ? .notAnArray : .broken
            }
        }
    }

    /// How many bytes of cards a streamed read reads together on every processor.
    package static let streamBatchBytes = 256 << 10

    private static func read(_ reader: JCardReader) throws(JCardError) -> [ReadCard] {
        var reader = reader
        let name = reader.name
        return try reader.read().map { card, conversion in
            let (contact, found) = VCardReader.contact(from: card)
            var diagnostics = (conversion + found).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
            for index in diagnostics.indices { diagnostics[index].file = name }
            return ReadCard(contact: contact, raw: card, diagnostics: diagnostics)
        }
    }

    /// Writes contacts as jCard: each as `VCardWriter` writes it in vCard 4.0, mapped line by line.
    public static func encode(_ contacts: [Contact]) -> [UInt8] {
        let vCard = VCardWriter(version: .v4_0).bytes(contacts)
        return encode(VCardLexer.parse(vCard).cards)
    }

    /// Writes jCard a card at a time, with the bytes `encode(_: [Contact])` gives for all of them: the first
    /// card is held until a second shows whether the document is one jCard or an array of them.
    public struct Writer {
        private var held: (vCard: [UInt8], element: [UInt8])?
        /// The cards written so far.
        public private(set) var count = 0

        /// A writer with nothing written.
        public init() {}

        /// A contact made ready for `append(_:to:)` on any thread: its vCard 4.0 lines and their jCard as an
        /// element of an array, the costly part, made where the card was read.
        public struct Prepared: Sendable {
            /// The contact's vCard, lexed again only for a document of one card (written without the array's
            /// indent): the lexed lines take several times the text's memory, and cards wait here in flight.
            var vCard: [UInt8]
            var elements: [[UInt8]]
        }

        /// `contact` made ready to append.
        public static func prepare(_ contact: Contact) -> Prepared {
            var bytes: [UInt8] = []
            VCardWriter(version: .v4_0).write(contact, into: &bytes)
            return Prepared(
                vCard: bytes,
                elements: VCardLexer.parse(bytes).cards.map { card in
                    var element: [UInt8] = []
                    JCardWriter.write(card, indent: "  ", into: &element)
                    return element
                })
        }

        /// Appends `contact` (with the separator before it) to `out`.
        public mutating func append(_ contact: Contact, to out: inout [UInt8]) {
            append(Self.prepare(contact), to: &out)
        }

        /// Appends a prepared contact (with the separator before it) to `out`.
        public mutating func append(_ prepared: Prepared, to out: inout [UInt8]) {
            for element in prepared.elements {
                count += 1
                if count == 1 {
                    held = (prepared.vCard, element)
                    continue
                }
                if let first = held {
                    out += Array("[\n".utf8)
                    out += first.element
                    held = nil
                }
                out += Array(",\n".utf8)
                out += element
            }
        }

        /// Appends the end of the document and the final newline to `out`.
        public func finish(into out: inout [UInt8]) {
            switch count {
            case 0: out += Array("[]".utf8)
            case 1: JCardWriter.write(VCardLexer.parse(held!.vCard).cards[0], indent: "", into: &out)
            default: out += Array("\n]".utf8)
            }
            out.append(0x0A)
        }
    }

    /// Writes cards of vCard 4.0 content lines as jCard: one jCard for one card, an array of jCards otherwise
    /// (none included), pretty-printed with one property per line, UTF-8, ending in a newline.
    ///
    /// Lines are mapped as they stand, so cards of other versions should go through `encode(_: [Contact])`.
    public static func encode(_ cards: [RawCard]) -> [UInt8] {
        JCardWriter.write(cards)
    }

    /// The cards' content lines as vCard text (BEGIN, the lines as they stand, END; CRLF, folded), for the
    /// lines `cards(from:)` gives, which carry more than a `Contact` keeps (`VALUE=uri` on TEL, for one).
    public static func vCardBytes(_ cards: [RawCard]) -> [UInt8] {
        var out: [UInt8] = []
        for card in cards {
            ContentLineWriter.writeRaw("BEGIN:VCARD", into: &out)
            for line in card.lines { ContentLineWriter.write(line, into: &out, caretEncoding: true) }
            ContentLineWriter.writeRaw("END:VCARD", into: &out)
        }
        return out
    }

    /// Whether input starting with `prefix` is jCard: after an optional BOM and white space, `[`, then an
    /// optional second `[` (an array of jCards), then `"vcard"`.
    public static func looksLikeJCard(_ prefix: [UInt8]) -> Bool {
        let prefix = UTF16Text.utf8(fromUTF16: prefix) ?? prefix
        var index = 0
        if prefix.count >= 3 && prefix[0] == 0xEF && prefix[1] == 0xBB && prefix[2] == 0xBF { index = 3 }
        func skipWhitespace() {
            while index < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[index]) { index += 1 }
        }
        skipWhitespace()
        guard index < prefix.count, prefix[index] == UInt8(ascii: "[") else { return false }
        index += 1
        skipWhitespace()
        if index < prefix.count, prefix[index] == UInt8(ascii: "[") {
            index += 1
            skipWhitespace()
        }
        let tag = Array("\"vcard\"".utf8)
        return prefix.count - index >= tag.count && Array(prefix[index..<(index + tag.count)]) == tag
    }
}

/// Why jCard input was refused: where it went wrong and what was expected there.
public struct JCardError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input's name (a path or `-`), when the caller gave one.
    public var file: String?
    /// The 1-based line of the offending JSON value.
    public var line: Int
    /// The 1-based byte column of the offending JSON value.
    public var column: Int
    /// What was expected, such as `card 1, property 4 ("tel"): expected [name, parameters, type, value...]`.
    public var message: String

    /// Creates an error.
    public init(file: String? = nil, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:col: error: message`, the form the tool prints diagnostics in.
    public var description: String { "\(file ?? "<input>"):\(line):\(column): error: \(message)" }
}

/// What reading one card of a streamed array gave.
private enum StreamedCard<T: Sendable>: Sendable {
    case card(T)
    case failed(JCardError)
    /// Not one card: the array is not what `JCard.read` reads, which reports it.
    case broken
}
