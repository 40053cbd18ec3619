import ContactModel
import Foundation
import QRCode
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

@testable import CardQR

/// Fitting cards into codes: what is kept and dropped, the errors, and every code read back by zbar as the card
/// that was fitted.
@Suite struct CardQRFitterTests {
    /// The card a reader makes of vCard text.
    static func read(_ text: [UInt8]) -> Contact? {
        guard let card = VCardLexer.parse(text).cards.first else { return nil }
        return VCardReader.contact(from: card).contact
    }

    /// zbar's reading of the fit's code, as PNG, checked to be the fitted text and to read as the fitted card.
    static func expectReadsBack(_ fit: CardQRFit, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard QRReader.zbarimg != nil else { return }
        let decoded = try QRReader.decode(image: try fit.code.png(), extension: "png")
        #expect(decoded == fit.text, sourceLocation: sourceLocation)
        #expect(decoded.flatMap(read) == read(fit.text), sourceLocation: sourceLocation)
        #expect(read(fit.text) != nil, sourceLocation: sourceLocation)
    }

    static let ann = Contact(
        formattedName: "Ann Lee", name: StructuredName(family: ["Lee"], given: ["Ann"]),
        organization: Organization(name: "Example Widgets", units: ["Research"]), title: "Chief Engineer",
        emails: [LabeledValue("ann@example.com", types: ["work"])],
        phones: [LabeledValue("+1 555 0100", types: ["cell"]), LabeledValue("+1 555 0199", types: ["work"])],
        addresses: [Address(street: "1 Main St", locality: "Springfield", postalCode: "55555", country: "USA")],
        urls: [LabeledValue("https://example.com/ann")])

    @Test func smallCardFitsWhole() throws {
        let fit = try CardQRFitter().fit(Self.ann)
        #expect(fit.dropped.isEmpty)
        #expect(fit.contact == Self.ann)
        #expect(fit.text == Array(String(decoding: VCardWriter().bytes([Self.ann]), as: UTF8.self).utf8))
        #expect(fit.code.version <= 20 && fit.code.level == .medium && !fit.code.declaresUTF8)
        try Self.expectReadsBack(fit)
    }

    /// The issue's case: a 200 KB photo and a long note go, and the rest stays.
    @Test func photoAndLongNoteAreDropped() throws {
        var random = SeededRandom(seed: 24)
        var card = Self.ann
        card.photo = Photo(
            data: Data(
                [0xFF, 0xD8, 0xFF, 0xE0] + (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }),
            mediaType: "image/jpeg")
        card.note = String(repeating: "Met at the conference; follow up about the widget order. ", count: 50)
        let fit = try CardQRFitter().fit(card)
        #expect(fit.dropped.map(\.description) == ["PHOTO", "NOTE"])
        var expected = card
        expected.photo = nil
        expected.note = nil
        #expect(fit.contact == expected)
        #expect(fit.code.version <= 20)
        try Self.expectReadsBack(fit)
    }

    @Test func cardWithOnlyAPhotoIsAnError() throws {
        let card = Contact(photo: Photo(data: Data([0xFF, 0xD8, 0xFF, 0xD9]), mediaType: "image/jpeg"))
        let error = #expect(throws: CardQRError.self) { try CardQRFitter().fit(card) }
        #expect(error?.code == .nothingToShare)
        #expect(error?.photoOnly == true)
        #expect(error?.description.contains("nothing to share but a photo") == true)
        // Read from vCard text too: no FN, no N, only the photo.
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/2Q==\r\nEND:VCARD\r\n"
        let read = try #require(Self.read(Array(text.utf8)))
        #expect(throws: CardQRError.self) { try CardQRFitter().fit(read) }
    }

    /// Exporters write an empty FN beside an N or ORG: such a card is shared as written, FN empty.
    @Test func emptyFormattedNameBesideOtherFields() throws {
        for extra in ["ORG:Ximian\\, Inc.\r\n", "N:Mustermann;Max;;;\r\n", "EMAIL:a@example.com\r\n"] {
            let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\r\n" + extra + "END:VCARD\r\n"
            let card = try #require(Self.read(Array(text.utf8)))
            let fit = try CardQRFitter().fit(card)
            #expect(String(decoding: fit.text, as: UTF8.self).contains("\r\nFN:\r\n"))
            #expect(String(decoding: fit.text, as: UTF8.self).contains(extra))
        }
        // A card of an address or a URL alone is shared too.
        for only in ["URL:www.example.com", "ADR;TYPE=work:;;1 Main St;Springfield;;;"] {
            let text = "BEGIN:VCARD\r\nVERSION:3.0\r\n\(only)\r\nEND:VCARD\r\n"
            let card = try #require(Self.read(Array(text.utf8)))
            #expect(String(decoding: try CardQRFitter().fit(card).text, as: UTF8.self).contains(only))
        }
        // Empty values, bookkeeping and media are nothing to share.
        let nothing = """
            BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\r\nTEL;TYPE=fax:\r\nNICKNAME:\r\nUID:1\r\nREV:2020-01-01\r\n\
            LOGO;VALUE=uri:http://example.com/l.png\r\nEND:VCARD\r\n
            """
        let card = try #require(Self.read(Array(nothing.utf8)))
        let error = #expect(throws: CardQRError.self) { try CardQRFitter().fit(card) }
        #expect(error?.code == .nothingToShare && error?.photoOnly == false)
    }

    /// A first email too long for the code is never dropped: the error says it would have to go.
    @Test func protectedFieldsThatDoNotFitAreAnError() throws {
        var card = Self.ann
        card.emails = [LabeledValue(String(repeating: "a", count: 700) + "@example.com")]
        let error = #expect(throws: CardQRError.self) { try CardQRFitter().fit(card) }
        #expect(error?.code == .doesNotFit)
        #expect(error?.wouldHaveToGo == ["the first EMAIL"])
        #expect(error?.capacity == 666)
        #expect((error?.smallestVersion ?? 0) > 20)
        #expect(error?.description.contains("the first EMAIL") == true)
        // Allowed a larger code, it fits.
        #expect(try CardQRFitter(maxVersion: 25).fit(card).code.version <= 25)

        var long = Self.ann
        long.formattedName = String(repeating: "名", count: 1000)
        let tooLong = #expect(throws: CardQRError.self) { try CardQRFitter().fit(long) }
        #expect(tooLong?.wouldHaveToGo == nil)
        #expect(tooLong?.smallestVersion == nil)
    }

    /// Fields of equal size, one per tier: the code keeps exactly the most important that fit, in tier order.
    @Test func fieldsGiveWayInTierOrder() throws {
        // Each line is exactly 40 bytes with its CRLF, so the room decides how many tiers stay.
        func line(_ prefix: String, _ fill: Character = "x", _ suffix: String = "") -> String {
            prefix + String(repeating: fill, count: 38 - prefix.utf8.count - suffix.utf8.count) + suffix + "\r\n"
        }
        let tiers: [(QRDropTier, String)] = [
            (.organization, line("ORG:")), (.title, line("TITLE:")), (.extraPhones, line("TEL:+1", "5")),
            (.extraEmails, line("EMAIL:b@")), (.firstURL, line("URL:https://")),
            (.extraURLs, line("URL:http://")), (.firstAddress, line("ADR:;;", "x", ";;;;")),
            (.nicknameAndRole, line("NICKNAME:")), (.messaging, line("IMPP:xmpp:")),
            (.extraAddresses, line("ADR:;;;", "x", ";;;")), (.otherProperties, line("GEO:")),
            (.categories, line("CATEGORIES:")), (.note, line("NOTE:")), (.xProperties, line("X-FOO:")),
            (.metadata, line("UID:")), (.binary, line("KEY:")),
        ]
        let core = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nN:;;;;\r\nTEL:1\r\nEMAIL:a@b\r\nEND:VCARD\r\n"
        let full = core.replacingOccurrences(of: "END:VCARD", with: tiers.map(\.1).joined() + "END:VCARD")
        let card = try #require(Self.read(Array(full.utf8)))
        let capacity = QRCapacity(maxVersion: 10, level: .medium)
        let fit = try CardQRFitter(maxVersion: 10, level: .medium).fit(card)
        let room = (capacity.asciiBytes - core.utf8.count) / 40
        #expect(room > 2 && room < tiers.count)
        // Written in the card's order, which is not the tier order: compare as sets of lines.
        let kept = Set(tiers.prefix(room).map(\.1))
        let lines = Set(String(decoding: fit.text, as: UTF8.self).components(separatedBy: "\r\n").map { $0 + "\r\n" })
        for (tier, text) in tiers { #expect(lines.contains(text) == kept.contains(text), "\(tier)") }
        #expect(fit.text.count == core.utf8.count + 40 * room)
        #expect(fit.dropped.map(\.count).reduce(0, +) == tiers.count - room)
        try Self.expectReadsBack(fit)
    }

    /// Random cards squeezed into small codes: the name, first phone and first email always stay, the text
    /// fits, and no dropped property (labels aside) would have fitted beside what was kept.
    @Test func droppedFieldsWouldNotHaveFitted() throws {
        var random = SeededRandom(seed: 2024)
        var checked = 0
        for round in 0..<40 {
            func text(_ n: Int) -> String { random.text(maxLength: n) }
            var card = Contact(formattedName: "Card \(round) " + text(10))
            card.name = StructuredName(family: [text(8)], given: [text(8)])
            card.phones = (0..<Int.random(in: 1...4, using: &random)).map { _ in LabeledValue("+1 555 \(round)") }
            card.emails = (0..<Int.random(in: 1...3, using: &random)).map {
                LabeledValue("p\($0)@example.com", label: Bool.random(using: &random) ? "Work" : nil)
            }
            card.organization = Organization(name: text(30))
            card.title = text(30)
            card.note = text(300)
            card.urls = [LabeledValue("https://example.com/" + text(20))]
            card.addresses = (0..<3).map { _ in Address(street: text(30), locality: text(12)) }
            card.categories = [text(10), text(10)]
            card.extensions = (0..<6).map { Extension(name: "X-VENDOR-\($0)", value: text(40)) }
            card.uid = "urn:uuid:\(round)"
            let maxVersion = Int.random(in: 6...12, using: &random)
            let fitter = CardQRFitter(maxVersion: maxVersion, level: .medium)
            let fit: CardQRFit
            do { fit = try fitter.fit(card) } catch { continue }
            checked += 1
            let capacity = QRCapacity(maxVersion: maxVersion, level: .medium)
            #expect(capacity.holds(fit.text))
            #expect(fit.code.version <= maxVersion)
            #expect(fit.contact.formattedName == card.formattedName)
            #expect(fit.contact.name == card.name)
            #expect(fit.contact.phones.first?.value == card.phones.first?.value)
            #expect(fit.contact.emails.first?.value == card.emails.first?.value)
            // Each item's lower bound is one: the fitter passes over items by it without writing them.
            let items = card.qrItems
            let core = Set(items.filter { $0.tier == nil }.map(\.location))
            let coreBytes = CardQRFitter.text(of: card.keeping(core)).count
            for item in items where item.tier != nil {
                var with = core
                with.insert(item.location)
                var ownerBytes = 0
                if let owner = item.owner, !core.contains(owner) {
                    with.insert(owner)
                    ownerBytes = items.first { $0.location == owner }?.minimumBytes ?? 0
                }
                let added = CardQRFitter.text(of: card.keeping(with)).count - coreBytes
                #expect(item.minimumBytes + ownerBytes <= added, "\(item.property)")
            }
            guard let kept = fit.kept else { continue }
            for item in items where item.tier != nil && !kept.contains(item.location) && item.owner == nil {
                var with = kept
                with.insert(item.location)
                #expect(!capacity.holds(CardQRFitter.text(of: card.keeping(with))), "\(item.property) fits")
            }
        }
        #expect(checked >= 20)
    }

    /// Twenty thousand X- properties: the room fills, the rest are passed over, and the count is told.
    @Test func manyPropertiesAreCountedNotListed() throws {
        var card = Contact(formattedName: "Many", emails: [LabeledValue("m@example.com")])
        card.extensions = (0..<20_000).map { Extension(name: "X-P\($0)", value: String(repeating: "v", count: 30)) }
        let fit = try CardQRFitter().fit(card)
        let kept = fit.contact.extensions.count
        #expect(kept > 10)
        #expect(fit.dropped.map(\.description) == ["\(20_000 - kept) of 20000 X- properties"])
        #expect(QRCapacity(maxVersion: 20, level: .medium).asciiBytes - fit.text.count < 40)
    }

    @Test func cardsInManyScripts() throws {
        let card = Contact(
            formattedName: "李小龍 (محمد الفاروق) 😀", name: StructuredName(family: ["李"], given: ["小龍"]),
            organization: Organization(name: "株式会社サンプル · شركة المثال"), title: "Директор 👩‍💻",
            emails: [LabeledValue("li@example.com")], phones: [LabeledValue("+81 3 5555 0100")],
            note: "Zoë Ångström; ελληνικά; עברית; हिन्दी")
        let fit = try CardQRFitter().fit(card)
        #expect(fit.dropped.isEmpty)
        #expect(fit.code.declaresUTF8)
        try Self.expectReadsBack(fit)
        if QRReader.zbarimg != nil {
            // Read as text, zbar follows the designator and gives the same UTF-8.
            #expect(try QRReader.decode(image: try fit.code.png(), extension: "png", raw: false) == fit.text)
        }
    }

    /// UTF-8 text holds a few bytes less (the ECI designator): a card exactly at that capacity keeps its note,
    /// one byte more loses it.
    @Test func utf8CapacityIsExact() throws {
        var card = Contact(formattedName: "Zoë", emails: [LabeledValue("z@example.com")])
        let capacity = QRCapacity(maxVersion: 8, level: .medium)
        let without = CardQRFitter.text(of: card).count
        let room = capacity.utf8Bytes - without - "NOTE:\r\n".utf8.count
        card.note = String(repeating: "n", count: room)
        let exact = try CardQRFitter(maxVersion: 8).fit(card)
        #expect(exact.text.count == capacity.utf8Bytes)
        #expect(exact.dropped.isEmpty)
        #expect(exact.code.version == 8)
        card.note! += "n"
        #expect(try CardQRFitter(maxVersion: 8).fit(card).dropped.map(\.description) == ["NOTE"])
        #expect(capacity.utf8Bytes < capacity.asciiBytes)
    }

    /// Lines are not folded in a code: the text reads as the same card as the writer's folded output.
    @Test func textIsUnfolded() throws {
        var card = Self.ann
        card.note = String(repeating: "wörter und ", count: 30)
        let folded = VCardWriter().bytes([card])
        #expect(String(decoding: folded, as: UTF8.self).contains("\r\n "))
        let fit = try CardQRFitter().fit(card)
        #expect(!String(decoding: fit.text, as: UTF8.self).contains("\r\n "))
        #expect(Self.read(fit.text) == Self.read(folded))
        try Self.expectReadsBack(fit)
    }

    /// Every card of the vCard fixtures, fitted at the defaults, reads back from its code.
    @Test(.enabled(if: QRReader.zbarimg != nil, "zbarimg (zbar-tools) is not installed: codes not read back"))
    func everyFixtureCardReadsBack() throws {
        let files = try FixturePaths.files(in: "vcard", withExtension: "vcf")
        #expect(files.count > 40)
        var encoded = 0
        for file in files {
            for raw in VCardLexer.parse(try FixturePaths.bytes("vcard/" + file)).cards {
                let contact = VCardReader.contact(from: raw).contact
                guard let fit = try? CardQRFitter().fit(contact) else { continue }
                try Self.expectReadsBack(fit)
                encoded += 1
            }
        }
        #expect(encoded > 40)
    }
}
