#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-modify-write of one file (merge, dedupe, lint --fix in place) that never loses another writer's
/// work: the target's lock is held from the read to the rename, and just before the rename the target is
/// checked to be the file that was read (identity and bytes). When another program changed it anyway (one
/// that does not take the lock, such as an editor or a script appending a card), the work is done again on
/// the new content, up to `maxAttempts` times, and then given up with the target left as the other program
/// wrote it.
public struct InPlaceUpdate {
    /// The file as one attempt read it.
    public struct Snapshot {
        /// Its bytes; empty when it does not exist, or when it is read by parts (`file`).
        public var bytes: [UInt8]
        /// The file, to be read by parts, when the update does not read it whole (`readsWhole` false) and it
        /// exists.
        public var file: RandomAccessFile?
        /// Whether it exists.
        public var exists: Bool
        /// Which attempt this is, from 1.
        public var attempt: Int
        fileprivate var identity: FileIdentity?
    }

    /// What an attempt decided.
    public struct Plan<Report> {
        /// What the command reports once the update is done.
        public var report: Report
        /// Writes the new content, or nil when nothing changes. Throwing `TargetChanged` (the file read by
        /// parts turned out to have changed) does the work again, as a change found at the commit does.
        public var write: ((FileReplacement) throws -> Void)?
        /// For a file read by parts (`Snapshot.file`): how many bytes the work read in order and their
        /// `ContentDigest`, which the target must still hold when the new content is put in place.
        public var read: (count: Int, digest: UInt64)?

        /// A plan; `write` nil leaves the file alone.
        public init(
            report: Report, write: ((FileReplacement) throws -> Void)?, read: (count: Int, digest: UInt64)? = nil
        ) {
            self.report = report
            self.write = write
            self.read = read
        }
    }

    /// The path as the user gave it.
    public var given: UserPath
    /// The file behind it (symbolic links resolved).
    public var resolved: UserPath
    /// How the replacement is made (backup, read-only, hooks).
    public var options: FileReplacement.Options
    /// Bounds on reading the file.
    public var limits: ReadLimits
    /// Whether a missing file reads as empty (merge creates its target) or is an error (dedupe, lint).
    public var missingIsEmpty: Bool
    /// Whether each attempt reads the file into `Snapshot.bytes`; false hands the work the file to read by parts
    /// (`Snapshot.file`), so a large file is not held in memory.
    public var readsWhole = true
    /// How many times the work is done before a target that keeps changing is given up.
    public var maxAttempts = 3
    /// Told when an attempt found the target changed and the work starts again.
    public var retrying: ((TargetChanged) -> Void)?

    /// An update of `resolved`, named `given` in messages.
    public init(
        given: UserPath, resolved: UserPath, options: FileReplacement.Options, limits: ReadLimits = .default,
        missingIsEmpty: Bool
    ) {
        self.given = given
        self.resolved = resolved
        self.options = options
        self.limits = limits
        self.missingIsEmpty = missingIsEmpty
    }

    /// Reads the file once, without the lock, for a dry run.
    /// - Throws: `FileError` when it cannot be read.
    public func read() throws -> Snapshot { try snapshot(attempt: 1) }

    /// Runs `work` on the file's content under the lock and puts its result in place; returns the last
    /// attempt's report and what the commit did (nil when nothing was written). `work` throwing `TargetChanged`
    /// (a file read by parts changed while it was read) starts it again, as a change found at the commit does.
    /// - Throws: `FileError` when the file cannot be read, locked or replaced, or kept changing; whatever
    ///   `work` throws.
    public func run<Report>(_ work: (Snapshot) throws -> Plan<Report>) throws -> (
        Report, FileReplacement.Committed?
    ) {
        try FileReplacement.check(given: given, resolved: resolved, options: options)
        let lock = try FileLock.acquire(
            for: resolved, given: given, waiting: options.waitingForLock.map { tell in { tell(given) } })
        defer { lock.release() }
        if lock.isHeld { TemporaryFile.removeStale(in: resolved.directory, for: resolved.lastComponent) }
        var attempt = 1
        while true {
            let snapshot = try snapshot(attempt: attempt)
            do {
                let plan = try work(snapshot)
                guard let write = plan.write else { return (plan.report, nil) }
                let replacement = try FileReplacement(
                    given: given, resolved: resolved, lock: lock, options: options)
                try write(replacement)
                let expectation: FileReplacement.Expectation
                if let identity = snapshot.identity {
                    expectation =
                        plan.read.map { .unchangedDigest(identity, digest: $0.digest, count: $0.count) }
                        ?? .unchanged(identity, content: readsWhole ? snapshot.bytes : nil)
                } else {
                    expectation = .absent
                }
                return (plan.report, try replacement.commit(expecting: expectation))
            } catch let changed as TargetChanged {
                guard attempt < maxAttempts else {
                    throw FileError(
                        given, "kept changing while vcf worked on it",
                        detail: "tried \(maxAttempts) times; it was left as the other program wrote it")
                }
                retrying?(changed)
                attempt += 1
            }
        }
    }

    private func snapshot(attempt: Int) throws -> Snapshot {
        let file: InputFile
        do {
            file = try InputFile.open(resolved)
        } catch let error as FileError where error.code == ENOENT && missingIsEmpty {
            return Snapshot(bytes: [], file: nil, exists: false, attempt: attempt, identity: nil)
        } catch var error as FileError {
            error.path = given
            throw error
        }
        defer { file.close() }
        do {
            guard readsWhole else {
                return Snapshot(
                    bytes: [], file: try RandomAccessFile(file, limits: limits), exists: true, attempt: attempt,
                    identity: file.identity)
            }
            let bytes = try file.readAll(limits: limits)
            return Snapshot(bytes: bytes, exists: true, attempt: attempt, identity: file.identity)
        } catch var error as FileError {
            error.path = given
            throw error
        }
    }
}
