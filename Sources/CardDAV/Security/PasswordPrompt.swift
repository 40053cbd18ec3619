#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks for a password on the controlling terminal with echo off, so it is neither shown nor kept in any
/// history; Ctrl-C while asking puts the terminal back before the process ends.
public enum PasswordPrompt {
    /// The password typed after `prompt`, or nil when there is no terminal.
    @Sendable public static func ask(_ prompt: String) -> String? {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        TerminalRestore.arm(tty, saved)
        defer { TerminalRestore.disarm() }
        // Echo goes off before the prompt is shown: TCSAFLUSH discards input not yet read, so a password typed as
        // soon as the prompt appears (quick typists, scripts on a pseudo-terminal) would otherwise be lost.
        guard tcsetattr(tty, TCSAFLUSH, &quiet) == 0 else { return nil }
        defer { _ = tcsetattr(tty, TCSAFLUSH, &saved) }
        _ = prompt.utf8CString.withUnsafeBufferPointer { write(tty, $0.baseAddress, $0.count - 1) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(tty, &byte, 1) == 1, byte != 0x0A, byte != 0x0D { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

#if canImport(Glibc)
private typealias SignalHandler = __sighandler_t
#else
private typealias SignalHandler = sig_t
#endif

/// The terminal settings to put back if a signal ends the process while echo is off.
private enum TerminalRestore {
    nonisolated(unsafe) static var descriptor: Int32 = -1
    nonisolated(unsafe) static var settings = termios()
    nonisolated(unsafe) static var previous: [SignalHandler?] = []
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    static func arm(_ tty: Int32, _ saved: termios) {
        descriptor = tty
        settings = saved
        previous = signals.map { signalNumber in
            signal(signalNumber) { received in
                if TerminalRestore.descriptor >= 0 {
                    _ = tcsetattr(TerminalRestore.descriptor, TCSANOW, &TerminalRestore.settings)
                }
                // Whatever was there before (a cleanup of temporary files, or the default) runs next.
                let index = TerminalRestore.signals.firstIndex(of: received)!
                signal(received, TerminalRestore.previous[index])
                raise(received)
            }
        }
    }

    static func disarm() {
        descriptor = -1
        for (signalNumber, handler) in zip(signals, previous) { signal(signalNumber, handler) }
        previous = []
    }
}
