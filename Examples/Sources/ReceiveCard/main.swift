// The receiving side: read a card someone shared, show who it is (photo, name, role, company), and add it to
// the person's contacts file without duplicating anyone: a card for someone already there is merged into
// their card. Card data that is invalid is refused with each problem's line and what was expected, and the
// contacts file is left as it was.
//
// usage: receive-card CARD.vcf --into CONTACTS.vcf
//
// Exit status: 0 merged or added (or already there); 1 the card data or the contacts file is invalid;
// 2 a file cannot be read or written; 64 bad usage.
import Foundation
import VCF

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("receive-card: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, arguments[1] == "--into" else {
    fail("usage: receive-card CARD.vcf --into CONTACTS.vcf", status: 64)
}
let cardPath = arguments[0]
let contactsPath = arguments[2]

func readFile(_ path: String, missingIsEmpty: Bool = false) -> [UInt8] {
    if missingIsEmpty && !FileManager.default.fileExists(atPath: path) { return [] }
    do {
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
        fail("cannot read \(path): \(error.localizedDescription)", status: 2)
    }
}

// 1. Read the card. Recoverable problems are diagnostics beside the cards, each naming file, line and what was
// expected; an error means part of the card could not be read, so it is not added half-understood.
let (cards, diagnostics) = VCardDocument.read(readFile(cardPath), name: cardPath)
let errors = diagnostics.filter { $0.severity == .error }
if cards.isEmpty || !errors.isEmpty {
    var lines = ["\(cardPath): this card data is invalid, so nothing was added:"]
    lines += errors.map { "  \($0.description)" }
    if cards.isEmpty && errors.isEmpty { lines.append("  \(cardPath): no BEGIN:VCARD ... END:VCARD card in it") }
    fail(lines.joined(separator: "\n"), status: 1)
}
for warning in diagnostics where warning.severity == .warning {
    FileHandle.standardError.write(Data("receive-card: \(warning.description)\n".utf8))
}

// 2. Show each card as an app's preview would.
for card in cards {
    let contact = card.contact
    print("Name: \(contact.formattedName ?? contact.name.map(\.displayName) ?? "(no name)")")
    let role = [contact.title, contact.role].compactMap { $0 }.joined(separator: ", ")
    if !role.isEmpty { print("Role: \(role)") }
    if let company = contact.organization?.name { print("Company: \(company)") }
    if let photo = contact.photo {
        if let data = photo.data {
            // The headers say what the image is without decoding it; ImageDecoder.upright gives the pixels.
            do {
                let info = try ImageInfo.inspect([UInt8](data))
                let format = info.format.rawValue.uppercased()
                print("Photo: \(format) \(info.displayWidth)x\(info.displayHeight), \(data.count) bytes")
            } catch let error as PhotoError {
                print("Photo: not shown: \(error.description)")
            }
        } else if let uri = photo.uri {
            print("Photo: a link, not fetched: \(uri)")
        }
    }
}

// 3. Merge into the contacts file. A file with any error is not rewritten: what we failed to read could be lost.
let existingBytes = readFile(contactsPath, missingIsEmpty: true)
let book: ContactsFile
do {
    book = try ContactsFile(bytes: existingBytes, name: contactsPath)
} catch {
    fail("\(contactsPath) is not changed, because it cannot be read in full:\n\(error)", status: 1)
}
let incoming = cards.map { IncomingCard(contact: $0.contact, file: cardPath, line: $0.raw.beginLine) }
let result = AddressBookMerge().merge(incoming, into: book.existingCards)
for entry in result.entries {
    let existing = entry.existing.map { "“\(book.cards[$0].displayName)”" } ?? ""
    switch entry.outcome {
    case .merged:
        let changes = entry.changes.map { "\($0.action.rawValue) \($0.field)" }.joined(separator: ", ")
        print("Merged into \(existing): \(changes)")
    case .unchanged:
        print("Already in contacts as \(existing); nothing to change")
    case .added:
        print("Added as a new contact")
    case .possible:
        print("Added as a new contact; \(existing) may be the same person (\(entry.decision?.explanation ?? ""))")
    case .skipped:
        print("Skipped: \(entry.problem ?? "unreadable")")
    }
}
// Only the cards that changed are rewritten; every other byte of the file stays as it was.
let updated: [UInt8]
do {
    // The unchanged cards' bytes are read again from the file: it must still hold what was read.
    updated = try book.rendered(replacing: result.replaced, adding: result.added)
} catch {
    fail("cannot read \(contactsPath) again: \(error)", status: 2)
}
if updated != existingBytes {
    do {
        try Data(updated).write(to: URL(fileURLWithPath: contactsPath), options: .atomic)
    } catch {
        fail("cannot write \(contactsPath): \(error.localizedDescription)", status: 2)
    }
}
