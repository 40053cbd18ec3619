import Foundation
import TerminalText
import Utilities

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A vdir (the layout khard and vdirsyncer use): a folder with one vCard per `.vcf` file, any other file
/// ignored. Opened for writing, it is locked against other `vcf` processes for as long as it is open, and
/// every change is made on one file at a time, atomically, and only if the file is still as it was read;
/// files that do not change are never touched.
public final class Vdir {
    /// The folder, as given.
    public let path: String
    /// How many files this object created, replaced or removed.
    public private(set) var changes = 0
    private var descriptor: Int32 = -1
    private var dirty = false

    /// The `.vcf` files of the folder at `path`, sorted by name; hidden files (names starting with `.`) and
    /// anything not a regular file (or a link to one) are left out.
    /// - Throws: `VdirError` when the folder cannot be listed, or holds a `.vcf` file whose name is not UTF-8: a
    ///   folder is read and updated by name, and such a file, left out, was a card a merge could not see.
    public static func cardFileNames(in path: String) throws -> [String] {
        try cardFileNameBytes(in: Array(path.utf8)).map { name in
            guard let text = String(validating: name, as: UTF8.self) else {
                throw VdirError(
                    path: joined(path, TerminalText.sanitized(bytes: name)),
                    reason: "the name is not UTF-8; rename the file so vcf can read and update the folder")
            }
            return text
        }
    }

    /// The names of the `.vcf` files of the folder at `path` (its bytes) as the system has them, UTF-8 or not,
    /// sorted by their bytes; hidden files and anything not a regular file (or a link to one) left out, as
    /// `cardFileNames`.
    /// - Throws: `VdirError` when the folder cannot be listed.
    package static func cardFileNameBytes(in path: [UInt8]) throws -> [[UInt8]] {
        let opened = (path + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }
        guard let directory = opened else {
            let code = errno
            guard code != ENOENT else {
                throw VdirError(path: TerminalText.sanitized(bytes: path), reason: "cannot be listed: no such folder")
            }
            throw VdirError(path: TerminalText.sanitized(bytes: path), errno: code, doing: "cannot be listed")
        }
        defer { closedir(directory) }
        let folder = path + (path.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")])
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            guard name.first != UInt8(ascii: "."), isCardFileName(name) else { continue }
            // A link, or a file system that does not say what an entry is, is looked at.
            if entry.pointee.d_type != UInt8(DT_REG) {
                var info = stat()
                let found = (folder + name + [0]).withUnsafeBufferPointer {
                    $0.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) == 0 }
                }
                guard found && (info.st_mode & S_IFMT) == S_IFREG else { continue }
            }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Whether a name ends in `.vcf`, in any case.
    private static func isCardFileName(_ name: [UInt8]) -> Bool {
        guard name.count >= 4 else { return false }
        return zip(name.suffix(4), Array(".vcf".utf8)).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    /// Whether `path` names a vdir for a command: an existing folder, or any path ending in `/`.
    public static func isFolder(_ path: String) -> Bool {
        if path.hasSuffix("/") { return true }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Opens the folder at `path` for reading and writing (creating it, and its parents, when `create` is true)
    /// and takes its lock, waiting for another `vcf` that holds it; `waiting` is called once if it must wait.
    /// Temporary files a killed `vcf` left behind are removed.
    /// - Throws: `VdirError`.
    public init(path: String, create: Bool, waiting: () -> Void = {}) throws {
        self.path = path
        if create && !FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw VdirError(path: path, reason: "cannot be created: \(Self.reason(error))")
            }
        }
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw VdirError(path: path, errno: errno, doing: "cannot be opened") }
        // flock on the folder itself: nothing is added to a folder other programs read.
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            waiting()
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let code = errno
                    closeDescriptor(descriptor)
                    throw VdirError(path: path, errno: code, doing: "cannot be locked")
                }
            }
        }
        removeStaleTemporaries()
    }

    deinit { close() }

    /// Syncs the folder and releases the lock.
    public func close() {
        guard descriptor >= 0 else { return }
        if dirty { _ = fsync(descriptor) }
        closeDescriptor(descriptor)
        descriptor = -1
    }

    /// The folder's `.vcf` files, read.
    public func files() throws -> [VdirFile] {
        try Self.cardFileNames(in: path).compactMap { try read($0) }
    }

    /// The file `name` as it is now, or nil when there is none.
    public func read(_ name: String) throws -> VdirFile? { try Self.read(name, inFolder: path) }

    /// The file `name` of the folder at `path` as it is now, or nil when there is none: for reading a folder's
    /// files on several threads.
    package static func read(_ name: String, inFolder path: String) throws -> VdirFile? {
        let file = joined(path, name)
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw VdirError(path: file, errno: errno, doing: "cannot be read")
        }
        defer { closeDescriptor(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw VdirError(path: file, errno: errno, doing: "cannot be read") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        while true {
            let n = chunk.withUnsafeMutableBytes { readDescriptor(fd, $0.baseAddress!, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw VdirError(path: file, errno: errno, doing: "cannot be read")
            }
            bytes += chunk[..<n]
        }
        return VdirFile(name: name, path: file, bytes: bytes, stamp: FileStamp(info))
    }

    /// What became of one change.
    public enum Outcome: Equatable, Sendable {
        /// Done; the file's new stamp (nil after a removal).
        case done(FileStamp?)
        /// The file is no longer as it was read (or, for a new file, the name is taken): nothing was changed.
        case changed
    }

    /// Writes a new file `name` holding `bytes`; never replaces a file of that name.
    public func create(_ name: String, _ bytes: [UInt8]) throws -> Outcome {
        let (outcomes, error) = create(all: [(name, bytes)])
        if let error { throw error }
        return outcomes[0]
    }

    /// Writes new files, each as `create` writes one, in order: the outcome of each, up to the first that could not
    /// be written, and that one's error (then none after it is written). Their temporary files are written and
    /// flushed on every processor at once: a conversion into a folder waited, one file after another, for the file
    /// system to give each file an inode and to put it on the disk (about 0.3 ms a file here).
    package func create(all files: [(name: String, bytes: [UInt8])]) -> (outcomes: [Outcome], error: (any Error)?) {
        // Worked out here, once: reading the mask sets it, which is no thing to do on several threads.
        let mode = newFileMode()
        let path = self.path
        let temporaries = Concurrently.map(Array(files.indices), chunk: 1) { i in
            Result<String, any Error> {
                try Self.writeTemporary(
                    files[i].bytes, in: path, like: nil, newMode: mode, for: Self.joined(path, files[i].name))
            }
        }
        var outcomes: [Outcome] = []
        for (i, temporary) in temporaries.enumerated() {
            let failure: any Error
            switch temporary {
            case .failure(let error):
                failure = error
            case .success(let temporary):
                let target = Self.joined(path, files[i].name)
                // link(2) fails on an existing name, where rename(2) would replace it.
                let linked = link(temporary, target) == 0
                let code = errno
                unlink(temporary)
                if linked {
                    changes += 1
                    dirty = true
                    outcomes.append(.done(currentStamp(target)))
                    continue
                }
                if code == EEXIST {
                    outcomes.append(.changed)
                    continue
                }
                failure = VdirError(path: target, errno: code, doing: "cannot be created")
            }
            for case .success(let temporary) in temporaries[(i + 1)...] { unlink(temporary) }
            return (outcomes, failure)
        }
        return (outcomes, nil)
    }

    /// Replaces file `name` with `bytes` if it is still the file read (`expected`), keeping its mode and owner.
    public func replace(_ name: String, _ bytes: [UInt8], expected: FileStamp) throws -> Outcome {
        let target = Self.joined(path, name)
        guard currentStamp(target) == expected else { return .changed }
        let temporary = try Self.writeTemporary(bytes, in: path, like: expected, newMode: 0, for: target)
        // Checked again just before the rename: the window left is the rename itself.
        guard currentStamp(target) == expected else {
            unlink(temporary)
            return .changed
        }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw VdirError(path: target, errno: code, doing: "cannot be replaced")
        }
        changes += 1
        dirty = true
        return .done(currentStamp(target))
    }

    /// Removes file `name` if it is still the file read (`expected`).
    public func remove(_ name: String, expected: FileStamp) throws -> Outcome {
        let target = Self.joined(path, name)
        guard currentStamp(target) == expected else { return .changed }
        guard unlink(target) == 0 else { throw VdirError(path: target, errno: errno, doing: "cannot be removed") }
        changes += 1
        dirty = true
        return .done(nil)
    }

    /// Makes the changes so far durable: the folder's entries (new names, renames) reach the disk.
    public func sync() {
        guard descriptor >= 0, dirty else { return }
        _ = fsync(descriptor)
        dirty = false
    }

    /// A temporary file in the folder `path` holding `bytes`, flushed, with the mode and owner of the file it will
    /// replace (or, for a new file, `newMode`: the folder's read permissions for files); it never ends in `.vcf`,
    /// so readers of the folder skip it.
    private static func writeTemporary(
        _ bytes: [UInt8], in path: String, like existing: FileStamp?, newMode: mode_t, for target: String
    ) throws -> String {
        var template = Array(Self.joined(path, Self.temporaryPrefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw VdirError(path: target, errno: errno, doing: "cannot be written (temporary file)") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { writeDescriptor(fd, $0.baseAddress!, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw VdirError(path: target, errno: errno, doing: "cannot be written")
                }
                offset += n
            }
            if let existing {
                _ = fchmod(fd, mode_t(existing.mode))
                if existing.owner != getuid() || existing.group != getgid() {
                    // Only root can give a file away; otherwise refuse rather than change who owns the card.
                    guard fchown(fd, existing.owner, existing.group) == 0 else {
                        throw VdirError(path: target, errno: errno, doing: "cannot keep its owner")
                    }
                }
            } else {
                _ = fchmod(fd, newMode)
            }
            guard fsync(fd) == 0 else { throw VdirError(path: target, errno: errno, doing: "cannot be written") }
            guard closeDescriptor(fd) == 0 else {
                throw VdirError(path: target, errno: errno, doing: "cannot be written")
            }
            return temporary
        } catch {
            closeDescriptor(fd)
            unlink(temporary)
            throw error
        }
    }

    /// New files are as readable as the folder lets them be: 0644 in a 0755 folder, 0600 in a 0700 one.
    private func newFileMode() -> mode_t {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return 0o600 }
        let mask = umask(0o022)
        umask(mask)
        return mode_t(info.st_mode) & 0o666 & ~mask | 0o600
    }

    private func currentStamp(_ file: String) -> FileStamp? {
        var info = stat()
        guard lstat(file, &info) == 0 else { return nil }
        if (info.st_mode & S_IFMT) == S_IFLNK {
            guard stat(file, &info) == 0 else { return nil }
        }
        return FileStamp(info)
    }

    private func removeStaleTemporaries() {
        // Only a vcf holding this lock writes these, so any there now were left by a process that was killed.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        where name.hasPrefix(Self.temporaryPrefix) {
            unlink(Self.joined(path, name))
        }
    }

    /// The start of every temporary file's name.
    static let temporaryPrefix = ".vcf-tmp-"

    /// `directory` and `name` joined with one `/`.
    public static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileReadNoSuchFileError { return "no such folder" }
        return nsError.localizedDescription
    }
}

#if canImport(Glibc)
@discardableResult private func closeDescriptor(_ fd: Int32) -> Int32 { Glibc.close(fd) }
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    Glibc.read(fd, buffer, count)
}
private func writeDescriptor(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    Glibc.write(fd, buffer, count)
}
#else
@discardableResult private func closeDescriptor(_ fd: Int32) -> Int32 { Darwin.close(fd) }
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    Darwin.read(fd, buffer, count)
}
private func writeDescriptor(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    Darwin.write(fd, buffer, count)
}
#endif

/// One `.vcf` file of a vdir as read.
public struct VdirFile: Sendable {
    /// Its name in the folder.
    public var name: String
    /// Its path (folder and name), for messages.
    public var path: String
    /// Its bytes.
    public var bytes: [UInt8]
    /// What identifies this version of the file.
    public var stamp: FileStamp
}

/// What identifies one version of a file: a change by any program (an editor's rename, khard's rewrite, an
/// append) changes one of these.
public struct FileStamp: Hashable, Sendable {
    /// The device and inode.
    public var device: UInt64
    public var inode: UInt64
    /// The size in bytes.
    public var size: Int64
    /// The modification and status-change times in nanoseconds.
    public var modified: Int64
    public var changed: Int64
    /// The permission bits, owner and group, kept when the file is replaced.
    public var mode: UInt32
    public var owner: UInt32
    public var group: UInt32

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        mode = UInt32(info.st_mode) & 0o7777
        owner = UInt32(info.st_uid)
        group = UInt32(info.st_gid)
    }
}

/// A vdir that cannot be read or written.
public struct VdirError: Error, CustomStringConvertible, Sendable {
    /// The folder or file.
    public var path: String
    /// Why.
    public var reason: String

    /// An error about `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, errno code: Int32, doing action: String) {
        self.init(path: path, reason: "\(action): \(String(cString: strerror(code)))")
    }

    public var description: String { "\(path): error: \(reason)" }
}
