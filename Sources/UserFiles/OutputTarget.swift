#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an output path leads: standard output, another open descriptor, a pipe or device to write into, or
/// a regular file to replace atomically.
///
/// Paths that name a descriptor of this process (`-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
/// `/proc/self/fd/N`, or a symbolic link leading to one) are written through that descriptor, never
/// resolved to the file behind it and renamed over: `vcf convert a.vcf -o /dev/stdout >> log.txt` appends
/// to log.txt as the shell set it up.
public enum OutputTarget: Hashable, Sendable {
    /// `-` and the paths that mean descriptor 1.
    case standardOutput
    /// Another descriptor of this process (`/dev/stderr` is 2).
    case descriptor(Int32)
    /// An existing pipe, device or socket: opened and written to, never replaced by a regular file.
    case stream(UserPath)
    /// A regular file, or a name for a new one: replaced through a temporary file. `resolved` is the file
    /// behind any symbolic links (the link itself stays a link); `given` is what messages name.
    case file(given: UserPath, resolved: UserPath)

    /// Where `path` leads.
    /// - Throws: `FileError` for a directory, or a descriptor that is not open.
    public static func resolve(_ path: UserPath) throws -> OutputTarget {
        if path.isStandardStream { return .standardOutput }
        var current = path
        // A chain of symbolic links is followed one link at a time, so a link to /dev/stdout is caught too.
        for _ in 0..<40 {
            if let descriptor = descriptorNamed(current) {
                if descriptor == 1 { return .standardOutput }
                guard fcntl(descriptor, F_GETFD) != -1 else {
                    throw FileError(path, "cannot be written", code: EBADF)
                }
                return .descriptor(descriptor)
            }
            guard let info = System.info(current, followingLinks: false) else {
                // No such name: a new file, created where the last link (if any) points.
                return .file(given: path, resolved: current)
            }
            guard UInt32(info.st_mode) & UInt32(S_IFMT) == UInt32(S_IFLNK), let next = readLink(current) else {
                break
            }
            current = next.first == UInt8(ascii: "/") ? UserPath(bytes: next) : current.directory.appending(next)
        }
        guard let identity = FileIdentity.of(current) else {
            // A loop of links, or a link into a directory that is missing.
            throw FileError(path, "cannot be written", code: errno)
        }
        if identity.isDirectory { throw FileError(path, "cannot be written", code: EISDIR) }
        guard identity.isRegularFile else { return .stream(path) }
        return .file(given: path, resolved: realPath(current) ?? current)
    }

    /// The descriptor a path names by its spelling alone, or nil.
    static func descriptorNamed(_ path: UserPath) -> Int32? {
        guard let text = path.text else { return nil }
        switch text {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        let pid = getpid()
        for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/\(pid)/fd/"]
        where text.hasPrefix(prefix) {
            let digits = text.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int32(digits) else { return nil }
            return number
        }
        return nil
    }

    private static func readLink(_ path: UserPath) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = path.withCString { name in
            buffer.withUnsafeMutableBytes { readlink(name, $0.baseAddress!.assumingMemoryBound(to: CChar.self), 4096) }
        }
        guard count > 0 else { return nil }
        return Array(buffer[..<count])
    }

    private static func realPath(_ path: UserPath) -> UserPath? {
        guard let resolved = path.withCString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return UserPath(bytes: Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
    }
}
