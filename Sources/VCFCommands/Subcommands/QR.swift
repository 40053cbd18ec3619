import CardQR
import ContactFormats
import ContactModel
import QRCode
import UserFiles

/// `vcf qr`: one card as a QR code phones can scan, drawn on the terminal or written as PNG or SVG.
enum QR {
    static let configuration = CommandConfiguration(
        name: "qr", abstract: "share a card as a QR code: on the terminal, or as PNG or SVG",
        options: [spec], help: { help }, run: { try run($0, io: $1) })

    static let spec = Arguments.Spec(
        flags: [.help, .force],
        options: [.output, .format, .maxVersion, .level, .scale, .from, .charset],
        aliases: ["-h": .help, "--output": .output, "-f": .format])

    /// What is written: an image file or the terminal drawing.
    enum Format: String, CaseIterable {
        case png, svg, text
    }

    static func run(_ arguments: [[UInt8]], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: spec)
        if parsed.flags.contains(.help) {
            io.write(help)
            return ExitCode.success
        }
        guard parsed.positionals.count <= 1 else { throw UsageError(Message.oneInput(parsed.positionals.count)) }
        let output = parsed.path(.output).flatMap { $0.isStandardStream ? nil : $0 }
        let format = try Self.format(parsed.option(.format), output: output)
        if format == .png && output == nil && io.outputIsTerminal {
            throw UsageError(Message.pngToTerminal)
        }
        let fitter = CardQRFitter(
            maxVersion: try integer(parsed.option(.maxVersion), "--max-version", 1...40) ?? 20,
            level: try level(parsed.option(.level)) ?? .medium)
        let scale = try integer(parsed.option(.scale), "--scale", 1...QRCode.maxScale) ?? 8
        var forced: ContactFormat?
        if let from = parsed.option(.from) {
            guard let inputFormat = ContactFormat(rawValue: from) else { throw UsageError(Message.badFrom(from)) }
            forced = inputFormat
        }

        var reader = InputReader(io: io, forcedFormat: forced, charset: try InputReader.charset(parsed))
        var first: (contact: Contact, location: String)?
        var count = 0
        try reader.forEachCard(in: parsed.positionals) { card, source in
            count += 1
            if first == nil { first = (card.contact, "\(source):\(max(card.raw.beginLine, 1))") }
        }
        guard let first else {
            if reader.ioFailures > 0 { return ExitCode.ioFailure }
            io.error(Message.noCard((parsed.positionals.first ?? .standardStream).description))
            return ExitCode.problems
        }
        guard count == 1 else { throw UsageError(Message.tooManyCards(count)) }
        let location = first.location

        let fit: CardQRFit
        do {
            fit = try fitter.fit(first.contact)
        } catch {
            io.error(Message.failed(location, error))
            return error.code == .encoder ? ExitCode.ioFailure : ExitCode.problems
        }
        if !fit.dropped.isEmpty { io.error(Message.dropped(location, fit.dropped)) }

        let bytes: [UInt8]
        switch format {
        case .png:
            do { bytes = try fit.code.png(scale: scale) } catch {
                io.error(Message.encoderFailed(location, error))
                return ExitCode.ioFailure
            }
        case .svg:
            bytes = Array(fit.code.svg(scale: scale).utf8)
        case .text:
            let toTerminal = output == nil && io.outputIsTerminal
            let colors = toTerminal && !noColor(io) ? QRCode.TerminalColors.explicit : .none
            if toTerminal && colors == .none { io.error(Message.drawnWithoutColor) }
            bytes = Array(fit.code.halfBlocks(colors: colors).utf8)
        }
        try CommandOutput.write(bytes, to: output, io: io, options: WriteOptions.from(parsed, io: io))
        io.error(Message.summary(location, fit, fitter: fitter))
        return reader.errorCount > 0 ? ExitCode.problems : ExitCode.success
    }

    /// `--format`, else the output's extension, else the terminal drawing.
    static func format(_ option: String?, output: UserPath?) throws -> Format {
        if let option {
            guard let format = Format(rawValue: option.lowercased()) else {
                throw UsageError(Message.badFormat(option))
            }
            return format
        }
        guard let output else { return .text }
        let lower = String(decoding: output.lastComponent, as: UTF8.self).lowercased()
        if lower.hasSuffix(".png") { return .png }
        if lower.hasSuffix(".svg") { return .svg }
        if lower.hasSuffix(".txt") { return .text }
        throw UsageError(Message.unknownExtension(output.description))
    }

    static func level(_ option: String?) throws -> ErrorCorrection? {
        guard let option else { return nil }
        guard let level = ErrorCorrection(rawValue: option.uppercased()) else {
            throw UsageError(Message.badLevel(option))
        }
        return level
    }

    static func integer(_ option: String?, _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
        guard let option else { return nil }
        guard let value = Int(option), range.contains(value) else {
            throw UsageError(Message.badInteger(name, option, range))
        }
        return value
    }

    /// NO_COLOR (any non-empty value) and TERM=dumb turn colour off, as https://no-color.org asks.
    static func noColor(_ io: CommandIO) -> Bool {
        !(io.environment["NO_COLOR"] ?? "").isEmpty || io.environment["TERM"] == "dumb"
    }
}

extension QR {
    /// Every line `vcf qr` prints for a person, in one place. Card data never appears here: only file names,
    /// property names and figures.
    enum Message {
        static func oneInput(_ count: Int) -> String {
            "qr takes one input (a file or - for standard input), not \(count)"
        }
        static let pngToTerminal = "a PNG is not for the terminal: write it with -o card.png, or pipe it"
        static func badFrom(_ value: String) -> String {
            let names = ContactFormat.allCases.map(\.rawValue)
            return "--from takes \(names.dropLast().joined(separator: ", ")) or \(names.last!), not \(value)"
        }
        static func badFormat(_ value: String) -> String { "--format takes png, svg or text, not \(value)" }
        static func unknownExtension(_ path: String) -> String {
            "cannot tell the format of \(path) from its name: name it .png, .svg or .txt, or give --format"
        }
        static func badLevel(_ value: String) -> String { "--level takes L, M, Q or H, not \(value)" }
        static func badInteger(_ name: String, _ value: String, _ range: ClosedRange<Int>) -> String {
            "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not \(value)"
        }
        static func noCard(_ source: String) -> String { "\(source): error: no card in the input" }
        static func tooManyCards(_ count: Int) -> String {
            "qr takes one card, but the input holds \(count) cards; split them with vcf convert --split DIR"
        }
        static func dropped(_ location: String, _ fields: [DroppedField]) -> String {
            "\(location): left out of the QR code: \(fields.map(\.description).joined(separator: ", "))"
        }
        static let drawnWithoutColor =
            "note: drawn without colour (NO_COLOR or TERM=dumb), for a dark background; on a light background it"
            + " shows inverted, so write an image with -o card.png"
        static func summary(_ location: String, _ fit: CardQRFit, fitter: CardQRFitter) -> String {
            let code = fit.code
            return
                "\(location): QR code version \(code.version), \(code.size)x\(code.size) modules, level \(code.level):"
                + " \(fit.text.count) of \(fit.capacity) bytes up to version \(fitter.maxVersion)"
                + (code.declaresUTF8 ? " (UTF-8)" : "")
        }
        static func encoderFailed(_ location: String, _ error: QRCodeError) -> String {
            "\(location): error: \(error.message)"
        }
        static func failed(_ location: String, _ error: CardQRError) -> String {
            var text = "\(location): error: \(error)"
            if error.code == .doesNotFit {
                var ways: [String] = []
                if let version = error.smallestVersion, version > error.maxVersion {
                    ways.append("--max-version \(version) (denser codes scan less reliably)")
                }
                if error.fitsAtLevelL { ways.append("--level L (less error correction)") }
                if !ways.isEmpty { text += "; or allow \(ways.joined(separator: " or "))" }
            }
            return text
        }
    }

    /// The drop order, least important first, from the library's one table.
    static var dropOrder: String {
        QRDropTier.allCases.reversed().map(\.summary).joined(separator: "; ")
    }

    static var help: String {
        """
        vcf qr: share a card as a QR code that phones can scan.

        Examples:
          vcf qr card.vcf                       draw the code on the terminal
          vcf qr card.vcf -o card.png           write a PNG (8 pixels a module)
          vcf qr card.vcf -o card.svg           write an SVG
          vcf qr card.json --level Q            more error correction, for print
          vcf qr card.vcf --max-version 25      allow a denser code

        Usage: vcf qr [INPUT|-] [-o OUT.png|OUT.svg|OUT.txt] [--format png|svg|text] [--level L|M|Q|H]
                      [--max-version N] [--scale PX] [--from vcard|jcard|json|csv] [--charset NAME] [--force]

        The input holds one card, in any format vcf convert reads. The code holds the card as vCard 3.0
        text, unfolded, without its photo. When that is too large for the code, fields give way, least
        important first:
        \(wrapped(dropOrder + ".", indent: "  ", width: 104))
        A field is left out only when it does not fit beside the ones more important than it. The name, the
        first phone and the first email are never left out: a card too large with them is an error that says
        what would have to go. What was left out is listed on stderr.

        Options:
          -o, --output OUT    write OUT (replaced atomically, keeping its owner and mode); the format follows
                              its extension
          --force             replace OUT even when it is read-only
          -f, --format F      png, svg or text (the half-block drawing); text is the default without -o
          --level L           error correction: L (7%), M (15%, default), Q (25%) or H (30%)
          --max-version N     the largest code allowed, 1 to 40 (default 20: 97x97 modules, which phones
                              read quickly from a screen)
          --scale PX          pixels a module in PNG and SVG, 1 to \(QRCode.maxScale) (default 8)
          --from FORMAT       the input's format when it cannot be told from its content
          --charset NAME      the charset of vCard text that is not UTF-8 and declares none (as vcf convert)

        On a terminal the code is drawn black on white with colour codes, so it scans on light and dark
        themes alike; with NO_COLOR or TERM=dumb it is drawn without colour, for a dark background.

        Exit codes: 0 success, 1 the card cannot fit or has errors, or the input holds no card,
        2 input/output failure, 64 usage (including an input with more than one card).

        """
    }

    /// `text` broken at spaces into lines of at most `width` columns, each after `indent`.
    static func wrapped(_ text: String, indent: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && indent.count + line.count + 1 + word.count > width {
                lines.append(indent + line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(indent + line) }
        return lines.joined(separator: "\n")
    }
}
