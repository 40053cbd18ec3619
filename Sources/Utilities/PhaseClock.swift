#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall and processor time between named points of a command, written to standard error when the environment
/// variable `VCF_PHASES` is set: the profile of a whole process phase by phase, so a change to one phase is
/// measured where users see it (`VCF_PHASES=1 vcf dedupe book.vcf -n`). Each line also gives the page faults
/// of the phase and the peak memory at its end: touching new memory costs system time, and says which phase holds
/// it. Unset, a mark costs a flag test.
package enum PhaseClock {
    private static let enabled = getenv("VCF_PHASES") != nil
    // Marks come from the thread that runs the command, one after another.
    nonisolated(unsafe) private static var last: Reading?

    private struct Reading {
        var wall: Double
        var processor: Double
        var faults: Int
        var peakMegabytes: Int
    }

    private static func now() -> Reading {
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
        #if canImport(Darwin)
        let peak = Int(usage.ru_maxrss) >> 20  // bytes on Darwin
        #else
        let peak = Int(usage.ru_maxrss) >> 10  // kilobytes on Linux
        #endif
        return Reading(
            wall: Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9, processor: seconds + micro / 1e6,
            faults: Int(usage.ru_minflt), peakMegabytes: peak)
    }

    /// Ends the phase `name`, begun at the mark before (the first mark only starts the clock).
    package static func mark(_ name: @autoclosure () -> String) {
        guard enabled else { return }
        let time = now()
        if let last {
            let wall = Int((time.wall - last.wall) * 1000)
            let processor = Int((time.processor - last.processor) * 1000)
            let line =
                "phase \(name()): \(wall) ms wall, \(processor) ms processor, \(time.faults - last.faults) page faults, "
                + "\(time.peakMegabytes) MB peak\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
        last = time
    }
}
