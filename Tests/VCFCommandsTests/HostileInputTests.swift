import Foundation
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Inputs built to hurt: each runs the built `vcf` binary as a child process and must end in a diagnostic and
/// an exit code, within a time and a peak memory (the child's own `ru_maxrss`, from `wait4`), never in a
/// crash or an allocation the size of the input. The figures are printed so a run reports them.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"), .serialized)
struct HostileInputTests {
    /// What a child did.
    struct Outcome {
        var status: Int32
        var signaled: Bool
        /// Nil when GNU time is not installed to measure it.
        var peakMB: Double?
        var seconds: Double
        var stdout: String
        var stderr: String
    }

    /// The peak memory every case must stay under.
    static let memoryBoundMB = 256.0

    /// Runs `vcf arguments`, its standard input fed by `feed` through a pipe (nothing large is written to
    /// disk), and collects its exit status, peak RSS and output.
    static func run(_ arguments: [String], feed: ((Int32) -> Void)? = nil) throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outPath = directory.appendingPathComponent("out").path
        let errPath = directory.appendingPathComponent("err").path

        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EIO) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        // The child's peak memory comes from GNU time, which forks it: posix_spawn shares this (large) test
        // process's memory until exec, and Linux then counts that towards the child's own ru_maxrss.
        let timer = "/usr/bin/time"
        let measured = FileManager.default.isExecutableFile(atPath: timer)
        let command = (measured ? [timer, "-f", "vcf-peak-kb=%M"] : []) + [builtBinary!.path] + arguments
        let path = command[0]
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let start = Date()
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(fds[0])
        guard spawned == 0 else {
            close(fds[1])
            throw POSIXError(.ENOEXEC)
        }
        // A child that stops reading makes writes fail with EPIPE rather than kill the test process.
        signal(SIGPIPE, SIG_IGN)
        feed?(fds[1])
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        let code = (status >> 8) & 0xFF
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        var stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        var peakMB: Double?
        if let range = stderr.range(of: "vcf-peak-kb=") {
            peakMB = Double(stderr[range.upperBound...].prefix { $0.isNumber }).map { $0 / 1024 }
            stderr = String(stderr[..<range.lowerBound])
        }
        // A signal shows as time's "Command terminated by signal N", or as the raw status without time.
        let signaled = stderr.contains("terminated by signal") || ((status & 0x7F) != 0 && (status & 0x7F) != 0x7F)
        stderr = stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("Command exited with non-zero status") }.joined(separator: "\n")
        return Outcome(
            status: code, signaled: signaled, peakMB: peakMB, seconds: seconds, stdout: stdout, stderr: stderr)
    }

    /// Writes `head`, then `count` chunks of `chunk`, then `tail`, ignoring a reader that stopped early.
    static func stream(_ head: String, _ chunk: [UInt8], count: Int, _ tail: String) -> (Int32) -> Void {
        { fd in
            func write(_ bytes: [UInt8]) -> Bool {
                bytes.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                        if n < 0 {
                            if errno == EINTR { continue }
                            return false
                        }
                        offset += n
                    }
                    return true
                }
            }
            guard write(Array(head.utf8)) else { return }
            for _ in 0..<count where !write(chunk) { return }
            _ = write(Array(tail.utf8))
        }
    }

    static func report(_ name: String, _ outcome: Outcome) {
        let peak = outcome.peakMB.map { String(format: "%.1f MB", $0) } ?? "not measured (no /usr/bin/time)"
        print("hostile \(name): exit \(outcome.status), \(String(format: "%.1f", outcome.seconds)) s, peak \(peak)")
    }

    static func expectBounded(_ outcome: Outcome, seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!outcome.signaled, "the child crashed", sourceLocation: sourceLocation)
        if let peak = outcome.peakMB {
            #expect(peak < memoryBoundMB, "peak \(peak) MB", sourceLocation: sourceLocation)
        } else {
            reportMemoryNotMeasured("the child", sourceLocation: sourceLocation)
        }
        #expect(outcome.seconds < seconds, "took \(outcome.seconds) s", sourceLocation: sourceLocation)
    }

    static let megabyte = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)

    @Test func aTwoHundredMegabyteLineIsSkippedAndTheRestOfTheCardKept() throws {
        let outcome = try Self.run(
            ["convert", "-"],
            feed: Self.stream(
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Kept Name\r\nNOTE:",
                Self.megabyte, count: 200,
                "\r\nEMAIL:kept@example.com\r\nEND:VCARD\r\n"))
        Self.report("200 MB line", outcome)
        Self.expectBounded(outcome, seconds: 120)
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("-:4:1: error: line is longer than 16777216 bytes; it was skipped [line-too-long]"))
        #expect(outcome.stdout.contains("FN:Kept Name\r\n") && outcome.stdout.contains("EMAIL:kept@example.com\r\n"))
    }

    @Test func aBase64PhotoOfFiveHundredMegabytesIsRefusedWhileStreaming() throws {
        let base64 = [UInt8](repeating: UInt8(ascii: "Q"), count: 1 << 20)
        let outcome = try Self.run(
            ["convert", "-"],
            feed: Self.stream(
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Photo\r\nPHOTO;ENCODING=b;TYPE=JPEG:",
                base64, count: 500, "\r\nEND:VCARD\r\n"))
        Self.report("500 MB base64 photo", outcome)
        Self.expectBounded(outcome, seconds: 240)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("[line-too-long]"))
        #expect(outcome.stdout.contains("FN:Photo\r\n") && !outcome.stdout.contains("PHOTO"))
    }

    /// A card of 300 MB in lines of 1 MiB, then a small card, linted from a pipe: the findings a whole-file lint
    /// gives (its first 32 MiB read, the rest skipped, every long line counted), in bounded memory. Cut where what
    /// the linter holds ran out, it gave a card without END, then the rest as text outside cards and an END
    /// closing none; read on whole, it held the card.
    @Test func aCardOfThreeHundredMegabytesIsLintedAsOneCard() throws {
        let line = Array(("NOTE:" + String(repeating: "x", count: (1 << 20) - 7) + "\r\n").utf8)
        let outcome = try Self.run(
            ["lint", "-"],
            feed: Self.stream(
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Large\r\nN:Large;;;;\r\nUID:1\r\n", line, count: 300,
                "END:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:After\r\nN:After;;;;\r\nUID:2\r\nEND:VCARD\r\n"))
        Self.report("300 MB card linted", outcome)
        Self.expectBounded(outcome, seconds: 120)
        #expect(outcome.status == 1)
        // Lines 2-5 hold 35 bytes and each NOTE line 1,048,574: the 33rd (line 38) takes the card past 32 MiB.
        #expect(
            outcome.stdout
                == "-:6:76: warning: [long-line] line is 1048574 octets, over the 75 that vCard folds at; 299 more "
                + "lines of this card are too\n"
                + "-:38:1: error: [card-too-large] card is larger than 33554432 bytes; the rest of it was skipped\n")
        #expect(outcome.stderr.contains("1 file: 1 error, 1 warning"), "\(outcome.stderr.suffix(300))")
    }

    @Test func aMillionParametersEndInADiagnostic() throws {
        let parameters = String(repeating: ";X-P=1", count: 1_000_000)
        let outcome = try Self.run(
            ["convert", "-"],
            feed: Self.stream(
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Params\r\nNOTE\(parameters):v\r\n",
                [], count: 0, "END:VCARD\r\n"))
        Self.report("a million parameters", outcome)
        Self.expectBounded(outcome, seconds: 60)
        // A warning, said once for the line (not once per extra parameter), and the card is kept.
        #expect(outcome.status == 0)
        #expect(outcome.stderr.components(separatedBy: "[too-many-parameters]").count == 2)
        #expect(outcome.stderr.contains("[too-many-parameters]"))
        #expect(outcome.stdout.contains("FN:Params\r\n"))
    }

    @Test func tenThousandNestedAgentsStopAtTheNestingLimit() throws {
        // vCard 2.1 nests a card on the lines after an empty AGENT value.
        let open = String(repeating: "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Agent\r\nAGENT:\r\n", count: 10_000)
        let close = String(repeating: "END:VCARD\r\n", count: 10_000)
        let outcome = try Self.run(
            ["convert", "-"],
            feed: Self.stream(
                "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Outer\r\nAGENT:\r\n" + open,
                [], count: 0, close + "END:VCARD\r\n"))
        Self.report("10,000 nested AGENT cards", outcome)
        Self.expectBounded(outcome, seconds: 60)
        #expect(outcome.stderr.contains("[nesting-too-deep]"))
        #expect(outcome.stdout.contains("FN:Outer\r\n"))
    }

    @Test func aQuotedPrintableValueThatNeverEndsIsCutAtTheLineLimit() throws {
        let softBreaks = [UInt8](String(repeating: "=41=\r\n", count: 1 << 17).utf8)  // 768 KiB a chunk
        let outcome = try Self.run(
            ["convert", "-"],
            feed: Self.stream(
                "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:QP\r\nNOTE;ENCODING=QUOTED-PRINTABLE:",
                softBreaks, count: 60, ""))
        Self.report("endless quoted-printable", outcome)
        Self.expectBounded(outcome, seconds: 120)
        #expect(outcome.stderr.contains("[line-too-long]"))
        #expect(outcome.status == 1)
    }

    @Test func aJPEGHeaderClaiming65000SquaredIsRefusedBeforeDecoding() throws {
        var bytes = try FixturePaths.bytes("photos/baseline.jpg")
        // The SOF0 marker's height and width, big-endian, after its length and precision bytes.
        let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange(sof + 5..<sof + 9, with: [0xFD, 0xE8, 0xFD, 0xE8])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-huge-\(UUID()).jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let out = path + ".out.jpg"
        let outcome = try Self.run(["photo", "fit", path, "--max-bytes", "48000", "-o", out])
        Self.report("65,000 x 65,000 JPEG header", outcome)
        Self.expectBounded(outcome, seconds: 30)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("65000x65000"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func aPNGDecompressionBombIsRefusedBeforeInflating() throws {
        // 20,000 x 20,000 one-bit pixels: 50 MB of zeros inflated, 400 megapixels decoded, 60 KB on disk.
        let path = FixturePaths.url("hostile/png-bomb.png").path
        let outcome = try Self.run(["photo", "fit", path, "--max-bytes", "48000", "-o", "/tmp/vcf-never-written.jpg"])
        Self.report("PNG decompression bomb", outcome)
        Self.expectBounded(outcome, seconds: 30)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("20000x20000"))
    }

    @Test func tenMillionCSVColumnsEndInADiagnostic() throws {
        let outcome = try Self.run(
            ["convert", "-", "--from", "csv"],
            feed: Self.stream(
                "First Name,Last Name,E-mail 1 - Value",
                [UInt8](String(repeating: ",x", count: 1 << 19).utf8), count: 19,
                "\r\nAnn,Lee,ann@example.com\r\n"))
        Self.report("ten million CSV columns", outcome)
        Self.expectBounded(outcome, seconds: 120)
        // The header's first 10,000 fields are read, three of them Google's names: its record is a card, and
        // the error says what of the header was skipped.
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("record has more than 10000 fields; the rest of the record was skipped"))
        #expect(outcome.stdout.contains("EMAIL:ann@example.com\r\n"), "\(outcome.stderr.suffix(300))")
    }
}

/// Invalid UTF-8 and NUL bytes at every position of a card: every read ends with cards and diagnostics,
/// never a crash, and the lexer gives the same result whole and byte by byte.
@Suite struct CorruptByteTests {
    @Test(arguments: [UInt8(0x00), 0xFF, 0xC3, 0x80]) func everyPositionOfACard(byte: UInt8) throws {
        let card = try FixturePaths.bytes("vcard/46-groups-ablabel.vcf")
        for position in 0...card.count {
            var inserted = card
            inserted.insert(byte, at: position)
            var replaced = card
            if position < card.count { replaced[position] = byte }
            for bytes in [inserted, replaced] {
                let (cards, diagnostics) = VCardDocument.read(bytes, name: "x.vcf")
                #expect(cards.count <= 1)
                // Every diagnostic points at a line of the input.
                // CR alone ends a line too, so a byte put between CR and LF adds one.
                let lines = bytes.filter { $0 == 0x0A || $0 == 0x0D }.count + 1
                #expect(diagnostics.allSatisfy { $0.line >= 1 && $0.line <= lines })
                // A card read back in 3.0 reads again without error.
                let written = VCardWriter().bytes(cards.map(\.contact))
                #expect(!VCardDocument.read(written).diagnostics.contains { $0.severity == .error })
            }
        }
    }

    /// The same problem on line after line is reported 100 times and then once to say it goes on.
    @Test func aRepeatedProblemIsReportedAHundredAndOneTimes() {
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\n" + String(repeating: "no colon here\r\n", count: 500)
            + "NOTE:after\r\nEND:VCARD\r\n"
        let (cards, diagnostics) = VCardDocument.read(Array(text.utf8), name: "r.vcf")
        #expect(diagnostics.count == 101)
        #expect(diagnostics.allSatisfy { $0.code == .missingColon })
        #expect(diagnostics.last?.line == 104)
        #expect(
            diagnostics.last?.message == "the same problem repeats on the lines after this one; they are not reported")
        #expect(cards.first?.contact.note == "after")
    }

    /// The line limit keeps the lines around a skipped one: only the overlong property goes.
    @Test func anOverlongLineTakesOnlyItselfWithIt() throws {
        let bytes = try FixturePaths.bytes("vcard/95-long-line.vcf")
        let cards = VCardDocument.read(bytes, name: "95.vcf", limits: Limits(maxLineBytes: 10_000))
        #expect(cards.cards.map(\.contact.formattedName) == ["Wiremu Ngata", "Hine Parata"])
        #expect(cards.cards[0].contact.phones.map(\.value) == ["+1-555-555-0195"])
        #expect(cards.cards[0].contact.note == nil)
        #expect(cards.diagnostics.map(\.code) == [.lineTooLong])
        #expect(cards.diagnostics.first?.line == 4)
    }
}
