import TestSupport
import Testing

@testable import VCFCommands

/// The one list of subcommands: dispatch, `vcf help` and the suggestions all read it, and each command's help
/// documents every flag and option the command accepts.
@Suite struct CommandRegistryTests {
    @Test func everyCommandIsListedInTheMainHelpWithItsAbstract() {
        #expect(Commands.all.map(\.name) == ["convert", "preview", "lint", "photo", "merge", "dedupe", "qr", "help"])
        for command in Commands.all {
            #expect(Help.main.contains("\n  \(command.name)"), "\(command.name) missing from vcf help")
            #expect(Help.main.contains(command.abstract), "\(command.name)'s abstract missing from vcf help")
        }
    }

    @Test func everyOptionACommandAcceptsIsInItsHelp() {
        for command in Commands.all {
            let help = command.help()
            for spec in command.options {
                // --help is documented once, in `vcf help`; an option may be documented by its short alias.
                for option in spec.flags.union(spec.options) where option != .help {
                    let spellings = [option.text] + spec.aliases.filter { $0.value == option }.map(\.key)
                    #expect(
                        spellings.contains { help.contains($0) },
                        "vcf \(command.name) accepts \(option.text); its help omits it")
                }
            }
        }
    }

    @Test func helpAndDashDashHelpPrintTheSameText() {
        for command in Commands.all where command.name != "help" {
            let (io, out, _) = CommandIO.capturing()
            #expect(VCFCommandLine.run([command.name, "--help"], io: io) == 0)
            #expect(String(decoding: out(), as: UTF8.self) == command.help(), "vcf \(command.name) --help")
        }
    }

    @Test func aMistypedCommandSuggestsTheNearestRegisteredOne() {
        let (io, _, err) = CommandIO.capturing()
        #expect(VCFCommandLine.run(["dedup"], io: io) == 64)
        #expect(err().contains("did you mean dedupe?"))
    }
}
