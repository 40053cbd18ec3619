import ContactModel
import VCardFormat

/// `vcf convert`: reads cards in any supported format and writes them as vCard 3.0, 4.0 or Contact JSON.
enum Convert {
    static let spec = Arguments.Spec(flags: ["--help"], options: ["--to", "-o", "--output", "--from"],
                                     aliases: ["-h": "--help", "--output": "-o"])

    enum Target: String {
        case vcard3, vcard4, json
    }

    static func run(_ arguments: [String], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: spec)
        if parsed.flags.contains("--help") {
            io.write(Help.convert)
            return ExitCode.success
        }
        let targetName = parsed.options["--to"] ?? "vcard3"
        guard let target = Target(rawValue: targetName) else {
            throw UsageError("--to takes vcard3, vcard4 or json, not \(targetName)")
        }
        var forced: InputFormat?
        if let from = parsed.options["--from"] {
            switch from {
            case "vcard": forced = .vcard
            case "json": forced = .json
            default: throw UsageError("--from takes vcard or json, not \(from)")
            }
        }
        var reader = InputReader(io: io, forcedFormat: forced)
        let output = parsed.options["-o"]
        var bytes: [UInt8] = []
        var contacts: [Contact] = []
        let writer = VCardWriter(version: target == .vcard4 ? .v4_0 : .v3_0)
        try reader.forEachCard(in: parsed.positionals) { card in
            switch target {
            case .json: contacts.append(card.contact)
            case .vcard3, .vcard4:
                writer.write(card.contact, into: &bytes)
                // Streaming to stdout keeps memory bounded by a chunk, whatever the input size.
                if output == nil && bytes.count >= 1 << 20 {
                    io.write(bytes)
                    bytes.removeAll(keepingCapacity: true)
                }
            }
        }
        if target == .json { bytes = ContactJSON.encode(contacts) }
        if let output, output != "-" {
            if reader.ioFailures > 0 && bytes.isEmpty { return ExitCode.ioFailure }
            do {
                try AtomicFile.write(bytes, to: output)
            } catch {
                io.error("\(error)")
                return ExitCode.ioFailure
            }
        } else {
            io.write(bytes)
        }
        if reader.ioFailures > 0 { return ExitCode.ioFailure }
        return reader.errorCount > 0 ? ExitCode.problems : ExitCode.success
    }
}
