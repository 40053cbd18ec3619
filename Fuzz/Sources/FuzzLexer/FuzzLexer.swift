import VCardSyntax

/// Lexes the input whole, then again in chunks whose sizes come from the input, and requires the same cards
/// and diagnostics (the lexer promises that chunking never changes the result).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let whole = VCardLexer.parse(bytes)

    var lexer = VCardLexer()
    var cards: [RawCard] = []
    var diagnostics: [Diagnostic] = []
    var offset = 0
    var step = size % 61 + 1
    while offset < size {
        let end = min(size, offset + step)
        cards += lexer.feed(Array(bytes[offset..<end]))
        diagnostics += lexer.takeDiagnostics()
        offset = end
        step = (step * 7 + 3) % 61 + 1
    }
    cards += lexer.finish()
    diagnostics += lexer.takeDiagnostics()
    if cards != whole.cards { fatalError("chunked lexing gave other cards than lexing whole") }
    if diagnostics != whole.diagnostics { fatalError("chunked lexing gave other diagnostics than lexing whole") }
    return 0
}
