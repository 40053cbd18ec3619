#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file read by byte range from any thread: a contacts file that merge and dedupe read in order once
/// and then again by parts (a card they merge, the bytes around the cards they rewrite), so that what they hold
/// of it is its cards' keys, not its bytes (a book of photographs is most of a gigabyte).
public final class RandomAccessFile: Sendable {
    /// The path as given.
    public let path: UserPath
    /// What the file was when it was opened.
    public let identity: FileIdentity
    /// How far reads may go: the size the file had when it was opened, and what `ReadLimits` allows it to grow.
    private let limit: Int
    private let descriptor: Int32

    /// The file `input` has open (its own descriptor, so either may be closed first).
    /// - Throws: `FileError` when `input` is not a regular file (standard input, a pipe), which has no ranges to
    ///   read again.
    public init(_ input: InputFile, limits: ReadLimits = .default) throws {
        guard input.identity.isRegularFile else {
            throw FileError(input.path, "cannot be read again by parts", detail: "it is not a regular file")
        }
        let descriptor = dup(input.descriptor)
        guard descriptor >= 0 else { throw FileError(input.path, "cannot be read", code: errno) }
        self.descriptor = descriptor
        path = input.path
        identity = input.identity
        limit = max(Int(input.identity.size), 0) + limits.maxUnsizedBytes
    }

    deinit { _ = System.close(descriptor) }

    /// The bytes of `range`; fewer when the file ends within it, none past its end.
    /// - Throws: `FileError` when a read fails, or the file grew past its limit while it was read.
    public func read(_ range: Range<Int>) throws -> [UInt8] {
        guard range.lowerBound < limit || range.isEmpty else {
            throw FileError(
                path, "cannot be read",
                detail: "it grew by more than \((limit - Int(identity.size)) >> 20) MiB while it was read")
        }
        return try InputFile.filled(max(range.count, 0), path: path) { base, missing in
            System.read(descriptor, base, missing, at: range.upperBound - missing)
        }
    }
}
