import CMallocArenas
import Foundation
import UserFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// What commands handed over to be freed by the exit rather than one allocation at a time (`keepUntilExit`).
/// Only the main thread appends, and nothing reads it.
nonisolated(unsafe) private var keptUntilExit: [Any] = []

/// Runs `vcf` on the process's own arguments (as bytes) and streams.
///
/// Standard output is written through a buffer (flushed at every write on a terminal, so a person sees each
/// card as it is read). A closed pipe (EPIPE) ends the output quietly; any other write error (a full disk,
/// `> /dev/full`) ends the run with exit 2 and the system's reason.
public func runVCF() -> Int32 {
    // Before anything is opened: a closed standard stream's number must not go to one of our files.
    StandardStreams.reserve()
    // glibc gives threads that allocate at once their own heaps ("arenas"), up to eight per processor; the
    // parallel reader's and Dispatch's threads then leave a large book's freed memory spread over many of them
    // (a dedupe of 100,000 cards peaked at 516 MB, 481 MB with one arena per processor, in the same time).
    // One more than the processors: the main thread allocates too while the reader's workers do (it collects
    // their cards), and with one arena per processor two of the three threads shared one and waited on its
    // lock in about half the runs (reading a 100,000-card book's match keys took 0.82 s instead of 0.60 s).
    vcf_limit_malloc_arenas(Int32(max(1, ProcessInfo.processInfo.activeProcessorCount) + 1))
    signal(SIGPIPE, SIG_IGN)
    let terminal = isatty(1) == 1
    let out = DescriptorWriter(descriptor: 1, name: UserPath("standard output"))
    final class State: @unchecked Sendable {
        var failure: FileError?
        var brokenPipe = false
        /// A failure a command was given by `flushOutput` and reported itself.
        var failureTold = false
    }
    let state = State()
    func send(_ body: () throws -> Void) {
        guard !state.brokenPipe, state.failure == nil, !state.failureTold else { return }
        do {
            try body()
        } catch let error as FileError {
            if error.code == EPIPE { state.brokenPipe = true } else { state.failure = error }
        } catch {}
    }
    let io = CommandIO(
        standardOutput: { bytes in
            send {
                try out.write(bytes)
                if terminal { try out.flush() }
            }
        },
        standardError: { text in
            // Nothing can be done when stderr itself is closed or full: the exit code still tells.
            var text = text
            text.withUTF8 { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { return }
                    offset += n
                }
            }
        })
    io.outputEnded = { state.brokenPipe || state.failure != nil || state.failureTold }
    io.flushOutput = {
        send { try out.flush() }
        guard let failure = state.failure else { return }
        state.failure = nil
        state.failureTold = true
        throw failure
    }
    io.keepUntilExit = { keptUntilExit.append($0) }
    io.environment = ProcessInfo.processInfo.environment
    io.outputIsTerminal = terminal
    io.errorIsTerminal = isatty(2) == 1
    let arguments = (1..<Int(CommandLine.argc)).map { index in
        CommandLine.unsafeArgv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
    }
    var code = VCFCommandLine.run(arguments: arguments, io: io)
    send { try out.flush() }
    if let failure = state.failure {
        io.error(failure.description)
        code = ExitCode.ioFailure
    } else if state.failureTold && code == ExitCode.success {
        code = ExitCode.ioFailure
    }
    return code
}
