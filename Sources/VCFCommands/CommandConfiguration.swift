import TerminalText

/// What one `vcf` subcommand declares about itself, in one place: its name, the one-line abstract `vcf help`
/// lists, the flags and options it accepts, its help text and what runs it (as swift-argument-parser's
/// `CommandConfiguration`, written by hand).
struct CommandConfiguration: Sendable {
    /// The name typed after `vcf`.
    let name: String
    /// One line for the command list of `vcf help`.
    let abstract: String
    /// The flags and options it accepts: one spec, or one per subcommand of its own (`photo fit`, `photo extract`).
    let options: [Arguments.Spec]
    /// What `vcf help NAME` and `vcf NAME --help` print.
    let help: @Sendable () -> String
    /// Runs the command on its arguments (after its name) and returns the exit code.
    let run: @Sendable ([[UInt8]], CommandIO) throws -> Int32
}

/// Every `vcf` subcommand, in the order `vcf help` lists them: the one list that dispatch, help and "did you
/// mean" suggestions read.
enum Commands {
    static let all: [CommandConfiguration] = [
        Convert.configuration, Preview.configuration, Lint.configuration, PhotoCommand.configuration,
        Merge.configuration, Merge.dedupeConfiguration, QR.configuration, help,
    ]

    /// `vcf help [COMMAND]`.
    static let help = CommandConfiguration(
        name: "help", abstract: "show help for a command (vcf help convert)", options: [],
        help: { Help.main },
        run: { arguments, io in
            guard let first = arguments.first else {
                io.write(Help.main)
                return ExitCode.success
            }
            let name = String(decoding: first, as: UTF8.self)
            guard let command = named(name), command.name != "help" else {
                throw UsageError("no command named \(TerminalText.sanitized(name))")
            }
            io.write(command.help())
            return ExitCode.success
        })

    /// The command called `name`, if there is one.
    static func named(_ name: String) -> CommandConfiguration? { all.first { $0.name == name } }

    /// The "Commands:" lines of `vcf help`: each name in a column of ten, then its abstract.
    static var list: String {
        all.map { "  " + $0.name + String(repeating: " ", count: max(1, 10 - $0.name.count)) + $0.abstract }
            .joined(separator: "\n")
    }
}
