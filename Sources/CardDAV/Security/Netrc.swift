#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `.netrc` file as curl and ftp read it: `machine HOST login NAME password SECRET`, a `default` entry, and
/// `macdef` blocks skipped. Values may be double-quoted (with `\"` and `\\` inside); a line starting with `#`
/// is a comment.
public struct Netrc: Sendable {
    /// One entry.
    public struct Entry: Sendable, Equatable {
        /// The host, nil for `default`.
        public var machine: String?
        /// The user name.
        public var login: String?
        /// The password.
        public var password: String?

        /// An entry for `machine` (nil for `default`).
        public init(machine: String?, login: String? = nil, password: String? = nil) {
            self.machine = machine
            self.login = login
            self.password = password
        }
    }

    /// The entries in file order.
    public var entries: [Entry]

    /// The file at `path`, or nil when it cannot be read.
    public init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(text: String(decoding: data, as: UTF8.self))
    }

    /// The entries of `text`.
    public init(text: String) {
        var tokens = Self.tokens(text)[...]
        var entries: [Entry] = []
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                entries.append(Entry(machine: tokens.popFirst() ?? ""))
            case "default":
                entries.append(Entry(machine: nil))
            case "login":
                let value = tokens.popFirst()
                if !entries.isEmpty { entries[entries.count - 1].login = value }
            case "password":
                let value = tokens.popFirst()
                if !entries.isEmpty { entries[entries.count - 1].password = value }
            case "account":
                _ = tokens.popFirst()
            default:
                continue
            }
        }
        self.entries = entries
    }

    /// The entry for `host` (and `login`, when given): the first machine entry that matches, else `default`.
    public func entry(host: String, login: String?) -> Entry? {
        let host = host.lowercased()
        func matches(_ entry: Entry) -> Bool { login == nil || entry.login == login }
        if let machine = entries.first(where: { $0.machine?.lowercased() == host && matches($0) }) { return machine }
        return entries.first { $0.machine == nil && matches($0) }
    }

    /// The file's words, with `macdef` bodies (up to a blank line) and comment lines left out.
    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }[...]
        while let line = lines.popFirst() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("#") { continue }
            let words = Self.words(line)
            tokens += words
            if words.first == "macdef" {
                while let body = lines.popFirst(), !body.trimmingCharacters(in: .whitespaces).isEmpty {}
            }
        }
        return tokens
    }

    private static func words(_ line: Substring) -> [String] {
        var words: [String] = []
        var iterator = line.makeIterator()
        var current: String?
        var quoted = false
        while let c = iterator.next() {
            if quoted {
                if c == "\\", let next = iterator.next() {
                    current!.append(next)
                } else if c == "\"" {
                    quoted = false
                } else {
                    current!.append(c)
                }
            } else if c == " " || c == "\t" {
                if let word = current { words.append(word) }
                current = nil
            } else if c == "\"" {
                quoted = true
                current = current ?? ""
            } else {
                current = (current ?? "") + String(c)
            }
        }
        if let word = current { words.append(word) }
        return words
    }
}
