extension Array where Element: AnyObject {
    /// Calls `body` with the object at `index`, lent rather than retained: the array holds it for the call.
    ///
    /// The loops that compare one card with each of its candidates read a million objects from a list of shared
    /// ones; retaining and releasing each is two atomic writes to a line other threads read, which cost a merge
    /// or dedupe more than some of the comparisons. The array must not change while `body` runs.
    @inlinable
    package func withElement<R>(at index: Int, _ body: (Element) throws -> R) rethrows -> R {
        try Unmanaged.passUnretained(self[index])._withUnsafeGuaranteedRef(body)
    }
}
