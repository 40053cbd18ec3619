import Testing
import VCardSyntax

/// What the lexer makes of an input, written so a specification test can state it exactly: each card's logical
/// lines as `LINE NAME;PARAM=V1,V2:value` (the physical line the logical line starts on, the group before the name
/// when there is one) and each diagnostic as `LINE code`.
struct Lexed: Equatable, CustomStringConvertible {
    var cards: [[String]]
    var diagnostics: [String]
    /// Each card's BEGIN and END physical line (`nil` END for a card cut short).
    var bounds: [[Int?]]

    init(_ bytes: [UInt8], limits: Limits = .default) {
        let (raw, found) = VCardLexer.parse(bytes, limits: limits)
        cards = raw.map { $0.lines.map(Self.render) }
        diagnostics = found.map { "\($0.line) \($0.code.rawValue)" }
        bounds = raw.map { [$0.beginLine, $0.endLine] }
    }

    init(_ text: String, limits: Limits = .default) { self.init(Array(text.utf8), limits: limits) }

    static func render(_ line: ContentLine) -> String {
        var text = "\(line.line) " + (line.group.map { $0 + "." } ?? "") + line.name
        for parameter in line.parameters {
            text += ";" + parameter.name
            if !parameter.values.isEmpty { text += "=" + parameter.values.joined(separator: ",") }
        }
        return text + ":" + line.value
    }

    var description: String { "cards: \(cards)\ndiagnostics: \(diagnostics)\nbounds: \(bounds)" }
}

/// Builds a card's text from its lines, each ended with `end`.
func card(_ lines: String..., end: String = "\r\n") -> String {
    (["BEGIN:VCARD"] + lines + ["END:VCARD"]).map { $0 + end }.joined()
}
