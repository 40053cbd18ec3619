import Foundation
import Testing

import Utilities

@testable import UserFiles

/// A replacement larger than the part `FileReplacement` sends on to disk at a time (8 MiB, while it is written)
/// holds exactly what was written, in uneven pieces, whether it creates the file or replaces a longer one.
@Suite struct LargeReplacementTests {
    /// 12 MiB of a run of 251 distinct bytes repeated (a prime length, so a piece written twice, dropped or out
    /// of place shows), made by doubling so the debug build makes it quickly.
    private static let content: Data = {
        var data = Data((0..<251).map { UInt8($0) })
        while data.count < 12 << 20 { data.append(data) }
        return data.prefix(12 << 20)
    }()

    private func replace(_ path: String) throws {
        let replacement = try FileReplacement(given: UserPath(path), resolved: UserPath(path))
        var offset = 0
        var piece = 1
        while offset < Self.content.count {
            // Pieces from one byte to over a megabyte, across the writer's buffer and the writeback steps.
            let end = min(Self.content.count, offset + piece)
            try Self.content[offset..<end].withUnsafeBytes { try replacement.write($0) }
            offset = end
            piece = piece * 7 % 1_300_001 + 1
        }
        try replacement.commit()
    }

    @Test func aLargeNewFileHoldsWhatWasWritten() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try replace(scratch("out.vcf"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch("out.vcf"))) == Self.content)
        // Beside it at most its lock file: no temporary file is left.
        #expect(try scratch.names().filter { !$0.hasSuffix(".vcf-lock") } == ["out.vcf"])
    }

    @Test func aLongerFileReplacedHoldsOnlyWhatWasWritten() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Data(repeating: 0x41, count: 30 << 20).write(to: URL(fileURLWithPath: scratch("out.vcf")))
        try replace(scratch("out.vcf"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch("out.vcf"))) == Self.content)
        // Beside it at most its lock file: no temporary file is left.
        #expect(try scratch.names().filter { !$0.hasSuffix(".vcf-lock") } == ["out.vcf"])
    }

    /// A file larger than the size read in parts on several threads (16 MiB) reads whole as it is, after a
    /// prefix taken from it first or without one, and the reading goes on where the parts ended.
    @Test func aLargeFileReadsWholeInParts() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var content = Self.content
        content.append(Self.content)
        content.append(Self.content.prefix(5_000_017))
        try content.write(to: URL(fileURLWithPath: scratch("big.vcf")))
        let whole = try InputFile.open(UserPath(scratch("big.vcf")))
        defer { whole.close() }
        #expect(Data(try whole.readAll()) == content)
        #expect(try whole.read(upTo: 10).isEmpty)
        let rest = try InputFile.open(UserPath(scratch("big.vcf")))
        defer { rest.close() }
        let prefix = try rest.read(upTo: 65_537)
        #expect(Data(try rest.readRest(after: prefix)) == content)
    }

    /// The check before a rename that the target still holds what was read, for a file held whole (every byte
    /// compared, in parts on several threads) and for one read by parts (its size and fingerprint, the file read
    /// on one thread while the part before is fingerprinted on another): one byte changed anywhere, one missing
    /// or one more is a difference.
    @Test(arguments: [false, true])
    func aLargeFileHoldsExactlyItsContent(byFingerprint: Bool) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var content = [UInt8](Self.content)
        content += content
        let path = scratch("big.vcf")
        func holds(_ bytes: [UInt8], _ expected: [UInt8] = content) throws -> Bool {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let file = try InputFile.open(UserPath(path))
            defer { file.close() }
            guard byFingerprint else { return file.holds(expected) }
            var fingerprint = ContentDigest()
            expected.withUnsafeBytes { fingerprint.update($0) }
            return file.holds(count: expected.count, digest: fingerprint.value)
        }
        #expect(try holds(content))
        for offset in [0, (1 << 20) - 1, 1 << 20, content.count / 2, content.count - 1] {
            var changed = content
            changed[offset] ^= 0x01
            #expect(try !holds(changed), "a byte changed at \(offset)")
        }
        #expect(try !holds(Array(content.dropLast())))
        #expect(try !holds(content + [0x0A]))
        #expect(try holds([], []))
        #expect(try !holds([], [0x41]))
    }
}
