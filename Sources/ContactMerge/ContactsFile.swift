import ContactModel
import VCardFormat
import VCardSyntax

/// A contacts file as read for an in-place update: where each card's bytes are and what identifies it, so an
/// update rewrites only the cards that changed and leaves every other byte as it was. Only the identifying fields
/// of each card are kept in memory; a whole card is read again from its bytes when a merge needs it.
public struct ContactsFile: Sendable {
    /// One card of the file.
    public struct Card: Sendable {
        /// Where its bytes are in the file.
        public var byteRange: Range<Int>
        /// Its BEGIN:VCARD line.
        public var beginLine: Int
        /// 4.0 or 3.0 (2.1 and 3.0 cards are rewritten as 3.0, which every reader of 2.1 also reads).
        public var version: VCardVersion
        /// What identifies the person: UID, FN, N, NICKNAME, ORG, EMAIL, TEL and BDAY as a full read gives them.
        public var identity: Contact
    }

    /// The name used in messages.
    public var name: String
    /// The file's bytes.
    public var bytes: [UInt8]
    /// The cards, in file order.
    public var cards: [Card]
    /// `\r\n`, or `\n` when the file's first line ends so: merged and added cards are written the same way.
    public var lineEnding: [UInt8]

    /// Why a file cannot be updated in place.
    public struct Unreadable: Error, CustomStringConvertible, Sendable {
        /// The problems, each naming the file and line.
        public var diagnostics: [Diagnostic]
        /// A problem with the file as a whole.
        public var reason: String?
        public var description: String {
            ([reason].compactMap { $0 } + diagnostics.map(\.description)).joined(separator: "\n")
        }
    }

    /// Reads `bytes` (on several threads when it is large); any error in any card stops here, because rewriting a
    /// file we did not fully understand could lose what we failed to read.
    /// - Throws: `Unreadable`.
    public init(bytes: [UInt8], name: String) throws {
        if bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)) {
            throw Unreadable(diagnostics: [], reason: "\(name): error: the file is UTF-16; convert it to UTF-8 first (vcf convert \(name) -o OUT)")
        }
        var cards: [Card] = []
        var errors: [Diagnostic] = []
        do {
            try ParallelCardReader().readRaw(bytes, name: name, transform: { raw in
                Card(byteRange: raw.byteRange, beginLine: raw.beginLine, version: Self.version(of: raw),
                     identity: VCardReader.identity(from: raw))
            }, body: { cards.append($0) }, diagnostics: { found in errors += found.filter { $0.severity == .error } })
        } catch {
            throw Unreadable(diagnostics: [], reason: "\(error)")
        }
        guard errors.isEmpty else { throw Unreadable(diagnostics: errors.sorted { ($0.line, $0.column) < ($1.line, $1.column) }) }
        self.name = name
        self.bytes = bytes
        self.cards = cards
        let firstLF = bytes.firstIndex(of: 0x0A)
        lineEnding = firstLF.map { $0 > 0 && bytes[$0 - 1] == 0x0D } ?? true ? [0x0D, 0x0A] : [0x0A]
    }

    /// The whole card at `position`, read again from its bytes.
    public func contact(at position: Int) -> Contact {
        let range = cards[position].byteRange
        return VCardDocument.read(Array(bytes[range])).cards.first?.contact ?? cards[position].identity
    }

    /// The cards for a merge to match against: identities in memory, whole cards read when needed.
    public var existingCards: ExistingCards {
        let file = self
        return ExistingCards(identities: cards.map(\.identity), card: { file.contact(at: $0) })
    }

    /// The BEGIN:VCARD line of each card.
    public var lines: [Int] { cards.map(\.beginLine) }

    /// The file with the cards at `replaced` positions rewritten, those in `removed` taken out, and `added`
    /// appended; every other byte as it was. Rewritten cards keep their version (2.1 is written as 3.0, which
    /// every reader of 2.1 also reads); added cards take the version most cards in the file have.
    public func rendered(replacing replaced: [Int: Contact], removing removed: Set<Int> = [], adding added: [Contact]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + added.count * 512)
        var copied = 0
        for position in Set(replaced.keys).union(removed).sorted() {
            let range = cards[position].byteRange
            out += bytes[copied..<range.lowerBound]
            if !removed.contains(position), let card = replaced[position] {
                out += written(card, version: cards[position].version)
            }
            copied = range.upperBound
        }
        out += bytes[copied...]
        if !added.isEmpty {
            if let last = out.last, last != 0x0A { out += lineEnding }
            let version = prevailingVersion
            for card in added { out += written(card, version: version) }
        }
        return out
    }

    private static func version(of raw: RawCard) -> VCardVersion {
        raw.withView { view in
            for i in 0..<view.count where view[i].nameIs("VERSION") {
                return VCardVersion(versionValue: view[i].value) == .v4_0 ? .v4_0 : .v3_0
            }
            return .v3_0
        }
    }

    private var prevailingVersion: VCardVersion {
        var four = 0
        for card in cards where card.version == .v4_0 { four += 1 }
        return four * 2 > cards.count ? .v4_0 : .v3_0
    }

    private func written(_ card: Contact, version: VCardVersion) -> [UInt8] {
        var out: [UInt8] = []
        VCardWriter(version: version).write(card, into: &out)
        guard lineEnding == [0x0A] else { return out }
        var lf: [UInt8] = []
        lf.reserveCapacity(out.count)
        for (i, b) in out.enumerated() where !(b == 0x0D && i + 1 < out.count && out[i + 1] == 0x0A) { lf.append(b) }
        return lf
    }
}
