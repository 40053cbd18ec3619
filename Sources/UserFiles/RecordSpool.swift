#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte records written to a temporary file that has no name, then read back in order: for a command that must
/// see all of its input before it writes any output, when the input cannot be read twice (standard input, a
/// pipe). The disk holds the records, not memory, and the file is gone when the spool is, however the process
/// ends.
package final class RecordSpool {
    private let descriptor: Int32
    private let directory: UserPath
    private var pending: [UInt8] = []
    /// How many records were appended.
    package private(set) var count = 0

    /// Records are written in chunks of this size.
    package static let chunkBytes = 256 << 10

    /// Creates an empty spool in `directory` (the system's temporary directory when nil): a file created with a
    /// random name that no one else holds (`O_CREAT|O_EXCL`), and unlinked at once.
    /// - Throws: `FileError` naming the directory when no file can be created there.
    package init(directory: UserPath? = nil) throws {
        let temporary = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let directory = directory ?? UserPath(temporary ?? "/tmp")
        var lastError: Int32 = EEXIST
        for _ in 0..<100 {
            let name = "vcf-spool-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            let path = directory.appending(Array(name.utf8))
            let descriptor = System.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                _ = System.unlink(path)
                self.descriptor = descriptor
                self.directory = directory
                return
            }
            lastError = errno
            if lastError != EEXIST { break }
        }
        throw FileError(directory, "cannot hold a temporary file", code: lastError)
    }

    deinit { _ = System.close(descriptor) }

    /// Appends one record.
    /// - Throws: `FileError` when the disk refuses it (full, quota).
    package func append(_ record: [UInt8]) throws {
        var length = UInt64(record.count).littleEndian
        withUnsafeBytes(of: &length) { pending += $0 }
        pending += record
        count += 1
        if pending.count >= Self.chunkBytes { try flush() }
    }

    /// Calls `body` with each record in the order appended. Appending after this is not supported.
    /// - Throws: `FileError` when the file cannot be read back, and what `body` throws.
    package func readBack(_ body: ([UInt8]) throws -> Void) throws {
        try flush()
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        var buffered: [UInt8] = []
        var start = 0
        var offset = 0
        var atEnd = false
        /// Reads until `buffered[start...]` holds `bytes`, or the file ends.
        func fill(_ bytes: Int) throws -> Bool {
            while buffered.count - start < bytes && !atEnd {
                if start > 0 {
                    buffered.removeFirst(start)
                    start = 0
                }
                let n = chunk.withUnsafeMutableBytes { System.read(descriptor, $0.baseAddress!, $0.count, at: offset) }
                if n < 0 { throw FileError(directory, "cannot read back a temporary file", code: errno) }
                if n == 0 { atEnd = true }
                buffered += chunk[..<n]
                offset += n
            }
            return buffered.count - start >= bytes
        }
        for _ in 0..<count {
            guard try fill(8) else { throw FileError(directory, "cannot read back a temporary file", code: EIO) }
            var length: UInt64 = 0
            for index in 0..<8 { length |= UInt64(buffered[start + index]) << (8 * UInt64(index)) }
            start += 8
            let size = Int(length)
            guard try fill(size) else { throw FileError(directory, "cannot read back a temporary file", code: EIO) }
            try body(Array(buffered[start..<start + size]))
            start += size
        }
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        let failure = pending.withUnsafeBytes { System.writeAll(descriptor, $0) }
        if failure != 0 { throw FileError(directory, "cannot hold the cards in a temporary file", code: failure) }
        pending.removeAll(keepingCapacity: true)
    }
}
