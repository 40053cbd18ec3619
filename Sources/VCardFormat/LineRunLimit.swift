#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Watches a stream for a line longer than the reader's limit, so that input with no line ends at all
/// (`/dev/zero`, a binary file) ends reading with an error instead of being skipped forever.
///
/// The lexer skips a line over `Limits.maxLineBytes` and reads on, so a file with one huge line keeps its other
/// lines; but a stream with no line end at all never ends. Past `defaultMaxBytes` without a line end (far more
/// than any line worth skipping), reading stops with an error.
public struct LineRunLimit: Sendable {
    /// The longest run of bytes without a line end (LF or CR) allowed.
    public let maxBytes: Int
    /// 1 GiB: 64 times the longest line the lexer reads.
    public static let defaultMaxBytes = 1 << 30
    /// 1 MiB: the longest run without a line end read when it holds a NUL byte.
    public static let maxBinaryBytes = 1 << 20
    /// Bytes since the last line end.
    private(set) var run = 0
    /// Whether those bytes hold a NUL.
    private var runHasNUL = false

    /// A watch allowing `maxBytes` between line ends.
    public init(maxBytes: Int = defaultMaxBytes) { self.maxBytes = maxBytes }

    /// Takes the next bytes; false once a line has grown past the limit, or past `maxBinaryBytes` while holding
    /// a NUL byte (binary data such as `/dev/zero`: a text line holds no NUL).
    public mutating func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // Searched from the end: in text the last line end is a line's length away.
        var index = bytes.count - 1
        while index >= 0 && bytes[index] != 0x0A && bytes[index] != 0x0D { index -= 1 }
        let tail = UnsafeRawBufferPointer(rebasing: bytes[(index + 1)...])
        let tailHasNUL = tail.baseAddress.map { memchr($0, 0, tail.count) != nil } ?? false
        if index >= 0 {
            run = tail.count
            runHasNUL = tailHasNUL
        } else {
            run += bytes.count
            runHasNUL = runHasNUL || tailHasNUL
        }
        return run <= maxBytes && !(runHasNUL && run > Self.maxBinaryBytes)
    }

    /// The error for an input whose line grew past the limit.
    public func error(_ name: String) -> VCardInputError {
        VCardInputError(
            path: name,
            reason: run > maxBytes
                ? "no line end in \(maxBytes) bytes; reading stopped (this is not a vCard file)"
                : "binary data (NUL bytes) and no line end in \(Self.maxBinaryBytes) bytes; reading stopped "
                    + "(this is not a vCard file)")
    }
}
