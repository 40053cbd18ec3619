import Dispatch
import Utilities

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bounds on reading an input whole, for the commands that hold an input in memory (merge, dedupe,
/// lint, a photo, jCard, JSON and CSV inputs).
public struct ReadLimits: Hashable, Sendable {
    /// The most bytes read beyond the size the input reported when it was opened. A pipe, a device or a
    /// terminal reports none, so this is all that is read from one; a file that grows while it is read may
    /// grow by this much. `/dev/zero` or an endless pipe stops here with an error instead of filling memory.
    public var maxUnsizedBytes: Int

    /// Creates limits.
    public init(maxUnsizedBytes: Int = 128 << 20) {
        self.maxUnsizedBytes = maxUnsizedBytes
    }

    /// 128 MiB beyond the reported size.
    public static let `default` = ReadLimits()
}

/// An input opened for reading: a file by its bytes path, or standard input for `-`.
public final class InputFile {
    /// The path as given (`-` for standard input).
    public let path: UserPath
    /// The open descriptor.
    public let descriptor: Int32
    /// What the file was when it was opened, before any byte was read.
    public let identity: FileIdentity
    private let closes: Bool
    private var closed = false

    private init(path: UserPath, descriptor: Int32, identity: FileIdentity, closes: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.identity = identity
        self.closes = closes
    }

    deinit { close() }

    /// Opens `path` for reading, or standard input for `-`.
    /// - Throws: `FileError` naming the path and the system's reason: no such file, a directory, no
    ///   permission, standard input closed.
    public static func open(_ path: UserPath) throws -> InputFile {
        if path.isStandardStream {
            // A closed descriptor 0 (`vcf lint - <&-`) is a message, not a crash.
            guard !StandardStreams.inputWasClosed, let info = System.info(0) else {
                throw FileError(path, "cannot be read", detail: "standard input is closed")
            }
            return InputFile(path: path, descriptor: 0, identity: FileIdentity(info), closes: false)
        }
        let descriptor = System.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path, "cannot be read", code: errno) }
        guard let info = System.info(descriptor) else {
            let code = errno
            _ = System.close(descriptor)
            throw FileError(path, "cannot be read", code: code)
        }
        let identity = FileIdentity(info)
        guard !identity.isDirectory else {
            _ = System.close(descriptor)
            throw FileError(path, "cannot be read", code: EISDIR)
        }
        return InputFile(path: path, descriptor: descriptor, identity: identity, closes: true)
    }

    /// Reads up to `count` bytes; fewer only at the end of the input.
    /// - Throws: `FileError` when a read fails.
    public func read(upTo count: Int) throws -> [UInt8] {
        try Self.filled(count, path: path) { System.read(descriptor, $0, $1) }
    }

    /// Up to `count` bytes, `read` called for what is missing (into the buffer's next free byte, for as many
    /// bytes as are missing) until it gives 0 (the end) or fails (-1, with errno).
    /// - Throws: `FileError` naming `path` when a read fails.
    static func filled(_ count: Int, path: UserPath, _ read: (UnsafeMutablePointer<UInt8>, Int) -> Int) throws
        -> [UInt8]
    {
        // Read into memory not cleared first: a folder of 20,000 one-card files, read a megabyte at a time,
        // spent a third of `lint`'s time clearing buffers the files never filled.
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            filled = 0
            guard let base = buffer.baseAddress else { return }
            while filled < count {
                let n = read(base + filled, count - filled)
                if n < 0 {
                    failure = errno
                    return
                }
                if n == 0 { break }
                filled += n
            }
        }
        if let failure { throw FileError(path, "cannot be read", code: failure) }
        return bytes
    }

    /// Goes back to the start of the file, to read it again: a first pass that decides how to read it.
    /// - Throws: `FileError` when the input cannot be read from its start again (a pipe).
    package func rewind() throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw FileError(path, "cannot be read", code: errno) }
    }

    /// The rest of the input, after `prefix` (bytes already taken from it), within `limits`.
    /// - Throws: `FileError` when a read fails or the input goes on past the limit.
    public func readRest(after prefix: [UInt8] = [], limits: ReadLimits = .default) throws -> [UInt8] {
        let reported = identity.isRegularFile ? max(Int(identity.size), 0) : 0
        let limit = reported + limits.maxUnsizedBytes
        var bytes: [UInt8] = []
        if reported > 0 {
            // A file says its size: one allocation of that size, read straight into it (not zeroed first:
            // a large book's hundred megabytes cost a pass of their own to clear).
            var failure: Int32?
            var filled = 0
            bytes = [UInt8](unsafeUninitializedCapacity: max(reported, prefix.count)) { buffer, count in
                filled = buffer.initialize(fromContentsOf: prefix)
                if buffer.count - filled >= Self.splitReadBytes, let base = buffer.baseAddress {
                    filled = readInParts(into: UnsafeMutableRawPointer(base), from: filled, to: buffer.count)
                }
                while filled < buffer.count {
                    let n = System.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                    if n < 0 { failure = errno }
                    if n <= 0 { break }
                    filled += n
                }
                count = filled
            }
            if let failure { throw FileError(path, "cannot be read", code: failure) }
            if filled < reported { return bytes }
        } else {
            bytes = prefix
        }
        // A pipe, a device, or a file that grew after it was opened: read on in chunks, kept apart until the
        // end so memory is never twice the limit while growing.
        var chunks: [[UInt8]] = []
        var total = bytes.count
        while true {
            let chunk = try read(upTo: 1 << 20)
            if chunk.isEmpty { break }
            total += chunk.count
            if total > limit {
                throw FileError(
                    path, "is too large to read whole", detail: Self.limitDetail(limits, sized: reported > 0))
            }
            chunks.append(chunk)
        }
        guard !chunks.isEmpty else { return bytes }
        bytes.reserveCapacity(total)
        for chunk in chunks { bytes += chunk }
        return bytes
    }

    /// The rest of an input that gives no size (a pipe, a device), after `prefix`, in the pieces it was read in,
    /// within `limits`: for a reader that takes it a piece at a time, without the copy that joins them (which
    /// doubled what reading a pipe held).
    /// - Throws: `FileError` when a read fails or the input goes on past `limits`.
    public func readRestInPieces(after prefix: [UInt8] = [], limits: ReadLimits = .default) throws -> [[UInt8]] {
        var pieces = prefix.isEmpty ? [] : [prefix]
        var total = prefix.count
        while true {
            let piece = try read(upTo: 1 << 20)
            if piece.isEmpty { return pieces }
            total += piece.count
            if total > limits.maxUnsizedBytes {
                throw FileError(path, "is too large to read whole", detail: Self.limitDetail(limits, sized: false))
            }
            pieces.append(piece)
        }
    }

    /// Above this size a file is read in parts on several threads.
    static let splitReadBytes = 16 << 20

    /// Reads the file's bytes from `start` to `end` into `base` (at the same offsets), in parts on every
    /// processor: a large book read into fresh memory is bound by the page faults and the copy, which several
    /// processors share. Returns how far the bytes are all there (`end`, or less after a short or failed read,
    /// from where reading goes on in order), with the file's position there.
    private func readInParts(into base: UnsafeMutableRawPointer, from start: Int, to end: Int) -> Int {
        let parts = max(1, min(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 8))
        let size = (end - start + parts - 1) / parts
        let reached = UnsafeMutableBufferPointer<Int>.allocate(capacity: parts)
        defer { reached.deallocate() }
        let descriptor = self.descriptor
        // The threads write apart: each its own range of the buffer and its own slot of `reached`.
        let (baseAddress, reachedAddress) = (Int(bitPattern: base), Int(bitPattern: reached.baseAddress))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let base = UnsafeMutableRawPointer(bitPattern: baseAddress)!
            let from = start + part * size
            let to = min(end, from + size)
            var offset = from
            while offset < to {
                let n = System.read(descriptor, base + offset, to - offset, at: offset)
                if n <= 0 { break }
                offset += n
            }
            UnsafeMutablePointer<Int>(bitPattern: reachedAddress)![part] = offset
        }
        // Contiguous from the start: the first part that stopped short says where.
        var filled = start
        for part in 0..<parts {
            filled = reached[part]
            if filled < min(end, start + (part + 1) * size) { break }
        }
        _ = lseek(descriptor, off_t(filled), SEEK_SET)
        return filled
    }

    /// Whether the file holds exactly `content`, read from its start (wherever its position is) a megabyte at a
    /// time, in parts on every processor for a large file, so the check costs no more memory than a chunk each.
    func holds(_ content: [UInt8]) -> Bool {
        var probe: UInt8 = 0
        guard System.read(descriptor, &probe, 1, at: content.count) == 0 else { return false }
        let parts = content.count >= Self.splitReadBytes ? max(1, min(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 8)) : 1
        let size = (content.count + parts - 1) / parts
        let equal = UnsafeMutableBufferPointer<Bool>.allocate(capacity: parts)
        defer { equal.deallocate() }
        let descriptor = self.descriptor
        content.withUnsafeBytes { all in
            // The threads read apart: each its own range, its own chunk and its own slot of `equal`.
            let (allAddress, equalAddress) = (Int(bitPattern: all.baseAddress), Int(bitPattern: equal.baseAddress))
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let chunk = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
                defer { chunk.deallocate() }
                var offset = part * size
                let end = min(content.count, offset + size)
                var same = true
                while same && offset < end {
                    let n = System.read(descriptor, chunk, min(1 << 20, end - offset), at: offset)
                    same = n > 0 && memcmp(UnsafeRawPointer(bitPattern: allAddress)! + offset, chunk, n) == 0
                    offset += max(n, 0)
                }
                UnsafeMutablePointer<Bool>(bitPattern: equalAddress)![part] = same
            }
        }
        return equal.allSatisfy { $0 }
    }

    /// Whether the file holds exactly `count` bytes whose `ContentDigest` is `digest`, read from its start a
    /// megabyte at a time on another thread while the megabyte before is fingerprinted: an update in place checks
    /// a large book just before it is replaced.
    func holds(count: Int, digest: UInt64) -> Bool {
        var probe: UInt8 = 0
        guard System.read(descriptor, &probe, 1, at: count) == 0 else { return false }
        let (descriptor, path) = (self.descriptor, self.path)
        let reader = ReadAhead(byteCount: count, chunkBytes: 1 << 20, ahead: 2, fingerprinting: false) { range in
            try Self.filled(range.count, path: path) { base, missing in
                System.read(descriptor, base, missing, at: range.upperBound - missing)
            }
        }
        defer { reader.stop() }
        var fed = ContentDigest()
        var offset = 0
        while offset < count {
            guard let chunk = try? reader.next(), !chunk.isEmpty else { return false }
            chunk.withUnsafeBytes { fed.update($0) }
            offset += chunk.count
        }
        return fed.value == digest
    }

    /// The whole input, within `limits`.
    public func readAll(limits: ReadLimits = .default) throws -> [UInt8] { try readRest(limits: limits) }

    /// Why an input read within `limits` was refused: a file (`sized`) that grew past them, or a pipe or device
    /// that went on past them.
    package static func limitDetail(_ limits: ReadLimits, sized: Bool) -> String {
        let amount = "\(limits.maxUnsizedBytes >> 20) MiB"
        return sized
            ? "it grew by more than \(amount) while it was read"
            : "more than \(amount) came from a pipe or device, the most vcf holds in memory from an input that "
                + "cannot say its size; save it to a file first"
    }

    /// Closes the input (standard input stays open).
    public func close() {
        guard closes, !closed else { return }
        closed = true
        _ = System.close(descriptor)
    }
}
