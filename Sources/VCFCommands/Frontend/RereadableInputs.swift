import UserFiles

/// Inputs a command reads twice (`convert --to csv`: the columns first, then the rows), each a regular file
/// whose identity is taken before the first reading and compared after each, so a file replaced or changed
/// between the readings is caught rather than written as rows that do not fit the header.
struct RereadableInputs {
    /// The inputs, in order.
    let paths: [UserPath]
    private let identities: [FileIdentity]

    /// The inputs `paths` names; nil unless every one is a regular file (standard input, a pipe, a device and a
    /// collection URL cannot be read again).
    init?(_ paths: [UserPath]) {
        var identities: [FileIdentity] = []
        for path in paths {
            guard !path.isStandardStream, Place.url(path) == nil, let identity = FileIdentity.of(path),
                identity.isRegularFile
            else { return nil }
            identities.append(identity)
        }
        self.paths = paths
        self.identities = identities
    }

    /// The first input that is no longer the file it was, or whose size or modification time differs; nil when
    /// every input is as it was when taken.
    func changed() -> UserPath? {
        for (path, before) in zip(paths, identities) {
            guard let now = FileIdentity.of(path), now.isSameFile(as: before), now.size == before.size,
                now.modified == before.modified
            else { return path }
        }
        return nil
    }

    /// The input that changed; else the only input, when there is one; else nil: for a reading that found other
    /// cards than the first although no input looks changed (a modification time put back).
    func changedOrOnly() -> UserPath? {
        changed() ?? (paths.count == 1 ? paths[0] : nil)
    }
}
