import TerminalText
import UserFiles

/// A small command-line parser over the arguments' bytes: flags, options with values (`-o FILE`,
/// `--to=json`), `--` and positionals. Paths keep their bytes (a name that is not UTF-8 names the same file);
/// other values are read as text. Unknown options are usage errors that suggest the nearest known one.
struct Arguments {
    struct Spec {
        var flags: Set<String>
        var options: Set<String>
        var aliases: [String: String] = [:]
    }

    var flags: Set<String> = []
    private var values: [String: [UInt8]] = [:]
    private var positionalBytes: [[UInt8]] = []

    /// The value of option `name` as text (bytes that are not UTF-8 become U+FFFD); for keywords and numbers.
    func option(_ name: String) -> String? { values[name].map { String(decoding: $0, as: UTF8.self) } }

    /// The value of option `name` as a path, its bytes as given.
    func path(_ name: String) -> UserPath? { values[name].map { UserPath(bytes: $0) } }

    /// The positional arguments as paths.
    var positionals: [UserPath] { positionalBytes.map { UserPath(bytes: $0) } }

    static func parse(_ arguments: [[UInt8]], spec: Spec) throws -> Arguments {
        var result = Arguments()
        var index = 0
        var onlyPositionals = false
        let dash = UInt8(ascii: "-")
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == [dash] || argument.first != dash {
                result.positionalBytes.append(argument)
                continue
            }
            if argument == [dash, dash] {
                onlyPositionals = true
                continue
            }
            var nameBytes = argument[...]
            var inlineValue: [UInt8]?
            if argument.starts(with: [dash, dash]), let equals = argument.firstIndex(of: UInt8(ascii: "=")) {
                nameBytes = argument[..<equals]
                inlineValue = Array(argument[(equals + 1)...])
            }
            var name = String(decoding: nameBytes, as: UTF8.self)
            name = spec.aliases[name] ?? name
            if spec.flags.contains(name) {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                result.flags.insert(name)
            } else if spec.options.contains(name) {
                if let inlineValue {
                    result.values[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    result.values[name] = arguments[index]
                    index += 1
                }
            } else {
                let known = Array(spec.flags) + Array(spec.options) + spec.aliases.keys.filter { $0.hasPrefix("--") }
                let suggestion = nearest(name, in: known).map { "; did you mean \($0)?" } ?? ""
                throw UsageError("unknown option \(TerminalText.sanitized(name))\(suggestion)")
            }
        }
        return result
    }

    /// The known option closest to `name` by edit distance, if it is close enough to be a typo.
    static func nearest(_ name: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(name, $0)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let best = scored.first, best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

/// A command-line mistake: reported with the usage line, exit 64.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
