import ContactMatching
import ContactModel
import Foundation
import SyntheticBook
import TestSupport
import Testing
import VCFCommands
import VCardFormat
import VCardSyntax

/// Invariants of `vcf merge` on the seeded labelled generator (duplicates in other services' shapes, new people
/// and traps): no value is lost without a trace, a second merge changes nothing, the order of incoming cards does
/// not change the resulting cards, and a dry run writes nothing.
@Suite struct MergeInvariantTests {
    static let book = SyntheticBook.generate(
        .init(
            seed: 5, existingPeople: 1_200, incomingDuplicates: 240,
            incomingNew: 120, traps: 60))

    /// A scratch directory holding the existing book as contacts.vcf and the incoming cards as incoming.vcf.
    struct Workspace {
        let dir: URL
        var contacts: String { dir.appendingPathComponent("contacts.vcf").path }
        var incoming: String { dir.appendingPathComponent("incoming.vcf").path }

        init(incoming: String = MergeInvariantTests.book.incoming) throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-invariant-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(MergeInvariantTests.book.existing.utf8).write(to: URL(fileURLWithPath: contacts))
            try Data(incoming.utf8).write(to: URL(fileURLWithPath: self.incoming))
        }

        func merge(_ extra: [String] = []) -> (code: Int32, report: [UInt8]) {
            let (io, out, _) = CommandIO.capturing()
            let code = VCFCommandLine.run(
                ["merge", incoming, "--into", contacts, "--country-code", "1"] + extra, io: io)
            return (code, out())
        }

        func contents() throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: contacts))) }
        func remove() { try? FileManager.default.removeItem(at: dir) }
    }

    static func contacts(_ bytes: [UInt8]) -> [Contact] { VCardDocument.read(bytes).cards.map(\.contact) }

    /// Every value of every input card, existing and incoming, is on the card it ended up in, or the report names
    /// it as a value replaced (`previous`) or not taken (`kept`).
    @Test func everyValueIsKeptOrReported() throws {
        let work = try Workspace()
        defer { work.remove() }
        let (code, reportBytes) = work.merge(["--json"])
        #expect(code == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(reportBytes)) as? [String: Any])
        let entries = try #require(report["cards"] as? [[String: Any]])
        let existingCards = VCardDocument.read(Array(Self.book.existing.utf8)).cards
        let existing = existingCards.map(\.contact)
        let incoming = Self.contacts(Array(Self.book.incoming.utf8))
        let output = Self.contacts(try work.contents())
        #expect(entries.count == incoming.count)
        var position: [Int: Int] = [:]
        for (i, card) in existingCards.enumerated() { position[card.raw.beginLine] = i }

        // Where each incoming card went, and everything the report says was replaced or not taken, per output card.
        var destination: [Int] = []
        var reported: [Int: [Traced]] = [:]
        var appended = existing.count
        for entry in entries {
            let outcome = entry["outcome"] as? String ?? "?"
            let target: Int
            switch outcome {
            case "merged", "unchanged":
                let line = try #require((entry["existing"] as? [String: Any])?["line"] as? Int)
                target = try #require(position[line])
            case "added", "possible":
                target = appended
                appended += 1
            default:
                Issue.record("unexpected outcome \(outcome)")
                continue
            }
            destination.append(target)
            for change in entry["changes"] as? [[String: Any]] ?? [] {
                let field = change["field"] as? String ?? ""
                switch change["action"] as? String {
                case "replaced":
                    reported[target, default: []].append(Traced(field, change["previous"] as? String ?? ""))
                case "kept": reported[target, default: []].append(Traced(field, change["value"] as? String ?? ""))
                default: break
                }
            }
        }
        #expect(output.count == appended, "every existing card, then every added card")
        var checked = 0
        for (i, card) in existing.enumerated() {
            checked += Self.expectAccounted(
                card, in: output[i], reported: reported[i] ?? [], what: "existing card \(i)")
        }
        for (j, card) in incoming.enumerated() where j < destination.count && destination[j] < output.count {
            checked += Self.expectAccounted(
                card, in: output[destination[j]], reported: reported[destination[j]] ?? [],
                what: "incoming card \(j)")
        }
        #expect(checked > 12_000, "values checked: \(checked)")
    }

    /// A value the report accounts for: its field and its text as the report shows it.
    struct Traced: Hashable {
        var field: String
        var value: String
        init(_ field: String, _ value: String) {
            self.field = field
            self.value = value
        }
    }

    /// Checks each value of `card` against `out`; returns how many values it checked.
    static func expectAccounted(_ card: Contact, in out: Contact, reported: [Traced], what: String) -> Int {
        let traced = Set(reported)
        var count = 0
        func check(
            _ field: String, _ present: Bool, _ shown: String, _ sourceLocation: SourceLocation = #_sourceLocation
        ) {
            count += 1
            if !present && !traced.contains(Traced(field, shown)) {
                Issue.record(
                    "\(what): \(field) \(shown) is neither in the result nor in the report",
                    sourceLocation: sourceLocation)
            }
        }
        func single(_ field: String, _ value: String?, _ result: String?) {
            if let value { check(field, value == result, value) }
        }
        single("FN", card.formattedName, out.formattedName)
        single("N", card.name?.displayName, out.name?.displayName)
        single(
            "ORG", card.organization.map { ([$0.name] + $0.units).joined(separator: ";") },
            out.organization.map { ([$0.name] + $0.units).joined(separator: ";") })
        single("TITLE", card.title, out.title)
        single("ROLE", card.role, out.role)
        // A date written another way (`19850425`, `1985-04-25`) is the same date.
        func date(_ field: String, _ value: String?, _ result: String?) {
            if let value {
                check(
                    field, value == result || Birthday(value).map { $0 == result.flatMap(Birthday.init) } ?? false,
                    value)
            }
        }
        date("BDAY", card.birthday, out.birthday)
        date("ANNIVERSARY", card.anniversary, out.anniversary)
        single("UID", card.uid, out.uid)
        if let photo = card.photo {
            check(
                "PHOTO", photo == out.photo,
                photo.uri ?? "\(photo.data?.count ?? 0) bytes of \(photo.mediaType ?? "image")")
        }
        if let note = card.note?.trimmingCharacters(in: .whitespacesAndNewlines), !note.isEmpty {
            check("NOTE", out.note?.contains(note) ?? false, note)
        }
        // Multi-valued properties: the same value, compared as loosely as a person reading the card would.
        let emails = Set(out.emails.map { $0.value.trimmingCharacters(in: .whitespaces).lowercased() })
        for e in card.emails {
            check("EMAIL", emails.contains(e.value.trimmingCharacters(in: .whitespaces).lowercased()), e.value)
        }
        let phones = out.phones.map { digits($0.value) }
        for p in card.phones {
            let d = digits(p.value)
            // The same number written nationally and internationally shares its last nine digits.
            check(
                "TEL", phones.contains { $0 == d || ($0.count >= 9 && d.count >= 9 && $0.suffix(9) == d.suffix(9)) },
                p.value)
        }
        let urls = Set(out.urls.map { url($0.value) })
        for u in card.urls { check("URL", urls.contains(url(u.value)), u.value) }
        let ims = Set(out.instantMessaging.map { $0.value.lowercased() })
        for m in card.instantMessaging { check("IMPP", ims.contains(m.value.lowercased()), m.value) }
        let social = Set(out.socialProfiles.map { $0.value.lowercased() })
        for s in card.socialProfiles { check("X-SOCIALPROFILE", social.contains(s.value.lowercased()), s.value) }
        // An address without a country is the same address as one with it (clients differ in writing "USA"), and
        // so is one whose country is spelled otherwise (`US`, `United States`).
        func parts(_ a: Address) -> [String] {
            [a.poBox, a.extended, a.street, a.locality, a.region, a.postalCode].map { $0.lowercased() }
        }
        for a in card.addresses {
            check(
                "ADR",
                out.addresses.contains {
                    parts($0) == parts(a)
                        && ($0.country.lowercased() == a.country.lowercased()
                            || $0.country.isEmpty || a.country.isEmpty || CountryKey.same($0.country, a.country))
                }, a.street)
        }
        let nicknames = Set(out.nicknames.map { $0.lowercased() })
        for n in card.nicknames { check("NICKNAME", nicknames.contains(n.lowercased()), n) }
        let categories = Set(out.categories.map { $0.lowercased() })
        for c in card.categories { check("CATEGORIES", categories.contains(c.lowercased()), c) }
        // PRODID names the program that wrote the card; the merged card is written by us.
        for e in card.extensions where e.name.uppercased() != "PRODID" {
            check(
                e.name, out.extensions.contains { $0.name.uppercased() == e.name.uppercased() && $0.value == e.value },
                e.value)
        }
        return count
    }

    static func digits(_ s: String) -> String { String(s.filter(\.isASCII).filter(\.isNumber)) }

    static func url(_ s: String) -> String {
        var u = s.trimmingCharacters(in: .whitespaces).lowercased()
        for prefix in ["https://", "http://", "www."] where u.hasPrefix(prefix) { u.removeFirst(prefix.count) }
        while u.hasSuffix("/") { u.removeLast() }
        return u
    }

    @Test func mergingTheSameFileTwiceChangesNothingTheSecondTime() throws {
        let work = try Workspace()
        defer { work.remove() }
        #expect(work.merge().code == 0)
        let once = try work.contents()
        #expect(once != Array(Self.book.existing.utf8))
        #expect(work.merge().code == 0)
        #expect(try work.contents() == once)
    }

    @Test func theOrderOfIncomingCardsDoesNotChangeTheResultingCards() throws {
        let bytes = Array(Self.book.incoming.utf8)
        let reversed = VCardDocument.read(bytes).cards.reversed().map {
            String(decoding: bytes[$0.raw.byteRange], as: UTF8.self)
        }
        let forward = try Workspace()
        let backward = try Workspace(incoming: reversed.joined())
        defer {
            forward.remove()
            backward.remove()
        }
        #expect(forward.merge().code == 0)
        #expect(backward.merge().code == 0)
        func cardSet(_ bytes: [UInt8]) -> [[PropertyMultiset.Entry]] {
            VCardDocument.read(bytes).cards.map { PropertyMultiset.entries($0.raw) }.sorted {
                $0.lexicographicallyPrecedes($1)
            }
        }
        let a = cardSet(try forward.contents())
        let b = cardSet(try backward.contents())
        #expect(a.count == b.count)
        #expect(a == b)
    }

    @Test func aDryRunWritesNothing() throws {
        let work = try Workspace()
        defer { work.remove() }
        let before = try FileManager.default.attributesOfItem(atPath: work.contacts)[.modificationDate] as? Date
        let (code, plan) = work.merge(["-n", "--backup"])
        #expect(code == 0)
        #expect(!plan.isEmpty)
        #expect(try work.contents() == Array(Self.book.existing.utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: work.contacts)[.modificationDate] as? Date == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: work.dir.path).sorted() == [
                "contacts.vcf", "incoming.vcf",
            ])
    }
}
