import CSignalCleanup

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary file beside a target, created the way mkstemp does (a random name, `O_CREAT|O_EXCL`, so a
/// name already taken, a planted symbolic link included, is never opened) and registered for removal if
/// SIGINT, SIGTERM or SIGHUP ends the process before it is renamed or removed.
struct TemporaryFile {
    let path: UserPath
    let descriptor: Int32
    private let slot: Int32

    /// Creates a temporary file for the target named `name` in `directory`, with `mode` (before the umask).
    /// - Throws: `FileError` naming the directory when no file can be created there.
    static func create(in directory: UserPath, for name: [UInt8], mode: mode_t) throws -> TemporaryFile {
        vcf_cleanup_install()
        var lastError: Int32 = EEXIST
        // Another process could take a random name between our choice and open: choose again, as mkstemp does.
        for _ in 0..<100 {
            let path = directory.appending(CompanionNames.temporary(for: name))
            let descriptor = System.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if descriptor >= 0 {
                let slot = path.withCString { vcf_cleanup_register($0) }
                return TemporaryFile(path: path, descriptor: descriptor, slot: slot)
            }
            lastError = errno
            if lastError != EEXIST { break }
        }
        throw FileError(directory, "cannot hold a temporary file", code: lastError, detail: "nothing was changed")
    }

    /// The file is gone or renamed: the signal handler forgets it.
    func forget() { vcf_cleanup_unregister(slot) }

    /// Closes and removes the file.
    func remove() {
        _ = System.close(descriptor)
        _ = System.unlink(path)
        forget()
    }

    /// Removes temporary files for `name` in `directory` left by a vcf that died before it could (killed with
    /// SIGKILL, a power cut): only names of exactly the form vcf gives, only regular files, and only those whose
    /// process no longer runs. The caller holds the target's lock, so no live vcf can be writing one of them.
    /// - Returns: how many were removed.
    @discardableResult
    static func removeStale(in directory: UserPath, for name: [UInt8]) -> Int {
        guard let stream = directory.withCString({ opendir($0) }) else { return 0 }
        defer { closedir(stream) }
        var removed = 0
        let me = getpid()
        let prefix = CompanionNames.temporaryPrefix(for: name)
        while let entry = readdir(stream) {
            // Nearly every entry of a large directory is some other file: the prefix is compared in place, and
            // only a name that has it is copied out. Byte by byte, not memcmp: the record holds the name only up
            // to its NUL (d_reclen), not the whole array, and the prefix holds no NUL, so the comparison stops
            // there at the latest.
            let candidate = withUnsafeBytes(of: &entry.pointee.d_name) { raw -> [UInt8]? in
                guard raw.count > prefix.count else { return nil }
                for index in prefix.indices where raw[index] != prefix[index] { return nil }
                return Array(raw.prefix { $0 != 0 })
            }
            guard let candidate else { continue }
            guard let pid = CompanionNames.processOfTemporary(candidate, for: name), pid != me else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let path = directory.appending(candidate)
            guard let info = System.info(path, followingLinks: false),
                UInt32(info.st_mode) & UInt32(S_IFMT) == UInt32(S_IFREG)
            else { continue }
            if System.unlink(path) == 0 { removed += 1 }
        }
        return removed
    }
}
