/// Every input bound the lexer enforces. Exceeding one is a diagnostic, never unbounded memory.
public struct Limits: Hashable, Sendable {
    /// The longest logical (unfolded) line kept, in bytes. An embedded photo is one logical line, so this
    /// is sized for a large phone photo in base64; a longer line is skipped with a diagnostic.
    public var maxLineBytes: Int
    /// The largest card kept, in bytes of input. Beyond it the rest of the card is skipped.
    public var maxCardBytes: Int
    /// The most parameters kept on one content line; the rest are ignored with a diagnostic.
    public var maxParameters: Int
    /// The deepest nesting of inline 2.1 cards (AGENT) that is read.
    public var maxNestingDepth: Int

    /// Creates limits.
    public init(
        maxLineBytes: Int = 16 << 20, maxCardBytes: Int = 32 << 20, maxParameters: Int = 1_000,
        maxNestingDepth: Int = 8
    ) {
        self.maxLineBytes = maxLineBytes
        self.maxCardBytes = maxCardBytes
        self.maxParameters = maxParameters
        self.maxNestingDepth = maxNestingDepth
    }

    /// 16 MiB lines, 32 MiB cards, 1,000 parameters a line, 8 levels of nesting.
    public static let `default` = Limits()
}
