import Foundation
import VCardSyntax

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Where a command writes: data to `standardOutput`, diagnostics and progress to `standardError`.
/// Tests pass buffers; the executable passes the process's streams.
public final class CommandIO {
    /// Receives data bytes.
    public var standardOutput: (ArraySlice<UInt8>) -> Void
    /// Receives diagnostic text.
    public var standardError: (String) -> Void
    /// The environment, for `NO_COLOR`, `TERM` and `COLORTERM`; tests set what they need.
    public var environment: [String: String] = [:]
    /// Whether standard output is a terminal (colour, thumbnails).
    public var outputIsTerminal = false
    /// Whether standard error is a terminal (progress lines).
    public var errorIsTerminal = false

    /// Creates an IO that forwards to the given sinks.
    public init(standardOutput: @escaping (ArraySlice<UInt8>) -> Void, standardError: @escaping (String) -> Void) {
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// An IO that collects everything in memory, for tests.
    public static func capturing() -> (io: CommandIO, out: () -> [UInt8], err: () -> String) {
        final class Box: @unchecked Sendable {
            var out: [UInt8] = []
            var err = ""
        }
        let box = Box()
        let io = CommandIO(standardOutput: { box.out += $0 }, standardError: { box.err += $0 })
        return (io, { box.out }, { box.err })
    }

    func write(_ bytes: [UInt8]) { standardOutput(bytes[...]) }
    func write(_ text: String) { standardOutput(Array(text.utf8)[...]) }
    /// Whether a progress line is on stderr now; a message clears it first, so it starts on a clean line.
    var progressLineShown = false

    func error(_ text: String) {
        if progressLineShown {
            standardError("\r\u{1B}[K")
            progressLineShown = false
        }
        standardError(text.hasSuffix("\n") ? text : text + "\n")
    }
    func report(_ diagnostic: Diagnostic) { error(diagnostic.description) }
}

/// Exit codes, as the README lists them.
public enum ExitCode {
    /// Everything worked.
    public static let success: Int32 = 0
    /// The work was done but problems were found (errors in input cards).
    public static let problems: Int32 = 1
    /// An input could not be read or an output could not be written.
    public static let ioFailure: Int32 = 2
    /// The command line was wrong.
    public static let usage: Int32 = 64
}

/// Reads a whole file into one byte array: straight from the descriptor, without the `Data` copy that
/// `FileManager.contents` would add (a contacts file can be a hundred megabytes).
enum FileBytes {
    /// The file's bytes, or nil when it cannot be opened or read (`errno` says why).
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        var failed = false
        var bytes = [UInt8](unsafeUninitializedCapacity: max(Int(info.st_size), 0)) { buffer, count in
            while count < buffer.count {
                let n = systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
                if n == 0 { return }
                if n < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    return
                }
                count += n
            }
        }
        guard !failed else { return nil }
        // A file that grew after fstat, or one without a size (a pipe), is read on in chunks.
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if n == 0 { return bytes }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes += chunk[..<n]
        }
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }
}

/// Writes a file the safe way: a temporary file beside it, flushed, then renamed over the target, so the
/// target is always either the old content or the new, never a partial write.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        try write(parts: [bytes[...]], to: path)
    }

    /// Writes `parts` one after another, as one file.
    static func write(parts: [ArraySlice<UInt8>], to path: String) throws {
        var existing = stat()
        let exists = stat(path, &existing) == 0
        if exists && (existing.st_mode & S_IFMT) != S_IFREG {
            // A device, pipe or socket (`-o /dev/stdout`, `-o /dev/null`) is written to, never replaced:
            // renaming over /dev/null would put a regular file in its place.
            try writeStream(parts, to: path)
            return
        }
        // Through a symbolic link, the file it points to is replaced, and the link stays a link.
        let target = exists ? (realPath(path) ?? path) : path
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).vcf-tmp-\(ProcessInfo.processInfo.processIdentifier)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw OutputError(
                path: path,
                reason: "cannot create a temporary file in \(directory.path): \(String(cString: strerror(errno)))")
        }
        // A contacts file kept private (0600) stays private after it is replaced.
        if exists { _ = fchmod(descriptor, existing.st_mode & 0o7777) }
        do {
            for part in parts { try writeAll(part, to: descriptor) }
            guard fsync(descriptor) == 0 else { throw POSIXFailure(errno: errno) }
            guard close(descriptor) == 0 else { throw POSIXFailure(errno: errno) }
        } catch {
            close(descriptor)
            unlink(temporary.path)
            throw OutputError(path: path, reason: "cannot be written: \(error)")
        }
        // rename(2) replaces the target in one step on the same file system.
        guard rename(temporary.path, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw OutputError(path: path, reason: "cannot be replaced: \(reason)")
        }
        // The rename itself lives in the directory: sync it so a power cut cannot bring the old name back
        // pointing at nothing.
        let directoryDescriptor = open(directory.path, O_RDONLY)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private static func writeStream(_ parts: [ArraySlice<UInt8>], to path: String) throws {
        let descriptor = open(path, O_WRONLY)
        guard descriptor >= 0 else {
            throw OutputError(path: path, reason: "cannot be opened: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        do {
            for part in parts { try writeAll(part, to: descriptor) }
        } catch {
            throw OutputError(path: path, reason: "cannot be written: \(error)")
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// write(2) until every byte is out: it may write less than asked, and a signal may interrupt it.
    private static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw POSIXFailure(errno: errno)
                }
                offset += n
            }
        }
    }

    private struct POSIXFailure: Error, CustomStringConvertible {
        var errno: Int32
        var description: String { String(cString: strerror(errno)) }
    }
}

/// write(2), named apart from `AtomicFile.write`.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// An output that could not be written.
struct OutputError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): error: \(reason)" }
}
