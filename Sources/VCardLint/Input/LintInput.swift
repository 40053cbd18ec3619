import ContactModel
import VCardFormat
import VCardSyntax

/// One card as the rules see it: its content lines, what the reader made of it, and its version.
struct LintedCard {
    /// The card's content lines as the lexer gave them.
    let raw: RawCard
    /// The lines, in source order (without BEGIN and END).
    let lines: [ContentLine]
    /// The contact the reader made of the card.
    let contact: Contact
    /// What the reader reported about the card's meaning.
    let readerDiagnostics: [Diagnostic]
    /// The syntax problems the lexer reported inside the card (BEGIN to END).
    let syntaxDiagnostics: [Diagnostic]
    /// The version the card is read as (3.0 when it names none or an unknown one).
    let version: VCardVersion
    /// The first VERSION line, if any.
    let versionLine: ContentLine?
    /// The last physical line that belongs to the card: its END line, or the line before whatever cut it short.
    let lastLine: Int

    /// The first line of the card.
    var beginLine: Int { raw.beginLine }

    /// The lines named `name` (upper case).
    func lines(named name: String) -> [ContentLine] { lines.filter { $0.name == name } }

    /// Whether more than one line is named `name`, without gathering them (most names are on one line).
    func hasSeveral(named name: String) -> Bool {
        var seen = false
        for line in lines where line.name == name {
            if seen { return true }
            seen = true
        }
        return false
    }

    /// Whether some line is named `name` (upper case).
    func has(_ name: String) -> Bool { lines.contains { $0.name == name } }
}

/// A whole input read for linting: its source, its cards and the syntax problems outside any card.
struct LintInput {
    let source: LintSource
    let cards: [LintedCard]
    /// Problems that belong to no card (text outside cards, an END without BEGIN).
    let fileDiagnostics: [Diagnostic]

    /// Reads `bytes`; `evidence` is the file's charset evidence when `bytes` is part of a file (nil: survey
    /// `bytes`, as every reader does).
    /// `firstLine` is the number of lines before `bytes` when they continue a file at a card's BEGIN line;
    /// `transcoded`, that they are a part of a UTF-16 file already turned into UTF-8.
    init(
        _ bytes: [UInt8], charset: Charset? = nil, evidence: CharsetEvidence? = nil, firstLine: Int = 0,
        transcoded: Bool = false
    ) {
        let source = LintSource(bytes, firstLine: firstLine, transcoded: transcoded)
        // The file's charset evidence, as every reader gathers it (see `CharsetEvidence`).
        let evidence =
            evidence
            ?? source.bytes.withUnsafeBufferPointer {
                CharsetEvidence.survey(UnsafeBufferPointer(rebasing: $0.prefix(CharsetEvidence.surveyedBytes)))
            }
        let decoding = DecodingOptions(charset: charset, file: evidence)
        var (raws, syntax): ([RawCard], [Diagnostic])
        if firstLine == 0 {
            (raws, syntax) = VCardLexer.parse(source.bytes, decoding: decoding)
        } else {
            var lexer = VCardLexer(decoding: decoding, continuingAfterLine: firstLine, offset: 0)
            raws = lexer.feed(source.bytes) + lexer.finish()
            syntax = lexer.takeDiagnostics()
        }
        self.init(source: source, raws: raws, syntax: syntax)
    }

    /// Cards a lexer read from `source` (all that it holds), with the syntax problems it reported there.
    /// A last card that has not ended runs to the source's last line.
    init(source: LintSource, raws: [RawCard], syntax: [Diagnostic]) {
        self.source = source
        // A card cut short by the next BEGIN ends on the line before it; one cut short by the end of the
        // input runs to the last line.
        let lastLines = raws.indices.map { index in
            raws[index].endLine ?? (index + 1 < raws.count ? raws[index + 1].beginLine - 1 : source.lineCount)
        }
        // Each syntax problem goes to the innermost card whose lines hold it (2.1 cards may nest), found
        // by binary search over the cards in order of their BEGIN lines.
        let byBegin = raws.indices.sorted { raws[$0].beginLine < raws[$1].beginLine }
        var owned = [[Diagnostic]](repeating: [], count: raws.count)
        var outside: [Diagnostic] = []
        for diagnostic in syntax {
            var low = 0
            var high = byBegin.count
            while low < high {
                let mid = (low + high) / 2
                if raws[byBegin[mid]].beginLine <= diagnostic.line { low = mid + 1 } else { high = mid }
            }
            var slot = low - 1
            // Only a card that nests others can hold a line past a later card's end; nesting is shallow.
            var steps = 0
            while slot >= 0 && lastLines[byBegin[slot]] < diagnostic.line {
                slot -= 1
                steps += 1
                if steps > 16 { slot = -1 }
            }
            if slot >= 0 { owned[byBegin[slot]].append(diagnostic) } else { outside.append(diagnostic) }
        }
        cards = raws.indices.map { index in
            let raw = raws[index]
            let (contact, read) = VCardReader.contact(from: raw)
            let lines = raw.lines
            let versionLine = lines.first { $0.name == "VERSION" }
            return LintedCard(
                raw: raw, lines: lines, contact: contact, readerDiagnostics: read,
                syntaxDiagnostics: owned[index],
                version: VCardVersion(versionValue: versionLine?.value), versionLine: versionLine,
                lastLine: lastLines[index])
        }
        fileDiagnostics = outside
    }
}
