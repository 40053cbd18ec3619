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
