import Foundation

/// A file's bytes read in order, a chunk at a time, on a thread of their own and a few chunks ahead of the thread
/// that uses them, and fingerprinted (`ContentDigest`) on the way: the copy of a book a merge writes waits neither
/// for reading nor for fingerprinting what it copies.
package final class ReadAhead: @unchecked Sendable {
    // Every variable below is guarded by `condition`.
    private let condition = NSCondition()
    private var ready: [Int: Result<[UInt8], any Error>] = [:]
    private var taken = 0
    private var stopping = false
    private var running = true
    private var digest = ContentDigest()

    /// Starts reading `0..<byteCount` in chunks of `chunkBytes` with `read`, at most `ahead` chunks ahead of the
    /// last taken, and fingerprinting them there when `fingerprinting` (a thread that only checks them
    /// fingerprints them itself, while the next is read). A chunk `read` gives short ends the reading there.
    package init(
        byteCount: Int, chunkBytes: Int, ahead: Int = 4, fingerprinting: Bool = true,
        read: @escaping @Sendable (Range<Int>) throws -> [UInt8]
    ) {
        let chunkCount = (byteCount + chunkBytes - 1) / chunkBytes
        guard chunkCount > 0 else {
            running = false
            return
        }
        let thread = Thread { [self] in
            for k in 0..<chunkCount {
                condition.lock()
                while !stopping && k >= taken + ahead { condition.wait() }
                let stop = stopping
                condition.unlock()
                if stop { break }
                let range = k * chunkBytes..<min(byteCount, (k + 1) * chunkBytes)
                let chunk = Result { try read(range) }
                var fed = digest
                if fingerprinting, case .success(let bytes) = chunk { bytes.withUnsafeBytes { fed.update($0) } }
                condition.lock()
                digest = fed
                ready[k] = chunk
                condition.broadcast()
                condition.unlock()
                guard case .success(let bytes) = chunk, bytes.count == range.count else { break }
            }
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// The next chunk, waiting for it; nil after the last, or after one that was short.
    /// - Throws: what reading it threw.
    package func next() throws -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while ready[taken] == nil && running { condition.wait() }
        guard let chunk = ready.removeValue(forKey: taken) else { return nil }
        taken += 1
        condition.broadcast()
        return try chunk.get()
    }

    /// The fingerprint of the chunks read so far: of the whole file once `next` has given nil (when
    /// `fingerprinting`).
    package var fingerprint: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return digest.value
    }

    /// Stops reading, and returns when the reading thread has stopped.
    package func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
        ready = [:]
    }

    deinit { stop() }
}
