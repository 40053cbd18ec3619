import TerminalText
import UserFiles

/// A small command-line parser over the arguments' bytes: flags, options with values (`-o FILE`,
/// `--to=json`), `--` and positionals. Paths keep their bytes (a name that is not UTF-8 names the same file);
/// other values are read as text. Unknown options are usage errors that suggest the nearest known one.
struct Arguments {
    /// The flags and options a command accepts, and other spellings of them (`-h` for `--help`).
    struct Spec {
        var flags: Set<OptionName>
        var options: Set<OptionName>
        var aliases: [String: OptionName] = [:]

        /// The flag or option typed as `text`, directly or through an alias.
        func named(_ text: String) -> OptionName? {
            if let alias = aliases[text] { return alias }
            return flags.first { $0.text == text } ?? options.first { $0.text == text }
        }
    }

    /// The flags given.
    var flags: Set<OptionName> = []
    private var values: [OptionName: [UInt8]] = [:]
    private var positionalBytes: [[UInt8]] = []

    /// The value of option `name` as text (bytes that are not UTF-8 become U+FFFD); for keywords and numbers.
    func option(_ name: OptionName) -> String? { values[name].map { String(decoding: $0, as: UTF8.self) } }

    /// The value of option `name` as a path, its bytes as given.
    func path(_ name: OptionName) -> UserPath? { values[name].map { UserPath(bytes: $0) } }

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
            let name = String(decoding: nameBytes, as: UTF8.self)
            let option = spec.named(name)
            if let option, spec.flags.contains(option) {
                guard inlineValue == nil else { throw UsageError("\(option.text) takes no value") }
                result.flags.insert(option)
            } else if let option, spec.options.contains(option) {
                if let inlineValue {
                    result.values[option] = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(option.text) needs a value") }
                    result.values[option] = arguments[index]
                    index += 1
                }
            } else {
                let known =
                    spec.flags.map(\.text) + spec.options.map(\.text) + spec.aliases.keys.filter { $0.hasPrefix("--") }
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
