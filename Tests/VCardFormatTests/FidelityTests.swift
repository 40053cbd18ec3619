import ContactModel
import Foundation
import TestSupport
import Testing
import VCardSyntax

@testable import VCardFormat

/// What each fidelity fixture (`Fixtures/fidelity/`, written by `make_fidelity.py`) must read as and be
/// written as, class by class of issue 19.
@Suite struct FidelityTests {
    /// The cards of a fixture and the diagnostics.
    static func read(_ file: String) throws -> (contacts: [Contact], diagnostics: [Diagnostic]) {
        let (cards, diagnostics) = VCardDocument.read(try FixturePaths.bytes("fidelity/" + file), name: file)
        return (cards.map(\.contact), diagnostics)
    }

    /// The unfolded content lines of what we write for a fixture in `version`.
    static func written(_ file: String, _ version: VCardVersion) throws -> [String] {
        let contacts = try read(file).contacts
        let text = String(decoding: VCardWriter(version: version).bytes(contacts), as: UTF8.self)
        // Unfolded as written (the writer folds with CRLF and one space), names in the writer's case.
        return text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter {
            !$0.isEmpty
        }
    }

    /// A PREF that is not one whole number is kept as written, in both versions: it was dropped without a word
    /// (`PREF=abc`, `PREF=2.5`, and the second value of `PREF=1,2`).
    @Test(arguments: ["abc", "2.5", "1,2"]) func aPrefThatIsNoNumberIsKept(value: String) {
        let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEMAIL;PREF=\(value):a@b.example\r\nEND:VCARD\r\n"
        let contact = VCardDocument.read(Array(card.utf8)).cards[0].contact
        #expect(contact.emails.first?.pref == nil)
        for version in [VCardVersion.v4_0, .v3_0] {
            let text = String(decoding: VCardWriter(version: version).bytes([contact]), as: UTF8.self)
            #expect(text.contains("EMAIL;PREF=\(value):a@b.example\r\n"), "\(text)")
        }
        let number = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEMAIL;PREF=2:a@b.example\r\nEND:VCARD\r\n"
        #expect(VCardDocument.read(Array(number.utf8)).cards[0].contact.emails.first?.pref == 2)
    }

    // MARK: Class 2: media types

    @Test func binaryValuesWithoutATypeAreNamedFromTheirBytes() throws {
        let photo = try Self.read("media-no-type-30.vcf").contacts[0].photo
        #expect(photo?.mediaType == "image/jpeg")
        let four = try Self.written("media-no-type-30.vcf", .v4_0)
        #expect(four.contains { $0.hasPrefix("PHOTO:data:image/jpeg;base64,/9j/") })
        #expect(four.contains { $0.hasPrefix("LOGO:data:image/png;base64,iVBOR") })
        #expect(four.contains { $0.hasPrefix("SOUND:data:audio/wav;base64,UklGR") })
        #expect(!four.contains { $0.contains("application/octet-stream") })
        let three = try Self.written("media-no-type-30.vcf", .v3_0)
        #expect(three.contains { $0.hasPrefix("PHOTO;ENCODING=b;TYPE=JPEG:/9j/") })
        #expect(three.contains { $0.hasPrefix("LOGO;ENCODING=b;TYPE=PNG:iVBOR") })
    }

    @Test func anOctetStreamDataURIIsNamedFromItsBytes() throws {
        let three = try Self.written("media-octet-stream-40.vcf", .v3_0)
        #expect(three.contains { $0.hasPrefix("PHOTO;ENCODING=b;TYPE=GIF:R0lGOD") })
        #expect(three.contains { $0.hasPrefix("LOGO;ENCODING=b;TYPE=WEBP:UklGR") })
        let four = try Self.written("media-octet-stream-40.vcf", .v4_0)
        #expect(four.contains { $0.hasPrefix("PHOTO:data:image/gif;base64,") })
        #expect(four.contains { $0.hasPrefix("LOGO:data:image/webp;base64,") })
        let heic = try Self.written("media-no-type-21.vcf", .v4_0)
        #expect(heic.contains { $0.hasPrefix("PHOTO:data:image/heic;base64,") })
    }

    @Test(
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE0], "image/jpeg"), ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png"),
            (Array("GIF87a".utf8), "image/gif"), (Array("BM".utf8) + [UInt8](repeating: 0, count: 14), "image/bmp"),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8), "image/webp"),
            ([0, 0, 0, 24] + Array("ftypheic".utf8), "image/heic"),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8), "audio/wav"),
        ] as [([UInt8], String)])
    func signatures(_ bytes: [UInt8], _ mediaType: String) {
        #expect(MediaSignature.mediaType(of: Data(bytes)) == mediaType)
        #expect(MediaSignature.resolved(nil, data: Data(bytes)) == mediaType)
        #expect(MediaSignature.resolved("application/octet-stream", data: Data(bytes)) == mediaType)
        #expect(MediaSignature.resolved("image/gif", data: Data(bytes)) == "image/gif", "a declared type is kept")
    }

    @Test func bytesThatNameNoFormatKeepWhatWasDeclared() {
        #expect(MediaSignature.mediaType(of: Data([0x30, 0x82, 0x01])) == nil)
        #expect(MediaSignature.resolved(nil, data: Data([0x30, 0x82])) == nil)
    }
}

extension FidelityTests {
    // MARK: Class 3: labels go back out as they came

    @Test func labelsKeepTheFormTheyCameIn() throws {
        let contact = try Self.read("labels.vcf").contacts[0]
        #expect(contact.emails.map(\.label) == ["Other"])
        #expect(contact.emails.map(\.appleLabel) == [false])
        #expect(contact.phones.map(\.label) == ["Mobile", "Ferienhaus"])
        #expect(contact.phones.map(\.appleLabel) == [true, true])
        #expect(contact.addresses.map(\.appleLabel) == [false])
        for version in [VCardVersion.v3_0, .v4_0] {
            let lines = try Self.written("labels.vcf", version)
            #expect(lines.contains("item1.X-ABLabel:Other"))
            #expect(lines.contains("item2.X-ABLabel:_$!<Mobile>!$_"))
            #expect(lines.contains("item3.X-ABLabel:_$!<HomePage>!$_"))
            #expect(lines.contains("item4.X-ABLabel:_$!<Ferienhaus>!$_"))
            #expect(lines.contains("item5.X-ABLabel:Home"))
        }
    }

    /// A card of thousands of labelled values (`itemN.EMAIL` with `itemN.X-ABLabel`, groups in any case) reads
    /// each value with its own label, as a card of a few does, and writes each label once. Finding each group
    /// and each label was a search of all of them: a card of 50,000 labelled emails took over a minute to read.
    @Test(arguments: [10, 5_000])
    func aCardOfManyLabelledValuesReadsEachLabel(count: Int) {
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Many\r\nN:Many;;;;\r\n"
        for k in 0..<count {
            let group = k % 3 == 0 ? "ITEM\(k)" : "item\(k)"
            text += k % 2 == 0 ? "item\(k).EMAIL:p\(k)@example.com\r\n" : "item\(k).TEL:+1 555 01\(k)\r\n"
            text += "\(group).X-ABLabel:" + (k % 4 == 1 ? "_$!<Mobile>!$_" : "Label \(k)") + "\r\n"
        }
        // A group with two labels keeps both raw, as it always did.
        text += "twice.EMAIL:t@example.com\r\ntwice.X-ABLabel:One\r\ntwice.X-ABLabel:Two\r\nEND:VCARD\r\n"
        let contact = VCardDocument.read(Array(text.utf8)).cards[0].contact
        let emails = stride(from: 0, to: count, by: 2).map { "Label \($0)" }
        let phones = stride(from: 1, to: count, by: 2).map { $0 % 4 == 1 ? "Mobile" : "Label \($0)" }
        #expect(contact.emails.dropLast().map(\.label) == emails, "\(contact.emails.count) emails")
        #expect(contact.emails.last?.label == nil)
        #expect(contact.phones.map(\.label) == phones, "\(contact.phones.count) phones")
        #expect(contact.emails.dropLast().map(\.group) == stride(from: 0, to: count, by: 2).map { "item\($0)" })
        #expect(contact.extensions.map(\.value) == ["One", "Two"], "\(contact.extensions.count) kept raw")
        var out: [UInt8] = []
        VCardWriter(version: .v3_0).write(contact, into: &out)
        let labels = String(decoding: out, as: UTF8.self).components(separatedBy: "\r\n").filter {
            $0.contains(".X-ABLabel:")
        }
        #expect(labels.count == count + 2)
    }

    @Test func aLabelMadeInMemoryIsWrittenAsPlainText() {
        let contact = Contact(
            formattedName: "A", phones: [LabeledValue("+1 555 0100", label: "Mobile", group: "item1")])
        let text = String(decoding: VCardWriter().bytes([contact]), as: UTF8.self)
        #expect(text.contains("item1.X-ABLabel:Mobile\r\n"))
    }

    @Test func theLabelFormSurvivesContactJSON() throws {
        let contacts = try Self.read("labels.vcf").contacts
        let back = try ContactJSON.decode(ContactJSON.encode(contacts))
        #expect(back == contacts)
    }
}

extension FidelityTests {
    // MARK: Class 4: tel: URIs

    @Test func aTelURIIsAURIIn40AndTextAPhoneDialsIn30() throws {
        let phones = try Self.read("tel-uri-40.vcf").contacts[0].phones
        #expect(
            phones.map(\.value) == [
                "+1-418-656-9254 ext. 102", "+1-418-555-0106", "+1-418-555-0107", "7042;phone-context=example.com",
                "+1 418 555 0108",
            ])
        #expect(phones.map(\.isURI) == [true, true, true, true, false])
        let four = try Self.written("tel-uri-40.vcf", .v4_0)
        #expect(four.contains("TEL;TYPE=work,voice;PREF=1;VALUE=uri:tel:+1-418-656-9254;ext=102"))
        #expect(four.contains("TEL;TYPE=cell;VALUE=uri:tel:+1-418-555-0106"))
        #expect(four.contains("TEL;VALUE=uri:tel:+1-418-555-0107"))
        #expect(four.contains("TEL;VALUE=uri:tel:7042;phone-context=example.com"))
        #expect(four.contains("TEL;TYPE=home:+1 418 555 0108"))
        let three = try Self.written("tel-uri-40.vcf", .v3_0)
        #expect(three.contains("TEL;TYPE=work,voice,pref:+1-418-656-9254 ext. 102"))
        #expect(three.contains("TEL;TYPE=cell:+1-418-555-0106"))
        #expect(!three.contains { $0.contains("VALUE=uri") || $0.contains("tel:") })
    }

    @Test func theTextOfAURIWithAnExtensionReadsBackAsTheURI() throws {
        let three = VCardWriter(version: .v3_0).bytes(try Self.read("tel-uri-40.vcf").contacts)
        let back = VCardDocument.read(three).cards.map(\.contact)
        let four = String(decoding: VCardWriter(version: .v4_0).bytes(back), as: UTF8.self)
        #expect(four.contains("TEL;TYPE=work,voice;PREF=1;VALUE=uri:tel:+1-418-656-9254;ext=102\r\n"))
        let text = try Self.written("tel-ext-text-30.vcf", .v4_0)
        #expect(text.contains("TEL;TYPE=work;VALUE=uri:tel:+1-418-656-9254;ext=102"))
        #expect(text.contains("TEL;TYPE=home:(418) 555-0109 ext. 7"), "a local number is no tel: URI")
    }

    @Test(
        arguments: [
            ("tel:+1-418-656-9254;ext=102", false, "+1-418-656-9254 ext. 102", true),
            ("TEL:+44-20-7946-0958", false, "+44-20-7946-0958", true),
            ("tel:tel:+1-555-0100", false, "+1-555-0100", true),
            ("tel:+1-555-0100;isub=42;ext=7", false, "+1-555-0100;isub=42;ext=7", true),
            ("sip:ann@example.com", true, "sip:ann@example.com", true),
            ("67545678", true, "67545678", false),
            ("+1 555 0100 ext. 7", false, "+1 555 0100 ext. 7", false),
            ("javascript:alert(7)", false, "javascript:alert(7)", false),
        ] as [(String, Bool, String, Bool)])
    func telephoneValues(_ input: String, _ valueTypeIsURI: Bool, _ value: String, _ isURI: Bool) {
        let read = TelephoneValue.read(input, valueTypeIsURI: valueTypeIsURI)
        #expect(read.value == value)
        #expect(read.isURI == isURI)
    }
}

extension FidelityTests {
    // MARK: Class 5: GEO

    @Test func geoIsAGeoURIIn40AndLatitudeSemicolonLongitudeIn30() throws {
        #expect(try Self.written("geo-30.vcf", .v4_0).contains("GEO:geo:45.0,-87.3"))
        #expect(try Self.written("geo-30.vcf", .v3_0).contains("GEO:45.0;-87.3"))
        #expect(try Self.written("geo-40.vcf", .v3_0).contains("GEO:37.386013;-122.082932"))
        #expect(try Self.written("geo-40.vcf", .v4_0).contains("GEO:geo:37.386013,-122.082932"))
        // Altitude and uncertainty cannot be said in 3.0: the URI stays as written rather than losing them.
        #expect(try Self.written("geo-40-uncertainty.vcf", .v3_0).contains("GEO:geo:48.2,16.37,170;u=35"))
        #expect(try Self.written("geo-40-uncertainty.vcf", .v4_0).contains("GEO:geo:48.2,16.37,170;u=35"))
    }

    // MARK: Class 8: PHOTO, LOGO, SOUND that hold no URI; AGENT

    @Test func textThatIsNoURIIsInlineDataOrAnXPropertyIn40() throws {
        let (_, diagnostics) = try Self.read("non-uri-binary-21.vcf")
        #expect(diagnostics.map(\.line) == [5, 7])
        #expect(
            diagnostics.first?.message
                == "SOUND holds text that is neither a URI nor inline data; vCard 4.0 output keeps it as X-SOUND")
        let four = try Self.written("non-uri-binary-21.vcf", .v4_0)
        #expect(four.contains("X-SOUND;TYPE=X-IRMC-N:ito;ryo"))
        #expect(four.contains("PHOTO:data:application/octet-stream;base64,TGFycw=="))
        #expect(four.contains("X-LOGO:Example Corp"))
        #expect(!four.contains { $0.hasPrefix("SOUND") || $0.hasPrefix("LOGO") })
        let three = try Self.written("non-uri-binary-21.vcf", .v3_0)
        #expect(three.contains("SOUND;TYPE=X-IRMC-N:ito;ryo"))
        #expect(three.contains("PHOTO:TGFycw=="))
    }

    @Test func aLinkNeedsValueURIIn30AndNotIn40() throws {
        let card = Array(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nSOUND:CID:a@example.com\r\nKEY;MEDIATYPE=application/pgp-keys:https://example.com/a.asc\r\nKEY;VALUE=text:not a link\r\nEND:VCARD\r\n"
                .utf8)
        let contacts = VCardDocument.read(card).cards.map(\.contact)
        let three = String(decoding: VCardWriter(version: .v3_0).bytes(contacts), as: UTF8.self)
        #expect(three.contains("SOUND;VALUE=uri:CID:a@example.com\r\n"))
        #expect(three.contains("KEY;VALUE=uri;TYPE=PGP:https://example.com/a.asc\r\n"))
        #expect(three.contains("KEY;VALUE=text:not a link\r\n"))
        let four = String(decoding: VCardWriter(version: .v4_0).bytes(contacts), as: UTF8.self)
        #expect(four.contains("SOUND:CID:a@example.com\r\n"))
        #expect(four.contains("KEY;MEDIATYPE=application/pgp-keys:https://example.com/a.asc\r\n"))
    }

    @Test func aNested21AgentCardIsConvertedLikeAnyOtherCard() throws {
        let three = try Self.written("agent-21-nested.vcf", .v3_0)
        let agent = try #require(three.first { $0.hasPrefix("AGENT:") })
        #expect(agent.hasPrefix("AGENT:BEGIN:VCARD\\nVERSION:3.0\\nFN:Per Holm\\nN:Holm\\;Per\\;\\;\\;\\n"))
        #expect(agent.contains("TEL\\;TYPE=work\\,voice:+46 8 555 0110"))
        #expect(!agent.contains("2.1"))
        let four = try Self.written("agent-21-nested.vcf", .v4_0)
        let related = try #require(four.first { $0.hasPrefix("RELATED;TYPE=agent:data:text/vcard;base64,") })
        let base64 = String(related.dropFirst("RELATED;TYPE=agent:data:text/vcard;base64,".count))
        let nested = String(decoding: try #require(Data(base64Encoded: base64)), as: UTF8.self)
        #expect(nested.contains("VERSION:4.0\r\nFN:Per Holm\r\n"))
        #expect(nested.contains("TEL;TYPE=work,voice:+46 8 555 0110\r\n"))
        #expect(!four.contains { $0.hasPrefix("AGENT") })
    }

    @Test func anAgentLinkIsARelatedLinkIn40() throws {
        #expect(try Self.written("agent-uri-30.vcf", .v4_0).contains("RELATED;TYPE=agent:CID:assistant@example.com"))
        #expect(try Self.written("agent-uri-30.vcf", .v3_0).contains("AGENT;VALUE=uri:CID:assistant@example.com"))
    }

    // MARK: Class 9: PROFILE, LABEL in 4.0

    @Test func profileIsKeptIn30InTheSpellingEveryReaderAcceptsAndLeftOutIn40() throws {
        #expect(try Self.written("profile.vcf", .v3_0).contains("PROFILE:VCARD"))
        #expect(!(try Self.written("profile.vcf", .v4_0)).contains { $0.hasPrefix("PROFILE") })
    }

    @Test func aLabelPropertyBecomesTheLabelOfItsAddressIn40() {
        let text =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;Jo\r\nADR;WORK;PREF:;;1 Main St;Springfield;;12345\r\nADR;HOME:;;2 Elm St;Shelbyville;;54321\r\nLABEL;WORK;PREF;ENCODING=QUOTED-PRINTABLE:1 Main St=0D=0ASpringfield 12345\r\nLABEL;POSTAL:PO Box 7\r\nEND:VCARD\r\n"
        let contacts = VCardDocument.read(Array(text.utf8)).cards.map(\.contact)
        let four = String(decoding: VCardWriter(version: .v4_0).bytes(contacts), as: UTF8.self)
            .replacingOccurrences(of: "\r\n ", with: "")
        #expect(
            four.contains(
                "ADR;TYPE=work;PREF=1;LABEL=\"1 Main St^nSpringfield 12345\":;;1 Main St;Springfield;;12345;\r\n"))
        #expect(four.contains("LABEL;TYPE=POSTAL:PO Box 7\r\n"), "a label that matches no address stays a property")
        let three = String(decoding: VCardWriter(version: .v3_0).bytes(contacts), as: UTF8.self)
        #expect(three.contains("LABEL;TYPE=WORK;TYPE=PREF:1 Main St\\nSpringfield 12345\r\n"))
    }
}

extension FidelityTests {
    // MARK: Class 7: ANNIVERSARY

    @Test func anniversaryKeepsTheNameTheInputUsed() throws {
        #expect(try Self.written("anniversary-30.vcf", .v3_0).contains("ANNIVERSARY:2010-09-18"))
        #expect(try Self.written("x-anniversary-30.vcf", .v3_0).contains("X-ANNIVERSARY:2010-09-18"))
        #expect(try Self.written("anniversary-40.vcf", .v3_0).contains("X-ANNIVERSARY:20100918"))
        for file in ["anniversary-30.vcf", "x-anniversary-30.vcf", "anniversary-40.vcf"] {
            #expect(try Self.written(file, .v4_0).contains("ANNIVERSARY:20100918"))
        }
    }

    // MARK: Class 9: repeated lists, empty N, cards with no name

    @Test func repeatedNicknameAndCategoriesLinesStayLines() throws {
        let contact = try Self.read("repeated-lists.vcf").contacts[0]
        #expect(contact.nicknames == ["Rob", "Bobby", "Bert"])
        #expect(contact.spelling.categoryLines == [1, 2])
        for version in [VCardVersion.v3_0, .v4_0] {
            let lines = try Self.written("repeated-lists.vcf", version)
            // Each nickname on a line of its own, which every reader reads (see ListScribe.onePerLine).
            #expect(lines.filter { $0.hasPrefix("NICKNAME") } == ["NICKNAME:Rob", "NICKNAME:Bobby", "NICKNAME:Bert"])
            #expect(lines.filter { $0.hasPrefix("CATEGORIES") } == ["CATEGORIES:Work", "CATEGORIES:Golf,Friends"])
        }
        // One line stays one line, and nothing is recorded for it.
        let one = VCardDocument.read(Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nNICKNAME:a,b\r\nEND:VCARD\r\n".utf8))
        #expect(one.cards[0].contact.spelling.isEmpty)
    }

    /// A card of 20,000 NICKNAME lines and 20,000 CATEGORIES lines reads every item in order and each line's size,
    /// and writes them back line for line. Each line was appended through a copy of the whole list: reading a
    /// card of 100,000 NICKNAME lines took 31 s (release build), quadratic in its lines.
    @Test func aCardOfManyListLinesReadsEveryItemInOrder() {
        let count = 20_000
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Many\r\n"
        for k in 0..<count { text += "NICKNAME:n\(k)\r\nCATEGORIES:c\(k)" + (k % 2 == 0 ? ",d\(k)\r\n" : "\r\n") }
        text += "END:VCARD\r\n"
        let contact = VCardDocument.read(Array(text.utf8)).cards[0].contact
        // Compared as a whole, and only their counts shown: a failure must not print 60,000 items.
        let nicknames = (0..<count).map { "n\($0)" }
        let categories = (0..<count).flatMap { $0 % 2 == 0 ? ["c\($0)", "d\($0)"] : ["c\($0)"] }
        let lines = (0..<count).map { $0 % 2 == 0 ? 2 : 1 }
        #expect(contact.nicknames == nicknames, "\(contact.nicknames.count) nicknames")
        #expect(contact.categories == categories, "\(contact.categories.count) categories")
        #expect(contact.spelling.categoryLines == lines, "\(contact.spelling.categoryLines.count) lines")
        var out: [UInt8] = []
        VCardWriter(version: .v3_0).write(contact, into: &out)
        let written = String(decoding: out, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(written.filter { $0.hasPrefix("CATEGORIES:") }.count == count)
        #expect(written.filter { $0.hasPrefix("NICKNAME:") }.count == count)
        let again = VCardDocument.read(out).cards[0].contact
        #expect(again.nicknames == nicknames && again.categories == categories, "read back")
        #expect(again.spelling.categoryLines == lines, "read back: the lines")
    }

    @Test(arguments: [([1, 2], 3, [1, 2]), ([1, 2], 5, [1, 2, 2]), ([2], 2, [2]), ([3, 3], 4, [4]), ([], 4, [4])])
    func lineSizesAfterAMergeAddedItems(_ recorded: [Int], _ total: Int, _ expected: [Int]) {
        #expect(ListScribe.lineSizes(recorded, total: total) == expected)
    }

    @Test func anEmptyNIsKeptIn40() throws {
        #expect(try Self.written("empty-n-30.vcf", .v4_0).contains("N:;;;;"))
        // A 4.0 card that had no N gets none.
        #expect(!(try Self.written("anniversary-40.vcf", .v4_0)).contains { $0.hasPrefix("N:") })
    }

    @Test func aCardWithNoNameIsNamedFromWhatItHoldsEvenKeptRaw() throws {
        let contacts = try Self.read("no-name.vcf").contacts
        #expect(contacts.map(\.formattedName) == ["desk@example.com", "Northwind Traders", "+1 555 0112"])
    }

    // MARK: Class 6: vendor names

    @Test func aVendorNameKeepsItsBytesAndItsCase() {
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nX-messaging/xmpp-All:a@example.org\r\nX-WAB-SPOUSE_NAME:B\r\nx-qq:1\r\nnote;language=en:c\r\nEND:VCARD\r\n"
        for version in [VCardVersion.v3_0, .v4_0] {
            let text = Self.convert(card, to: version)
            #expect(text.contains("\r\nX-messaging/xmpp-All:a@example.org\r\n"))
            #expect(text.contains("\r\nX-WAB-SPOUSE_NAME:B\r\n"))
            #expect(text.contains("\r\nx-qq:1\r\n"))
            // A name the RFCs define is one spelling to everyone: upper case.
            #expect(text.contains("\r\nNOTE;LANGUAGE=en:c\r\n"))
        }
    }

    // MARK: Values a reader would misread

    static func convert(_ text: String, to version: VCardVersion) -> String {
        let contacts = VCardDocument.read(Array(text.utf8)).cards.map(\.contact)
        return String(decoding: VCardWriter(version: version).bytes(contacts), as: UTF8.self)
    }

    @Test func aBirthdayThatIsNoDateIsMarkedTextIn40() {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nBDAY:02-10\r\nREV:2014722T222710Z\r\nEND:VCARD\r\n"
        let four = Self.convert(card, to: .v4_0)
        // ez-vcard reads a bare `02-10` in 4.0 as the time 02:00 at UTC-10.
        #expect(four.contains("BDAY;VALUE=text:02-10\r\n"))
        // REV has no text form: it stays as it was.
        #expect(four.contains("REV:2014722T222710Z\r\n"))
        #expect(Self.convert(card, to: .v3_0).contains("BDAY:02-10\r\n"))
        // Read back, the marked line is kept as written (it may move among the lines the model does not hold).
        #expect(
            Self.convert(four, to: .v4_0).split(separator: "\r\n").sorted() == four.split(separator: "\r\n").sorted())
        let date = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nBDAY:1985-04-12\r\nEND:VCARD\r\n"
        #expect(Self.convert(date, to: .v4_0).contains("BDAY:19850412\r\n"))
    }

    @Test func anEmptyPhotoKeepsItsNameIn40() {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nPHOTO:\r\nEND:VCARD\r\n"
        #expect(Self.convert(card, to: .v4_0).contains("\r\nPHOTO:\r\n"))
    }

    @Test func aParameterValueWithAnEqualsSignIsQuoted() {
        // Evolution drops an unquoted value that holds `=` (Apple's crop rectangle ends in base64 padding).
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nPHOTO;X-ABCROP-RECTANGLE=ABClipRect_1&0&0&9&9&qZ54yq==;VALUE=uri:http://example.com/a.jpg\r\nEND:VCARD\r\n"
        #expect(Self.convert(card, to: .v3_0).contains("X-ABCROP-RECTANGLE=\"ABClipRect_1&0&0&9&9&qZ54yq==\""))
    }

    @Test func aTypeListThatRepeatsTheParameterNameIsReadAsItsTypes() {
        // `TYPE=HOME,TYPE=VOICE`: a comma written for a semicolon. Evolution kept only VOICE, sabre/vobject neither.
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nTEL;TYPE=HOME,TYPE=VOICE:1\r\nEND:VCARD\r\n"
        #expect(Self.convert(card, to: .v3_0).contains("TEL;TYPE=home,voice:1\r\n"))
    }

    @Test func aQuotedTypeIsAListOnlyWhenItHoldsWords() {
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nTEL;TYPE=\"HOME,VOICE\":1\r\nIMPP;TYPE=\"Mike's IM, custom:\":x-unknown:mike\r\nEND:VCARD\r\n"
        let three = Self.convert(card, to: .v3_0)
        #expect(three.contains("TEL;TYPE=home,voice:1\r\n"))
        #expect(three.contains("IMPP;TYPE=\"mike's im, custom:\":x-unknown:mike\r\n"))
    }

    @Test func aSingleValuedParameterKeepsItsComma() {
        // LABEL holds one value (RFC 6350 6.3.1): an unquoted comma in it is text, written back quoted.
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nADR;LABEL=Baytown, LA:;;1 Main St;Baytown;LA;;\r\nEND:VCARD\r\n"
        #expect(Self.convert(card, to: .v3_0).contains("ADR;LABEL=\"Baytown, LA\":;;1 Main St;Baytown;LA;;\r\n"))
    }

    @Test func aDataURIWithoutATypeTakesTheTypeParameter() {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nKEY;TYPE=X509:data:base64,MIIC\r\nEND:VCARD\r\n"
        #expect(Self.convert(card, to: .v3_0).contains("KEY;ENCODING=b;TYPE=X509:MIIC\r\n"))
        #expect(Self.convert(card, to: .v4_0).contains("KEY:data:application/pkix-cert;base64,MIIC\r\n"))
    }

    @Test func photoTextWithAValueTypeThatIsNoURIIsAnXPropertyIn40() {
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nPHOTO;VALUE=binary;ENCODING=8bit:val\\nue\r\nPHOTO;VALUE=uri:my://\r\nEND:VCARD\r\n"
        let four = Self.convert(card, to: .v4_0)
        #expect(four.contains("X-PHOTO;VALUE=binary:val\\nue\r\n"))
        #expect(four.contains("\r\nPHOTO:my://\r\n"))
    }

    @Test func aPhoneNumberIsTextAndEscapedAsTextUnlessItIsAURI() {
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nTEL:205246\\;\\;\\,\\;\r\nTEL;VALUE=uri:tel:+1-555-0100;ext=7\r\nEND:VCARD\r\n"
        let three = Self.convert(card, to: .v3_0)
        #expect(three.contains("TEL:205246\\;\\;\\,\\;\r\n"))
        #expect(three.contains("TEL:+1-555-0100 ext. 7\r\n"))
        let four = Self.convert(card, to: .v4_0)
        #expect(four.contains("TEL:205246\\;\\;\\,\\;\r\n"))
        #expect(four.contains("TEL;VALUE=uri:tel:+1-555-0100;ext=7\r\n"))
    }
}
