import CardPhoto
import ContactModel
import Foundation
import PhotoProcessing
import TerminalText
import UserFiles
import VCardFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// `vcf photo fit` (an image alone to a byte budget) and `vcf photo extract` (embedded photos to files).
enum PhotoCommand {
    static let configuration = CommandConfiguration(
        name: "photo", abstract: "fit an image to a byte budget, or extract the photos cards carry",
        options: [fitSpec, extractSpec], help: { Help.photo }, run: { try run($0, io: $1) })

    static let fitSpec = Arguments.Spec(
        flags: [.help, .force], options: PhotoArguments.options.union([.output]),
        aliases: ["-h": .help, "--output": .output])
    static let extractSpec = Arguments.Spec(
        flags: [.help], options: [.output, .charset],
        aliases: ["-h": .help, "--output": .output])

    static func run(_ arguments: [[UInt8]], io: CommandIO) throws -> Int32 {
        switch arguments.first.map({ String(decoding: $0, as: UTF8.self) }) {
        case "fit": return try fit(Array(arguments.dropFirst()), io: io)
        case "extract": return try extract(Array(arguments.dropFirst()), io: io)
        case "-h", "--help", nil:
            io.write(Help.photo)
            return arguments.isEmpty ? ExitCode.usage : ExitCode.success
        case let other?:
            let suggestion = Arguments.nearest(other, in: ["fit", "extract"]).map { "; did you mean \($0)?" } ?? ""
            throw UsageError("unknown photo command \(TerminalText.sanitized(other))\(suggestion)")
        }
    }

    static func fit(_ arguments: [[UInt8]], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: fitSpec)
        if parsed.flags.contains(.help) {
            io.write(Help.photo)
            return ExitCode.success
        }
        guard parsed.positionals.count == 1, let input = parsed.positionals.first else {
            throw UsageError("photo fit takes one image")
        }
        guard let output = parsed.path(.output) else {
            throw UsageError("photo fit needs -o OUT.jpg (or -o - for standard output)")
        }
        let photo = try PhotoArguments(parsed)
        guard let limit = photo.limit else { throw UsageError("photo fit needs --max-bytes N or a preset") }
        // For the image alone, a record limit bounds the image too.
        let maxBytes = limit.photoByteBound ?? limit.recordBytes ?? Int.max
        guard let bytes = InputReader.readWhole(input, io: io) else { return ExitCode.ioFailure }
        let result: PhotoFitter.Result
        do {
            result = try PhotoFitter(options: photo.fitOptions).fit(bytes, maxBytes: maxBytes)
        } catch let error as PhotoError {
            io.error("\(input): error: \(error)")
            return error.code == .doesNotFit ? ExitCode.problems : ExitCode.ioFailure
        }
        if let warning = result.warning { io.error("\(input): warning: \(warning)") }
        try CommandOutput.write(result.bytes, to: output, io: io, options: WriteOptions.from(parsed, io: io))
        io.error(result.summary + " of \(ByteCount(maxBytes))")
        return ExitCode.success
    }

    static func extract(_ arguments: [[UInt8]], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: extractSpec)
        if parsed.flags.contains(.help) {
            io.write(Help.photo)
            return ExitCode.success
        }
        guard let directory = parsed.path(.output) else { throw UsageError("photo extract needs -o DIR") }
        do {
            try Directories.create(directory)
        } catch {
            io.error("\(error)")
            return ExitCode.ioFailure
        }
        var reader = InputReader(io: io, charset: try InputReader.charset(parsed))
        var names = CardFileNames(directory: directory)
        var failures = 0
        var written = 0
        // Cards are read on every processor; only those with a photo come back to this thread.
        let prepare: @Sendable (ReadCard) -> (contact: Contact, line: Int)? = { card in
            card.contact.photo?.data == nil ? nil : (card.contact, card.raw.beginLine)
        }
        try reader.forEachCard(in: parsed.positionals, preparing: prepare) { found, source in
            guard let (contact, line) = found, let photo = contact.photo, let data = photo.data else { return }
            let bytes = [UInt8](data)
            let ext = fileExtension(photo.mediaType, data: data)
            // A name taken between the choice and the write (another process) gets the next number.
            for _ in 0..<100 {
                let path = names.path(for: contact, line: line, extension: ext)
                do {
                    try CommandOutput.writeNew(bytes, to: path, options: FileReplacement.Options())
                    written += 1
                    io.error("\(source):\(line): wrote \(path) (\(ByteCount(data.count)) bytes)")
                    return
                } catch let error as FileError where error.code == EEXIST {
                    continue
                } catch {
                    io.error("\(error)")
                    failures += 1
                    return
                }
            }
            failures += 1
        }
        io.error("\(written) photo\(written == 1 ? "" : "s") extracted")
        if reader.ioFailures > 0 || failures > 0 { return ExitCode.ioFailure }
        return reader.errorCount > 0 ? ExitCode.problems : ExitCode.success
    }

    /// The extension for the media type, or from the bytes when the type is missing.
    static func fileExtension(_ mediaType: String?, data: Data) -> String {
        switch mediaType?.lowercased() {
        case "image/jpeg", "image/jpg": return "jpg"
        case "image/png": return "png"
        case "image/gif": return "gif"
        case "image/webp": return "webp"
        case "image/heic": return "heic"
        default:
            if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
            if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
            if data.starts(with: Array("GIF8".utf8)) { return "gif" }
            return "bin"
        }
    }
}
