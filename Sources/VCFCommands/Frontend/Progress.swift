#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress line on stderr for long work: cards done, cards per second and time left, redrawn in place.
///
/// It appears only on a terminal (never in a pipe or a log, never with `TERM=dumb`), and only once the work
/// has passed `cardThreshold` cards or `secondThreshold` seconds, so short runs print nothing extra.
final class ProgressLine {
    /// Cards after which the line appears, whatever the time.
    static let cardThreshold = 10_000
    /// Seconds after which the line appears, whatever the count.
    static let secondThreshold = 1.0
    /// The shortest time between redraws.
    static let redrawInterval = 0.1

    private let io: CommandIO
    private let enabled: Bool
    private let clock: () -> Double
    private let start: Double
    private let totalBytes: Int?
    private var lastDraw = -Double.infinity

    /// A progress line for work over `totalBytes` of input (nil when unknown, as for standard input).
    init(io: CommandIO, totalBytes: Int?, clock: @escaping () -> Double = ProgressLine.monotonicSeconds) {
        self.io = io
        self.enabled = io.errorIsTerminal && io.environment["TERM"] != "dumb"
        self.clock = clock
        self.start = clock()
        self.totalBytes = totalBytes
    }

    /// Records that `cards` cards are done, having consumed `bytesDone` bytes of the input.
    func update(cards: Int, bytesDone: Int) {
        // Reading the clock for every card would cost more than the line is worth.
        guard enabled, cards & 255 == 0 else { return }
        let now = clock()
        let elapsed = now - start
        guard cards >= Self.cardThreshold || elapsed >= Self.secondThreshold, now - lastDraw >= Self.redrawInterval
        else { return }
        lastDraw = now
        let fraction = totalBytes.map { $0 > 0 ? Double(bytesDone) / Double($0) : 1 }
        io.standardError("\r" + Self.text(cards: cards, elapsed: elapsed, fractionDone: fraction) + "\u{1B}[K")
        io.progressLineShown = true
    }

    /// Shows what a long step is doing (`matching 10,000 cards against 100,000…`), for work done in bulk
    /// where cards are not counted one by one; the caller decides that the work is large enough.
    func phase(_ text: String) {
        guard enabled else { return }
        io.standardError("\r" + text + "\u{1B}[K")
        io.progressLineShown = true
    }

    /// Clears the line, so what follows on stderr starts on a clean line.
    func finish() {
        if io.progressLineShown { io.standardError("\r\u{1B}[K") }
        io.progressLineShown = false
    }

    /// `12,345 cards · 41,150 cards/s · 3 s left`; time left is projected from the share of bytes read.
    static func text(cards: Int, elapsed: Double, fractionDone: Double?) -> String {
        var parts = ["\(grouped(cards)) cards"]
        if elapsed > 0 { parts.append("\(grouped(Int((Double(cards) / elapsed).rounded()))) cards/s") }
        if let fraction = fractionDone, fraction > 0, fraction < 1 {
            let left = elapsed * (1 - fraction) / fraction
            parts.append(
                left < 60
                    ? "\(Int(left.rounded(.up))) s left"
                    : "\(Int(left / 60)) min \(Int(left.truncatingRemainder(dividingBy: 60))) s left")
        }
        return parts.joined(separator: " · ")
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// Seconds on the monotonic clock.
    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
