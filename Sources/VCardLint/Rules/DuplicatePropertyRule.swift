import VCardFormat
import VCardSyntax

/// Properties a card may hold once, held more than once.
///
/// vCard 4.0 gives each property a cardinality (RFC 6350 section 6): VERSION exactly once; N, BDAY,
/// ANNIVERSARY, GENDER, REV, PRODID, UID and KIND at most once, where lines sharing an ALTID count as one
/// (they are the same value in other languages). A second one is an error there. RFC 2426 states no
/// cardinality, but these properties are single by meaning (one name in parts, one birthday, one
/// revision, one identifier, one sort string, one class) and readers keep only the first, so in 2.1 and
/// 3.0 a second one is a warning; a second VERSION is an error in every version.
struct DuplicatePropertyRule: CardRule {
    /// RFC 6350 6.7.9 and the writer's `SingleInstance` (which writes a further one as the version allows).
    static let single4: [String] = ["VERSION"] + SingleInstance.names(.v4_0)
    /// RFC 2426 3.6.9 and the writer's `SingleInstance`.
    static let single3: [String] = ["VERSION"] + SingleInstance.names(.v3_0)

    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        let names = card.version == .v4_0 ? Self.single4 : Self.single3
        for name in names {
            // With --carddav a second UID, REV or N is CardDAVRule's error instead.
            if context.options.carddav != nil && ["UID", "REV", "N"].contains(name) { continue }
            guard card.hasSeveral(named: name) else { continue }
            let lines = card.lines(named: name)
            var seenAltIDs: Set<String> = []
            var first: ContentLine?
            var occurrence = 1
            for line in lines {
                if card.version == .v4_0, let altID = line.parameter("ALTID") {
                    if !seenAltIDs.insert(altID).inserted { continue }
                }
                guard let earlier = first else {
                    first = line
                    continue
                }
                occurrence += 1
                let severity: Diagnostic.Severity = card.version == .v4_0 || name == "VERSION" ? .error : .warning
                findings.append(
                    finding(
                        severity, .duplicateProperty,
                        DuplicateMessages.again(name, occurrence, firstLine: earlier.line, card.version),
                        line: line.line))
            }
        }
    }
}

extension DiagnosticCode {
    /// A property a card may hold once appears again.
    public static let duplicateProperty: Self = "duplicate-property"
}

enum DuplicateMessages {
    static func again(_ name: String, _ occurrence: Int, firstLine: Int, _ version: VCardVersion) -> String {
        let rule = version == .v4_0 || name == "VERSION" ? "\(version.label) allows one" : "readers keep only the first"
        let ordinal = occurrence == 2 ? "second" : occurrence == 3 ? "third" : "\(occurrence)th"
        return "\(ordinal) \(name) in the card (the first is on line \(firstLine)); \(rule)"
    }
}
