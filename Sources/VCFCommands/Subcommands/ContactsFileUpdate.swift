import ContactFormats
import ContactMerge
import ContactModel
import UserFiles

/// The file side of `merge` and `dedupe`: read the contacts file, let the engine work on it, and write the
/// result, in place under the file's lock (done again when another program changes the file meanwhile), or to
/// another output. The commands supply only the engine call and the report.
struct ContactsFileUpdate {
    /// What one pass of the engine made of the file.
    struct Outcome {
        var file: ContactsFile
        /// The cards the new file rewrites, by position; those it leaves out; and those it adds at the end.
        /// The new file is written from them as it is written, not held whole first.
        var replaced: [Int: Contact] = [:]
        var removed: Set<Int> = []
        var added: [Contact] = []
        /// Whether the output differs from the file.
        var changed: Bool

        /// Hands the new file to `sink` piece by piece.
        func write(to sink: (ArraySlice<UInt8>) throws -> Void) throws {
            try file.writeRendered(replacing: replaced, removing: removed, adding: added, to: sink)
        }
    }

    /// The contacts file, as the user named it.
    var source: UserPath
    /// Where the result goes: nil for `source` itself (in place), else a path (`-` for standard output).
    var destination: UserPath?
    /// Whether a missing `source` is an empty book (merge) rather than an error (dedupe).
    var missingIsEmpty: Bool
    var dryRun: Bool
    var countryCode: Int?
    var options: FileReplacement.Options
    let io: CommandIO

    /// Thrown when the file was reported unusable (it has errors, it is not vCard): exit 2, nothing changed.
    struct Refused: Error {}

    /// Reads, computes and writes; returns the last pass's result, and what the commit did (nil when nothing
    /// was written).
    /// - Throws: `FileError` when a file cannot be read, locked or written; `Refused`.
    func run<Result>(_ compute: (ContactsFile) throws -> (Outcome, Result)) throws -> (
        Result, FileReplacement.Committed?
    ) {
        let name = InputReader.name(source)
        if let destination {
            // Another output: the source is only read, the output replaced like any -o.
            guard let bytes = readable(source) else { throw Refused() }
            let (outcome, result) = try compute(try contactsFile(bytes, name: name))
            guard !dryRun else { return (result, nil) }
            let output = try CommandOutput.open(destination, io: io, options: options)
            defer { output.abandon() }
            try outcome.write { try output.write($0) }
            return (result, try output.commit())
        }
        guard case .file(let given, let resolved) = try OutputTarget.resolve(source) else {
            throw FileError(source, "cannot be updated in place", detail: "it is not a regular file")
        }
        var update = InPlaceUpdate(
            given: given, resolved: resolved, options: options, missingIsEmpty: missingIsEmpty)
        update.readsWhole = false
        update.retrying = { io.error("\($0.path): note: changed by another program meanwhile; working on it again") }
        func bytes(_ snapshot: InPlaceUpdate.Snapshot) -> any ContactsFileBytes {
            snapshot.file.map { FileBytes(file: $0) } ?? BytesInMemory(snapshot.bytes)
        }
        if dryRun {
            let snapshot = try update.read()
            let file = try contactsFile(bytes(snapshot), name: name)
            return (try compute(file).1, nil)
        }
        return try update.run { snapshot in
            let file: ContactsFile
            do {
                file = try contactsFile(bytes(snapshot), name: name)
            } catch is ChangedWhileRead {
                // Read again from the start, under the lock still held.
                throw TargetChanged(path: given)
            }
            let (outcome, result) = try compute(file)
            return InPlaceUpdate.Plan(
                report: result,
                write: outcome.changed
                    ? { replacement in
                        do {
                            try outcome.write { try replacement.write($0) }
                        } catch is ContactsFile.ChangedSinceRead {
                            // Read again from the start, as a change found at the commit is.
                            throw TargetChanged(path: given)
                        }
                    } : nil,
                read: snapshot.file == nil ? nil : (outcome.file.byteCount, outcome.file.contentDigest))
        }
    }

    /// `path` to read by parts when it is a file, or read whole (standard input); nil after saying why it cannot
    /// be read.
    private func readable(_ path: UserPath) -> (any ContactsFileBytes)? {
        do {
            let file = try InputFile.open(path)
            defer { file.close() }
            if file.identity.isRegularFile { return FileBytes(file: try RandomAccessFile(file)) }
            return BytesInMemory(try file.readAll())
        } catch {
            io.error("\(error)")
            return nil
        }
    }

    /// A file read by parts changed while it was read (its errors may be the other program's half-written card).
    struct ChangedWhileRead: Error {}

    /// The file's bytes as a `ContactsFile`, or `Refused` after saying why it cannot be updated. A file that
    /// proves unreadable but has `changed` since it was opened (by default: read by parts, and no longer the file
    /// opened) throws `ChangedWhileRead` instead, in place (to be read again), or `Refused` after saying so.
    func contactsFile(_ bytes: any ContactsFileBytes, name: String, changed: (() -> Bool)? = nil) throws
        -> ContactsFile
    {
        func hasChanged() -> Bool {
            if let changed { return changed() }
            guard let file = (bytes as? FileBytes)?.file else { return false }
            return FileIdentity.of(file.path) != file.identity
        }
        let format: ContactFormat
        do {
            format = ContactFormat.detect(try bytes.read(0..<(64 << 10)))
        } catch {
            io.error("\(error)")
            throw Refused()
        }
        guard format == .vcard else {
            io.error(
                "\(name): error: this is \(format == .csv ? "a CSV export" : "JSON"), and merge and dedupe update "
                    + "vCard files; nothing was changed (vcf convert \(name) -o contacts.vcf makes one)")
            throw Refused()
        }
        do {
            return try ContactsFile(source: bytes, name: name, countryCode: countryCode)
        } catch {
            if hasChanged() {
                if destination == nil && !dryRun { throw ChangedWhileRead() }
                io.error("\(name): error: changed by another program while vcf read it; nothing was changed")
                throw Refused()
            }
            io.error("\(error)")
            io.error(
                "\(name): error: the file has errors; nothing was changed (fix them, or run vcf convert to see them)")
            throw Refused()
        }
    }
}

/// A contacts file on disk read by parts, as the merge engine reads one.
struct FileBytes: ContactsFileBytes {
    let file: RandomAccessFile

    func read(_ range: Range<Int>) throws -> [UInt8] { try file.read(range) }
}
