#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read, written or replaced: the path, what was being done, and the system's reason.
///
/// Its description is the line a person reads, `PATH: error: cannot be read: Permission denied`, with the path
/// shown safely.
public struct FileError: Error, CustomStringConvertible, Sendable {
    /// The file the operation was about.
    public var path: UserPath
    /// What could not be done, as a phrase (`cannot be read`).
    public var action: String
    /// The system's error number, when a system call failed.
    public var code: Int32?
    /// Extra words after the reason, such as what was left unchanged.
    public var detail: String?

    /// Creates an error; `code` is usually `errno`.
    public init(_ path: UserPath, _ action: String, code: Int32? = nil, detail: String? = nil) {
        self.path = path
        self.action = action
        self.code = code
        self.detail = detail
    }

    /// The system's text for the error number (`No space left on device`).
    public var reason: String? { code.map { String(cString: strerror($0)) } }

    public var description: String {
        var text = "\(path): error: \(action)"
        if let reason { text += ": \(reason)" }
        if let detail { text += "; \(detail)" }
        return text
    }
}

/// System calls retried on EINTR, with the calls named apart from Swift methods of the same name.
enum System {
    static func open(_ path: UserPath, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        path.withCString { name in
            while true {
                #if canImport(Glibc)
                let descriptor = Glibc.open(name, flags, mode)
                #else
                let descriptor = Darwin.open(name, flags, mode)
                #endif
                if descriptor >= 0 || errno != EINTR { return descriptor }
            }
        }
    }

    static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }

    /// read(2) until something is read, the end is reached, or an error other than EINTR.
    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(descriptor, buffer, count)
            #else
            let n = Darwin.read(descriptor, buffer, count)
            #endif
            if n >= 0 || errno != EINTR { return n }
        }
    }

    /// pread(2) until something is read, the end is reached, or an error other than EINTR.
    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, at offset: Int) -> Int {
        while true {
            #if canImport(Glibc)
            let n = Glibc.pread(descriptor, buffer, count, off_t(offset))
            #else
            let n = Darwin.pread(descriptor, buffer, count, off_t(offset))
            #endif
            if n >= 0 || errno != EINTR { return n }
        }
    }

    /// write(2) until every byte is out: it may write less than asked, and a signal may interrupt it. Returns
    /// 0, or the error number.
    static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < buffer.count {
            #if canImport(Glibc)
            let n = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            #else
            let n = Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return 0
    }

    /// stat(2) or, not following a final symbolic link, lstat(2); nil when it fails (`errno` says why).
    static func info(_ path: UserPath, followingLinks: Bool = true) -> stat? {
        var info = stat()
        let result = path.withCString { followingLinks ? systemStat($0, &info) : systemLstat($0, &info) }
        return result == 0 ? info : nil
    }

    /// fstat(2); nil when it fails.
    static func info(_ descriptor: Int32) -> stat? {
        var info = stat()
        #if canImport(Glibc)
        return Glibc.fstat(descriptor, &info) == 0 ? info : nil
        #else
        return Darwin.fstat(descriptor, &info) == 0 ? info : nil
        #endif
    }

    static func unlink(_ path: UserPath) -> Int32 {
        path.withCString {
            #if canImport(Glibc)
            Glibc.unlink($0)
            #else
            Darwin.unlink($0)
            #endif
        }
    }

    static func rename(_ from: UserPath, _ to: UserPath) -> Int32 {
        from.withCString { source in
            to.withCString { target in
                #if canImport(Glibc)
                Glibc.rename(source, target)
                #else
                Darwin.rename(source, target)
                #endif
            }
        }
    }

    static func link(_ from: UserPath, _ to: UserPath) -> Int32 {
        from.withCString { source in
            to.withCString { target in
                #if canImport(Glibc)
                Glibc.link(source, target)
                #else
                Darwin.link(source, target)
                #endif
            }
        }
    }

    /// fsync(2) of the directory, so a rename in it survives a power cut. Best effort: some file systems
    /// cannot sync a directory, and the rename has happened either way.
    static func syncDirectory(_ directory: UserPath) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}

private func systemStat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>) -> Int32 {
    stat(path, info)
}

private func systemLstat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>) -> Int32 {
    lstat(path, info)
}
