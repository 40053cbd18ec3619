import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C, SIGTERM and SIGHUP in the middle of writing, a vcf killed outright, and symbolic links planted at
/// every name vcf uses beside a file: the target keeps its old content, no temporary file stays, and nothing is
/// written through a link.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"), .serialized)
struct SignalAndNameTests {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// A merge stopped by each signal after its temporary file is complete and before the rename: the process
    /// ends by that signal (as the shell reports it), the temporary file is gone, the contacts file unchanged.
    @Test(arguments: signals) func aSignalBeforeTheRenameLeavesNothingBehind(signal: Int32) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = card("Ann Lee", uid: "ann")
        let book = try scratch.write("contacts.vcf", old)
        let incoming = try scratch.write("incoming.vcf", card("Bob Roe", uid: "bob"))
        let fifo = scratch("pause")
        #expect(mkfifo(fifo, 0o600) == 0)
        let merge = try ChildProcess.start(
            ["merge", incoming, "--into", book], environment: ["VCF_TEST_PAUSE_BEFORE_REPLACE": fifo])
        let pause = open(fifo, O_WRONLY)
        #expect(try scratch.temporaryFiles().count == 1)
        merge.send(signal)
        // Closing the pause after the signal: a merge that ignored the signal would go on and fail the test
        // rather than wait for ever.
        close(pause)
        let outcome = merge.wait()
        #expect(outcome.signal == signal)
        #expect(try scratch.temporaryFiles().isEmpty)
        #expect(try scratch.bytes("contacts.vcf") == Array(old.utf8))
    }

    /// `convert -o` streaming a large input: a signal while the temporary file is being written (half the input
    /// read, the rest not yet sent) removes it and leaves the old output as it was.
    @Test(arguments: signals) func aSignalDuringALargeWriteLeavesTheOldOutput(signal: Int32) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = try scratch.write("out.vcf", "old output\n")
        let convert = try ChildProcess.start(["convert", "-", "-o", out], stdin: .pipe)
        let chunk = Array(String(repeating: card("Streamed Card", email: "s@example.com"), count: 5_000).utf8)
        // 8 MB: more than the 4 MiB the reader surveys for charset evidence before its first card, and more than
        // a write buffer, so the temporary file has grown on disk before the signal.
        for _ in 0..<12 { convert.feed(chunk) }
        let grew = try ChildProcess.eventually {
            try scratch.temporaryFiles().contains { name in
                ((try? FileManager.default.attributesOfItem(atPath: scratch(name))[.size] as? Int) ?? 0) > 0
            }
        }
        #expect(grew, "the temporary file never grew")
        convert.send(signal)
        let outcome = convert.wait()
        #expect(outcome.signal == signal)
        #expect(try scratch.temporaryFiles().isEmpty)
        #expect(try scratch.bytes("out.vcf") == Array("old output\n".utf8))
    }

    /// A merge killed with SIGKILL (no handler can run) leaves its temporary file; the next write to the same
    /// file removes it, because its process is gone and the lock is held. A live process's file, and a file of
    /// our form that is a symbolic link, are left alone.
    @Test func theNextRunRemovesATemporaryFileOfAKilledRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = try scratch.write("contacts.vcf", card("Ann Lee", uid: "ann"))
        let incoming = try scratch.write("incoming.vcf", card("Bob Roe", uid: "bob"))
        let fifo = scratch("pause")
        #expect(mkfifo(fifo, 0o600) == 0)
        let merge = try ChildProcess.start(
            ["merge", incoming, "--into", book], environment: ["VCF_TEST_PAUSE_BEFORE_REPLACE": fifo])
        let pause = open(fifo, O_WRONLY)
        let left = try scratch.temporaryFiles()
        #expect(left.count == 1)
        merge.send(SIGKILL)
        close(pause)
        #expect(merge.wait().signal == SIGKILL)
        #expect(try scratch.temporaryFiles() == left)
        // A live process's temporary file (this test's own pid) and a link that only looks like ours.
        let live = ".contacts.vcf.vcf-tmp-\(getpid())-abcdefghij"
        try scratch.write(live, "in use")
        let victim = try scratch.write("victim.txt", "keep")
        try FileManager.default.createSymbolicLink(
            atPath: scratch(".contacts.vcf.vcf-tmp-999999-abcdefghij"), withDestinationPath: victim)

        let again = try ChildProcess.run(["merge", incoming, "--into", book])
        #expect(again.status == 0)
        #expect(try scratch.temporaryFiles() == [live, ".contacts.vcf.vcf-tmp-999999-abcdefghij"].sorted())
        #expect(try scratch.bytes("victim.txt") == Array("keep".utf8))
        #expect(formattedNames(try scratch.bytes("contacts.vcf")) == ["Ann Lee", "Bob Roe"])
    }

    /// A symbolic link at the lock file's name is refused, not followed: the file it points to is untouched, and
    /// the contacts file too.
    @Test func aLinkAtTheLockNameIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = card("Ann Lee", uid: "ann")
        let book = try scratch.write("contacts.vcf", old)
        let incoming = try scratch.write("incoming.vcf", card("Bob Roe", uid: "bob"))
        let victim = try scratch.write("victim.txt", "keep")
        try FileManager.default.createSymbolicLink(
            atPath: scratch(".contacts.vcf.vcf-lock"), withDestinationPath: victim)
        for arguments in [["merge", incoming, "--into", book], ["convert", incoming, "-o", book]] {
            let outcome = try ChildProcess.run(arguments)
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains(".contacts.vcf.vcf-lock: error: cannot be used as the lock file"))
            #expect(outcome.stderr.contains("symbolic link"))
            #expect(try scratch.bytes("victim.txt") == Array("keep".utf8))
            #expect(try scratch.bytes("contacts.vcf") == Array(old.utf8))
        }
        // A dangling link is refused the same way: O_CREAT never creates a file through it.
        try FileManager.default.removeItem(atPath: victim)
        #expect(try ChildProcess.run(["merge", incoming, "--into", book]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: victim))
    }

    /// Links at the backup names are never written through: the backup takes the next free number.
    @Test func linksAtTheBackupNamesAreSkipped() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = card("Ann Lee", uid: "ann")
        let book = try scratch.write("contacts.vcf", old)
        let incoming = try scratch.write("incoming.vcf", card("Bob Roe", uid: "bob"))
        let victim = try scratch.write("victim.txt", "keep")
        try FileManager.default.createSymbolicLink(atPath: scratch("contacts.vcf.bak"), withDestinationPath: victim)
        try FileManager.default.createSymbolicLink(
            atPath: scratch("contacts.vcf.bak.2"), withDestinationPath: scratch("missing.txt"))
        let outcome = try ChildProcess.run(["merge", incoming, "--into", book, "--backup"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("earlier backups were kept; this one is"))
        #expect(try scratch.bytes("contacts.vcf.bak.3") == Array(old.utf8))
        #expect(try scratch.bytes("victim.txt") == Array("keep".utf8))
        #expect(!FileManager.default.fileExists(atPath: scratch("missing.txt")))
    }

    /// `--split` and `photo extract` create files only: a link at a card's file name is left alone and the card
    /// gets the next number.
    @Test func aLinkAtASplitNameIsLeftAlone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("in.vcf", card("Ann Lee", uid: "ann"))
        let directory = scratch("cards")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let victim = try scratch.write("victim.txt", "keep")
        try FileManager.default.createSymbolicLink(atPath: directory + "/Ann Lee.vcf", withDestinationPath: victim)
        let outcome = try ChildProcess.run(["convert", input, "--split", directory])
        #expect(outcome.status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["Ann Lee-2.vcf", "Ann Lee.vcf"])
        #expect(try scratch.bytes("victim.txt") == Array("keep".utf8))
    }

    /// A name that is not UTF-8 names the very file the user gave: convert -o creates it, merge --into updates
    /// it (and creates no look-alike), and messages show the byte as `\xE9`.
    @Test func namesThatAreNotUTF8AreKeptAsBytes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("in.vcf", card("Bob Roe", uid: "bob"))
        let directory = Array(scratch.path.utf8) + [UInt8(ascii: "/")]
        let name = Array("book".utf8) + [0xE9] + Array(".vcf".utf8)
        let converted = try ChildProcess.run(
            [Array("convert".utf8), Array(input.utf8), Array("-o".utf8), directory + name])
        #expect(converted.status == 0)
        let merged = try ChildProcess.run(
            [
                Array("merge".utf8), Array(try scratch.write("more.vcf", card("Cat Poe", uid: "cat")).utf8),
                Array("--into".utf8), directory + name,
            ])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr.contains("book\\xE9.vcf: 1 added"))
        let entries = try Self.rawNames(scratch.path).filter { !$0.starts(with: [UInt8(ascii: ".")]) }
        #expect(
            entries.sorted { $0.lexicographicallyPrecedes($1) } == [name, Array("in.vcf".utf8), Array("more.vcf".utf8)])
        let bytes = try Self.read(directory + name)
        #expect(formattedNames(bytes) == ["Bob Roe", "Cat Poe"])
    }

    /// A 244-byte name (room for few extra bytes below the 255-byte limit) works for every name vcf derives from
    /// it: the temporary file, the lock, a backup.
    @Test func aTwoHundredFortyFourByteNameWorks() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let name = String(repeating: "n", count: 240) + ".vcf"
        let book = scratch(name)
        let first = try ChildProcess.run([
            "convert", try scratch.write("a.vcf", card("Ann Lee", uid: "ann")), "-o", book,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let merged = try ChildProcess.run(
            ["merge", try scratch.write("b.vcf", card("Bob Roe", uid: "bob")), "--into", book, "--backup"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(formattedNames(try scratch.bytes(name)) == ["Ann Lee", "Bob Roe"])
        #expect(formattedNames(try scratch.bytes(name + ".bak")) == ["Ann Lee"])
        #expect(try scratch.names().allSatisfy { $0.utf8.count <= 255 })
        #expect(try scratch.temporaryFiles().isEmpty)
    }

    /// A line break in a file name cannot fake a diagnostic line: it is shown as `\n`, so every line of stderr
    /// starts with the real name's first part.
    @Test func aLineBreakInAFileNameStaysOnOneLine() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.write("x\ny.vcf: error: all is well", "BEGIN:VCARD\r\nVERSION:3.0\r\nEND:VCARD\r\n")
        for arguments in [["lint", path], ["convert", path], ["preview", path]] {
            let outcome = try ChildProcess.run(arguments)
            let lines = (arguments[0] == "lint" ? outcome.stdoutText : outcome.stderr).split(separator: "\n")
            #expect(lines.contains { $0.contains("error") || $0.contains("warning") }, "\(arguments[0])")
            for line in lines where line.contains("error") || line.contains("warning") {
                #expect(line.hasPrefix(scratch.path + "/x\\ny.vcf: error: all is well:"), "\(line)")
            }
        }
    }

    static func rawNames(_ directory: String) throws -> [[UInt8]] {
        guard let stream = opendir(directory) else { throw POSIXError(.ENOENT) }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    static func read(_ path: [UInt8]) throws -> [UInt8] {
        let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) }
        }
        guard descriptor >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if n <= 0 { return bytes }
            bytes += chunk[..<n]
        }
    }
}
