import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `vcf` as a child process the way a shell would: arguments as raw bytes (names that are not
/// UTF-8), standard input closed, from a file or fed through a pipe, standard output captured, appended to a
/// file or sent to a device, extra descriptors, extra environment, and peak memory measured by GNU time.
struct ChildProcess {
    /// Where the child's standard input comes from.
    enum Input {
        /// Descriptor 0 is closed (`<&-`).
        case closed
        /// `/dev/null`.
        case empty
        /// A file (`< path`).
        case file(String)
        /// A pipe the test writes into with `feed` after the start.
        case pipe
    }

    /// Where the child's standard output goes.
    enum Output {
        /// A private file read back after the run.
        case capture
        /// A file opened as `>> path` would.
        case append(String)
        /// A file or device opened as `> path` would.
        case truncate(String)
    }

    /// How a child ended.
    struct Outcome {
        /// The exit status, or nil when a signal ended it.
        var status: Int32?
        /// The signal that ended it, if one did.
        var signal: Int32?
        var stdout: [UInt8]
        var stderr: String
        var stderrBytes: [UInt8]
        /// Peak resident memory in KiB (GNU time), when measured.
        var peakKB: Int?
        var seconds: Double
        /// User plus system CPU seconds of the child (with `measureMemory` and GNU time): a bound on the work,
        /// unlike `seconds`, holds on a machine busy with other work.
        var cpuSeconds: Double?
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    let pid: pid_t
    private let directory: URL
    private let inputWriter: Int32?
    private let start: Date
    private let measured: Bool

    /// Starts `vcf` with `arguments`.
    static func start(
        _ arguments: [[UInt8]], stdin: Input = .empty, stdout: Output = .capture, environment: [String: String] = [:],
        extraDescriptors: [(Int32, String, Int32)] = [], measureMemory: Bool = false, binary: URL? = nil
    ) throws -> ChildProcess {
        let binary = try #require(binary ?? builtBinary)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-child-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var inputWriter: Int32?
        var pipeReader: Int32?
        switch stdin {
        case .closed: posix_spawn_file_actions_addclose(&actions, 0)
        case .empty: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .pipe:
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw POSIXError(.EIO) }
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            posix_spawn_file_actions_addclose(&actions, fds[1])
            pipeReader = fds[0]
            inputWriter = fds[1]
            // The test's own end must not leak into other children.
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        }
        let outPath = directory.appendingPathComponent("stdout").path
        switch stdout {
        case .capture: posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .append(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        case .truncate(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        posix_spawn_file_actions_addopen(
            &actions, 2, directory.appendingPathComponent("stderr").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        for (descriptor, path, flags) in extraDescriptors {
            posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o644)
        }
        // GNU time forks the child itself: its peak is the child's own, not this large test process's.
        let timer = "/usr/bin/time"
        let measured = measureMemory && FileManager.default.isExecutableFile(atPath: timer)
        let prefix: [[UInt8]] =
            measured
            ? [
                Array(timer.utf8), Array("-o".utf8), Array(directory.appendingPathComponent("time").path.utf8),
                Array("-f".utf8), Array("%U %S %M".utf8),
            ] : []
        let command = prefix + [Array(binary.path.utf8)] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] =
            command.map { bytes in
                let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
                pointer[bytes.count] = 0
                return pointer
            } + [nil]
        defer { for pointer in argv { pointer?.deallocate() } }
        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        // The child starts with the default action for the signals tests send, as from an interactive shell,
        // whatever this test runner ignores (vcf leaves a signal it was started with ignored alone).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid = pid_t()
        let started = Date()
        let result = posix_spawn(&pid, argv[0]!, &actions, &attributes, argv, envp)
        if let pipeReader { close(pipeReader) }
        guard result == 0 else {
            if let inputWriter { close(inputWriter) }
            throw POSIXError(.ENOEXEC)
        }
        return ChildProcess(
            pid: pid, directory: directory, inputWriter: inputWriter, start: started, measured: measured)
    }

    /// Writes `bytes` into the child's standard input pipe; false when the child stopped reading.
    @discardableResult
    func feed(_ bytes: [UInt8]) -> Bool {
        guard let inputWriter else { return false }
        signal(SIGPIPE, SIG_IGN)
        return bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(inputWriter, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }

    /// Closes the child's standard input pipe.
    func closeInput() {
        if let inputWriter { close(inputWriter) }
    }

    /// Sends `signal` to the child (to GNU time's child when memory is measured, it is not).
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits for the end and collects what the child wrote.
    func wait() -> Outcome {
        closeInput()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = (try? Data(contentsOf: directory.appendingPathComponent("stdout"))).map { [UInt8]($0) } ?? []
        let err = (try? Data(contentsOf: directory.appendingPathComponent("stderr"))).map { [UInt8]($0) } ?? []
        var peak: Int?
        var cpu: Double?
        var code: Int32? = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : nil
        var signal: Int32? = (status & 0x7F) != 0 ? status & 0x7F : nil
        if measured, let text = try? String(contentsOf: directory.appendingPathComponent("time"), encoding: .utf8) {
            let lines = text.split(separator: "\n")
            let fields = lines.last.map { $0.split(separator: " ") } ?? []
            if fields.count == 3 {
                peak = Int(fields[2])
                cpu = Double(fields[0]).flatMap { user in Double(fields[1]).map { user + $0 } }
            }
            // GNU time reports its child's signal in its own words and exits with status 128+N.
            if let line = lines.first(where: { $0.hasPrefix("Command terminated by signal ") }) {
                signal = Int32(line.dropFirst("Command terminated by signal ".count))
                code = nil
            }
        }
        return Outcome(
            status: code, signal: signal, stdout: out, stderr: String(decoding: err, as: UTF8.self),
            stderrBytes: err, peakKB: peak, seconds: seconds, cpuSeconds: cpu)
    }

    /// `start` with text arguments.
    static func start(
        _ arguments: [String], stdin: Input = .empty, stdout: Output = .capture, environment: [String: String] = [:]
    ) throws -> ChildProcess {
        try start(arguments.map { Array($0.utf8) }, stdin: stdin, stdout: stdout, environment: environment)
    }

    /// What the child has written to standard error so far.
    func stderrSoFar() -> String {
        (try? String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
    }

    /// Waits up to `seconds` for `condition`; whether it came true.
    static func eventually(within seconds: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return try condition()
    }

    /// Starts `vcf`, feeds nothing, and waits.
    static func run(
        _ arguments: [[UInt8]], stdin: Input = .empty, stdout: Output = .capture, environment: [String: String] = [:],
        extraDescriptors: [(Int32, String, Int32)] = [], measureMemory: Bool = false, binary: URL? = nil
    ) throws -> Outcome {
        try start(
            arguments, stdin: stdin, stdout: stdout, environment: environment, extraDescriptors: extraDescriptors,
            measureMemory: measureMemory, binary: binary
        ).wait()
    }

    /// `run` with text arguments.
    static func run(
        _ arguments: [String], stdin: Input = .empty, stdout: Output = .capture, environment: [String: String] = [:],
        measureMemory: Bool = false
    ) throws -> Outcome {
        try run(
            arguments.map { Array($0.utf8) }, stdin: stdin, stdout: stdout, environment: environment,
            measureMemory: measureMemory)
    }
}

/// A scratch directory for one test, removed at the end, with helpers for the files tests put in it.
struct Scratch {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-rel-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` in the directory.
    func callAsFunction(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
        return self(name)
    }

    /// The bytes of `name`.
    func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url.appendingPathComponent(name))) }

    /// The names in the directory, sorted.
    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    /// Names of temporary files vcf left behind.
    func temporaryFiles() throws -> [String] { try names().filter { $0.contains(".vcf-tmp-") } }
}

/// A vCard 3.0 card with a name, an email and a UID that tell it apart.
func card(_ name: String, uid: String? = nil, email: String? = nil, extra: String = "") -> String {
    var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name)\r\n"
    let parts = name.split(separator: " ")
    text += "N:\(parts.last ?? "");\(parts.first ?? "");;;\r\n"
    if let email { text += "EMAIL:\(email)\r\n" }
    if let uid { text += "UID:\(uid)\r\n" }
    return text + extra + "END:VCARD\r\n"
}

/// The FN values of a vCard file, in order.
func formattedNames(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").filter { $0.hasPrefix("FN:") }
        .map { String($0.dropFirst(3)) }
}

/// Says, as a known issue in the run's output, that a memory bound was not checked because GNU time
/// (/usr/bin/time, which measures a child's peak memory) is missing, so the test does not pass in silence.
func reportMemoryNotMeasured(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    withKnownIssue(
        Comment(rawValue: "GNU time (/usr/bin/time) is not installed: the memory bound was not checked"),
        sourceLocation: sourceLocation
    ) {
        Issue.record("skipped: the peak memory of \(what) was not measured", sourceLocation: sourceLocation)
    }
}
