import Foundation
import Testing

/// A book that holds one person many times over (an export imported again and again, a sync that ran away) and
/// a UID an exporter wrote on every card: the built `vcf` merges copies however many there are, and a UID on
/// more cards than a placeholder email could be neither decides nor makes the work grow with the square of them.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"))
struct ManyCopiesTests {
    /// `count` copies of Jane Roe's card, each with a UID of its own when `uids`.
    static func copies(_ count: Int, uids: Bool) -> String {
        (0..<count).map { i in
            "BEGIN:VCARD\r\nVERSION:3.0\r\n" + (uids ? "UID:jane-copy-\(i)\r\n" : "")
                + "FN:Jane Roe\r\nN:Roe;Jane;;;\r\nEMAIL:jane@example.com\r\nTEL;TYPE=CELL:+1 555 123 4567\r\nEND:VCARD\r\n"
        }.joined()
    }

    static func cards(_ text: [UInt8]) -> Int {
        String(decoding: text, as: UTF8.self).components(separatedBy: "BEGIN:VCARD").count - 1
    }

    /// Three copies (an email on three cards of one name is one person's), 65 (just over the cap on an email's
    /// cards, where none was merged) and 300: one card each time, and a second run merges nothing.
    @Test(arguments: [3, 65, 300], [false, true])
    func copiesOfOneCardBecomeOneHoweverMany(count: Int, uids: Bool) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = try scratch.write("book.vcf", Self.copies(count, uids: uids))
        let first = try ChildProcess.run(["dedupe", book])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.hasPrefix("\(book): \(count - 1) merged into other cards, 0 possible duplicates"))
        let merged = try scratch.bytes("book.vcf")
        #expect(Self.cards(merged) == 1)
        #expect(String(decoding: merged, as: UTF8.self).contains("EMAIL:jane@example.com\r\n"))
        let second = try ChildProcess.run(["dedupe", book])
        #expect(second.status == 0)
        #expect(try scratch.bytes("book.vcf") == merged)

        // The same copies merged into an empty book, then again into the card they made.
        let incoming = try scratch.write("in.vcf", Self.copies(count, uids: uids))
        let contacts = try scratch.write("contacts.vcf", "")
        let added = try ChildProcess.run(["merge", incoming, "--into", contacts])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr.hasPrefix("\(contacts): 1 added, \(count - 1) merged"), "\(added.stderr)")
        let once = try scratch.bytes("contacts.vcf")
        #expect(Self.cards(once) == 1)
        let again = try ChildProcess.run(["merge", incoming, "--into", contacts])
        #expect(again.status == 0)
        #expect(again.stderr.hasPrefix("\(contacts): 0 added, 0 merged, \(count) unchanged"), "\(again.stderr)")
        #expect(try scratch.bytes("contacts.vcf") == once)
    }

    /// A card that holds one number as work phone and fax, one email, address and web page each twice with other
    /// types, exported twice over (with its UID, then with a new one): dedupe leaves the card byte for byte and
    /// reports no value of it changed. Each value of the copy went to the first of its kind, which gained the
    /// types of the others (`TEL;TYPE=WORK,FAX`), and the card was rewritten so.
    @Test(arguments: [false, true])
    func aCardHoldingAValueTwiceMergesWithItsCopyUnchanged(newUID: Bool) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        func card(_ uid: String) -> String {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:Jane Roe\r\nN:Roe;Jane;;;\r\n"
                + "TEL;TYPE=WORK:+1 555 123 4567\r\nTEL;TYPE=FAX:+1 555 123 4567\r\n"
                + "EMAIL;TYPE=HOME:jane@example.com\r\nEMAIL;TYPE=WORK:jane@example.com\r\n"
                + "ADR;TYPE=HOME:;;1 Main St;Springfield;IL;62704;USA\r\n"
                + "ADR;TYPE=WORK:;;1 Main St;Springfield;IL;62704;USA\r\n"
                + "URL;TYPE=HOME:https://jane.example\r\nURL;TYPE=WORK:https://jane.example\r\nEND:VCARD\r\n"
        }
        let book = try scratch.write("book.vcf", card("jane") + card(newUID ? "jane-again" : "jane"))
        let outcome = try ChildProcess.run(["dedupe", book, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(String(decoding: try scratch.bytes("book.vcf"), as: UTF8.self) == card("jane"))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any])
        let entries = try #require(report["cards"] as? [[String: Any]])
        #expect(entries.count == 1)
        let changes = entries.first?["changes"] as? [[String: Any]] ?? []
        // A new UID is reported, so a sync can map it; nothing else.
        #expect(changes.map { $0["field"] as? String } == (newUID ? ["UID"] : []), "\(changes)")
    }

    /// Three cards of one person share their email with a fourth of the family: the three are one card, the
    /// fourth stays (before, the email on four cards identified nobody, and the copies were left apart).
    @Test func copiesSharingAFamilyAddressBecomeOneAndTheFamilyStays() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let john =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:john\r\nFN:John Roe\r\nN:Roe;John;;;\r\nEMAIL:jane@example.com\r\n"
            + "END:VCARD\r\n"
        let book = try scratch.write("book.vcf", Self.copies(3, uids: true) + john)
        let outcome = try ChildProcess.run(["dedupe", book])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("\(book): 2 merged into other cards"), "\(outcome.stderr)")
        let text = String(decoding: try scratch.bytes("book.vcf"), as: UTF8.self)
        #expect(Self.cards(Array(text.utf8)) == 2)
        #expect(text.contains("FN:John Roe\r\n"))
    }

    /// 2,000 different people an exporter gave one UID: nobody is merged by it, the note counts the UID among the
    /// keys too common to compare by, and no pair is compared (every pair of the 2,000 was, and grouping them took
    /// minutes). Up to the cap, a UID still says one card: 64 cards of one name with their own emails merge.
    @Test func aUIDOnMoreCardsThanTheCapIdentifiesNobody() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        func people(_ count: Int, uid: String, sameName: Bool) -> String {
            (0..<count).map { i in
                let name = sameName ? ("Lee", "Ann") : ("Person\(i)", "Pat\(i)")
                return "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name.1) \(name.0)\r\n"
                    + "N:\(name.0);\(name.1);;;\r\nEMAIL:p\(i)@\(uid).example\r\nEND:VCARD\r\n"
            }.joined()
        }
        let text = people(2_000, uid: "1", sameName: false)
        let book = try scratch.write("book.vcf", text)
        let outcome = try ChildProcess.run(["dedupe", book, "--dry-run", "--explain"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("\(book): 0 merged into other cards, "), "\(outcome.stderr)")
        let explained = String(decoding: outcome.stdout, as: UTF8.self)
        #expect(explained.contains(" 1 uid;") || explained.contains(" 1 uid)"), "\(explained)")
        #expect(explained.contains("\n0 candidate pairs compared") || explained.hasPrefix("0 candidate pairs"))
        #expect(try scratch.bytes("book.vcf") == Array(text.utf8))

        let atCap = try scratch.write("cap.vcf", people(64, uid: "ann", sameName: true))
        let merged = try ChildProcess.run(["dedupe", atCap])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr.hasPrefix("\(atCap): 63 merged into other cards"), "\(merged.stderr)")
        let overCap = people(65, uid: "ann", sameName: true)
        let kept = try ChildProcess.run(["dedupe", try scratch.write("over.vcf", overCap)])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(try scratch.bytes("over.vcf") == Array(overCap.utf8))
    }
}
