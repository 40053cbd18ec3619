import AddressBooks
import CardDAV
import Foundation
import UserFiles
import VCardFormat
import VCardSyntax
import Vdir

/// Where a command's cards are: one file, a vdir folder, or a CardDAV address book collection.
enum Place: Equatable {
    case file(String)
    case folder(String)
    case collection(URL)

    /// An `http://` or `https://` argument is a collection; an existing folder, or any path ending in `/`, a
    /// vdir; anything else a file.
    init(_ argument: String) {
        if Self.isURL(argument), let url = URL(string: argument) {
            self = .collection(url)
        } else if argument != "-" && Vdir.isFolder(argument) {
            self = .folder(argument)
        } else {
            self = .file(argument)
        }
    }

    /// The place a path argument names; a name that is not UTF-8 is a file.
    init(_ path: UserPath) {
        self = path.text.map { Place($0) } ?? .file(path.description)
    }

    /// Refuses a folder (an existing one, or a path ending in `/`) whose name is not UTF-8 as a vdir to write or
    /// update: a vdir is written by names as text, and such a name was written as its escaped form (`--to-vdir`
    /// made a folder named `dir\xE9`) or taken for a file. Such a folder is read like any other.
    /// - Throws: `FileError` for such a folder.
    static func checkWritableFolder(_ path: UserPath, doing action: String) throws {
        guard path.text == nil, path.bytes.last == UInt8(ascii: "/") || FileIdentity.of(path)?.isDirectory == true
        else { return }
        throw FileError(path, action, detail: "the folder's name is not UTF-8; rename it to write it as a vdir")
    }

    /// The collection URL a path argument is written as, nil when it is not an http(s) URL.
    static func url(_ path: UserPath) -> URL? {
        guard let text = path.text, isURL(text) else { return nil }
        return URL(string: text)
    }

    /// Whether the argument is written as an http(s) URL.
    static func isURL(_ argument: String) -> Bool {
        let lower = argument.prefix(8).lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// Whether the place is kept card by card (a vdir or a collection).
    var isStoredBook: Bool {
        if case .file = self { return false }
        return true
    }
}

/// Opens vdirs and collections for a command: credentials from `--user`, the environment or ~/.netrc, and
/// the messages for what goes wrong.
struct PlaceAccess {
    let io: CommandIO
    /// The user named with `--user`.
    var user: String?

    /// The store at `place` (a folder created when `create` is true), read.
    /// - Throws: `CardDAVError` or `VdirError`.
    func store(_ place: Place, create: Bool, maxBytes: Int? = nil, limitName: String? = nil) throws -> any CardStore {
        switch place {
        case .file(let path):
            throw VdirError(path: path, reason: "is a file, not a folder")
        case .folder(let path):
            return try VdirStore(path: path, create: create) {
                io.error("\(path): waiting for another vcf that is writing this folder…")
            }
        case .collection(let url):
            return try collection(url, maxBytes: maxBytes, limitName: limitName)
        }
    }

    /// The collection at `url`, discovered.
    func collection(_ url: URL, maxBytes: Int? = nil, limitName: String? = nil) throws -> CardDAVStore {
        try ConnectionPolicy.check(url)
        let lookup = CredentialLookup(user: user, environment: io.environment)
        let client = try CardDAVClient(collection: url, credentials: try lookup.credentials(for: url))
        return try CardDAVStore(client: client, maxBytes: maxBytes, limitName: limitName)
    }

    /// Reports a failure to reach or write a place; returns the exit code for it.
    func report(_ error: Error) -> Int32 {
        switch error {
        case let error as CardDAVError: io.error("vcf: error: \(error.message)")
        case let error as VdirError: io.error(error.description)
        default: io.error("vcf: error: \(error)")
        }
        return ExitCode.ioFailure
    }
}

extension InputReader {
    /// The inputs with every folder replaced by its `.vcf` files in name order (a folder that cannot be listed is
    /// reported and counted as an input that failed).
    mutating func expandingFolders(_ paths: [UserPath]) -> [UserPath] {
        var expanded: [UserPath] = []
        for path in paths {
            guard !path.isStandardStream, Place.url(path) == nil, FileIdentity.of(path)?.isDirectory == true else {
                expanded.append(path)
                continue
            }
            do {
                // By their bytes: a folder or a file whose name is not UTF-8 is read like any other.
                let names = try Vdir.cardFileNameBytes(in: path.bytes)
                if names.isEmpty { io.error("\(path): warning: the folder holds no .vcf files") }
                expanded += names.map { path.appending($0) }
            } catch {
                io.error("\(error)")
                countFailure()
            }
        }
        return expanded
    }

    /// Reads every card of the collection at `url`, each named by its own URL in diagnostics.
    mutating func readCollection(_ url: URL, user: String?, _ body: (ReadCard, String) throws -> Void) throws {
        let items: [StoredItem]
        do {
            items = try PlaceAccess(io: io, user: user).collection(url).load()
        } catch let error as CardDAVError {
            io.error("vcf: error: \(error.message)")
            countFailure()
            return
        }
        for item in items {
            let (cards, diagnostics) = VCardDocument.read(item.bytes, name: item.location, charset: charset)
            reportAll(diagnostics)
            for card in cards { try body(card, item.location) }
        }
    }
}
