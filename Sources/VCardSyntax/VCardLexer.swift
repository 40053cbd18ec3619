/// Splits a byte stream into cards of content lines, reporting problems as diagnostics.
///
/// Feed it chunks of any size; it returns each card as soon as its END line has been read, so memory is
/// bounded by the largest card, not the file. The same bytes give the same cards whether fed whole, byte
/// by byte or in random chunks.
///
/// It reads what real clients write: CRLF, LF and CR CR LF line ends; folding with a space or a tab,
/// undone on bytes before any text decoding; vCard 2.1 quoted-printable soft line breaks, CHARSET, bare
/// parameters and base64 that runs on until a blank line; UTF-8 and UTF-16 byte order marks; junk and
/// blank lines between cards; groups; and 2.1 cards nested inline after `AGENT:`.
///
/// It is three stages that compose (see Docs/Lexer.md): a `LineSplitter` turns bytes into physical lines, an
/// `Unfolder` joins them into logical lines by the continuation rules (`ContinuationRule`), the two composed as a
/// `LogicalLineReader`, and a `CardAssembler` parses logical lines into cards.
public struct VCardLexer {
    /// The limits in force.
    public let limits: Limits
    /// How 8-bit text that is not UTF-8 and declares no charset is decoded (decided when its card ends).
    public let decoding: DecodingOptions

    private var reader: LogicalLineReader<CardAssembler>

    /// Creates a lexer with the given limits and charset decisions.
    public init(limits: Limits = .default, decoding: DecodingOptions = DecodingOptions()) {
        self.init(limits: limits, decoding: decoding, surveying: false)
    }

    /// Creates a lexer that gathers the charset evidence of what it is fed (see `surveyedEvidence`).
    init(limits: Limits, decoding: DecodingOptions, surveying: Bool) {
        self.limits = limits
        self.decoding = decoding
        reader = LogicalLineReader(
            limits: limits, consumer: CardAssembler(limits: limits, decoding: decoding, surveying: surveying))
    }

    /// Creates a lexer for input that continues a stream at a card boundary (see `CardBoundary`): line
    /// numbers and byte offsets count from `line` lines and `offset` bytes already read, and no byte order
    /// mark is looked for.
    public init(
        limits: Limits = .default, decoding: DecodingOptions = DecodingOptions(), continuingAfterLine line: Int,
        offset: Int
    ) {
        self.limits = limits
        self.decoding = decoding
        reader = LogicalLineReader(
            limits: limits, consumer: CardAssembler(limits: limits, decoding: decoding, surveying: false),
            continuingAfterLine: line, offset: offset)
    }

    /// Keeps only the lines `selection` keeps in the cards read from now on (see `LineSelection`).
    package mutating func select(_ selection: LineSelection) { reader.consumer.selection = selection }

    /// The charset evidence of everything fed to a surveying lexer.
    var surveyedEvidence: CharsetEvidence { reader.consumer.surveyor?.evidence ?? .none }

    /// The byte offset of the BEGIN line of the outermost card not yet ended (nil when none is open): every card
    /// handed out so far lies before it or inside it.
    package var openCardStart: Int? { reader.consumer.openCardStart }

    /// The byte offset just past the last logical line read: every line before it is in the cards and
    /// diagnostics handed out, or in the card still open.
    package var consumedEnd: Int { reader.consumer.consumedEnd }

    /// The bytes of the lines the only card open skipped in a row, up to the last line read, because it outgrew
    /// `Limits.maxCardBytes` (nil when the last line read was not one): nothing read from the input depends on
    /// what they hold.
    package var skippedRun: Range<Int>? { reader.consumer.skippedRun }

    /// Whether a card was still open when `finish` was called (and was closed with a missing-END error).
    public private(set) var endedInsideCard = false

    /// Reads a whole input at once.
    public static func parse(
        _ bytes: some Sequence<UInt8>, limits: Limits = .default, decoding: DecodingOptions = DecodingOptions()
    )
        -> (cards: [RawCard], diagnostics: [Diagnostic])
    {
        var lexer = VCardLexer(limits: limits, decoding: decoding)
        let array = Array(bytes)
        var cards = lexer.feed(array)
        cards += lexer.finish()
        return (cards, lexer.takeDiagnostics())
    }

    /// Diagnostics found since the last call, in input order.
    public mutating func takeDiagnostics() -> [Diagnostic] {
        reader.consumer.log.take()
    }

    /// Adds the next chunk of input and returns the cards it completed.
    public mutating func feed(_ chunk: [UInt8]) -> [RawCard] {
        chunk.withUnsafeBufferPointer { feed($0) }
    }

    /// Adds the next chunk of input and returns the cards it completed.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> [RawCard] {
        reader.feed(chunk)
        return reader.consumer.takeCompleted()
    }

    /// Ends the input and returns the cards still open or pending; an unterminated card is reported.
    public mutating func finish() -> [RawCard] {
        reader.finish()
        endedInsideCard = reader.consumer.finish(absoluteEnd: reader.absoluteEnd)
        return reader.consumer.takeCompleted()
    }

    /// The same problem on line after line is reported this many times, then once more to say the rest are
    /// not: a million lines without a colon give 101 diagnostics, not a million (nor the memory to hold them).
    public static let repeatedDiagnosticLimit = 100
}
