#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall and processor time between named points of a command, written to standard error when the environment
/// variable `VCF_PHASES` is set: the profile of a whole process phase by phase, so a change to one phase is
/// measured where users see it (`VCF_PHASES=1 vcf dedupe book.vcf -n`). Unset, a mark costs a flag test.
package enum PhaseClock {
    private static let enabled = getenv("VCF_PHASES") != nil
    // Marks come from the thread that runs the command, one after another.
    nonisolated(unsafe) private static var last: (wall: Double, processor: Double)?

    private static func now() -> (wall: Double, processor: Double) {
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let seconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        let micro = Double(usage.ru_utime.tv_usec) + Double(usage.ru_stime.tv_usec)
        return (Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9, seconds + micro / 1e6)
    }

    /// Ends the phase `name`, begun at the mark before (the first mark only starts the clock).
    package static func mark(_ name: @autoclosure () -> String) {
        guard enabled else { return }
        let time = now()
        if let last {
            let wall = Int((time.wall - last.wall) * 1000)
            let processor = Int((time.processor - last.processor) * 1000)
            let line = "phase \(name()): \(wall) ms wall, \(processor) ms processor\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
        last = time
    }
}
