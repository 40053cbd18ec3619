import CardPhoto
import ContactModel
import Foundation
import PhotoProcessing
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

/// The photo budget arithmetic equals what the writer really writes, and fitted cards meet their limits.
@Suite struct CardPhotoTests {
    static func card(photo: Photo? = nil) -> Contact {
        Contact(
            uid: "urn:uuid:4f6a2d1e-0000-4000-8000-000000000001", formattedName: "Ada Lovelace",
            name: StructuredName(family: ["Lovelace"], given: ["Ada"]),
            organization: Organization(name: "Analytical Engines Ltd"), title: "Mathematician",
            emails: [LabeledValue("ada@example.org", types: ["INTERNET", "WORK"])],
            phones: [LabeledValue("+44 20 7946 0000", types: ["CELL"])], photo: photo)
    }

    static func written(_ contact: Contact, _ writer: VCardWriter) -> [UInt8] {
        var out: [UInt8] = []
        writer.write(contact, into: &out)
        return out
    }

    @Test(arguments: [VCardVersion.v3_0, .v4_0])
    func photoLineArithmeticMatchesTheWriter(_ version: VCardVersion) {
        let writer = VCardWriter(version: version)
        let parameterSets: [[ExtraParameter]] = [
            [], [ExtraParameter(name: "X-ABCROP-RECTANGLE", values: ["ABClipRect_1&0&0&400&400&abc"])],
            [ExtraParameter(name: "X-NOTE", values: ["Grüße, Ünïcode"])],
        ]
        let without = Self.written(Self.card(), writer).count
        var random = SeededRandom(seed: 7)
        let counts = Array(0...300) + (0..<12).map { _ in Int.random(in: 300...60_000, using: &random) }
        for parameters in parameterSets {
            for count in counts {
                let photo = Photo(
                    data: Data(repeating: 0xA5, count: count), mediaType: "image/jpeg",
                    parameters: parameters)
                let actual = Self.written(Self.card(photo: photo), writer).count - without
                let predicted = writer.embeddedPhotoOctets(
                    byteCount: count, mediaType: "image/jpeg",
                    parameters: parameters)
                #expect(actual == predicted, "\(count) bytes, \(parameters.count) parameters")
                if actual != predicted { return }
            }
        }
    }

    @Test func theLargestPhotoIsExact() {
        let writer = VCardWriter()
        for octets in [40, 41, 77, 100, 1_000, 48_000, 256_000] {
            guard let n = writer.largestEmbeddedPhoto(fitting: octets, mediaType: "image/jpeg") else {
                Issue.record("\(octets) octets should hold an empty photo")
                continue
            }
            #expect(writer.embeddedPhotoOctets(byteCount: n, mediaType: "image/jpeg") <= octets)
            #expect(writer.embeddedPhotoOctets(byteCount: n + 1, mediaType: "image/jpeg") > octets)
        }
        #expect(writer.largestEmbeddedPhoto(fitting: 10, mediaType: "image/jpeg") == nil)
    }

    @Test(arguments: [6_000, 9_000, 16_000, 40_000, 60_000])
    func aFittedCardMeetsItsRecordLimitWhenReadBack(_ limit: Int) throws {
        let source = try FixturePaths.bytes("photos/photo-640x480.jpg")
        let outcome = try CardPhotoFitter().fit(Self.card(), photo: source, limit: RecordLimit(recordBytes: limit))
        let bytes = Self.written(outcome.contact, VCardWriter())
        #expect(bytes.count == outcome.recordBytes)
        #expect(bytes.count <= limit)
        let (cards, diagnostics) = VCardLexer.parse(bytes)
        #expect(diagnostics.isEmpty && cards.count == 1)
        let read = VCardReader.contact(from: cards[0]).contact
        let photo = try #require(read.photo?.data)
        #expect(read.photo?.mediaType == "image/jpeg")
        let (image, info, _) = try ImageDecoder.upright([UInt8](photo))
        #expect(info.frameType == 0 && !info.hasMetadata)
        #expect(image.width >= image.height, "the landscape photo stays landscape")
        #expect(outcome.description.hasPrefix("photo 640x480 -> "))
        #expect(outcome.description.hasSuffix("; record \(ByteCount(bytes.count)) of \(ByteCount(limit)) bytes"))
    }

    @Test func photoBoundsOfPresetsAreMet() throws {
        let source = try FixturePaths.bytes("photos/photo-640x480.jpg")
        var options = PhotoFitter.Options()
        options.maxEdge = 640
        let fitter = CardPhotoFitter(options: options)
        let exchange = try fitter.fit(Self.card(), photo: source, limit: RecordLimit(photoBase64Bytes: 8_000))
        let data = try #require(exchange.contact.photo?.data)
        #expect(data.base64EncodedString().utf8.count <= 8_000)
        let iCloud = try fitter.fit(
            Self.card(), photo: source, limit: RecordLimit(recordBytes: 30_000, photoBytes: 10_000))
        #expect(try #require(iCloud.contact.photo?.data).count <= 10_000)
        #expect(RecordLimit(parsing: "icloud") == .iCloud)
        #expect(RecordLimit(parsing: "256_000") == RecordLimit(recordBytes: 256_000))
        #expect(RecordLimit(parsing: "1,000,000")?.recordBytes == 1_000_000)
        #expect(RecordLimit(parsing: "lots") == nil)
        #expect(RecordLimit.exchange.photoByteBound == 36_000)
    }

    @Test func aCardTooLargeForAnyPhotoSaysWhatTheRestTakes() throws {
        let source = try FixturePaths.bytes("photos/photo-640x480.jpg")
        let rest = Self.written(Self.card(), VCardWriter()).count
        let error = #expect(throws: CardPhotoError.self) {
            _ = try CardPhotoFitter().fit(Self.card(), photo: source, limit: RecordLimit(recordBytes: rest + 20))
        }
        #expect(
            error?.description
                == "the card does not fit the limit record \(ByteCount(rest + 20)) bytes: the rest of the card "
                + "takes \(ByteCount(rest)) bytes, leaving no room for a photo")
        let tight = #expect(throws: CardPhotoError.self) {
            _ = try CardPhotoFitter().fit(Self.card(), photo: source, limit: RecordLimit(recordBytes: rest + 300))
        }
        #expect(tight?.description.contains("the rest of the card takes \(ByteCount(rest)) bytes, leaving ") == true)
        #expect(tight?.description.contains("the photo cannot be made to fit") == true)
    }

    @Test func aCardsOwnPhotoIsRecompressedAndACleanOneKept() throws {
        let big = try FixturePaths.bytes("photos/photo-640x480.jpg")
        let card = Self.card(photo: Photo(data: Data(big), mediaType: "image/jpeg"))
        let outcome = try CardPhotoFitter().fit(card, limit: .iCloud)
        #expect(outcome.photo?.keptOriginal == true, "61 KB baseline without metadata already fits iCloud")
        #expect(outcome.contact == card)
        let shrunk = try CardPhotoFitter().fit(card, limit: RecordLimit(recordBytes: 20_000))
        #expect(shrunk.photo?.keptOriginal == false && shrunk.recordBytes <= 20_000)
    }

    @Test func anUnreadablePhotoThatFitsIsLeftAloneAndOneThatDoesNotIsAnError() throws {
        let gif = Data("GIF89a".utf8) + Data(repeating: 7, count: 200)
        let card = Self.card(photo: Photo(data: gif, mediaType: "image/gif"))
        let outcome = try CardPhotoFitter().fit(card, limit: RecordLimit(recordBytes: 10_000))
        #expect(outcome.contact == card)
        #expect(outcome.description.hasPrefix("photo left as it was: the image is neither JPEG nor PNG"))
        #expect(throws: CardPhotoError.self) {
            _ = try CardPhotoFitter().fit(card, limit: RecordLimit(recordBytes: 400))
        }
    }
}
