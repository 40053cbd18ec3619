#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock (flock) on a lock file beside a target, held for a whole read-modify-write, so
/// two vcf processes updating one file take turns instead of one undoing the other.
///
/// The lock file is `.NAME.vcf-lock` in the target's directory. It is created empty when missing and never
/// deleted: a process waiting for the lock has the file open, and deleting it would let a third process
/// create a new lock file and hold "the" lock at the same time as the waiter. An empty hidden file per
/// target is the price of a lock that needs no cleanup and no stale-lock guessing: a lock held by a process
/// that died is released by the system with its descriptors.
///
/// A symbolic link, directory or device at the lock name is refused (opened with `O_NOFOLLOW` and checked),
/// never followed. On a file system that does not support locks the lock is skipped and `isHeld` is false;
/// the content check before every replacement still guards against other writers.
public final class FileLock {
    /// The lock file.
    public let path: UserPath
    /// Whether the lock is held (false on a file system without locks).
    public let isHeld: Bool
    private var descriptor: Int32

    private init(path: UserPath, descriptor: Int32, isHeld: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.isHeld = isHeld
    }

    deinit { release() }

    /// The lock for the file at `target` (symbolic links already resolved), waiting as long as another
    /// process holds it; `waiting` is called once if the wait begins. `given` is the target as the user named
    /// it, for messages.
    /// - Throws: `FileError` when the lock file cannot be created or opened (naming the target: its directory
    ///   is missing or not writable), or is a link or not a regular file (naming the lock file).
    public static func acquire(for target: UserPath, given: UserPath? = nil, waiting: (() -> Void)? = nil) throws
        -> FileLock
    {
        let path = target.directory.appending(CompanionNames.lock(for: target.lastComponent))
        let flags = O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        var descriptor = System.open(path, O_RDWR | flags, 0o666)
        if descriptor < 0 && errno == EACCES {
            // Another user's lock file, which this user may read but not write: flock needs only a descriptor.
            descriptor = System.open(path, O_RDONLY | flags, 0o666)
        }
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP || code == EMLINK {
                throw FileError(
                    path, "cannot be used as the lock file", code: code,
                    detail: "it is a symbolic link, which vcf never follows; remove it")
            }
            throw FileError(
                given ?? target, "cannot be written", code: code,
                detail: "no lock file can be made beside it; nothing was changed")
        }
        guard let info = System.info(descriptor), UInt32(info.st_mode) & UInt32(S_IFMT) == UInt32(S_IFREG) else {
            _ = System.close(descriptor)
            throw FileError(path, "cannot be used as the lock file", detail: "it is not a regular file; remove it")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EWOULDBLOCK || code == EAGAIN {
                waiting?()
                while flock(descriptor, LOCK_EX) != 0 {
                    if errno == EINTR { continue }
                    let code = errno
                    _ = System.close(descriptor)
                    throw FileError(path, "cannot be locked", code: code)
                }
            } else if code == ENOLCK || code == EOPNOTSUPP || code == ENOSYS {
                return FileLock(path: path, descriptor: descriptor, isHeld: false)
            } else {
                _ = System.close(descriptor)
                throw FileError(path, "cannot be locked", code: code)
            }
        }
        return FileLock(path: path, descriptor: descriptor, isHeld: true)
    }

    /// Releases the lock; the lock file stays.
    public func release() {
        guard descriptor >= 0 else { return }
        _ = System.close(descriptor)
        descriptor = -1
    }
}
