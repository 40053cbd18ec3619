import Foundation
import Testing
import VCardFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Several writers at once on one contacts file, as processes: vcf merges that lock, and a program that does not
/// lock appending a card in the middle of a merge. Nothing any of them wrote may be lost.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"), .serialized)
struct ConcurrentWriteTests {
    /// Four merges started together, five rounds: every card of every merge ends up in the file, once, and the
    /// file reads without an error.
    @Test func fourMergesAtOnceKeepEveryCard() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = scratch("contacts.vcf")
        var expected: [String] = []
        for round in 1...5 {
            var children: [ChildProcess] = []
            for writer in 1...4 {
                var text = ""
                for index in 1...6 {
                    let name = "Person R\(round)W\(writer)N\(index)"
                    expected.append(name)
                    text += card(
                        name, uid: "r\(round)-w\(writer)-n\(index)", email: "r\(round)w\(writer)n\(index)@example.com")
                }
                let incoming = try scratch.write("incoming-\(round)-\(writer).vcf", text)
                children.append(try ChildProcess.start(["merge", incoming, "--into", book]))
            }
            for child in children {
                let outcome = child.wait()
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(outcome.stderr.contains("6 added"))
            }
            let bytes = try scratch.bytes("contacts.vcf")
            #expect(formattedNames(bytes).sorted() == expected.sorted(), "round \(round)")
            let read = VCardDocument.read(bytes)
            #expect(!read.diagnostics.contains { $0.severity == .error })
            #expect(read.cards.count == expected.count)
        }
        #expect(try scratch.temporaryFiles().isEmpty)
    }

    /// A card appended by a program that takes no lock, after the merge read the file and before it renames its
    /// result, is in the file afterwards: the merge sees the change, merges again, and says so.
    @Test func aCardAppendedDuringAMergeSurvives() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = try scratch.write("contacts.vcf", card("Ann Lee", uid: "ann", email: "ann@example.com"))
        let incoming = try scratch.write("incoming.vcf", card("Bob Roe", uid: "bob", email: "bob@example.com"))
        let fifo = scratch("pause")
        #expect(mkfifo(fifo, 0o600) == 0)
        let merge = try ChildProcess.start(
            ["merge", incoming, "--into", book], environment: ["VCF_TEST_PAUSE_BEFORE_REPLACE": fifo])
        // Opening the FIFO for writing waits until the merge opens it: its temporary file is then complete.
        let pause = open(fifo, O_WRONLY)
        #expect(pause >= 0)
        #expect(try scratch.temporaryFiles().count == 1)
        let appended = card("Cat Appended", uid: "cat", email: "cat@example.com")
        let handle = try #require(FileHandle(forWritingAtPath: book))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(appended.utf8))
        try handle.close()
        var go: UInt8 = 1
        _ = write(pause, &go, 1)
        close(pause)
        let outcome = merge.wait()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("contacts.vcf: note: changed by another program meanwhile"))
        #expect(formattedNames(try scratch.bytes("contacts.vcf")) == ["Ann Lee", "Cat Appended", "Bob Roe"])
        #expect(try scratch.temporaryFiles().isEmpty)
    }

    /// lint --fix in place is a read-modify-write too: an append in the middle is repaired along with the rest.
    @Test func aCardAppendedDuringAnInPlaceFixSurvives() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = try scratch.write("contacts.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Ann;;;\r\nEND:VCARD\r\n")
        let fifo = scratch("pause")
        #expect(mkfifo(fifo, 0o600) == 0)
        let fix = try ChildProcess.start(
            ["lint", book, "--fix", "-o", book], environment: ["VCF_TEST_PAUSE_BEFORE_REPLACE": fifo])
        let pause = open(fifo, O_WRONLY)
        let handle = try #require(FileHandle(forWritingAtPath: book))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Roe;Bob;;;\r\nEND:VCARD\r\n".utf8))
        try handle.close()
        var go: UInt8 = 1
        _ = write(pause, &go, 1)
        close(pause)
        let outcome = fix.wait()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(formattedNames(try scratch.bytes("contacts.vcf")) == ["Ann Lee", "Bob Roe"])
    }

    /// A merge waits for another that holds the lock, says so, and then merges into the other's result.
    @Test func aSecondMergeWaitsForTheLockAndSaysSo() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = try scratch.write("contacts.vcf", card("Ann Lee", uid: "ann"))
        let first = try scratch.write("first.vcf", card("Bob Roe", uid: "bob"))
        let second = try scratch.write("second.vcf", card("Cat Poe", uid: "cat"))
        let fifo = scratch("pause")
        #expect(mkfifo(fifo, 0o600) == 0)
        let holder = try ChildProcess.start(
            ["merge", first, "--into", book], environment: ["VCF_TEST_PAUSE_BEFORE_REPLACE": fifo])
        let pause = open(fifo, O_WRONLY)
        let waiter = try ChildProcess.start(["merge", second, "--into", book])
        // The waiter says it waits as soon as it finds the lock taken; only then is the holder let go.
        #expect(ChildProcess.eventually { waiter.stderrSoFar().contains("waiting for another vcf") })
        var go: UInt8 = 1
        _ = write(pause, &go, 1)
        close(pause)
        #expect(holder.wait().status == 0)
        let outcome = waiter.wait()
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("contacts.vcf: note: waiting for another vcf to finish with it"))
        #expect(formattedNames(try scratch.bytes("contacts.vcf")) == ["Ann Lee", "Bob Roe", "Cat Poe"])
    }
}
