import Dispatch
import Foundation

/// Work spread over every processor: the package's one way to run independent pieces of work in parallel
/// (matching a large book's cards, a photo's rows). ParallelCardReader's worker pool is the other shape, a
/// bounded pipeline that streams segments of a file in order, and stays beside the reader it serves.
package enum Concurrently {
    /// Runs `body` for each of `0..<count` on all processors and returns when every one has finished.
    package static func forEach(_ count: Int, _ body: @Sendable (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: count, execute: body)
    }

    /// `transform` applied to each of `items`, in chunks of `chunk` on all processors; the same result as `map`.
    public static func map<T: Sendable, R: Sendable>(
        _ items: [T], chunk: Int = 512,
        _ transform: @Sendable (T) -> R
    ) -> [R] {
        let chunks = (items.count + chunk - 1) / chunk
        guard chunks > 1 else { return items.map(transform) }
        // Each result is made in its place in the list returned. Lists made for each chunk and then joined copied
        // every result once more, and a result holding references (a card, its match keys) was retained on the
        // way and released with its chunk's list: some seven atomic pairs per card of a merge that adds 100,000.
        return [R](unsafeUninitializedCapacity: items.count) { buffer, initialized in
            let results = Slots(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                for i in (c * chunk)..<min(items.count, (c + 1) * chunk) {
                    (results.base + i).initialize(to: transform(items[i]))
                }
            }
            initialized = items.count
        }
    }

    /// The list being filled, shared by the workers: each writes only the places of its own chunk, and the list
    /// is read only after every one has finished.
    private struct Slots<R>: @unchecked Sendable {
        let base: UnsafeMutablePointer<R>
    }
}

/// Results of parallel chunks, each written once by its own worker and read after all have finished.
package final class ChunkResults<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [[T]]

    package init(count: Int) { parts = Array(repeating: [], count: count) }

    package func set(_ index: Int, _ part: [T]) {
        lock.lock()
        parts[index] = part
        lock.unlock()
    }

    package func joined() -> [T] { parts.flatMap { $0 } }
}
