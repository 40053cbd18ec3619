/// A small command-line parser: flags, options with values (`-o FILE`, `--to=json`), `--` and positionals.
/// Unknown options are usage errors that suggest the nearest known one.
struct Arguments {
    struct Spec {
        var flags: Set<String>
        var options: Set<String>
        var aliases: [String: String] = [:]
    }

    var flags: Set<String> = []
    var options: [String: String] = [:]
    var positionals: [String] = []

    static func parse(_ arguments: [String], spec: Spec) throws -> Arguments {
        var result = Arguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            name = spec.aliases[name] ?? name
            if spec.flags.contains(name) {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                result.flags.insert(name)
            } else if spec.options.contains(name) {
                if let inlineValue {
                    result.options[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    result.options[name] = arguments[index]
                    index += 1
                }
            } else {
                let known = Array(spec.flags) + Array(spec.options) + spec.aliases.keys.filter { $0.hasPrefix("--") }
                let suggestion = nearest(name, in: known).map { "; did you mean \($0)?" } ?? ""
                throw UsageError("unknown option \(name)\(suggestion)")
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
