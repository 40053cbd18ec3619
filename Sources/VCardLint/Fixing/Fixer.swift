import CardIdentity
import ContactModel
import VCardFormat
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Repairs a file without losing data, and says what it did about each finding.
///
/// - Every readable card is written again by `VCardWriter`, as clean vCard 3.0 (a 4.0 card as 4.0: written
///   down to 3.0, its reduced dates, ALTID alternatives and 4.0 properties would become new findings).
///   That alone folds long lines, turns quoted-printable and other charsets into UTF-8 text, escapes
///   values, puts VERSION right after BEGIN and adds a missing END.
/// - A card without FN gets the name a contacts app would show (from N, else ORG, EMAIL, TEL, NICKNAME).
/// - A card written as 3.0 without N gets one from FN, its last word as the family name and the words
///   before it as the given name (`Mary Ann Smith` -> `N:Smith;Mary Ann;;;`). That is right for most Western names and
///   wrong for family-name-first ones, but it is only written where the card had no N at all; when FN
///   names an organisation or is not a name (an email address, a number) the N written is empty.
/// - A card without UID gets `urn:uuid:` and a version 5 UUID made from the card's content as read
///   (`ContentUIDs`, which `convert --ensure-uid` and `merge` use too), so fixing the same file twice gives
///   the same bytes. Two identical cards get different UIDs (see `UIDAllocator`).
/// - Embedded images whose declared type does not match their bytes get the type of their bytes.
/// - A second VERSION is removed; other repeated single properties are all kept (nothing is dropped), and
///   reported as not fixed.
/// - A card the lexer could not read whole (a line without a colon or name, a line or card over the
///   limits) is kept byte for byte as written, and each of its findings reported as not fixed: rewriting
///   it would lose the line the reader skipped.
/// - Blank lines and stray END:VCARD lines between cards are removed; other text outside cards is kept
///   as written (it may be a card whose BEGIN was mistyped).
/// - A NUL in a value is written as U+FFFD (see `LineBuilder.appendEscaped`); other control characters are
///   kept and reported as not fixed.
/// - Base64 that cannot be decoded at all is left out, as `vcf convert` does: writing it back gives
///   data no reader accepts.
struct Fixer {
    let input: LintInput
    let file: String
    let options: LintOptions

    /// Codes by which the lexer says it skipped part of a card.
    static let lossyCodes: Set<DiagnosticCode> = [
        .missingColon, .missingName, .lineTooLong, .cardTooLarge,
        .tooManyParameters, .nestingTooDeep,
    ]

    static func isLossy(_ diagnostic: Diagnostic) -> Bool {
        // A bare name (`FN`) is a warning: it was read as an empty value, nothing was skipped.
        lossyCodes.contains(diagnostic.code) && !(diagnostic.code == .missingColon && diagnostic.severity == .warning)
    }

    func run() -> LintFix {
        var out: [UInt8] = []
        out.reserveCapacity(input.source.bytes.count)
        var fix = LintFix(bytes: [], changes: [], cardsRewritten: 0, cardsKept: 0)
        var uids = ContentUIDs(existing: Set(input.cards.compactMap { $0.contact.uid }))
        repair(uids: &uids, into: &out, fix: &fix, fileFindings: Linter.fileFindings(input))
        fix.bytes = out
        return fix
    }

    /// Repairs the cards of `input` (a whole file, or a part of one as `StreamFixer` reads it) into `out`, with
    /// the gaps between them, and adds what was done to `fix`: the changes of its cards and of `fileFindings`
    /// (the findings outside its cards) in line order after those before, and its counts.
    func repair(uids: inout ContentUIDs, into out: inout [UInt8], fix: inout LintFix, fileFindings: [Diagnostic]) {
        repair(madeUID: { uids.uid(for: $0) }, into: &out, fix: &fix, fileFindings: fileFindings)
    }

    /// The cards of `input` in the order `repair` writes them, each with whether it is rewritten (rather than
    /// kept as written, because the lexer skipped part of it).
    static func cardsInOrder(_ input: LintInput) -> [(card: LintedCard, rewritten: Bool)] {
        input.cards.sorted(by: { $0.raw.byteRange.lowerBound < $1.raw.byteRange.lowerBound }).map { card in
            (card, !card.syntaxDiagnostics.contains(where: Self.isLossy))
        }
    }

    /// The content UIDs (`ContentUIDs.base(of:)`) of the cards of `input` that `repair` gives a UID, in the
    /// order it asks for them: the work of making them, done before the UIDs are handed out in file order.
    static func madeUIDBases(in input: LintInput) -> [String] {
        cardsInOrder(input).compactMap { card, rewritten in
            rewritten && CardRepair.makesUID(card) ? ContentUIDs.base(of: card.contact) : nil
        }
    }

    /// `repair(uids:...)` with the UID of each card that gets one from `madeUID`, asked in file order with the
    /// card as read.
    func repair(
        madeUID: (Contact) -> String, into out: inout [UInt8], fix: inout LintFix, fileFindings: [Diagnostic]
    ) {
        let context = RuleContext(source: input.source, options: options)
        let bytes = input.source.bytes
        var changes: [FixChange] = []
        var cursor = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for (card, rewritten) in Self.cardsInOrder(input) {
            let range = card.raw.byteRange
            if range.lowerBound > cursor { Self.appendGap(bytes[cursor..<range.lowerBound], into: &out) }
            cursor = max(cursor, range.upperBound)
            let findings = Linter.finish(Linter.cardFindings(card, context), file: file, options: options)
            if !rewritten, let lossy = card.syntaxDiagnostics.first(where: Self.isLossy) {
                fix.cardsKept += 1
                out += bytes[range]
                if let last = out.last, last != 0x0A && last != 0x0D { out += [0x0D, 0x0A] }
                changes += findings.map {
                    change(
                        $0, .notFixed, Self.isLossy($0) ? FixMessages.unreadable : FixMessages.kept($0, because: lossy))
                }
                continue
            }
            fix.cardsRewritten += 1
            var repair = CardRepair(card: card, findings: findings, file: file, options: options)
            out += repair.write(madeUID: madeUID)
            changes += repair.changes
        }
        if cursor < bytes.count { Self.appendGap(bytes[cursor...], into: &out) }
        for finding in Linter.finish(fileFindings, file: file, options: options) {
            let (outcome, message) = FixMessages.fileOutcome(finding)
            changes.append(change(finding, outcome, message))
        }
        let ordered = changes.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
        fix.changes += ordered.map(\.element)
    }

    private func change(_ finding: Diagnostic, _ outcome: FixChange.Outcome, _ message: String) -> FixChange {
        FixChange(
            file: file, line: finding.line, code: finding.code, severity: finding.severity, outcome: outcome,
            message: message)
    }

    /// The text between cards, without blank lines and stray END:VCARD lines, each kept line ended by CRLF.
    static func appendGap(_ gap: ArraySlice<UInt8>, into out: inout [UInt8]) {
        var start = gap.startIndex
        while start < gap.endIndex {
            var end = start
            while end < gap.endIndex && gap[end] != 0x0A && gap[end] != 0x0D { end += 1 }
            let text = gap[start..<end]
            var next = end
            while next < gap.endIndex && (gap[next] == 0x0A || gap[next] == 0x0D) {
                if gap[next] == 0x0A {
                    next += 1
                    break
                }
                next += 1
            }
            let squeezed = String(decoding: text, as: UTF8.self).filter { $0 != " " && $0 != "\t" }.uppercased()
            let isStrayEnd = squeezed == "END:VCARD" || squeezed.hasSuffix(".END:VCARD")
            if !squeezed.isEmpty && !isStrayEnd {
                out += text
                out += [0x0D, 0x0A]
            }
            start = next
        }
    }
}

/// The repair of one readable card: the contact to write and what was done.
struct CardRepair {
    let card: LintedCard
    let findings: [Diagnostic]
    let file: String
    let options: LintOptions
    private(set) var changes: [FixChange] = []

    init(card: LintedCard, findings: [Diagnostic], file: String, options: LintOptions) {
        self.card = card
        self.findings = findings
        self.file = file
        self.options = options
    }

    /// Whether `write` gives `card` a UID made from its content: it has no UID line at all.
    static func makesUID(_ card: LintedCard) -> Bool { card.contact.uid == nil && !card.has("UID") }

    /// The card written as vCard 3.0 with its repairs, a UID it gets from `madeUID`; fills `changes`.
    mutating func write(madeUID: (Contact) -> String) -> [UInt8] {
        let writer = VCardWriter(version: card.version == .v4_0 ? .v4_0 : .v3_0)
        var contact = card.contact
        // A second VERSION is a marker, not data; the writer writes the one VERSION.
        contact.extensions.removeAll { $0.name == "VERSION" }
        let retyped = Self.retypeImages(&contact)
        var notes: [DiagnosticCode: String] = [:]
        if !card.has("FN") {
            notes[.missingFormattedName] = FixMessages.addedFN(from: Self.nameSource(card.contact))
        } else if contact.formattedName?.trimmingASCIIWhitespace().isEmpty == true {
            let derived = contact.derivedDisplayName
            if !derived.isEmpty {
                contact.formattedName = derived
                notes[.emptyFN] = FixMessages.filledFN(from: Self.nameSource(contact))
            }
        }
        if writer.version == .v3_0 && !card.has("N") {
            let (name, note) = Self.derivedName(contact.formattedName ?? "", card: card)
            contact.name = name
            notes[.missingN] = note
        }
        if Self.makesUID(card) {
            // Made from the card as read, before the repairs, so convert --ensure-uid gives the same UID.
            let uid = madeUID(card.contact)
            contact.uid = uid
            notes[.missingUID] = FixMessages.addedUID(uid)
        }
        var out: [UInt8] = []
        writer.write(contact, into: &out)

        // What is still there once the card is written is not fixed, whatever was meant.
        let after = LintInput(out)
        let context = RuleContext(source: after.source, options: options)
        // Told apart by the property they are on too: an invalid REV left is no invalid BDAY left.
        let remaining = Set(
            after.cards.flatMap { written in
                Linter.cardFindings(written, context).map { Self.findingKey($0, in: written) }
            })
        // FN and N added where the card's version did not require them (2.1 FN) but 3.0 does come first,
        // as their findings would.
        let extras = [DiagnosticCode.missingFormattedName, .missingN].filter { code in
            notes[code] != nil && !findings.contains { $0.code == code }
        }
        for code in extras {
            changes.append(
                FixChange(
                    file: file, line: card.beginLine, code: code, severity: .warning,
                    outcome: .fixed, message: notes[code]!))
        }
        for finding in findings {
            var (outcome, message) = FixMessages.outcome(finding, card: card, notes: notes, retyped: retyped)
            if outcome == .fixed && remaining.contains(Self.findingKey(finding, in: card)) {
                outcome = .notFixed
                message = "\(finding.message); still there after rewriting the card"
            }
            changes.append(
                FixChange(
                    file: file, line: finding.line, code: finding.code, severity: finding.severity,
                    outcome: outcome, message: message))
        }
        return out
    }

    /// A finding's code and the name of the line it is on (empty for a finding about the whole card).
    static func findingKey(_ finding: Diagnostic, in card: LintedCard) -> String {
        let name = card.lines.first { $0.line == finding.line }?.name ?? ""
        return "\(finding.code.rawValue) \(name)"
    }

    /// Which field a derived FN came from, as its property name; nil when there was nothing.
    static func nameSource(_ contact: Contact) -> String? {
        if let name = contact.name, !name.isEmpty { return "N" }
        if let org = contact.organization, !org.name.isEmpty { return "ORG" }
        if !contact.emails.isEmpty { return "EMAIL" }
        if !contact.phones.isEmpty { return "TEL" }
        if !contact.nicknames.isEmpty { return "NICKNAME" }
        return nil
    }

    /// N made from FN: the last word the family name, the words before it the given name; nil (an empty N)
    /// for an organisation or a FN that is no person's name.
    static func derivedName(_ formattedName: String, card: LintedCard) -> (StructuredName?, String) {
        let words = formattedName.split(whereSeparator: \.isWhitespace).map(String.init)
        if words.isEmpty { return (nil, FixMessages.emptyN("the card has no FN to take it from")) }
        let organization = card.contact.organization?.name ?? ""
        let kind = card.lines(named: "KIND").first?.value.lowercased() ?? ""
        let showAs = card.lines(named: "X-ABSHOWAS").first?.value.uppercased() ?? ""
        if (!organization.isEmpty && organization == formattedName) || kind == "org" || showAs == "COMPANY" {
            return (nil, FixMessages.emptyN("the card names an organisation"))
        }
        if formattedName.contains("@") || !formattedName.contains(where: \.isLetter) {
            return (nil, FixMessages.emptyN("FN is not a person's name"))
        }
        let family = words[words.count - 1]
        let given = words.dropLast().joined(separator: " ")
        return (StructuredName(family: [family], given: given.isEmpty ? [] : [given]), FixMessages.derivedN)
    }

    /// Gives embedded images (the photo and PHOTO or LOGO kept raw) the type of their bytes where the
    /// declared one differs; returns the new types by property name.
    static func retypeImages(_ contact: inout Contact) -> [String: ImageFormat] {
        var retyped: [String: ImageFormat] = [:]
        if let photo = contact.photo, let data = photo.data, let declared = photo.mediaType,
            let declaredFormat = ImageFormat(declared: declared), let actual = ImageFormat(sniffing: data),
            declaredFormat != actual
        {
            contact.photo?.mediaType = actual.mediaType
            retyped["PHOTO"] = actual
        }
        for index in contact.extensions.indices where ["PHOTO", "LOGO"].contains(contact.extensions[index].name) {
            let item = contact.extensions[index]
            let encoding = item.parameters.first { $0.name == "ENCODING" }?.values.first?.lowercased()
            guard encoding == "b" || encoding == "base64" else { continue }
            var value = item.value
            guard let data = value.withUTF8({ Base64.decode($0) }), let actual = ImageFormat(sniffing: data) else {
                continue
            }
            for p in item.parameters.indices where item.parameters[p].name == "TYPE" {
                for v in item.parameters[p].values.indices {
                    guard let declared = ImageFormat(declared: item.parameters[p].values[v]), declared != actual else {
                        continue
                    }
                    contact.extensions[index].parameters[p].values[v] = actual.typeValue
                    retyped[item.name] = actual
                }
            }
        }
        return retyped
    }
}

/// The texts of the fix log: what was done about each code.
enum FixMessages {
    static let unreadable = "this line cannot be read, so its card was kept as written; repair it by hand"

    static func kept(_ finding: Diagnostic, because lossy: Diagnostic) -> String {
        "\(finding.message); the card was kept as written (line \(lossy.line) cannot be read)"
    }

    static func addedFN(from source: String?) -> String {
        source.map { "added FN made from \($0)" }
            ?? "wrote an empty FN: the card has no N, ORG, EMAIL or TEL to make one from"
    }

    static func filledFN(from source: String?) -> String { "filled FN in from \(source ?? "the card")" }

    static let derivedN = "added N made from FN, its last word as the family name"

    static func emptyN(_ why: String) -> String { "added an empty N: \(why)" }

    static func addedUID(_ uid: String) -> String { "added UID \(uid), made from the card's content" }

    /// Whether a finding was repaired, and how (or why not).
    static func outcome(
        _ finding: Diagnostic, card: LintedCard, notes: [DiagnosticCode: String],
        retyped: [String: ImageFormat]
    ) -> (FixChange.Outcome, String) {
        let name = card.lines.first { $0.line == finding.line }?.name ?? ""
        switch finding.code {
        case .missingVersion: return (.fixed, "added VERSION:3.0")
        case .unknownVersion:
            let written = card.version == .v4_0 ? "4.0" : "3.0"
            return (.fixed, "wrote VERSION:\(written), the version the card was read as")
        case .versionNotSecond: return (.fixed, "moved VERSION right after BEGIN:VCARD")
        case .missingFormattedName: return (.fixed, notes[.missingFormattedName] ?? addedFN(from: nil))
        case .missingN: return (.fixed, notes[.missingN] ?? emptyN("the card had none"))
        case .emptyFN:
            guard let note = notes[.emptyFN] else {
                return (.notFixed, "\(finding.message); the card has no N, ORG, EMAIL or TEL to make one from")
            }
            return (.fixed, note)
        case .missingUID: return (.fixed, notes[.missingUID] ?? "added a UID")
        case .duplicateProperty:
            if name == "VERSION" { return (.fixed, "removed the second VERSION") }
            if name == "REV" { return (.fixed, "kept the newest REV, the time of the card's last change") }
            return (.fixed, "wrote it as X-\(name), its parameters and value kept, so the card holds one \(name)")
        case .invalidBase64:
            let line = card.lines.first { $0.line == finding.line }
            if let line, let embedded = EmbeddedData(line), embedded.decoding == .undecodable {
                return (.fixed, "left \(line.name) out: its data cannot be recovered")
            }
            return (.fixed, "kept the readable part of the data and wrote it as clean base64")
        case .imageTypeMismatch:
            guard let format = retyped[name] else { return (.notFixed, "\(finding.message); kept as written") }
            return (.fixed, "set TYPE to \(format.typeValue), the type of the data")
        case .invalidDate:
            // A 4.0 birthday or anniversary the model holds, and no date, is written `VALUE=text`.
            let line = card.lines.first { $0.line == finding.line }
            // A second BDAY is written as X-BDAY (`SingleInstance`), which holds text, not a date.
            let written: VCardVersion = card.version == .v4_0 ? .v4_0 : .v3_0
            if SingleInstance.names(written).contains(name),
                card.lines.first(where: { $0.name == name })?.line != finding.line
            {
                return (.fixed, "a second \(name), written as X-\(name) with its text kept")
            }
            let held = name == "BDAY" ? card.contact.birthday : name == "ANNIVERSARY" ? card.contact.anniversary : nil
            if card.version == .v4_0, let line, let held, held == ValueEscaping.unescapeText(line.value),
                VCardDates.isWrittenAsText(birthday: held)
            {
                return (.fixed, "marked the value VALUE=text: it is no date")
            }
            return (.notFixed, "\(finding.message); kept as written")
        case .longLine: return (.fixed, "folded every line at 75 octets")
        case .quotedPrintable: return (.fixed, "wrote the values as vCard 3.0 text")
        case .invalidEncoding, .unknownCharset: return (.fixed, "wrote the value in UTF-8 as it was read")
        case .invalidQuotedPrintable, .unterminatedQuote, .invalidValue:
            return (.fixed, "wrote the line as it was read")
        case .missingColon: return (.fixed, "wrote the bare name as an empty value")
        case .missingEnd: return (.fixed, "added END:VCARD")
        case .nulCharacter: return (.fixed, "wrote each NUL as U+FFFD")
        case .controlCharacter: return (.notFixed, "\(finding.message); kept as written, remove it by hand")
        case .nonstandardName:
            return (.notFixed, "kept the name as written: the application that wrote it finds its data by it")
        case .recordTooLarge, .photoTooLarge:
            return (.notFixed, "\(finding.message); recompress the photo with vcf convert --max-bytes")
        default: return (.notFixed, "\(finding.message); kept as written")
        }
    }

    /// What was done about a finding outside any card.
    static func fileOutcome(_ finding: Diagnostic) -> (FixChange.Outcome, String) {
        switch finding.code {
        case .unexpectedEnd: return (.fixed, "removed the END:VCARD that closes no card")
        case .notUTF8: return (.fixed, "wrote the file in UTF-8")
        case .textOutsideCard:
            return (.notFixed, "\(finding.message); kept as written, it may be a card with a damaged BEGIN")
        default: return (.notFixed, "\(finding.message); nothing was done")
        }
    }
}
