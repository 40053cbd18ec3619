// The sharing side: build a person's card, embed their photo recompressed so the whole record fits a store's
// limit (CloudKit's 1 MB by default), and write it as vCard 3.0, the version every contacts app reads.
//
// usage: share-card PHOTO [--limit cloudkit|icloud|exchange|BYTES] -o CARD.vcf
//
// Prints what was done to the photo and how large the record is; exit 1 when the card cannot meet the limit
// or the photo is unreadable, 64 on bad usage.
import Foundation
import VCF

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("share-card: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var limit = RecordLimit.cloudKit
var output: String?
var photoPath: String?
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--limit":
        // A preset name or a byte count, as RecordLimit reads them.
        guard let text = arguments.first, let parsed = RecordLimit(parsing: text) else {
            fail("--limit takes cloudkit, icloud, exchange, nextcloud, baikal or a byte count", status: 64)
        }
        arguments.removeFirst()
        limit = parsed
    case "-o":
        guard let path = arguments.first else { fail("-o takes a file name", status: 64) }
        arguments.removeFirst()
        output = path
    default:
        photoPath = argument
    }
}
guard let photoPath, let output else { fail("usage: share-card PHOTO [--limit PRESET|BYTES] -o CARD.vcf", status: 64) }

// The card as an app would build it from its own model.
let contact = Contact(
    uid: "urn:uuid:6f1d2c3a-8b4e-4f5a-9c6d-7e8f9a0b1c2d",
    formattedName: "Ada Lovelace",
    name: StructuredName(family: ["Lovelace"], given: ["Ada"]),
    organization: Organization(name: "Analytical Engines Ltd"),
    title: "Mathematician",
    emails: [LabeledValue("ada@example.org", types: ["INTERNET", "WORK"])],
    phones: [LabeledValue("+44 20 7946 0000", types: ["CELL"])])

let photo: [UInt8]
do {
    photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photoPath)))
} catch {
    fail("cannot read \(photoPath): \(error.localizedDescription)", status: 1)
}

// The fitter measures the card with the same writer that writes it, so the limit holds for the bytes written.
let writer = VCardWriter(version: .v3_0)
do {
    let outcome = try CardPhotoFitter(writer: writer).fit(contact, photo: photo, limit: limit)
    let card = writer.bytes([outcome.contact])
    try Data(card).write(to: URL(fileURLWithPath: output), options: .atomic)
    // For example: photo 480x640 -> 480x640 q100 4:4:4, 161,385 bytes; record 224,180 of 1,000,000 bytes
    print(outcome.description)
} catch let error as CardPhotoError {
    // The rest of the card alone leaves too little room: the message says how much the rest takes.
    fail(error.description, status: 1)
} catch let error as PhotoError {
    // Not a JPEG or PNG, damaged, or too many pixels: a sentence saying which.
    fail("\(photoPath): \(error.description)", status: 1)
} catch {
    fail("cannot write \(output): \(error.localizedDescription)", status: 1)
}
