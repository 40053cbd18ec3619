import Testing

@testable import VCFCommands

/// The progress line: its text, when it appears (terminal only, after 10,000 cards or a second), and that it
/// clears itself.
@Suite struct ProgressTests {
    @Test func textGivesCardsRateAndTimeLeft() {
        #expect(
            ProgressLine.text(cards: 12_345, elapsed: 0.5, fractionDone: 0.25)
                == "12,345 cards · 24,690 cards/s · 2 s left")
        #expect(
            ProgressLine.text(cards: 1_000_000, elapsed: 10, fractionDone: 0.1)
                == "1,000,000 cards · 100,000 cards/s · 1 min 30 s left")
        // Standard input has no known size: no time left.
        #expect(ProgressLine.text(cards: 512, elapsed: 2, fractionDone: nil) == "512 cards · 256 cards/s")
        #expect(
            ProgressLine.grouped(999) == "999" && ProgressLine.grouped(1000) == "1,000"
                && ProgressLine.grouped(-1234) == "-1,234")
    }

    final class Clock: @unchecked Sendable {
        var now = 100.0
    }

    static func drive(terminal: Bool, term: String = "xterm", cards: Int, secondsPerCard: Double) -> String {
        let (io, _, err) = CommandIO.capturing()
        io.errorIsTerminal = terminal
        io.environment = ["TERM": term]
        let clock = Clock()
        let progress = ProgressLine(io: io, totalBytes: cards * 100, clock: { clock.now })
        for card in 1...cards {
            clock.now += secondsPerCard
            progress.update(cards: card, bytesDone: card * 100)
        }
        progress.finish()
        return err()
    }

    @Test func appearsAfterTenThousandCardsOnATerminal() {
        let fast = Self.drive(terminal: true, cards: 20_000, secondsPerCard: 0.000_01)
        let draws = fast.split(separator: "\r").filter { !$0.hasPrefix("\u{1B}[K") }
        #expect(draws.first == "10,240 cards · 100,000 cards/s · 1 s left\u{1B}[K")
        #expect(fast.hasSuffix("\r\u{1B}[K"))
        // Redraws are at least a tenth of a second apart: 0.2 s of work redraws at most a couple of times.
        #expect(draws.count <= 2)
    }

    @Test func appearsAfterASecondWhateverTheCount() {
        let slow = Self.drive(terminal: true, cards: 1_024, secondsPerCard: 0.002)
        // 512 cards take 1.024 s: the first draw.
        #expect(slow.hasPrefix("\r512 cards · 500 cards/s · 2 s left\u{1B}[K\r768 cards"))
    }

    @Test func staysQuietInAPipeOnDumbTerminalsAndForShortWork() {
        #expect(Self.drive(terminal: false, cards: 20_000, secondsPerCard: 0.001).isEmpty)
        #expect(Self.drive(terminal: true, term: "dumb", cards: 20_000, secondsPerCard: 0.001).isEmpty)
        #expect(Self.drive(terminal: true, cards: 5_000, secondsPerCard: 0.000_01).isEmpty)
    }
}

/// A message printed while a progress line is showing starts on a clean line.
@Suite struct ProgressInterruptionTests {
    @Test func anErrorClearsTheLineFirst() {
        let (io, _, err) = CommandIO.capturing()
        io.errorIsTerminal = true
        io.environment = ["TERM": "xterm"]
        let progress = ProgressLine(io: io, totalBytes: nil)
        progress.phase("matching 10,000 cards against 100,000…")
        io.error("book.vcf:12:1: error: something")
        progress.finish()
        #expect(err() == "\rmatching 10,000 cards against 100,000…\u{1B}[K\r\u{1B}[Kbook.vcf:12:1: error: something\n")
    }
}
