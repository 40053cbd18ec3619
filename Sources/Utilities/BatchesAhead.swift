import Foundation

/// Results made on a thread of their own, batch by batch in order and on every processor, while the thread that
/// takes them does something else: a merge's new cards are written while the book is copied, not after.
///
/// The maker works at most one batch ahead of the batch last taken, so at most three batches are held at once
/// (the one being used, one ready, one being made) however many there are.
package final class BatchesAhead<R: Sendable>: @unchecked Sendable {
    // Every variable below is guarded by `condition`.
    private let condition = NSCondition()
    private var ready: [Int: [R]] = [:]
    /// How many batches were taken.
    private var taken = 0
    private var stopping = false
    private var running = true

    /// The batches, in order.
    package let batches: [Range<Int>]

    /// Starts making `make(i)` for every `i` of `batches`, a batch at a time, each on every processor in chunks of
    /// `chunk`.
    package init(_ batches: [Range<Int>], chunk: Int = 64, make: @escaping @Sendable (Int) -> R) {
        self.batches = batches
        guard !batches.isEmpty else {
            running = false
            return
        }
        let thread = Thread { [self] in
            for b in batches.indices {
                condition.lock()
                while !stopping && b > taken + 1 { condition.wait() }
                let stop = stopping
                condition.unlock()
                if stop { break }
                let made = Concurrently.map(Array(batches[b]), chunk: chunk, make)
                condition.lock()
                ready[b] = made
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        // The maker's stack holds only its loop: the making runs on the dispatch threads.
        thread.start()
    }

    /// The next batch's results, waiting for them; nil after the last.
    package func next() -> [R]? {
        condition.lock()
        defer { condition.unlock() }
        guard taken < batches.count else { return nil }
        while ready[taken] == nil { condition.wait() }
        let made = ready.removeValue(forKey: taken)!
        taken += 1
        condition.broadcast()
        return made
    }

    /// Stops making batches, and returns when the maker has stopped (after the batch it is making, if any).
    package func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
        ready = [:]
    }

    deinit { stop() }
}
