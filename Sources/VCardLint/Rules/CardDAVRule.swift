import VCardFormat
import VCardSyntax

/// What a CardDAV server needs of a card before it stores it (`lint --carddav`, and `vcf` itself before every
/// upload): a UID (RFC 6352 section 5.1, which servers enforce) that no other card of the address book has, at
/// most one UID, one REV and one N (servers that parse cards, such as Radicale, refuse a second), a size within
/// the server's limit, and vCard 3.0 (4.0 only where the server advertises it in `supported-address-data`; 2.1
/// nowhere).
public struct CardDAVServer: Hashable, Sendable {
    /// Whether the server stores vCard 4.0: true or false when it said, nil when not known (lint alone).
    public var accepts4: Bool?
    /// The largest card the server stores, in bytes as sent; nil for no known limit.
    public var maxBytes: Int?
    /// The limit's name for messages (`icloud`, `the server's max-resource-size`).
    public var limitName: String?

    /// A server profile; by default nothing is known of it.
    public init(accepts4: Bool? = nil, maxBytes: Int? = nil, limitName: String? = nil) {
        self.accepts4 = accepts4
        self.maxBytes = maxBytes
        self.limitName = limitName
    }
}

/// The checks of one card against `CardDAVServer`, for the uploader and for lint.
public enum CardDAVCheck {
    /// The problems that would make `server` refuse the card in `cardBytes` (one card), errors first;
    /// whether its UID is unique among the others is the caller's to check.
    public static func problems(in cardBytes: [UInt8], server: CardDAVServer) -> [Diagnostic] {
        let input = LintInput(cardBytes)
        guard let card = input.cards.first else {
            return [Diagnostic(.error, .cardDAVUnreadable, CardDAVMessages.unreadable, line: 1)]
        }
        var found: [Diagnostic] = []
        CardDAVRule.check(card, server: server, into: &found)
        return found
    }
}

extension CardDAVCheck {
    /// The UID of each card in `bytes` that has one, with the card's BEGIN line: for finding UIDs repeated
    /// across the files of a folder.
    public static func uids(in bytes: [UInt8]) -> [(uid: String, line: Int)] {
        LintInput(bytes).cards.compactMap { card in
            guard let uid = card.lines(named: "UID").first?.value.trimmingASCIIWhitespace(), !uid.isEmpty else {
                return nil
            }
            return (uid, card.beginLine)
        }
    }

    /// The finding for a card at `line` whose UID the card at `elsewhere` (`file:line`) has too.
    public static func duplicateUID(line: Int, elsewhere: String) -> Diagnostic {
        Diagnostic(.error, .cardDAVDuplicateUID, CardDAVMessages.duplicateUID(elsewhere: elsewhere), line: line)
    }
}

/// `CardDAVCheck` as a lint rule, active with `--carddav`.
struct CardDAVRule: CardRule {
    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        guard let server = context.options.carddav else { return }
        Self.check(card, server: server, into: &findings)
    }

    static func check(_ card: LintedCard, server: CardDAVServer, into findings: inout [Diagnostic]) {
        let uids = card.lines(named: "UID")
        if uids.isEmpty || uids.allSatisfy({ $0.value.trimmingASCIIWhitespace().isEmpty }) {
            findings.append(Diagnostic(.error, .cardDAVMissingUID, CardDAVMessages.missingUID, line: card.beginLine))
        }
        let single: [(String, DiagnosticCode)] = [
            ("UID", .cardDAVMultipleUID), ("REV", .cardDAVMultipleREV), ("N", .cardDAVMultipleN),
        ]
        for (name, code) in single {
            let lines = card.lines(named: name)
            guard lines.count > 1 else { continue }
            findings.append(
                Diagnostic(.error, code, CardDAVMessages.again(name, firstLine: lines[0].line), line: lines[1].line))
        }
        switch card.version {
        case .v2_1:
            findings.append(Diagnostic(.error, .cardDAVVersion, CardDAVMessages.version21, line: card.beginLine))
        case .v4_0 where server.accepts4 != true:
            let severity: Diagnostic.Severity = server.accepts4 == false ? .error : .warning
            findings.append(
                Diagnostic(
                    severity, .cardDAVVersion, CardDAVMessages.version4(known: server.accepts4 != nil),
                    line: card.versionLine?.line ?? card.beginLine))
        default:
            break
        }
        if let limit = server.maxBytes, card.raw.byteRange.count > limit {
            findings.append(
                Diagnostic(
                    .error, .cardDAVTooLarge,
                    CardDAVMessages.tooLarge(card.raw.byteRange.count, limit: limit, name: server.limitName),
                    line: card.beginLine))
        }
    }

    /// `carddav-duplicate-uid` for each card whose UID an earlier card of the input has.
    static func duplicateUIDs(_ cards: [LintedCard]) -> [Diagnostic] {
        var first: [String: Int] = [:]
        var found: [Diagnostic] = []
        for card in cards {
            guard let (uid, line) = Self.uid(of: card) else { continue }
            if let firstLine = first[uid] {
                found.append(duplicateUID(line: line, firstLine: firstLine))
            } else {
                first[uid] = line
            }
        }
        return found
    }

    /// The card's UID as servers compare it, with the card's first line; nil without one.
    static func uid(of card: LintedCard) -> (uid: String, line: Int)? {
        guard let uid = card.lines(named: "UID").first?.value.trimmingASCIIWhitespace(), !uid.isEmpty else {
            return nil
        }
        return (uid, card.beginLine)
    }

    /// `carddav-duplicate-uid` for the card at `line`, whose UID the card at `firstLine` has.
    static func duplicateUID(line: Int, firstLine: Int) -> Diagnostic {
        Diagnostic(.error, .cardDAVDuplicateUID, CardDAVMessages.duplicateUID(firstLine: firstLine), line: line)
    }
}

extension DiagnosticCode {
    /// The card has no UID, which CardDAV servers require.
    public static let cardDAVMissingUID: Self = "carddav-missing-uid"
    /// Another card has the same UID: an address book holds one card per UID.
    public static let cardDAVDuplicateUID: Self = "carddav-duplicate-uid"
    /// The card has two UIDs.
    public static let cardDAVMultipleUID: Self = "carddav-multiple-uid"
    /// The card has two REVs.
    public static let cardDAVMultipleREV: Self = "carddav-multiple-rev"
    /// The card has two N (4.0 language alternatives written as 3.0 among them): Radicale refuses it.
    public static let cardDAVMultipleN: Self = "carddav-multiple-n"
    /// The card's version is not one the server stores.
    public static let cardDAVVersion: Self = "carddav-version"
    /// The card is larger than the server stores.
    public static let cardDAVTooLarge: Self = "carddav-too-large"
    /// The bytes hold no card.
    public static let cardDAVUnreadable: Self = "carddav-unreadable"
}

enum CardDAVMessages {
    static let missingUID = "card has no UID; CardDAV servers refuse it (vcf convert --ensure-uid gives it one)"
    static let unreadable = "no card could be read"
    static let version21 = "vCard 2.1: CardDAV servers store vCard 3.0 (vcf convert writes 3.0)"

    static func version4(known: Bool) -> String {
        known
            ? "vCard 4.0, which this server does not advertise; write 3.0 (vcf convert --to vcard3)"
            : "vCard 4.0: only servers that advertise 4.0 store it; 3.0 goes everywhere (vcf convert --to vcard3)"
    }

    static func again(_ name: String, firstLine: Int) -> String {
        "second \(name) in the card (the first is on line \(firstLine)); CardDAV servers refuse a card with two"
    }

    static func duplicateUID(firstLine: Int) -> String {
        "the card at line \(firstLine) has the same UID; an address book holds one card per UID"
    }

    static func duplicateUID(elsewhere: String) -> String {
        "the card at \(elsewhere) has the same UID; an address book holds one card per UID"
    }

    static func tooLarge(_ size: Int, limit: Int, name: String?) -> String {
        "card is \(SizeMessages.grouped(size)) bytes, over the server's \(SizeMessages.grouped(limit))-byte limit"
            + (name.map { " (\($0))" } ?? "")
    }
}
