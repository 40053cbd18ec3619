#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to an open descriptor through a buffer of fixed size, so output costs a system call per buffer,
/// not per card, and memory stays at the buffer whatever the output's size.
public final class DescriptorWriter {
    /// The descriptor written to.
    public let descriptor: Int32
    /// The name used in errors (a path, or `-`).
    public let name: UserPath
    /// The error number of the first failed write, after which nothing more is written.
    public private(set) var failure: Int32?
    /// Bytes handed to the system so far.
    public private(set) var bytesWritten = 0
    private var buffer: [UInt8] = []
    private let bufferSize: Int
    private let closes: Bool
    private var closed = false

    /// The default buffer: 256 KiB.
    public static let defaultBufferSize = 256 << 10

    /// A writer for `descriptor`; it is closed by `close()` only when `closes` is true.
    public init(descriptor: Int32, name: UserPath, bufferSize: Int = defaultBufferSize, closes: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.bufferSize = max(bufferSize, 1)
        self.closes = closes
        buffer.reserveCapacity(self.bufferSize)
    }

    /// A writer for the pipe, device or socket at `path`, opened for writing as it is (never truncated or
    /// replaced), closed by `close()`.
    /// - Throws: `FileError` when it cannot be opened.
    public static func opening(_ path: UserPath) throws -> DescriptorWriter {
        let descriptor = System.open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw FileError(path, "cannot be opened for writing", code: errno) }
        return DescriptorWriter(descriptor: descriptor, name: path, closes: true)
    }

    /// Buffers `bytes`, writing the buffer out each time it fills.
    /// - Throws: `FileError` with the system's reason when a write fails (EPIPE included: the caller decides
    ///   that a closed pipe is a quiet end).
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure { throw FileError(name, "cannot be written", code: failure) }
        if buffer.count + bytes.count <= bufferSize {
            buffer.append(contentsOf: bytes)
            if buffer.count == bufferSize { try flush() }
            return
        }
        try flush()
        if bytes.count >= bufferSize {
            try put(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Buffers `bytes`.
    public func write(_ bytes: ArraySlice<UInt8>) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Buffers `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Writes out what is buffered.
    public func flush() throws {
        if let failure { throw FileError(name, "cannot be written", code: failure) }
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withUnsafeBytes { try put($0) }
    }

    /// Flushes, then closes the descriptor if this writer owns it.
    public func close() throws {
        guard !closed else { return }
        defer {
            closed = true
            if closes { _ = System.close(descriptor) }
        }
        try flush()
    }

    private func put(_ bytes: UnsafeRawBufferPointer) throws {
        let code = System.writeAll(descriptor, bytes)
        if code != 0 {
            failure = code
            throw FileError(name, "cannot be written", code: code)
        }
        bytesWritten += bytes.count
    }
}
