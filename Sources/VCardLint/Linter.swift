import VCardFormat
import VCardSyntax

/// What the linter checks beyond the RFCs, and how strictly it reports.
public struct LintOptions: Hashable, Sendable {
    /// Whether warnings are reported as errors.
    public var strict: Bool
    /// The largest card, in bytes as written, before `record-too-large`; nil for no limit.
    public var maxRecordBytes: Int?
    /// The largest embedded photo, in decoded image bytes, before `photo-too-large`; nil for no limit.
    public var maxPhotoBytes: Int?
    /// The limit's name for messages (`icloud`), if it has one.
    public var limitName: String?
    /// The charset of text that is not UTF-8 and declares none (`--charset`); nil to decide it.
    public var charset: Charset?
    /// With `--carddav`: what the server needs, checked as `CardDAVCheck` checks before an upload; the
    /// generic missing-uid, repeated UID and REV, and record-size findings then give way to its own.
    public var carddav: CardDAVServer?

    /// Creates options; by default warnings stay warnings, sizes are not limited and charsets are decided.
    public init(
        strict: Bool = false, maxRecordBytes: Int? = nil, maxPhotoBytes: Int? = nil, limitName: String? = nil,
        charset: Charset? = nil, carddav: CardDAVServer? = nil
    ) {
        self.strict = strict
        self.maxRecordBytes = maxRecordBytes
        self.maxPhotoBytes = maxPhotoBytes
        self.limitName = limitName
        self.charset = charset
        self.carddav = carddav
    }
}

/// Checks vCard files against RFC 2426 and RFC 6350 and for what makes other clients read them badly, and
/// repairs what can be repaired without losing data.
public enum Linter {
    /// The problems in `bytes`, sorted by line and column, each with `file` set.
    ///
    /// Every finding has a stable code (`DiagnosticCode`); messages name lines and properties, never a
    /// person's values. With `options.strict`, warnings come back as errors.
    /// - Complexity: O(n) in the size of the input.
    public static func lint(_ bytes: [UInt8], file: String, options: LintOptions = LintOptions()) -> [Diagnostic] {
        findings(in: LintInput(bytes, charset: options.charset), file: file, options: options)
    }

    /// The repaired file and what was changed; see `Fixer` for what each repair does.
    public static func fix(_ bytes: [UInt8], file: String, options: LintOptions = LintOptions()) -> LintFix {
        Fixer(input: LintInput(bytes, charset: options.charset), file: file, options: options).run()
    }

    /// The findings of an input already read, in order.
    static func findings(in input: LintInput, file: String, options: LintOptions) -> [Diagnostic] {
        var all = fileFindings(input)
        let context = RuleContext(source: input.source, options: options)
        for card in input.cards {
            all += cardFindings(card, context)
        }
        if options.carddav != nil { all += CardDAVRule.duplicateUIDs(input.cards) }
        return finish(all, file: file, options: options)
    }

    /// The findings about one card, unsorted and without a file name.
    static func cardFindings(_ card: LintedCard, _ context: RuleContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for rule in LintRules.all { rule.check(card, context, into: &found) }
        return found
    }

    /// The findings that belong to no card.
    static func fileFindings(_ input: LintInput) -> [Diagnostic] {
        var found = input.fileDiagnostics
        // (Once: a part of a file streamed by `StreamLinter` is a UTF-16 file's too.)
        if input.source.wasUTF16 && input.source.firstLine == 0 {
            found.append(Diagnostic(.warning, .notUTF8, FileMessages.utf16, line: 1))
        }
        if input.cards.isEmpty { found.append(Diagnostic(.warning, .noCards, FileMessages.noCards, line: 1)) }
        return found
    }

    /// Sorts by line and column (keeping the rules' order for equal places), names the file and applies
    /// `strict`.
    static func finish(_ found: [Diagnostic], file: String, options: LintOptions) -> [Diagnostic] {
        let sorted = found.enumerated().sorted {
            ($0.element.line, max($0.element.column, 1), $0.offset) < (
                $1.element.line, max($1.element.column, 1), $1.offset
            )
        }
        return sorted.map { entry in
            var diagnostic = entry.element
            diagnostic.file = file
            diagnostic.column = max(diagnostic.column, 1)
            if options.strict { diagnostic.severity = .error }
            return diagnostic
        }
    }
}
