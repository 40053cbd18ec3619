import CardIdentity
import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat

@testable import VCFCommands

/// `convert --ensure-uid` on an input of many segments, whose cards are written on the reading threads: the
/// output is that of giving each card its UID in input order (`ContentUIDs.ensure`), including where a UID
/// made for a card is taken by an earlier card, made or given.
@Suite struct EnsureUIDTests {
    /// Cards without UIDs (some identical, far apart), cards with their own, a blank UID, and a card whose UID
    /// is the one a later card's content makes: over 4 MB, four segments or more of the parallel reader.
    static func book() -> (text: String, taken: String) {
        let copy = Places.card("FN:Ann Copy", "N:Copy;Ann;;;", "EMAIL:ann@example.com")
        let later = Places.card("FN:Zed Later", "N:Later;Zed;;;", "TEL:+1 555 0100")
        let taken = ContentUIDs.base(of: VCardDocument.read(Array(later.utf8)).cards[0].contact)
        var text = Places.card("FN:Takes It", "UID:\(taken)")
        let note = String(repeating: "a long note to make the card large ", count: 12)
        for k in 0..<8_400 {
            switch k % 500 {
            case 0: text += copy
            case 1: text += Places.card("FN:Blank \(k)", "UID: ", "NOTE:\(note)")
            default:
                let uid = k % 3 == 0 ? "UID:person-\(k)" : "NOTE:no UID"
                text += Places.card("FN:Person \(k)", "N:\(k);Person;;;", uid, "NOTE:\(note)")
            }
        }
        return (text + later, taken)
    }

    /// The cards of `text` given UIDs one after another, as one document of `target`.
    static func expected(_ text: String, target: Convert.Target) -> [UInt8] {
        var uids = ContentUIDs()
        var ensured: [Contact] = []
        for card in VCardDocument.read(Array(text.utf8)).cards {
            var contact = card.contact
            uids.ensure(&contact)
            ensured.append(contact)
        }
        return target.document(ensured)
    }

    @Test func cardsGetTheUIDsGivenInInputOrder() throws {
        let work = try Places.folder("ensure")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (text, taken) = Self.book()
        #expect(text.utf8.count > 4 << 20)
        try Places.write(text, "\(work)/book.vcf")
        for target in [Convert.Target.vcard3, .vcard4, .jcard, .json] {
            let run = Places.run(["convert", "\(work)/book.vcf", "--ensure-uid", "--to", target.rawValue])
            #expect(run.code == 0 && run.err.isEmpty, "\(target): \(run.err)")
            #expect(run.out == Self.expected(text, target: target), "\(target)")
        }
        // The copies got UIDs of their own, and the last card not the UID an earlier card has.
        let cards = VCardDocument.read(Places.run(["convert", "\(work)/book.vcf", "--ensure-uid"]).out).cards
        let copies = cards.filter { $0.contact.formattedName == "Ann Copy" }.compactMap(\.contact.uid)
        #expect(copies.count == 17 && Set(copies).count == 17)
        #expect(cards.last?.contact.uid != nil && cards.last?.contact.uid != taken)
        #expect(Set(cards.compactMap(\.contact.uid)).count == cards.count)
    }
}
