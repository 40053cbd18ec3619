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
            case "convert": return try Convert.run(rest, io: io)
            case "preview": return try Preview.run(rest, io: io)
            case "photo": return try PhotoCommand.run(rest, io: io)
            case "merge": return try Merge.run(rest, io: io)
            case "dedupe": return try Merge.dedupe(rest, io: io)
            case "lint": return try Lint.run(rest, io: io)
            case "qr": return try QR.run(rest, io: io)
            case "help", "-h", "--help":
                switch rest.first.map({ String(decoding: $0, as: UTF8.self) }) {
                case nil: io.write(Help.main)
                case "convert": io.write(Help.convert)
                case "preview": io.write(Help.preview)
                case "photo": io.write(Help.photo)
                case "merge": io.write(Help.merge)
                case "dedupe": io.write(Help.dedupe)
                case "lint": io.write(Lint.help)
                case "qr": io.write(QR.help)
                case let other?: throw UsageError("no command named \(TerminalText.sanitized(other))")
                }
                return ExitCode.success
            case "--version":
                io.write(Help.version)
                return ExitCode.success
            default:
                let suggestion =
                    Arguments.nearest(
                        command, in: ["convert", "preview", "photo", "merge", "dedupe", "lint", "qr", "help"]
                    )
                    .map { "; did you mean \($0)?" } ?? ""
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
