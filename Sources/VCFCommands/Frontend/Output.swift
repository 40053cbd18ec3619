import TerminalText
import UserFiles
import VCardSyntax

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: data to `standardOutput`, diagnostics and progress to `standardError`.
/// Tests pass buffers; the executable passes the process's streams.
///
/// Everything meant for a person goes through `TerminalText` here (`error`, `writeText`), so card data,
/// file names and arguments cannot reach the terminal as escape sequences or fake lines. Data (`write`) is
/// passed through untouched.
public final class CommandIO {
    /// Receives data bytes.
    public var standardOutput: (ArraySlice<UInt8>) -> Void
    /// Receives diagnostic text, already sanitised.
    public var standardError: (String) -> Void
    /// Whether standard output has ended (a closed pipe, a failed write): commands may stop producing output.
    public var outputEnded: () -> Bool = { false }
    /// Writes what standard output holds in its buffer, and throws the error its writes met (not a closed pipe),
    /// so a command that wrote its result there learns of a full disk before it reports the result written.
    public var flushOutput: () throws -> Void = {}
    /// The environment, for `NO_COLOR`, `TERM` and `COLORTERM`; tests set what they need.
    public var environment: [String: String] = [:]
    /// Whether standard output is a terminal (colour, thumbnails).
    public var outputIsTerminal = false
    /// Whether standard error is a terminal (progress lines).
    public var errorIsTerminal = false
    /// Takes what a command is done with just before the process exits (a merge's book of 100,000 cards and its
    /// match keys), so the exit does not spend a tenth of a second freeing memory the system takes back anyway.
    /// Nil, the default, lets it be freed as usual (tests run many commands in one process).
    public var keepUntilExit: ((Any) -> Void)?

    /// Creates an IO that forwards to the given sinks.
    public init(standardOutput: @escaping (ArraySlice<UInt8>) -> Void, standardError: @escaping (String) -> Void) {
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// An IO that collects everything in memory, for tests.
    public static func capturing() -> (io: CommandIO, out: () -> [UInt8], err: () -> String) {
        final class Box: @unchecked Sendable {
            var out: [UInt8] = []
            var err = ""
        }
        let box = Box()
        let io = CommandIO(standardOutput: { box.out += $0 }, standardError: { box.err += $0 })
        return (io, { box.out }, { box.err })
    }

    /// Data, as it is.
    func write(_ bytes: [UInt8]) { standardOutput(bytes[...]) }
    /// Data, as it is.
    func write(_ text: String) { standardOutput(Array(text.utf8)[...]) }
    /// Text for a person on standard output (findings, plans): sanitised, its own line breaks kept.
    func writeText(_ text: String) { standardOutput(Array(TerminalText.sanitized(text, lineBreaks: .keep).utf8)[...]) }

    /// Whether a progress line is on stderr now; a message clears it first, so it starts on a clean line.
    var progressLineShown = false

    /// Reads every input on the calling thread, runs of small files too (which are otherwise read several at
    /// once): for tests that compare the two.
    package var readsInputsInTurn = false

    /// A message for a person on standard error: sanitised, its own line breaks kept, one line break added.
    func error(_ text: String) {
        let clean = TerminalText.sanitized(text, lineBreaks: .keep)
        relay(clean.hasSuffix("\n") ? clean : clean + "\n")
    }

    /// A message `error` made already (on the IO of a thread that read an input), passed on as it is.
    func relay(_ message: String) {
        if progressLineShown {
            standardError("\r\u{1B}[K")
            progressLineShown = false
        }
        standardError(message)
    }
    func report(_ diagnostic: Diagnostic) { error(diagnostic.description) }
}

/// Exit codes, as the README lists them.
public enum ExitCode {
    /// Everything worked.
    public static let success: Int32 = 0
    /// The work was done but problems were found (errors in input cards).
    public static let problems: Int32 = 1
    /// An input could not be read or an output could not be written.
    public static let ioFailure: Int32 = 2
    /// The command line was wrong.
    public static let usage: Int32 = 64
}

/// Where a command's data goes, opened from its `-o` argument: standard output (no `-o`, `-`, `/dev/stdout`),
/// another descriptor (`/dev/stderr`, `/dev/fd/N`), a pipe or device written to as it is, or a regular file
/// replaced atomically through `FileReplacement`. Written as it is produced; `commit` puts a file in place,
/// `abandon` leaves the old one.
final class CommandOutput {
    private enum Sink {
        case standardOutput(CommandIO)
        case stream(DescriptorWriter)
        case file(FileReplacement)
    }

    /// The path as given, or nil for standard output.
    let path: UserPath?
    private var sink: Sink
    private var ended = false

    private init(path: UserPath?, sink: Sink) {
        self.path = path
        self.sink = sink
    }

    /// Opens the destination `path` names (nil: standard output).
    /// - Throws: `FileError` when it cannot be opened, or replacing it is refused (read-only, owner).
    static func open(_ path: UserPath?, io: CommandIO, options: FileReplacement.Options) throws -> CommandOutput {
        guard let path else { return CommandOutput(path: nil, sink: .standardOutput(io)) }
        switch try OutputTarget.resolve(path) {
        case .standardOutput:
            return CommandOutput(path: path, sink: .standardOutput(io))
        case .descriptor(let descriptor):
            return CommandOutput(path: path, sink: .stream(DescriptorWriter(descriptor: descriptor, name: path)))
        case .stream(let device):
            return CommandOutput(path: path, sink: .stream(try DescriptorWriter.opening(device)))
        case .file(let given, let resolved):
            return CommandOutput(
                path: path, sink: .file(try FileReplacement(given: given, resolved: resolved, options: options)))
        }
    }

    /// Whether this output replaces a file (and so can be abandoned without a trace).
    var replacesFile: Bool {
        if case .file = sink { return true }
        return false
    }

    /// Writes `bytes`. A closed pipe ends the output quietly: later writes are dropped.
    /// - Throws: `FileError` for any other failure.
    func write(_ bytes: [UInt8]) throws { try write(bytes[...]) }

    /// Writes `bytes`, as `write(_:)` does, without copying them first.
    func write(_ bytes: ArraySlice<UInt8>) throws {
        guard !ended, !bytes.isEmpty else { return }
        switch sink {
        case .standardOutput(let io): io.standardOutput(bytes)
        case .stream(let writer): try quietOnClosedPipe { try writer.write(bytes) }
        case .file(let replacement): try replacement.write(bytes)
        }
    }

    /// Finishes the output: flushes a stream, puts a file in place.
    /// - Throws: `FileError` when the last write, the sync or the rename fails.
    @discardableResult
    func commit() throws -> FileReplacement.Committed? {
        switch sink {
        case .standardOutput(let io):
            try io.flushOutput()
            return nil
        case .stream(let writer):
            try quietOnClosedPipe { try writer.close() }
            return nil
        case .file(let replacement): return try replacement.commit()
        }
    }

    /// Leaves a file as it was (a stream has had its bytes already).
    func abandon() {
        switch sink {
        case .standardOutput: return
        case .stream(let writer): try? writer.close()
        case .file(let replacement): replacement.abandon()
        }
    }

    private func quietOnClosedPipe(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as FileError where error.code == EPIPE {
            ended = true
        }
    }

    /// Writes `bytes` to a new file at `path`, never replacing one (`options.createOnly` is set here).
    /// - Throws: `FileError`, with code EEXIST when the name is taken.
    static func writeNew(_ bytes: [UInt8], to path: UserPath, options: FileReplacement.Options) throws {
        var options = options
        options.createOnly = true
        options.backup = false
        let replacement = try FileReplacement(given: path, resolved: path, options: options)
        try replacement.write(bytes)
        try replacement.commit()
    }

    /// Writes `bytes` to `path` in one go.
    static func write(_ bytes: [UInt8], to path: UserPath?, io: CommandIO, options: FileReplacement.Options) throws {
        let output = try open(path, io: io, options: options)
        do {
            try output.write(bytes)
            try output.commit()
        } catch {
            output.abandon()
            throw error
        }
    }
}

/// The options of every command that writes a file: `--force` to replace a read-only file, `--backup` where
/// the command offers it, and the test hook.
enum WriteOptions {
    /// Options for a command's flags.
    static func from(_ parsed: Arguments, io: CommandIO) -> FileReplacement.Options {
        var options = FileReplacement.Options()
        options.replaceReadOnly = parsed.flags.contains(.force)
        options.backup = parsed.flags.contains(.backup)
        options.waitingForLock = { [unowned io] path in
            io.error("\(path): note: waiting for another vcf to finish with it…")
        }
        if let fifo = io.environment[pauseVariable], !fifo.isEmpty {
            options.beforeCommit = { PauseHook.wait(on: UserPath(fifo)) }
        }
        return options
    }

    /// The test hook: a FIFO the first replacement of the process waits on (reading one byte) after its
    /// temporary file is written and before the target is checked and renamed, so a test can change the target
    /// or send a signal at exactly that moment. For tests only; documented in Docs/Reliability.md.
    static let pauseVariable = "VCF_TEST_PAUSE_BEFORE_REPLACE"
}

/// Runs the pause hook once per process.
private enum PauseHook {
    nonisolated(unsafe) static var done = false

    static func wait(on fifo: UserPath) {
        guard !done else { return }
        done = true
        let descriptor = fifo.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) < 0 && errno == EINTR {}
        close(descriptor)
    }
}
