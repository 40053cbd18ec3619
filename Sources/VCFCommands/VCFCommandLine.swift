import TerminalText
import UserFiles

/// The `vcf` command line: dispatches to a subcommand and turns failures into exit codes.
public enum VCFCommandLine {
    /// Runs `vcf` with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        run(arguments: arguments.map { Array($0.utf8) }, io: io)
    }

    /// Runs `vcf` with `arguments` as the bytes the process was given (without the program name).
    public static func run(arguments: [[UInt8]], io: CommandIO) -> Int32 {
        guard let first = arguments.first else {
            io.error(Help.main)
            return ExitCode.usage
        }
        let command = String(decoding: first, as: UTF8.self)
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "-h", "--help": return try Commands.help.run(rest, io)
            case "--version":
                io.write(Help.version)
                return ExitCode.success
            default:
                if let configuration = Commands.named(command) { return try configuration.run(rest, io) }
                let suggestion =
                    Arguments.nearest(command, in: Commands.all.map(\.name)).map { "; did you mean \($0)?" } ?? ""
                throw UsageError("unknown command \(TerminalText.sanitized(command))\(suggestion)")
            }
        } catch let error as UsageError {
            io.error("vcf: error: \(error.message)\nRun `vcf help` for usage.")
            return ExitCode.usage
        } catch let error as FileError {
            io.error(error.description)
            return ExitCode.ioFailure
        } catch {
            io.error("vcf: error: \(error)")
            return ExitCode.ioFailure
        }
    }
}
