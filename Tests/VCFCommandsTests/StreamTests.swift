import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard streams and devices as outputs and inputs, as a shell sets them up: `/dev/stdout` appended to a
/// log, a full disk, a descriptor opened by the shell, a closed standard input.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"), .serialized)
struct StreamTests {
    static let input = card("Ann Lee", uid: "ann", email: "ann@example.com")

    /// `-o /dev/stdout >> log.txt` appends to the log: the path is the descriptor, never resolved to log.txt
    /// and renamed over. `-o -` and `/dev/fd/1` do the same.
    @Test(arguments: ["/dev/stdout", "-", "/dev/fd/1", "/proc/self/fd/1"])
    func standardOutputByNameAppendsToTheShellsFile(name: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("a.vcf", Self.input)
        let log = try scratch.write("log.txt", "first line\n")
        let outcome = try ChildProcess.run(["convert", input, "-o", name], stdout: .append(log))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let text = String(decoding: try scratch.bytes("log.txt"), as: UTF8.self)
        #expect(text.hasPrefix("first line\nBEGIN:VCARD\r\n"))
        #expect(text.hasSuffix("END:VCARD\r\n"))
        #expect(try scratch.names() == ["a.vcf", "log.txt"])
    }

    /// A link to /dev/stdout is the descriptor too, and `/dev/fd/3` is the descriptor the shell opened as 3.
    @Test func linksAndOtherDescriptors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("a.vcf", Self.input)
        let log = try scratch.write("log.txt", "kept\n")
        try FileManager.default.createSymbolicLink(atPath: scratch("out"), withDestinationPath: "/dev/stdout")
        let linked = try ChildProcess.run(["convert", input, "-o", scratch("out")], stdout: .append(log))
        #expect(linked.status == 0)
        #expect(String(decoding: try scratch.bytes("log.txt"), as: UTF8.self).hasPrefix("kept\nBEGIN:VCARD"))

        let three = try scratch.write("three.txt", "three\n")
        let outcome = try ChildProcess.run(
            ["convert", input, "-o", "/dev/fd/3"].map { Array($0.utf8) },
            extraDescriptors: [(3, three, O_WRONLY | O_APPEND)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(String(decoding: try scratch.bytes("three.txt"), as: UTF8.self).hasPrefix("three\nBEGIN:VCARD"))
        // A descriptor that is not open is an error, not a file created under that name.
        let closed = try ChildProcess.run(["convert", input, "-o", "/dev/fd/1000"])
        #expect(closed.status == 2)
        #expect(closed.stderr.contains("/dev/fd/1000: error: cannot be written: Bad file descriptor"))
    }

    /// A device is written to, never replaced: /dev/null stays a character device.
    @Test func aDeviceIsWrittenToNotReplaced() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("a.vcf", Self.input)
        let outcome = try ChildProcess.run(["convert", input, "-o", "/dev/null"])
        #expect(outcome.status == 0)
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    /// A full disk on standard output, or on `-o /dev/full`, is exit 2 with the reason, for every command that
    /// writes data or findings there; only a closed pipe is a quiet end.
    @Test func aFullDeviceIsAnErrorWithTheReason() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("a.vcf", Self.input)
        // A card without a UID, so lint has a finding to print.
        let finding = try scratch.write("b.vcf", card("Bob Roe"))
        for arguments in [
            ["convert", input], ["convert", input, "--to", "json"], ["preview", input], ["lint", finding],
            ["lint", input, "--fix", "-o", "-"], ["convert", input, "-o", "/dev/full"],
            ["preview", input, "--format", "html", "-o", "/dev/full"], ["qr", input],
            ["qr", input, "-o", "/dev/full", "--format", "svg"],
        ] {
            let outcome = try ChildProcess.run(arguments, stdout: .truncate("/dev/full"))
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains("No space left on device"), "\(arguments): \(outcome.stderr)")
        }
    }

    /// Dedupe writing its cards to standard output learns of a full disk before it reports: it said "updated"
    /// and then that nothing could be written. Exit 2, and only the reason.
    @Test func dedupeToAFullStandardOutputDoesNotSayUpdated() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let twice = try scratch.write("two.vcf", card("Ann Lee") + card("Ann Lee"))
        for arguments in [["dedupe", "-"], ["dedupe", twice, "-o", "-"]] {
            let outcome = try ChildProcess.run(
                arguments, stdin: arguments[1] == "-" ? .file(twice) : .empty, stdout: .truncate("/dev/full"))
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr == "standard output: error: cannot be written: No space left on device\n")
        }
    }

    /// An output that cannot be written ends the command with one message however many inputs are left: once
    /// the disk was full, each of a folder's files after the first full buffer was reported as unreadable.
    @Test func aFullDeviceEndsTheReadingOfAFolder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch("cards"), withIntermediateDirectories: true)
        // About 1 MB of output, four buffers' worth.
        let note = String(repeating: "a note to make the card large ", count: 100)
        for k in 0..<300 { try scratch.write("cards/c\(k).vcf", Places.card("FN:Person \(k)", "NOTE:\(note)")) }
        let file = try scratch.write("one.vcf", Places.card("FN:Ann Lee"))
        for arguments in [
            ["convert", scratch("cards")], ["convert", scratch("cards"), "-o", "/dev/full"],
            ["convert", scratch("cards"), "--to", "json", "-o", "/dev/full"],
            ["preview", scratch("cards"), "--format", "json", "-o", "/dev/full"],
            ["convert", scratch("cards"), file, file, file, "-o", "/dev/full"],
        ] {
            let outcome = try ChildProcess.run(arguments, stdout: .truncate("/dev/full"))
            #expect(outcome.status == 2, "\(arguments)")
            let messages = outcome.stderr.split(separator: "\n")
            #expect(messages.count == 1, "\(arguments): \(outcome.stderr.prefix(500))")
            #expect(messages.first?.hasSuffix("error: cannot be written: No space left on device") == true)
        }
    }

    /// A closed standard input is a message and exit 2, never a crash, for every command that reads it, and
    /// nothing is written: when the output was opened first, its temporary file took descriptor 0 and was read
    /// as an empty input, and `convert - -o out.vcf <&-` wrote an empty file and succeeded.
    @Test func aClosedStandardInputIsAMessage() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for arguments in [
            ["lint", "-"], ["merge", "-", "--into", scratch("book.vcf")], ["dedupe", "-"],
            ["photo", "fit", "-", "--max-bytes", "48000", "-o", scratch("out.jpg")], ["preview", "-"],
            ["convert", "-"], ["lint", "-", "--fix", "-o", "-"], ["photo", "extract", "-", "-o", scratch("photos")],
            ["qr", "-"], ["convert", "-", "-o", scratch("out.vcf")],
            ["convert", "-", "--to", "csv", "-o", scratch("out.csv")],
            ["preview", "-", "--format", "html", "-o", scratch("page.html")],
            ["merge", "-", "--into", scratch("folder") + "/"], ["convert", "-", "--to-vdir", scratch("cards") + "/"],
        ] {
            let outcome = try ChildProcess.run(arguments, stdin: .closed)
            #expect(outcome.signal == nil, "\(arguments) crashed")
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains("-: error: cannot be read; standard input is closed"), "\(arguments)")
        }
        for name in ["book.vcf", "out.vcf", "out.csv", "page.html"] {
            #expect(!FileManager.default.fileExists(atPath: scratch(name)), "\(name)")
        }
    }

    /// A read error names the path and the system's reason.
    @Test func readErrorsGiveTheReason() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // A folder is a vdir now; a path through a file is a read error of its own.
        let file = try scratch.write("plain.vcf", "")
        let outcome = try ChildProcess.run(["convert", file + "/inner.vcf", scratch("missing.vcf")])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("plain.vcf/inner.vcf: error: cannot be read: Not a directory"))
        #expect(outcome.stderr.contains("missing.vcf: error: cannot be read: No such file or directory"))
    }

    /// An output in a directory that is missing names the output and the reason, not vcf's own lock file.
    @Test func writeErrorsNameTheOutput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("a.vcf", Self.input)
        let outcome = try ChildProcess.run(["convert", input, "-o", scratch("missing/out.vcf")])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.hasPrefix(
                scratch("missing/out.vcf") + ": error: cannot be written: No such file or directory"))
    }

    /// When an input cannot be read, `-o`'s file is not replaced with the part that could: the old content stays,
    /// the exit code is 2, and no temporary file is left.
    @Test func partialInputLeavesTheOutputAlone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("a.vcf", Self.input)
        for arguments in [
            ["convert", input, scratch("missing.vcf"), "-o", scratch("out.vcf")],
            ["convert", input, scratch("missing.vcf"), "--to", "json", "-o", scratch("out.vcf")],
            ["preview", input, scratch("missing.vcf"), "-o", scratch("out.vcf")],
            ["preview", input, scratch("missing.vcf"), "--format", "html", "-o", scratch("out.vcf")],
        ] {
            try scratch.write("out.vcf", "old\n")
            let outcome = try ChildProcess.run(arguments)
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("out.vcf: error: not written, because an input could not be read"))
            #expect(try scratch.bytes("out.vcf") == Array("old\n".utf8))
            #expect(try scratch.temporaryFiles().isEmpty)
        }
    }

    /// Inputs that never end (/dev/zero, an endless pipe) into the commands that hold an input whole stop at
    /// the named limit with an error, well within a memory and a time bound.
    @Test func endlessInputsStopAtTheLimit() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = try scratch.write("book.vcf", Self.input)
        let zero = "/dev/zero"
        for (arguments, stdin) in [
            (["merge", zero, "--into", book], ChildProcess.Input.empty),
            (["merge", "-", "--into", book], .file(zero)),
            (["lint", zero], .empty), (["lint", "-"], .file(zero)),
            (["dedupe", "-"], .file(zero)), (["dedupe", zero], .empty),
            (["convert", zero, "--from", "json"], .empty),
            (["photo", "fit", zero, "--max-bytes", "48000", "-o", scratch("out.jpg")], .empty),
        ] {
            let outcome = try ChildProcess.run(arguments, stdin: stdin, measureMemory: true)
            let peak = outcome.peakKB.map { "\($0 / 1024) MB" } ?? "not measured"
            print(
                "endless input, vcf \(arguments.joined(separator: " ")): exit \(outcome.status ?? -1), "
                    + "\(String(format: "%.1f", outcome.seconds)) s, peak \(peak)")
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.signal == nil)
            #expect(outcome.seconds < 30)
            if let kb = outcome.peakKB {
                #expect(kb < 256 << 10, "\(arguments): \(kb) KB")
            } else {
                reportMemoryNotMeasured("vcf \(arguments.joined(separator: " "))")
            }
            // lint reads as it goes: a megabyte of NUL bytes with no line end is no vCard file.
            #expect(
                outcome.stderr.contains("more than 128 MiB came from a pipe or device")
                    || outcome.stderr.contains("cannot be updated in place; it is not a regular file")
                    || arguments[0] == "lint"
                        && outcome.stderr.contains("binary data (NUL bytes) and no line end in 1048576 bytes"),
                "\(arguments): \(outcome.stderr)")
        }
        #expect(try scratch.bytes("book.vcf") == Array(Self.input.utf8))
    }

    /// Cards run together with no place to cut the stream between them (BEGIN lines with no END, as a broken
    /// export or a hostile file has) are read in order as they come, from a file and from a pipe alike: the
    /// output and messages are those of one sequential read, and memory stays bounded. Held for a cut that
    /// never came, 3 MB of such lines took 264 MB (and a 20 MB file 7 GB).
    @Test func cardsWithNoCutBetweenThemAreReadAsTheyCome() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let lines = String(repeating: "BEGIN:VCARD\r\n", count: 120_000)
        let input = try scratch.write("run.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCARD\r\n" + lines)
        let fromFile = try ChildProcess.run(["convert", input], measureMemory: true)
        let child = try ChildProcess.start(["convert", "-"].map { Array($0.utf8) }, stdin: .pipe, measureMemory: true)
        #expect(child.feed(Array(try scratch.bytes("run.vcf"))))
        let fromPipe = child.wait()
        for (how, outcome) in [("file", fromFile), ("pipe", fromPipe)] {
            #expect(outcome.status == 1, "\(how): \(outcome.stderr.suffix(300))")
            // Ann, then a card for each BEGIN line, each missing its END.
            let written = String(decoding: outcome.stdout, as: UTF8.self)
            #expect(written.components(separatedBy: "FN:Ann\r\n").count == 2, "\(how)")
            #expect(written.components(separatedBy: "END:VCARD\r\n").count == 120_002, "\(how)")
            #expect(outcome.stderr.contains(":6:1: error: card has no END:VCARD before the next BEGIN:VCARD"), "\(how)")
            if let kb = outcome.peakKB {
                #expect(kb < 128 << 10, "\(how): \(kb / 1024) MB")
            } else {
                reportMemoryNotMeasured("vcf convert from a \(how) of BEGIN lines")
            }
        }
        #expect(fromFile.stdout == fromPipe.stdout)
        #expect(fromFile.stderr.replacingOccurrences(of: input, with: "-") == fromPipe.stderr)
        // lint reads them as they come too: four findings a card, each card's with it.
        let linted = try ChildProcess.run(["lint", input], measureMemory: true)
        #expect(linted.status == 1, "\(linted.stderr.suffix(300))")
        #expect(linted.stderr.contains("1 file: 360102 errors, 120001 warnings"), "\(linted.stderr.suffix(300))")
        if let kb = linted.peakKB {
            #expect(kb < 128 << 10, "lint: \(kb / 1024) MB")
        } else {
            reportMemoryNotMeasured("vcf lint of BEGIN lines")
        }
    }

    /// merge and dedupe refuse a contacts file with errors; they stop reading at its first hundred, so a file of
    /// cards run together is refused in bounded memory, not after every card's keys are made (1 GB for 20 MB).
    @Test func aContactsFileWithErrorsIsRefusedWithoutReadingItAll() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCARD\r\n"
            + String(repeating: "BEGIN:VCARD\r\n", count: 800_000)
        let book = try scratch.write("book.vcf", text)
        let incoming = try scratch.write("in.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bo\r\nEND:VCARD\r\n")
        for arguments in [["dedupe", book], ["merge", incoming, "--into", book]] {
            let outcome = try ChildProcess.run(arguments, measureMemory: true)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr.suffix(300))")
            let lines = outcome.stderr.split(separator: "\n")
            // The lexer's first 100 of the problem, the line saying it repeats, and the refusal.
            #expect(lines.count == 102, "\(arguments): \(lines.count) lines")
            #expect(
                lines.first?.hasSuffix(":5:1: error: card has no END:VCARD before the next BEGIN:VCARD [missing-end]")
                    == true)
            #expect(
                lines.last?.hasSuffix(
                    "error: the file has errors; nothing was changed (fix them, or run vcf convert to see them)")
                    == true)
            if let kb = outcome.peakKB {
                #expect(kb < 256 << 10, "\(arguments): \(kb / 1024) MB")
            } else {
                reportMemoryNotMeasured("vcf \(arguments[0]) of a file of BEGIN lines")
            }
        }
        #expect(try scratch.bytes("book.vcf") == Array(text.utf8))
    }
}
