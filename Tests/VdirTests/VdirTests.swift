import Foundation
import Testing
import Vdir

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A vdir folder written the safe way: one file at a time, never over a file changed since it was read,
/// never over a name taken, other files never touched, the folder locked against other writers.
@Suite struct VdirTests {
    static func folder(mode: mode_t = 0o755) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vdir-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, mode)
        return path
    }

    static func card(_ name: String) -> [UInt8] {
        Array("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(name)\r\nFN:\(name)\r\nN:\(name);;;;\r\nEND:VCARD\r\n".utf8)
    }

    static func write(_ bytes: [UInt8], _ path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func onlyVisibleVCardFilesAreCards() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for name in ["b.vcf", "a.VCF", ".hidden.vcf", "notes.txt", ".vcf-tmp-abc123"] {
            try Self.write(Self.card(name), path + "/" + name)
        }
        try FileManager.default.createDirectory(atPath: path + "/sub.vcf", withIntermediateDirectories: false)
        #expect(try Vdir.cardFileNames(in: path) == ["a.VCF", "b.vcf"])
        #expect(Vdir.isFolder(path) && Vdir.isFolder("/nonexistent/new/") && !Vdir.isFolder(path + "/b.vcf"))
        // Opening for writing clears what a killed vcf left behind, and nothing else.
        let vdir = try Vdir(path: path, create: false)
        vdir.close()
        let left = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        #expect(left == [".hidden.vcf", "a.VCF", "b.vcf", "notes.txt", "sub.vcf"])
    }

    @Test func createNeverReplacesAndFollowsTheFolderPermissions() throws {
        let path = try Self.folder(mode: 0o700)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let vdir = try Vdir(path: path, create: false)
        guard case .done(let stamp?) = try vdir.create("ann.vcf", Self.card("ann")) else {
            Issue.record("create failed")
            return
        }
        #expect(stamp.mode == 0o600)
        #expect(try vdir.create("ann.vcf", Self.card("other")) == .changed)
        #expect(try vdir.read("ann.vcf")?.bytes == Self.card("ann"))
        #expect(vdir.changes == 1)
        vdir.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["ann.vcf"])
    }

    @Test func replaceAndRemoveOnlyTheVersionRead() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for name in ["a", "b", "c"] { try Self.write(Self.card(name), "\(path)/\(name).vcf") }
        chmod("\(path)/b.vcf", 0o640)
        let vdir = try Vdir(path: path, create: false)
        let files = try vdir.files()
        #expect(files.map(\.name) == ["a.vcf", "b.vcf", "c.vcf"])

        guard case .done(let newStamp?) = try vdir.replace("b.vcf", Self.card("b2"), expected: files[1].stamp) else {
            Issue.record("replace failed")
            return
        }
        #expect(newStamp.mode == 0o640)
        #expect(try vdir.read("b.vcf")?.bytes == Self.card("b2"))
        // The stamp read before is no longer the file's: a second write with it is refused.
        #expect(try vdir.replace("b.vcf", Self.card("b3"), expected: files[1].stamp) == .changed)

        // Another program changes a.vcf after it was read: neither replace nor remove touches it.
        try Self.write(Self.card("a-edited-elsewhere"), "\(path)/a.vcf")
        #expect(try vdir.replace("a.vcf", Self.card("a2"), expected: files[0].stamp) == .changed)
        #expect(try vdir.remove("a.vcf", expected: files[0].stamp) == .changed)
        #expect(try vdir.read("a.vcf")?.bytes == Self.card("a-edited-elsewhere"))

        #expect(try vdir.remove("c.vcf", expected: files[2].stamp) == .done(nil))
        #expect(try vdir.read("c.vcf") == nil)
        #expect(vdir.changes == 2)
        vdir.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).sorted() == ["a.vcf", "b.vcf"])
    }

    @Test func aSecondWriterWaitsForTheLock() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try Vdir(path: path, create: false)
        final class Flags: @unchecked Sendable {
            let lock = NSLock()
            var waited = false
            var opened = false
        }
        let flags = Flags()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let second = try? Vdir(path: path, create: false) {
                flags.lock.lock()
                flags.waited = true
                flags.lock.unlock()
            }
            flags.lock.lock()
            flags.opened = second != nil
            flags.lock.unlock()
            second?.close()
            done.signal()
        }
        for _ in 0..<100 where !flags.lock.withLock({ flags.waited }) { usleep(10_000) }
        #expect(flags.lock.withLock { flags.waited && !flags.opened })
        first.close()
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(flags.lock.withLock { flags.opened })
    }

    @Test func aMissingFolderIsCreatedOnlyWhenAsked() throws {
        let base = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(throws: VdirError.self) { try Vdir(path: base + "/new/book", create: false) }
        let vdir = try Vdir(path: base + "/new/book", create: true)
        #expect(try vdir.files().isEmpty)
    }
}
