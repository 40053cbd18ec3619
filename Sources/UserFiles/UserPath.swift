import TerminalText

/// A path exactly as the user gave it: bytes, not a string, so a name that is not UTF-8 (`book\xE9.vcf`) names
/// the very file it named in the shell. It is shown to people through `TerminalText`, never raw.
public struct UserPath: Hashable, Sendable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public var bytes: [UInt8]

    /// A path from its bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// A path from text (its UTF-8 bytes).
    public init(_ text: String) { self.bytes = Array(text.utf8) }

    /// `-`: standard input or output, as the command decides.
    public static let standardStream = UserPath("-")

    /// Whether this is `-`.
    public var isStandardStream: Bool { bytes == [UInt8(ascii: "-")] }

    /// The path as people see it: escapes for controls, line breaks and bytes that are not UTF-8.
    public var description: String { TerminalText.sanitized(bytes: bytes) }

    /// The path as text for code that needs a `String` (nil when it is not UTF-8); never for system calls.
    public var text: String? { String(validating: bytes, as: UTF8.self) }

    /// The last component's bytes (`contacts.vcf` of `a/b/contacts.vcf`); trailing slashes ignored.
    public var lastComponent: [UInt8] {
        var end = bytes.count
        while end > 1 && bytes[end - 1] == slash { end -= 1 }
        let start = bytes[..<end].lastIndex(of: slash).map { $0 + 1 } ?? 0
        return Array(bytes[start..<end])
    }

    /// The directory holding the last component: `.` for a bare name, `/` for a name at the root.
    public var directory: UserPath {
        var end = bytes.count
        while end > 1 && bytes[end - 1] == slash { end -= 1 }
        guard let last = bytes[..<end].lastIndex(of: slash) else { return UserPath(".") }
        var cut = last
        while cut > 0 && bytes[cut - 1] == slash { cut -= 1 }
        return cut == 0 ? UserPath("/") : UserPath(bytes: Array(bytes[..<cut]))
    }

    /// This directory's path with `component` appended.
    public func appending(_ component: [UInt8]) -> UserPath {
        guard !bytes.isEmpty else { return UserPath(bytes: component) }
        return UserPath(bytes: bytes.last == slash ? bytes + component : bytes + [slash] + component)
    }

    /// This directory's path with `component` (text) appended.
    public func appending(_ component: String) -> UserPath { appending(Array(component.utf8)) }

    /// Calls `body` with the path as a NUL-terminated C string. A path holding a NUL byte cannot name a file;
    /// the system then sees it cut at the NUL, as the shell would have.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}

private let slash = UInt8(ascii: "/")
