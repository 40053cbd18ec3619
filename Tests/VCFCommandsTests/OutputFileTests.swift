import Foundation
import TestSupport
import Testing

@testable import VCFCommands

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replacing an output file keeps what the user set up around it: a private file stays private, a symbolic
/// link stays a link, and a pipe or device is written to, never replaced by a regular file.
@Suite struct OutputFileTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-output-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static let input = FixturePaths.url("vcard/01-crlf.vcf").path

    static func mode(_ path: String, followingLinks: Bool = true) -> mode_t {
        var info = stat()
        _ = followingLinks ? stat(path, &info) : lstat(path, &info)
        return info.st_mode
    }

    @Test func privateFileStaysPrivate() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("contacts.vcf").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        #expect(CommandTests.run(["convert", Self.input, "-o", path]).code == 0)
        #expect(Self.mode(path) & 0o777 == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("BEGIN:VCARD"))
    }

    @Test func symbolicLinkStaysALinkAndItsTargetIsReplaced() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("real.vcf").path
        let link = directory.appendingPathComponent("link.vcf").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(CommandTests.run(["convert", Self.input, "-o", link]).code == 0)
        #expect(Self.mode(link, followingLinks: false) & S_IFMT == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("BEGIN:VCARD"))
        // The lock file belongs to the file replaced, the one the link points to.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == [".real.vcf.vcf-lock", "link.vcf", "real.vcf"])
    }

    @Test func pipeIsWrittenToNotReplaced() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        final class Box: @unchecked Sendable { var bytes = Data() }
        let received = Box()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received.bytes = handle.readDataToEndOfFile() }
        }
        reader.start()
        let result = CommandTests.run(["convert", Self.input, "-o", fifo])
        // A regression that replaced the pipe would leave the reader waiting: fail rather than hang.
        let deadline = Date().addingTimeInterval(10)
        while !reader.isFinished && Date() < deadline { usleep(1000) }
        #expect(reader.isFinished)
        #expect(result.code == 0)
        #expect(Self.mode(fifo) & S_IFMT == S_IFIFO)
        #expect(String(decoding: received.bytes, as: UTF8.self).hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"))
    }
}
