import CardIdentity
import CardPhoto
import ContactCSV
import ContactModel
import Foundation
import PhotoProcessing
import VCardFormat

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// `vcf convert`: reads cards in any supported format and writes them as vCard 3.0, 4.0 or Contact JSON.
enum Convert {
    static let spec = Arguments.Spec(
        flags: ["--help", "--ensure-uid"],
        options: PhotoArguments.options.union(["--to", "-o", "--from", "--photo", "--split", "--to-vdir", "--user"]),
        aliases: ["-h": "--help", "--output": "-o"])

    enum Target: String, CaseIterable {
        case vcard3, vcard4, jcard, json, csv

        /// The file extension of one document in this format, for `--split`.
        var fileExtension: String {
            switch self {
            case .vcard3, .vcard4: "vcf"
            case .jcard, .json: "json"
            case .csv: "csv"
            }
        }

        /// Whether cards can be written as they are read, without holding them all.
        var streams: Bool { self == .vcard3 || self == .vcard4 }

        /// One document holding `contacts`.
        func document(_ contacts: [Contact]) -> [UInt8] {
            switch self {
            case .vcard3: VCardWriter(version: .v3_0).bytes(contacts)
            case .vcard4: VCardWriter(version: .v4_0).bytes(contacts)
            case .jcard: JCard.encode(contacts)
            case .json: ContactJSON.encode(contacts)
            case .csv: ContactCSV.write(contacts)
            }
        }
    }

    static func run(_ arguments: [String], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: spec)
        if parsed.flags.contains("--help") {
            io.write(Help.convert)
            return ExitCode.success
        }
        let targetName = parsed.options["--to"] ?? "vcard3"
        guard let target = Target(rawValue: targetName) else {
            let names = Target.allCases.map(\.rawValue)
            throw UsageError(
                "--to takes \(names.dropLast().joined(separator: ", ")) or \(names.last!), not \(targetName)")
        }
        let split = parsed.options["--split"]
        if split != nil && parsed.options["-o"] != nil {
            throw UsageError("--split DIR writes one file per card; it cannot be combined with -o")
        }
        // A vdir (--to-vdir) or a collection URL (-o https://...) takes each card as its own item.
        let bookPlace: Place? =
            parsed.options["--to-vdir"].map { .folder($0) }
            ?? parsed.options["-o"].flatMap { Place.isURL($0) ? Place($0) : nil }
        if bookPlace != nil {
            if parsed.options["--to-vdir"] != nil && (parsed.options["-o"] != nil || split != nil) {
                throw UsageError("--to-vdir DIR writes one file per card; it cannot be combined with -o or --split")
            }
            if split != nil { throw UsageError("--split writes files; it cannot be combined with -o URL") }
            guard target == .vcard3 || target == .vcard4 else {
                throw UsageError("a vdir or an address book holds vCard; --to takes vcard3 or vcard4 there")
            }
        }
        if let split {
            do {
                try FileManager.default.createDirectory(atPath: split, withIntermediateDirectories: true)
            } catch {
                io.error("\(split): error: cannot create the directory: \(error.localizedDescription)")
                return ExitCode.ioFailure
            }
        }
        var names = split.map { CardFileNames(directory: $0) }
        var splitFailures = 0
        var forced: InputFormat?
        if let from = parsed.options["--from"] {
            guard let format = InputFormat(rawValue: from) else {
                let names = InputFormat.allCases.map(\.rawValue)
                throw UsageError(
                    "--from takes \(names.dropLast().joined(separator: ", ")) or \(names.last!), not \(from)")
            }
            forced = format
        }
        let photoArguments = try PhotoArguments(parsed)
        var book: BookOutput?
        if let bookPlace {
            do {
                book = try BookOutput(
                    bookPlace, access: PlaceAccess(io: io, user: parsed.options["--user"]), limit: photoArguments.limit)
            } catch {
                return PlaceAccess(io: io).report(error)
            }
        }
        // UIDs made from each card as read, before its photo is fitted, so --max-bytes does not change them.
        var uids = parsed.flags.contains("--ensure-uid") ? ContentUIDs() : nil
        var photo: [UInt8]?
        if let path = parsed.options["--photo"] {
            guard let bytes = PhotoCommand.readFile(path, io: io) else { return ExitCode.ioFailure }
            photo = bytes
        }
        // A photo to embed, or a limit to meet, sends every card through the fitter; without either, cards
        // pass through untouched.
        let fitter =
            photo != nil || photoArguments.limit != nil
            ? CardPhotoFitter(
                writer: VCardWriter(version: target == .vcard4 ? .v4_0 : .v3_0),
                options: photoArguments.fitOptions)
            : nil
        var fitFailures = 0
        var cardCount = 0
        var reader = InputReader(io: io, forcedFormat: forced)
        reader.user = parsed.options["--user"]
        let output = bookPlace == nil ? parsed.options["-o"] : nil
        var bytes: [UInt8] = []
        var contacts: [Contact] = []
        let writer = VCardWriter(version: target == .vcard4 ? .v4_0 : .v3_0)
        try reader.forEachCard(in: parsed.positionals) { card, source in
            cardCount += 1
            if photo != nil && cardCount > 1 {
                throw UsageError("--photo gives one card its photo, but the input holds more than one card")
            }
            var contact = card.contact
            uids?.ensure(&contact)
            if let fitter {
                let location = "\(source):\(max(card.raw.beginLine, 1))"
                do {
                    let outcome = try fitter.fit(
                        contact, photo: photo,
                        limit: photoArguments.limit ?? RecordLimit(name: "none"))
                    contact = outcome.contact
                    if let warning = outcome.photo?.warning { io.error("\(location): warning: photo: \(warning)") }
                    io.error(photo != nil ? outcome.description : "\(location): \(outcome.description)")
                } catch let error as CardPhotoError {
                    // The guarantee is the limit: a card that cannot meet it is reported and left out.
                    io.error("\(location): error: \(error); the card was not written")
                    fitFailures += 1
                    return
                } catch let error as PhotoError {
                    io.error("\(location): error: photo: \(error); the card was not written")
                    fitFailures += 1
                    return
                }
            }
            if book != nil {
                var one: [UInt8] = []
                writer.write(contact, into: &one)
                try book!.add(contact, bytes: one, source: "\(source):\(max(card.raw.beginLine, 1))")
            } else if names != nil {
                let path = names!.path(for: contact, line: card.raw.beginLine, extension: target.fileExtension)
                do {
                    try AtomicFile.write(target.document([contact]), to: path)
                    io.error("\(source):\(max(card.raw.beginLine, 1)): wrote \(path)")
                } catch {
                    io.error("\(error)")
                    splitFailures += 1
                }
            } else if target.streams {
                writer.write(contact, into: &bytes)
                // Streaming to stdout keeps memory bounded by a chunk, whatever the input size.
                if output == nil && bytes.count >= 1 << 20 {
                    io.write(bytes)
                    bytes.removeAll(keepingCapacity: true)
                }
            } else {
                contacts.append(contact)
            }
        }
        if book != nil {
            let refused = book!.finish()
            if reader.ioFailures > 0 { return ExitCode.ioFailure }
            return reader.errorCount > 0 || fitFailures > 0 ? ExitCode.problems : refused
        }
        if split != nil {
            if reader.ioFailures > 0 || splitFailures > 0 { return ExitCode.ioFailure }
            return reader.errorCount > 0 || fitFailures > 0 ? ExitCode.problems : ExitCode.success
        }
        if !target.streams { bytes = target.document(contacts) }
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
        return reader.errorCount > 0 || fitFailures > 0 ? ExitCode.problems : ExitCode.success
    }
}
