import CardIdentity
import Utilities
import VCardSyntax

/// Repairs a vCard file as it is read, a part at a time, handing the repaired bytes on as each part is done:
/// what `Linter.fix` gives for the whole file, with memory bounded by the largest card rather than the file (a
/// repair of a 109 MB book held 1.7 GB). The parts are those `StreamLinter` cuts, read and repaired on every
/// processor and handed on in order; only handing out the UIDs made for cards is done in file order, since one
/// must differ from those made for the cards before it.
///
/// A UID made for a card must also differ from every UID the file's cards already have, before it or after:
/// `UIDSurvey` reads those first, as the repair reads them.
package struct StreamFixer {
    /// What the parts repaired so far gave, and where their bytes go.
    private final class Progress {
        var uids: ContentUIDs
        var fix = LintFix(bytes: [], changes: [], cardsRewritten: 0, cardsKept: 0)
        var out: [UInt8] = []
        var failure: (any Error)?
        let write: ([UInt8]) throws -> Void

        init(existingUIDs: Set<String>, write: @escaping ([UInt8]) throws -> Void) {
            uids = ContentUIDs(existing: existingUIDs)
            self.write = write
        }

        /// Hands on what is gathered, once there is enough of it or when `force`d; a failure is kept for the
        /// caller of `feed` (the linter calls the part handler, which cannot throw).
        func flush(force: Bool) {
            guard failure == nil, !out.isEmpty, force || out.count >= StreamFixer.writtenBytes else { return }
            do {
                try write(out)
            } catch {
                failure = error
            }
            out.removeAll(keepingCapacity: true)
        }
    }

    private var linter: StreamLinter
    private let progress: Progress
    private let file: String
    private let options: LintOptions

    /// How much repaired output is gathered before it is handed on.
    static let writtenBytes = 1 << 20

    /// Whether a file starting with `prefix` repaired with `options` gives the same result repaired as it is
    /// read as read whole (not for `--carddav`'s checks across cards).
    package static func canStream(prefix: [UInt8], options: LintOptions) -> Bool {
        // `--carddav` repairs look across the file's cards (a UID another card has). UTF-16 is turned into UTF-8
        // as it is read (`StreamLinter`), as the whole file's repair turns it.
        options.carddav == nil
    }

    /// A repair of the file named `file` in the changes, whose cards have the UIDs `existingUIDs` (see
    /// `UIDSurvey`), handing its repaired bytes to `write` a part at a time.
    package init(
        file: String, options: LintOptions = LintOptions(), existingUIDs: Set<String>,
        write: @escaping ([UInt8]) throws -> Void
    ) {
        self.file = file
        self.options = options
        let progress = Progress(existingUIDs: existingUIDs, write: write)
        self.progress = progress
        linter = StreamLinter(file: file, options: options)
        // A UID made for a card depends on the cards before it, but only through the allocator, and nearly always
        // it is the card's content UID. Each part is repaired on the thread that read it with its cards' content
        // UIDs; handed out in file order, a UID that proves to be taken has the part repaired again with it.
        linter.partHandler = StreamLinter.PartHandler(
            read: { input, again in
                let bases = Fixer.madeUIDBases(in: input)
                var part = Self.repair(input, uids: bases, file: file, options: options)
                part.bases = bases
                if !bases.isEmpty { part.again = again }
                return part
            },
            take: { result in
                var part = result as! RepairedPart
                let uids = part.bases.map { progress.uids.uid(base: $0) }
                if uids != part.bases, let again = part.again {
                    part = Self.repair(again(), uids: uids, file: file, options: options)
                }
                progress.out += part.out
                progress.fix.changes += part.fix.changes
                progress.fix.cardsRewritten += part.fix.cardsRewritten
                progress.fix.cardsKept += part.fix.cardsKept
                progress.flush(force: false)
            })
    }

    /// One part repaired, with the content UIDs of its cards that get one (and a way to read the part again, to
    /// repair it again when one of them is taken).
    private struct RepairedPart: Sendable {
        var out: [UInt8]
        var fix: LintFix
        var bases: [String] = []
        var again: (@Sendable () -> LintInput)?
    }

    /// `input` repaired, the cards that get a UID given `uids` in order.
    private static func repair(_ input: LintInput, uids: [String], file: String, options: LintOptions) -> RepairedPart {
        var made = uids.makeIterator()
        var part = RepairedPart(out: [], fix: LintFix(bytes: [], changes: [], cardsRewritten: 0, cardsKept: 0))
        // The file's own finding (no cards at all) is known only at the end.
        let outside = Linter.fileFindings(input).filter { $0.code != .noCards }
        Fixer(input: input, file: file, options: options).repair(
            madeUID: { _ in made.next()! }, into: &part.out, fix: &part.fix, fileFindings: outside)
        precondition(made.next() == nil, "a UID was made for a card that was not given one")
        return part
    }

    /// Takes the next bytes of the file, and hands on the repaired bytes of the cards they complete.
    /// - Throws: `VCardInputError` when a line grows past the longest a reader takes; what `write` throws.
    package mutating func feed(_ bytes: [UInt8]) throws {
        try linter.feed(bytes) { _ in }
        if let failure = progress.failure { throw failure }
    }

    /// Repairs what is left, hands on the last bytes, and returns what was done (its `bytes` empty: they were
    /// handed on).
    /// - Throws: what `write` throws.
    package mutating func finish() throws -> LintFix {
        linter.finish { _ in }
        if let tooLarge = linter.cardTooLarge { throw tooLarge }
        progress.flush(force: true)
        if let failure = progress.failure { throw failure }
        var fix = progress.fix
        if linter.cardsRead == 0 {
            // After the other changes on line 1, as the whole file's repair orders the file's own findings.
            let none = Linter.finish(
                [Diagnostic(.warning, .noCards, FileMessages.noCards, line: 1)], file: file, options: options)
            for finding in none {
                let (outcome, message) = FixMessages.fileOutcome(finding)
                let change = FixChange(
                    file: file, line: finding.line, code: finding.code, severity: finding.severity, outcome: outcome,
                    message: message)
                fix.changes.insert(change, at: fix.changes.firstIndex { $0.line > finding.line } ?? fix.changes.count)
            }
        }
        return fix
    }
}

/// The UIDs of a file's cards, read as `StreamFixer` reads them, from the file's bytes fed a part at a time: what
/// a repair needs to know before it makes a UID for a card.
package struct UIDSurvey {
    private final class Found {
        var uids = Set<String>()
    }

    private var linter: StreamLinter
    private let found = Found()

    /// A survey of the file named `file`, read with `options` (its charset).
    package init(file: String, options: LintOptions = LintOptions()) {
        linter = StreamLinter(file: file, options: options)
        let found = found
        linter.partHandler = StreamLinter.PartHandler(
            read: { input, _ in input.cards.compactMap { $0.contact.uid } },
            take: { uids in found.uids.formUnion(uids as! [String]) })
    }

    /// Takes the next bytes of the file.
    /// - Throws: `VCardInputError` when a line grows past the longest a reader takes.
    package mutating func feed(_ bytes: [UInt8]) throws { try linter.feed(bytes) { _ in } }

    /// Reads what is left and returns every UID found.
    /// - Throws: `StreamLinter.CardTooLarge` when a card is too large to be kept as written by a repair in parts.
    package mutating func finish() throws -> Set<String> {
        linter.finish { _ in }
        if let tooLarge = linter.cardTooLarge { throw tooLarge }
        return found.uids
    }
}

extension Linter {
    /// `fix(bytes)` a part at a time (`StreamFixer`): the same repair, holding the repaired file but never every
    /// card of it read at once. Input that cannot be repaired so (`--carddav`) is repaired whole.
    package static func fixInParts(_ bytes: [UInt8], file: String, options: LintOptions = LintOptions()) -> LintFix {
        guard StreamFixer.canStream(prefix: Array(bytes.prefix(64 << 10)), options: options) else {
            return fix(bytes, file: file, options: options)
        }
        let parts = stride(from: 0, to: bytes.count, by: 1 << 20).map { bytes[$0..<min(bytes.count, $0 + (1 << 20))] }
        do {
            var survey = UIDSurvey(file: file, options: options)
            for part in parts { try survey.feed(Array(part)) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var fixer = StreamFixer(file: file, options: options, existingUIDs: try survey.finish()) { out += $0 }
            for part in parts { try fixer.feed(Array(part)) }
            var result = try fixer.finish()
            result.bytes = out
            return result
        } catch {
            // A line longer than any reader takes, which the whole file's reading reports as a finding.
            return fix(bytes, file: file, options: options)
        }
    }
}
