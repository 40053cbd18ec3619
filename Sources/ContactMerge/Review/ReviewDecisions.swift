import ContactMatching
import Foundation

/// What a person decided about pairs of cards, kept so they are not asked again: pairs said to be different
/// people ("keep apart"), by the two cards' UIDs. Stored as text in a file beside the contacts file
/// (`CONTACTS.vcf.decisions`), one pair a line:
///
///     # vcf review decisions for contacts.vcf
///     keep-apart<TAB>urn:uuid:...<TAB>urn:uuid:...
///
/// A keep-apart pair is never suggested again and never merged automatically: a person's word outweighs the rule.
public struct ReviewDecisions: Sendable, Equatable {
    /// The pairs kept apart, each as its two UID keys (`MatchKeys.uidKey`), lower first.
    public private(set) var keptApart: Set<[String]> = []
    /// Every UID key named by a pair, to rule most cards out with one lookup.
    private var named: Set<String> = []

    /// No decisions.
    public init() {}

    /// Why a decisions file cannot be read.
    public struct Malformed: Error, CustomStringConvertible, Sendable {
        /// The line, from 1.
        public var line: Int
        /// What was expected.
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Reads the text of a decisions file; blank lines and lines starting with `#` are comments.
    /// - Throws: `Malformed` for a line that is not `keep-apart`, a tab and two UIDs.
    public init(text: String) throws {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: { $0 == "\t" || $0 == " " }).map(String.init)
            guard fields.count == 3, fields[0] == ReviewAnswer.keepApart.rawValue else {
                throw Malformed(line: number + 1, message: "expected keep-apart and two UIDs separated by tabs")
            }
            record(keepApart: fields[1], fields[2])
        }
    }

    /// Whether there are no decisions.
    public var isEmpty: Bool { keptApart.isEmpty }

    /// Records that the cards with UIDs `a` and `b` are different people.
    public mutating func record(keepApart a: String, _ b: String) {
        guard let x = MatchKeys.uidKey(a), let y = MatchKeys.uidKey(b), x != y else { return }
        keptApart.insert(x < y ? [x, y] : [y, x])
        named.insert(x)
        named.insert(y)
    }

    /// Whether a decision names the card with UID `uid`.
    public func names(_ uid: String?) -> Bool {
        guard let uid, let key = MatchKeys.uidKey(uid) else { return false }
        return named.contains(key)
    }

    /// Whether the cards with these UIDs were said to be different people.
    public func areKeptApart(_ a: String?, _ b: String?) -> Bool {
        guard !keptApart.isEmpty, let a, let b, let x = MatchKeys.uidKey(a), let y = MatchKeys.uidKey(b) else {
            return false
        }
        return keptApart.contains(x < y ? [x, y] : [y, x])
    }

    /// The text of the decisions file, pairs sorted, so the same decisions always give the same bytes.
    public func text(for contacts: String) -> String {
        var out = "# vcf review decisions for \(contacts): pairs of cards (by UID) a person said are different\n"
        out += "# people, so `vcf merge` and `vcf dedupe` never merge or suggest them. Delete a line to undo it.\n"
        for pair in keptApart.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            out += "keep-apart\t\(pair[0])\t\(pair[1])\n"
        }
        return out
    }
}
