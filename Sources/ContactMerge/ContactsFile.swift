import ContactModel
import VCardFormat
import VCardSyntax

/// A contacts file as read for an in-place update: its bytes, its cards and where each card's bytes are, so an
/// update rewrites only the cards that changed and leaves every other byte as it was.
public struct ContactsFile: Sendable {
    /// The name used in messages.
    public var name: String
    /// The file's bytes.
    public var bytes: [UInt8]
    /// The cards, in file order.
    public var cards: [ReadCard]
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

    /// Reads `bytes`; any error in any card stops here, because rewriting a file we did not fully understand could
    /// lose what we failed to read.
    /// - Throws: `Unreadable`.
    public init(bytes: [UInt8], name: String) throws {
        if bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)) {
            throw Unreadable(diagnostics: [], reason: "\(name): error: the file is UTF-16; convert it to UTF-8 first (vcf convert \(name) -o OUT)")
        }
        let (cards, diagnostics) = VCardDocument.read(bytes, name: name)
        let errors = diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else { throw Unreadable(diagnostics: errors) }
        self.name = name
        self.bytes = bytes
        self.cards = cards
        let firstLF = bytes.firstIndex(of: 0x0A)
        lineEnding = firstLF.map { $0 > 0 && bytes[$0 - 1] == 0x0D } ?? true ? [0x0D, 0x0A] : [0x0A]
    }

    /// The contacts, in file order.
    public var contacts: [Contact] { cards.map(\.contact) }

    /// The BEGIN:VCARD line of each card.
    public var lines: [Int] { cards.map(\.raw.beginLine) }

    /// The file with the cards at `replaced` positions rewritten, those in `removed` taken out, and `added`
    /// appended; every other byte as it was. Rewritten cards keep their version (2.1 is written as 3.0, which
    /// every reader of 2.1 also reads); added cards take the version most cards in the file have.
    public func rendered(replacing replaced: [Int: Contact], removing removed: Set<Int> = [], adding added: [Contact]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + added.count * 512)
        var copied = 0
        for position in cards.indices where replaced[position] != nil || removed.contains(position) {
            let range = cards[position].raw.byteRange
            out += bytes[copied..<range.lowerBound]
            if !removed.contains(position), let card = replaced[position] {
                out += written(card, version: version(of: position))
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

    private func version(of position: Int) -> VCardVersion {
        let raw = cards[position].raw
        return raw.withView { view in
            for i in 0..<view.count where view[i].nameIs("VERSION") {
                return VCardVersion(versionValue: view[i].value) == .v4_0 ? .v4_0 : .v3_0
            }
            return .v3_0
        }
    }

    private var prevailingVersion: VCardVersion {
        var four = 0
        for position in cards.indices where version(of: position) == .v4_0 { four += 1 }
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
