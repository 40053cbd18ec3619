import AddressBooks
import CardDAV
import CardPhoto
import ContactModel
import Vdir

/// `vcf convert ... --to-vdir DIR` and `vcf convert ... -o URL`: each converted card added to a vdir or an
/// address book collection as its own item, named from its UID; a card already there is left alone.
struct BookOutput {
    private var upload: BookUpload
    private let store: any CardStore
    private let io: CommandIO

    /// Opens (and for a vdir, creates and locks) `place` and reads what it holds.
    /// - Throws: `CardDAVError` or `VdirError`.
    init(_ place: Place, access: PlaceAccess, limit: RecordLimit?) throws {
        io = access.io
        store = try access.store(place, create: true, maxBytes: limit?.recordBytes, limitName: limit?.name)
        upload = BookUpload(book: try StoredBook(store: store, countryCode: nil))
        // Only counted here: a list of every card written grew with the input.
        upload.listsEachCard = false
    }

    /// Adds one card, written as `bytes`, read at `source` (`file:line`).
    /// - Throws: `CardDAVError` or `VdirError` when the place cannot be written at all.
    mutating func add(_ contact: Contact, bytes: [UInt8], source: String) throws {
        try upload.add(contact, bytes: bytes, source: source)
    }

    /// Writes the cards still waiting, and reports what was done; returns 1 when a card was refused, else 0.
    /// - Throws: `CardDAVError` or `VdirError` when the place cannot be written at all, as `add` does.
    mutating func finish() throws -> Int32 {
        try upload.flush()
        let report = upload.finish()
        store.close()
        for (source, name, reason) in report.refused {
            io.error("\(source): error: \(Merge.oneLine(name)) was not written to \(store.name): \(reason)")
        }
        for (source, name) in report.differing {
            io.error(
                "\(source): warning: \(Merge.oneLine(name)) is already in \(store.name) under its UID, and the "
                    + "card there lacks some of this one's data (changed there since, or rewritten by the server when "
                    + "stored); left as it is (vcf merge merges them)")
        }
        let created = upload.createdCount
        var parts = ["\(created) \(created == 1 ? "card" : "cards") written"]
        let there = upload.unchangedCount + report.differing.count
        if there > 0 {
            parts.append(
                "\(there) already there" + (report.differing.isEmpty ? "" : " (\(report.differing.count) differing)"))
        }
        if !report.refused.isEmpty { parts.append("\(report.refused.count) not written") }
        io.error("\(store.name): \(parts.joined(separator: ", "))")
        return report.refused.isEmpty ? ExitCode.success : ExitCode.problems
    }
}
