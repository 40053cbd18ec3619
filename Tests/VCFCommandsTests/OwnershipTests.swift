import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replacing a file keeps what its owner set: owner, group and mode; a read-only file is refused unless
/// `--force`; a backup is never more readable than the file and never replaces an earlier backup. Changing a
/// file's owner needs root: those tests say so and are skipped for other users.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"), .serialized)
struct OwnershipTests {
    static let isRoot = geteuid() == 0
    static let otherUser: uid_t = 4242
    static let otherGroup: gid_t = 4343

    static func info(_ path: String) -> stat {
        var info = stat()
        _ = lstat(path, &info)
        return info
    }

    @Test(.enabled(if: isRoot, "needs root to give the file another owner"))
    func rootMergingIntoAnotherUsersPrivateFileKeepsItTheirs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = try scratch.write("contacts.vcf", card("Ann Lee", uid: "ann"))
        #expect(chown(book, Self.otherUser, Self.otherGroup) == 0)
        #expect(chmod(book, 0o600) == 0)
        let outcome = try ChildProcess.run(
            ["merge", try scratch.write("in.vcf", card("Bob Roe", uid: "bob")), "--into", book, "--backup"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let after = Self.info(book)
        #expect(after.st_uid == Self.otherUser && after.st_gid == Self.otherGroup)
        #expect(after.st_mode & 0o7777 == 0o600)
        #expect(formattedNames(try scratch.bytes("contacts.vcf")) == ["Ann Lee", "Bob Roe"])
        // The backup is the old file: the same owner and mode, no more readable.
        let backup = Self.info(scratch("contacts.vcf.bak"))
        #expect(backup.st_uid == Self.otherUser && backup.st_mode & 0o7777 == 0o600)
        #expect(formattedNames(try scratch.bytes("contacts.vcf.bak")) == ["Ann Lee"])
    }

    /// A user who may write a file (by its mode) but is not its owner cannot give the new file that owner: the
    /// replacement is refused with a message, rather than leaving the file owned by someone else.
    @Test(
        .enabled(
            if: isRoot && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
    func anOwnerThatCannotBeKeptIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(chmod(scratch.path, 0o777) == 0)
        let old = card("Ann Lee", uid: "ann")
        let book = try scratch.write("contacts.vcf", old)
        let incoming = try scratch.write("in.vcf", card("Bob Roe", uid: "bob"))
        #expect(chown(book, Self.otherUser, Self.otherGroup) == 0)
        #expect(chmod(book, 0o666) == 0)
        #expect(chmod(incoming, 0o644) == 0)
        // The run itself as a third user, who may write the file by its mode.
        let binary = try #require(builtBinary).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=4545", "--regid=4545", "--clear-groups", binary, "merge", incoming, "--into", book,
        ]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("contacts.vcf: error: cannot keep its owner and group (4242:4343)"), "\(message)")
        #expect(try scratch.bytes("contacts.vcf") == Array(old.utf8))
        #expect(Self.info(book).st_uid == Self.otherUser)
        #expect(try scratch.temporaryFiles().isEmpty)
    }

    /// A read-only file (mode 0444) is not replaced without --force; with it, it is, and stays read-only.
    @Test func aReadOnlyFileNeedsForce() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = card("Ann Lee", uid: "ann")
        let book = try scratch.write("contacts.vcf", old)
        #expect(chmod(book, 0o444) == 0)
        let incoming = try scratch.write("in.vcf", card("Bob Roe", uid: "bob"))
        for arguments in [
            ["merge", incoming, "--into", book], ["convert", incoming, "-o", book], ["dedupe", book],
            ["lint", book, "--fix", "-o", book],
        ] {
            let outcome = try ChildProcess.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains("contacts.vcf: error: is read-only (mode 444)"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("--force"))
            #expect(try scratch.bytes("contacts.vcf") == Array(old.utf8))
        }
        let forced = try ChildProcess.run(["merge", incoming, "--into", book, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(formattedNames(try scratch.bytes("contacts.vcf")) == ["Ann Lee", "Bob Roe"])
        #expect(Self.info(book).st_mode & 0o7777 == 0o444)
    }

    /// Each --backup keeps the content it replaced under a new name: the first backup is never lost, and the
    /// second run says where its backup went. Backups have the file's mode.
    @Test func aSecondBackupKeepsTheFirst() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let first = card("Ann Lee", uid: "ann")
        let book = try scratch.write("contacts.vcf", first)
        #expect(chmod(book, 0o600) == 0)
        let one = try ChildProcess.run(
            ["merge", try scratch.write("b.vcf", card("Bob Roe", uid: "bob")), "--into", book, "--backup"])
        #expect(one.status == 0)
        #expect(!one.stderr.contains("earlier backups"))
        let second = try scratch.bytes("contacts.vcf")
        let two = try ChildProcess.run(
            ["merge", try scratch.write("c.vcf", card("Cat Poe", uid: "cat")), "--into", book, "--backup"])
        #expect(two.status == 0)
        #expect(two.stderr.contains("contacts.vcf: note: earlier backups were kept; this one is"))
        #expect(two.stderr.contains("contacts.vcf.bak.2"))
        #expect(try scratch.bytes("contacts.vcf.bak") == Array(first.utf8))
        #expect(try scratch.bytes("contacts.vcf.bak.2") == second)
        #expect(formattedNames(try scratch.bytes("contacts.vcf")) == ["Ann Lee", "Bob Roe", "Cat Poe"])
        for name in ["contacts.vcf", "contacts.vcf.bak", "contacts.vcf.bak.2"] {
            #expect(Self.info(scratch(name)).st_mode & 0o7777 == 0o600, "\(name)")
        }
        // dedupe keeps its backups the same way.
        try scratch.write(
            "dupes.vcf", card("Dee Dup", email: "d@example.com") + card("Dee Dup", email: "d@example.com"))
        #expect(try ChildProcess.run(["dedupe", scratch("dupes.vcf"), "--backup"]).status == 0)
        #expect(formattedNames(try scratch.bytes("dupes.vcf.bak")) == ["Dee Dup", "Dee Dup"])
    }
}
