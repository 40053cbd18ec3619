import Dispatch
import Foundation

/// Work spread over every processor, results in input order: matching a large book is embarrassingly parallel
/// (each card's keys, each incoming card's best match), and the machines it runs on have several cores.
package enum Concurrently {
    /// `transform` applied to each of `items`, in chunks of `chunk` on all processors; the same result as `map`.
    public static func map<T: Sendable, R: Sendable>(
        _ items: [T], chunk: Int = 512,
        _ transform: @Sendable (T) -> R
    ) -> [R] {
        let chunks = (items.count + chunk - 1) / chunk
        guard chunks > 1 else { return items.map(transform) }
        let results = ChunkResults<R>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            results.set(c, items[(c * chunk)..<min(items.count, (c + 1) * chunk)].map(transform))
        }
        return results.joined()
    }
}

/// Results of parallel chunks, each written once by its own worker and read after all have finished.
final class ChunkResults<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [[T]]

    init(count: Int) { parts = Array(repeating: [], count: count) }

    func set(_ index: Int, _ part: [T]) {
        lock.lock()
        parts[index] = part
        lock.unlock()
    }

    func joined() -> [T] { parts.flatMap { $0 } }
}
