#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells one version of a file from another without reading it: device, inode, size, and the
/// modification and status-change times to the nanosecond, with the owner and mode a replacement keeps.
///
/// Two identities that are equal mean, as far as the system can tell, the same file with the same content;
/// a writer that changes a byte in place within one clock tick keeps size and times equal, which is why
/// `FileReplacement` can also compare the content it read.
public struct FileIdentity: Hashable, Sendable {
    /// The device the file is on.
    public var device: UInt64
    /// The inode: a rename over the path gives another.
    public var inode: UInt64
    /// The size in bytes.
    public var size: Int64
    /// The last modification, seconds and nanoseconds.
    public var modified: Timestamp
    /// The last status change (also set by writes, renames and chmod), seconds and nanoseconds.
    public var changed: Timestamp
    /// The owner's user id.
    public var owner: UInt32
    /// The group id.
    public var group: UInt32
    /// The permission bits with set-id and sticky bits, without the file type.
    public var permissions: UInt32
    /// The file type bits (`S_IFREG`...).
    public var type: UInt32
    /// How many names the file has.
    public var links: UInt64

    /// A point in time as the file system stores it.
    public struct Timestamp: Hashable, Sendable {
        /// Seconds since the epoch.
        public var seconds: Int64
        /// Nanoseconds within the second.
        public var nanoseconds: Int64
    }

    init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Glibc)
        modified = Timestamp(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
        changed = Timestamp(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec))
        #else
        modified = Timestamp(
            seconds: Int64(info.st_mtimespec.tv_sec), nanoseconds: Int64(info.st_mtimespec.tv_nsec))
        changed = Timestamp(
            seconds: Int64(info.st_ctimespec.tv_sec), nanoseconds: Int64(info.st_ctimespec.tv_nsec))
        #endif
        owner = UInt32(info.st_uid)
        group = UInt32(info.st_gid)
        permissions = UInt32(info.st_mode) & 0o7777
        type = UInt32(info.st_mode) & UInt32(S_IFMT)
        links = UInt64(info.st_nlink)
    }

    /// The identity of the file at `path`, or nil when there is none; without `followingLinks`, that of a
    /// symbolic link itself (a dangling link still has one).
    public static func of(_ path: UserPath, followingLinks: Bool = true) -> FileIdentity? {
        System.info(path, followingLinks: followingLinks).map(FileIdentity.init)
    }

    /// The identity of an open file.
    public static func of(descriptor: Int32) -> FileIdentity? {
        System.info(descriptor).map(FileIdentity.init)
    }

    /// Whether this is a regular file (not a directory, pipe, device or socket).
    public var isRegularFile: Bool { type == UInt32(S_IFREG) }

    /// Whether this is a directory.
    public var isDirectory: Bool { type == UInt32(S_IFDIR) }

    /// Whether `other` is the same file (device and inode), whatever its content now.
    public func isSameFile(as other: FileIdentity) -> Bool { device == other.device && inode == other.inode }

    /// Whether the process may write to the file by its permission bits: the owner's bits for its owner, the
    /// group's for a member, the others' for the rest. For root, which the system lets write anything, a file
    /// with no write bit at all counts as read-only: someone made it so on purpose.
    public var isWritableByPermissions: Bool {
        let uid = geteuid()
        if uid == 0 { return permissions & 0o222 != 0 }
        if uid == owner { return permissions & 0o200 != 0 }
        if isMember(of: group) { return permissions & 0o020 != 0 }
        return permissions & 0o002 != 0
    }

    private func isMember(of group: UInt32) -> Bool {
        if getegid() == group { return true }
        let count = getgroups(0, nil)
        guard count > 0 else { return false }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let found = getgroups(count, &groups)
        return groups.prefix(Int(max(found, 0))).contains { UInt32($0) == group }
    }
}
