import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Runs `vcf` on the process's own arguments and streams; a closed pipe on stdout ends quietly.
public func runVCF() -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    final class State: @unchecked Sendable { var brokenPipe = false }
    let state = State()
    let io = CommandIO(
        standardOutput: { bytes in
            guard !state.brokenPipe else { return }
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(1, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        state.brokenPipe = true
                        return
                    }
                    offset += written
                }
            }
        },
        standardError: { text in FileHandle.standardError.write(Data(text.utf8)) })
    io.environment = ProcessInfo.processInfo.environment
    io.outputIsTerminal = isatty(1) == 1
    io.errorIsTerminal = isatty(2) == 1
    let code = VCFCommandLine.run(Array(CommandLine.arguments.dropFirst()), io: io)
    return state.brokenPipe && code == 0 ? 0 : code
}

/// Exits the process with `code`.
public func exit(_ code: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(code)
    #else
    Darwin.exit(code)
    #endif
}
