#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Directories for commands that write one file per card (`--split DIR`, `photo extract -o DIR`).
public enum Directories {
    /// Creates `path` and any missing parents (0777 less the umask), as `mkdir -p` does.
    /// - Throws: `FileError` naming the part that cannot be created, or that exists and is not a directory.
    public static func create(_ path: UserPath) throws {
        let bytes = path.bytes
        var ends = bytes.indices.filter {
            $0 > 0 && bytes[$0] == UInt8(ascii: "/") && bytes[$0 - 1] != UInt8(ascii: "/")
        }
        ends.append(bytes.count)
        for end in ends {
            let part = UserPath(bytes: Array(bytes[..<end]))
            if part.withCString({ mkdir($0, 0o777) }) == 0 { continue }
            let code = errno
            guard code == EEXIST else { throw FileError(part, "cannot be created", code: code) }
            guard FileIdentity.of(part)?.isDirectory == true else {
                throw FileError(part, "cannot be used as a directory", code: ENOTDIR)
            }
        }
    }
}
