import CFileWriteback

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a regular file with new content written as it is produced: into a temporary file beside it,
/// then, on `commit`, flushed to disk, checked, and renamed over the target in one step, so the target is at
/// every moment either its old content or its new, never a mix.
///
/// While the temporary file exists the target's lock is held (taken here, or passed in by a caller that
/// holds it for a whole read-modify-write). The temporary file gets the target's owner, group and mode before
/// a byte is written; when the owner or group cannot be kept the replacement is refused rather than leaving
/// the file owned by someone else. A target the user may not write (by its mode) is refused unless
/// `replaceReadOnly` is set. The temporary file is removed by `abandon`, by SIGINT, SIGTERM or SIGHUP, and, if
/// the process is killed outright, by the next replacement of the same target.
public final class FileReplacement {
    /// How a replacement behaves.
    public struct Options {
        /// Replace a target whose mode says the user may not write it (`--force`).
        public var replaceReadOnly = false
        /// Keep the old content as `NAME.bak`, or `NAME.bak.2`, `.3`... when that is taken (`--backup`).
        public var backup = false
        /// Never replace: `commit` fails with EEXIST when the name exists by then (`--split`, `photo extract`).
        public var createOnly = false
        /// The write buffer.
        public var bufferSize = DescriptorWriter.defaultBufferSize
        /// Called in `commit` after the content is on disk and before the target is checked and renamed: a hook
        /// for tests that change the target at that moment.
        public var beforeCommit: (() -> Void)?
        /// Called once, with the target as the user named it, if another process holds the lock and the wait
        /// begins.
        public var waitingForLock: ((UserPath) -> Void)?

        /// Default options: replace a writable file, no backup.
        public init() {}
    }

    /// What the target must still be when the new content is put in place.
    public enum Expectation {
        /// Anything: the new content replaces whatever is there (`-o` of a command that does not read it).
        case anything
        /// Nothing: the file did not exist when it was read, and must not exist now.
        case absent
        /// The file as it was read: this identity and, when given, these bytes.
        case unchanged(FileIdentity, content: [UInt8]?)
        /// The file as it was read without being held: this identity, and `count` bytes whose `ContentDigest`
        /// is `digest`.
        case unchangedDigest(FileIdentity, digest: UInt64, count: Int)
    }

    /// What a commit did besides replacing the file.
    public struct Committed: Sendable {
        /// Where the old content was kept, with `backup`.
        public var backup: UserPath?
        /// Whether earlier backups held the first name, so this one got a number (`NAME.bak.2`).
        public var backupIsNumbered = false
    }

    /// The path as the user gave it, for messages.
    public let given: UserPath
    /// The file replaced (symbolic links resolved).
    public let target: UserPath
    /// Temporary files of dead processes removed when this replacement began.
    public private(set) var staleFilesRemoved = 0
    private let options: Options
    private let existing: FileIdentity?
    private let temporary: TemporaryFile
    private let writer: DescriptorWriter
    private var ownLock: FileLock?
    private var finished = false
    /// Where the output not yet sent on to disk starts.
    private var writebackStart = 0

    /// Begins replacing `resolved` (named `given` in messages). Without `lock`, takes the target's lock until
    /// the replacement is committed or abandoned.
    /// - Throws: `FileError` when the target is read-only, its owner cannot be kept, or no temporary file can be
    ///   created beside it.
    public init(given: UserPath, resolved: UserPath, lock: FileLock? = nil, options: Options = Options()) throws {
        self.given = given
        self.target = resolved
        self.options = options
        let existing = try Self.check(given: given, resolved: resolved, options: options)
        self.existing = existing
        if lock == nil && !options.createOnly {
            ownLock = try FileLock.acquire(
                for: resolved, given: given, waiting: options.waitingForLock.map { tell in { tell(given) } })
        }
        if (lock ?? ownLock)?.isHeld == true {
            staleFilesRemoved = TemporaryFile.removeStale(in: resolved.directory, for: resolved.lastComponent)
        }
        // A file that exists is matched exactly below; a new one gets the usual 0666 less the umask.
        temporary = try TemporaryFile.create(
            in: resolved.directory, for: resolved.lastComponent, mode: existing == nil ? 0o666 : 0o600)
        writer = DescriptorWriter(descriptor: temporary.descriptor, name: given, bufferSize: options.bufferSize)
        if let existing {
            do {
                try Self.keepOwnerAndMode(of: existing, on: temporary.descriptor, given: given)
            } catch {
                temporary.remove()
                ownLock?.release()
                throw error
            }
        }
    }

    deinit { abandon() }

    /// Whether `resolved` may be replaced under `options`; its identity when it exists.
    /// - Throws: `FileError` for a read-only target without `replaceReadOnly`, or an existing one with
    ///   `createOnly`.
    @discardableResult
    public static func check(given: UserPath, resolved: UserPath, options: Options) throws -> FileIdentity? {
        guard let existing = FileIdentity.of(resolved) else { return nil }
        if options.createOnly { throw FileError(given, "cannot be created", code: EEXIST) }
        guard existing.isRegularFile else {
            throw FileError(given, "cannot be replaced", detail: "it is not a regular file")
        }
        if !existing.isWritableByPermissions && !options.replaceReadOnly {
            throw FileError(
                given, "is read-only (mode \(String(existing.permissions, radix: 8)))",
                detail: "nothing was changed; --force replaces it anyway, keeping its mode")
        }
        return existing
    }

    private static func keepOwnerAndMode(of existing: FileIdentity, on descriptor: Int32, given: UserPath) throws {
        guard let mine = System.info(descriptor) else {
            throw FileError(given, "cannot be replaced", code: errno)
        }
        if UInt32(mine.st_uid) != existing.owner || UInt32(mine.st_gid) != existing.group {
            // The owner first: chown clears set-id bits, which fchmod then restores.
            if fchown(descriptor, uid_t(existing.owner), gid_t(existing.group)) != 0 {
                throw FileError(
                    given, "cannot keep its owner and group (\(existing.owner):\(existing.group))", code: errno,
                    detail: "nothing was changed; only its owner (or root) can replace it keeping them")
            }
        }
        if fchmod(descriptor, mode_t(existing.permissions)) != 0 {
            throw FileError(given, "cannot keep its mode", code: errno, detail: "nothing was changed")
        }
    }

    /// Writes `bytes` after what was written before.
    /// - Throws: `FileError` when the disk is full or a write fails; the replacement is then abandoned.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try writer.write(bytes)
        } catch var error as FileError {
            abandon()
            error.detail = unchangedDetail
            throw error
        }
        // What the system holds is sent on to disk while more is produced, so `commit`'s fsync of a large
        // output waits for the last part only (on a 106 MB output, 26 ms of waiting at the end otherwise).
        if writer.bytesWritten - writebackStart >= Self.writebackBytes {
            _ = vcf_start_writeback(
                temporary.descriptor, Int64(writebackStart), Int64(writer.bytesWritten - writebackStart))
            writebackStart = writer.bytesWritten
        }
    }

    /// How much written output starts its way to disk at a time.
    static let writebackBytes = 8 << 20

    /// Writes `bytes` after what was written before.
    public func write(_ bytes: ArraySlice<UInt8>) throws { try bytes.withUnsafeBytes { try write($0) } }

    /// Writes `bytes` after what was written before.
    public func write(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try write($0) } }

    private var unchangedDetail: String { existing == nil ? "it was not created" : "it was left as it was" }

    /// Puts the new content in place: flush and sync the temporary file, check its size, check that the target
    /// is still what `expectation` says, keep a backup if asked, rename, sync the directory.
    /// - Throws: `TargetChanged` when another program changed the target since it was read (the temporary
    ///   file is removed and the target left as the other program wrote it); `FileError` for any other failure.
    @discardableResult
    public func commit(expecting expectation: Expectation = .anything) throws -> Committed {
        precondition(!finished, "a replacement is committed or abandoned once")
        defer { abandon() }
        do {
            try writer.flush()
            guard fsync(temporary.descriptor) == 0 else { throw FileError(given, "cannot be written", code: errno) }
            guard let info = System.info(temporary.descriptor), Int(info.st_size) == writer.bytesWritten else {
                throw FileError(given, "cannot be written", detail: "the temporary file came out short")
            }
        } catch var error as FileError {
            error.detail = unchangedDetail
            throw error
        }
        options.beforeCommit?()
        try verify(expectation)
        var committed = Committed()
        if options.createOnly {
            // link(2) fails when the name exists, so a file that appeared meanwhile is never replaced.
            guard System.link(temporary.path, target) == 0 else {
                throw FileError(given, "cannot be created", code: errno)
            }
        } else {
            if options.backup, let existing = FileIdentity.of(target) {
                (committed.backup, committed.backupIsNumbered) = try keepBackup(of: existing)
            }
            guard System.rename(temporary.path, target) == 0 else {
                throw FileError(given, "cannot be replaced", code: errno, detail: unchangedDetail)
            }
        }
        finished = true
        temporary.forget()
        _ = System.close(temporary.descriptor)
        if options.createOnly { _ = System.unlink(temporary.path) }
        System.syncDirectory(target.directory)
        ownLock?.release()
        return committed
    }

    /// Removes the temporary file and leaves the target as it was.
    public func abandon() {
        guard !finished else { return }
        finished = true
        temporary.remove()
        ownLock?.release()
    }

    private func verify(_ expectation: Expectation) throws {
        switch expectation {
        case .anything:
            return
        case .absent:
            if System.info(target, followingLinks: false) != nil || errno != ENOENT { throw TargetChanged(path: given) }
        case .unchanged(let identity, let content):
            guard let now = FileIdentity.of(target), now == identity else { throw TargetChanged(path: given) }
            guard let content else { return }
            // Size and times can stay equal through a write within one clock tick: the bytes decide.
            guard Self.contentMatches(target, content) else { throw TargetChanged(path: given) }
        case .unchangedDigest(let identity, let digest, let count):
            guard let now = FileIdentity.of(target), now == identity,
                let file = try? InputFile.open(target), file.holds(count: count, digest: digest)
            else { throw TargetChanged(path: given) }
        }
    }

    /// Whether the file at `path` holds exactly `content` (see `InputFile.holds`).
    private static func contentMatches(_ path: UserPath, _ content: [UInt8]) -> Bool {
        guard let file = try? InputFile.open(path) else { return false }
        return file.holds(content)
    }

    /// Keeps the target's current content under the first free backup name: a hard link when the file system
    /// allows (the same owner, mode and bytes, nothing copied), else a copy with the same owner and mode, or
    /// private to this user when the owner cannot be kept. An existing backup is never replaced.
    private func keepBackup(of existing: FileIdentity) throws -> (UserPath, Bool) {
        let name = target.lastComponent
        for number in 1...999 {
            let backup = target.directory.appending(CompanionNames.backup(for: name, number: number))
            if System.link(target, backup) == 0 { return (backup, number > 1) }
            let code = errno
            if code == EEXIST { continue }
            if code == ENAMETOOLONG { throw FileError(backup, "cannot be created", code: code) }
            // No hard links here (FAT, some network file systems): copy instead.
            if try copy(to: backup, existing: existing) { return (backup, number > 1) }
        }
        throw FileError(given, "has too many backups", detail: "remove old ones (NAME.bak.N) first")
    }

    /// Copies the target to `backup`; false when the name is taken.
    private func copy(to backup: UserPath, existing: FileIdentity) throws -> Bool {
        let output = System.open(backup, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if output < 0 && errno == EEXIST { return false }
        guard output >= 0 else { throw FileError(backup, "cannot be created", code: errno) }
        var ok = false
        defer {
            _ = System.close(output)
            if !ok { _ = System.unlink(backup) }
        }
        let input = try InputFile.open(target)
        let writer = DescriptorWriter(descriptor: output, name: backup)
        while true {
            let chunk = try input.read(upTo: 1 << 20)
            if chunk.isEmpty { break }
            try writer.write(chunk)
        }
        try writer.flush()
        // The owner if we can; the mode either way, so the copy is never more readable than the file.
        _ = fchown(output, uid_t(existing.owner), gid_t(existing.group))
        guard fchmod(output, mode_t(existing.permissions & 0o777)) == 0, fsync(output) == 0 else {
            throw FileError(backup, "cannot be written", code: errno)
        }
        ok = true
        return true
    }
}

/// The target was changed by another program after it was read: the new content was not put in place.
public struct TargetChanged: Error, CustomStringConvertible, Sendable {
    /// The target, as the user named it.
    public var path: UserPath

    /// `path` was changed by another program.
    public init(path: UserPath) { self.path = path }

    public var description: String { "\(path): error: changed by another program while vcf worked on it" }
}
