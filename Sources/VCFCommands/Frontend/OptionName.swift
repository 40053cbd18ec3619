/// A flag or option of the `vcf` command line, declared once here, so that a command asking for one by a
/// misspelt name fails to compile instead of silently reading "not given".
///
/// Not expressible by a string literal on purpose: every name a command declares or reads is one of these.
struct OptionName: Hashable, Sendable {
    /// The name as typed on the command line (`--max-bytes`, `-o`).
    let text: String

    private init(_ text: String) { self.text = text }

    static let accept = OptionName("--accept")
    static let backup = OptionName("--backup")
    static let carddav = OptionName("--carddav")
    static let charset = OptionName("--charset")
    static let countryCode = OptionName("--country-code")
    static let dryRun = OptionName("--dry-run")
    static let ensureUID = OptionName("--ensure-uid")
    static let explain = OptionName("--explain")
    static let fix = OptionName("--fix")
    static let force = OptionName("--force")
    static let format = OptionName("--format")
    static let from = OptionName("--from")
    static let help = OptionName("--help")
    static let includePhoto = OptionName("--include-photo")
    static let into = OptionName("--into")
    static let json = OptionName("--json")
    static let level = OptionName("--level")
    static let maxBytes = OptionName("--max-bytes")
    static let maxEdge = OptionName("--max-edge")
    static let maxVersion = OptionName("--max-version")
    static let noPhoto = OptionName("--no-photo")
    static let output = OptionName("-o")
    static let photo = OptionName("--photo")
    static let prefer = OptionName("--prefer")
    static let review = OptionName("--review")
    static let scale = OptionName("--scale")
    static let split = OptionName("--split")
    static let strict = OptionName("--strict")
    static let to = OptionName("--to")
    static let toVdir = OptionName("--to-vdir")
    static let user = OptionName("--user")
}
