import ContactMerge
import Foundation
import Testing
import UserFiles

@testable import VCFCommands

/// merge and dedupe read their contacts file by parts, over the whole of their work: another program may change it
/// at any point of that time, and then the work is done again on the new content, never refused for the other
/// program's half-written card, never written from a mix.
@Suite struct ContactsFileUpdateTests {
    static let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nEND:VCARD\r\n"
    /// What a program rewriting the file has written when it is read: a card without its end.
    static let torn = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann"

    func update(_ path: String, dryRun: Bool = false, destination: UserPath? = nil) -> (
        ContactsFileUpdate, () -> String
    ) {
        let (io, _, err) = CommandIO.capturing()
        return (
            ContactsFileUpdate(
                source: UserPath(path), destination: destination, missingIsEmpty: false, dryRun: dryRun,
                countryCode: nil, options: FileReplacement.Options(), io: io),
            err
        )
    }

    @Test func anUnreadableFileThatChangedMeanwhileIsReadAgainInPlace() throws {
        let (update, err) = update("book.vcf")
        #expect(throws: ContactsFileUpdate.ChangedWhileRead.self) {
            try update.contactsFile(BytesInMemory(Array(Self.torn.utf8)), name: "book.vcf", changed: { true })
        }
        #expect(err().isEmpty, "nothing is said of a file about to be read again: \(err())")
    }

    @Test func anUnreadableFileThatChangedMeanwhileIsRefusedSayingSoInADryRun() throws {
        let (update, err) = update("book.vcf", dryRun: true)
        #expect(throws: ContactsFileUpdate.Refused.self) {
            try update.contactsFile(BytesInMemory(Array(Self.torn.utf8)), name: "book.vcf", changed: { true })
        }
        #expect(err() == "book.vcf: error: changed by another program while vcf read it; nothing was changed\n")
    }

    @Test func anUnreadableFileThatDidNotChangeIsRefusedWithItsErrors() throws {
        let (update, err) = update("book.vcf")
        #expect(throws: ContactsFileUpdate.Refused.self) {
            try update.contactsFile(BytesInMemory(Array(Self.torn.utf8)), name: "book.vcf", changed: { false })
        }
        #expect(err().contains("[missing-end]"))
        #expect(err().contains("book.vcf: error: the file has errors; nothing was changed"))
    }

    /// The file on disk: rewritten (a new identity) while it was read, it is the new file that counts.
    @Test func aFileRewrittenSinceItWasOpenedCountsAsChanged() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.write("book.vcf", Self.torn)
        let input = try InputFile.open(UserPath(path))
        let bytes = FileBytes(file: try RandomAccessFile(input))
        input.close()
        let (update, err) = update(path)
        #expect(throws: ContactsFileUpdate.Refused.self) { try update.contactsFile(bytes, name: "book.vcf") }
        #expect(err().contains("[missing-end]"))
        // The other program saves the file whole, as an editor does (a new file renamed over it): the file read,
        // cut where it was, is not the file there any more.
        try Data(Self.card.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        #expect(throws: ContactsFileUpdate.ChangedWhileRead.self) { try update.contactsFile(bytes, name: "book.vcf") }
    }

    /// An attempt whose work finds the file changed starts again, as a change found at the commit does, and says so.
    @Test func workThatFindsTheFileChangedIsDoneAgain() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = UserPath(try scratch.write("book.vcf", Self.card))
        var update = InPlaceUpdate(
            given: path, resolved: path, options: FileReplacement.Options(), missingIsEmpty: false)
        update.readsWhole = false
        var retried = 0
        update.retrying = { _ in retried += 1 }
        let (report, _) = try update.run { snapshot -> InPlaceUpdate.Plan<Int> in
            #expect(snapshot.file != nil && snapshot.bytes.isEmpty)
            if snapshot.attempt == 1 { throw TargetChanged(path: path) }
            return InPlaceUpdate.Plan(report: snapshot.attempt, write: { try $0.write(Array("new\n".utf8)) })
        }
        #expect(report == 2)
        #expect(retried == 1)
        #expect(try scratch.bytes("book.vcf") == Array("new\n".utf8))
    }
}
