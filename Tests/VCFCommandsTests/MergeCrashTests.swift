import Foundation
import SyntheticBook
import TestSupport
import Testing

/// Kills the built `vcf merge` with SIGKILL at seeded random moments, half of them while it writes its temporary
/// file, and checks that the contacts file is then always exactly the old content or exactly the new, never partial.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"))
struct MergeCrashTests {
    @Test func aKilledMergeLeavesTheOldFileOrTheNew() async throws {
        let binary = try #require(builtBinary)
        let book = SyntheticBook.generate(
            .init(
                seed: 11, existingPeople: 1_500, incomingDuplicates: 300,
                incomingNew: 150, traps: 75))
        let old = Data(book.existing.utf8)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let incoming = dir.appendingPathComponent("incoming.vcf")
        let contacts = dir.appendingPathComponent("contacts.vcf")
        try Data(book.incoming.utf8).write(to: incoming)

        func start(pausingAt fifo: String? = nil) throws -> Process {
            let process = Process()
            if let fifo {
                var environment = ProcessInfo.processInfo.environment
                environment["VCF_TEST_PAUSE_BEFORE_REPLACE"] = fifo
                process.environment = environment
            }
            process.executableURL = binary
            process.arguments = ["merge", incoming.path, "--into", contacts.path, "--country-code", "1"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }

        // One run to the end gives the new content and how long a run takes.
        try old.write(to: contacts)
        let clock = ContinuousClock()
        let begun = clock.now
        let full = try start()
        full.waitUntilExit()
        let duration = clock.now - begun
        #expect(full.terminationStatus == 0)
        let new = try Data(contentsOf: contacts)
        #expect(new != old)

        var random = SeededRandom(seed: 2026)
        var outcomes = (old: 0, new: 0)
        var midWrite = 0
        let rounds = 12
        for round in 0..<rounds {
            try old.write(to: contacts)
            let process = try start()
            if round % 2 == 0 {
                try await Task.sleep(for: duration * Double.random(in: 0.1...1.1, using: &random))
            } else {
                // Wait for the temporary file to appear, then kill within the next millisecond: mid-write.
                let deadline = clock.now + duration * 2
                while clock.now < deadline && !temporaryFileExists(in: dir) {
                    try await Task.sleep(for: .microseconds(200))
                }
                try await Task.sleep(for: .microseconds(Int.random(in: 0...1_000, using: &random)))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if temporaryFileExists(in: dir) { midWrite += 1 }
            let after = try Data(contentsOf: contacts)
            if after == old {
                outcomes.old += 1
            } else if after == new {
                outcomes.new += 1
            } else {
                Issue.record(
                    "round \(round): the file is \(after.count) bytes, neither the old \(old.count) nor the new \(new.count)"
                )
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasPrefix(".") {
                try FileManager.default.removeItem(at: dir.appendingPathComponent(name))
            }
        }
        // One kill that lands while the temporary file exists whatever the machine's load: the merge waits on the
        // test hook after writing it, before the rename.
        try old.write(to: contacts)
        let fifo = dir.appendingPathComponent("pause").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let paused = try start(pausingAt: fifo)
        let pause = open(fifo, O_WRONLY)  // returns once the merge waits on the hook
        kill(paused.processIdentifier, SIGKILL)
        close(pause)
        paused.waitUntilExit()
        if temporaryFileExists(in: dir) { midWrite += 1 }
        #expect(try Data(contentsOf: contacts) == old, "a merge killed before its rename left the old file")
        print(
            "merge killed \(rounds) times (\(midWrite) while writing): \(outcomes.old) left the old file, \(outcomes.new) the new"
        )
        #expect(outcomes.old + outcomes.new == rounds)
        #expect(midWrite >= 1, "too few kills landed while the file was written to prove anything")
    }

    func temporaryFileExists(in dir: URL) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).contains {
            $0.hasPrefix(".contacts.vcf.vcf-tmp-")
        }
    }
}
