import CardIdentity
import CardPhoto
import ContactCSV
import ContactFormats
import ContactModel
import Foundation
import PhotoProcessing
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

/// `vcf convert`: reads cards in any supported format and writes them as vCard 3.0, 4.0 or Contact JSON.
enum Convert {
    static let configuration = CommandConfiguration(
        name: "convert",
        abstract: "read cards in any supported format and write vCard 3.0, 4.0, jCard, JSON or CSV",
        options: [spec], help: { Help.convert }, run: { try run($0, io: $1) })

    static let spec = Arguments.Spec(
        flags: [.help, .ensureUID],
        options: PhotoArguments.options.union([
            .to, .output, .from, .photo, .split, .charset, .toVdir, .user,
        ]),
        aliases: ["-h": .help, "--output": .output])

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

        /// Whether each card's bytes can be made on the reading threads (`DocumentWriter.element`).
        var prepares: Bool { self != .csv }

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

    static func run(_ arguments: [[UInt8]], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: spec)
        if parsed.flags.contains(.help) {
            io.write(Help.convert)
            return ExitCode.success
        }
        let targetName = parsed.option(.to) ?? "vcard3"
        guard let target = Target(rawValue: targetName) else {
            let names = Target.allCases.map(\.rawValue)
            throw UsageError(
                "--to takes \(names.dropLast().joined(separator: ", ")) or \(names.last!), not \(targetName)")
        }
        let split = parsed.path(.split)
        if split != nil && parsed.path(.output) != nil {
            throw UsageError("--split DIR writes one file per card; it cannot be combined with -o")
        }
        // A vdir (--to-vdir) or a collection URL (-o https://...) takes each card as its own item.
        let toVdir = parsed.path(.toVdir)
        if let toVdir { try Place.checkWritableFolder(toVdir, doing: "cannot be written") }
        let bookPlace: Place? =
            toVdir.map { .folder($0.text ?? $0.description) }
            ?? parsed.path(.output).flatMap { Place.url($0) }.map { .collection($0) }
        if bookPlace != nil {
            if toVdir != nil && (parsed.path(.output) != nil || split != nil) {
                throw UsageError("--to-vdir DIR writes one file per card; it cannot be combined with -o or --split")
            }
            if split != nil { throw UsageError("--split writes files; it cannot be combined with -o URL") }
            guard target == .vcard3 || target == .vcard4 else {
                throw UsageError("a vdir or an address book holds vCard; --to takes vcard3 or vcard4 there")
            }
        }
        // `-o` writes one file: a folder there (one that exists, or a name ending in `/`) was refused by the system
        // as "not a directory" or "is a directory", which said nothing of what does write a folder.
        if bookPlace == nil, let output = parsed.path(.output), !output.isStandardStream,
            output.bytes.last == UInt8(ascii: "/") || FileIdentity.of(output)?.isDirectory == true
        {
            throw UsageError(
                "-o writes one file, and \(output) is a folder: --to-vdir \(output) writes a vdir there (a file per "
                    + "card, named by its UID), --split \(output) a file per card")
        }
        var forced: ContactFormat?
        if let from = parsed.option(.from) {
            guard let format = ContactFormat(rawValue: from) else {
                let names = ContactFormat.allCases.map(\.rawValue)
                throw UsageError(
                    "--from takes \(names.dropLast().joined(separator: ", ")) or \(names.last!), not \(from)")
            }
            forced = format
        }
        let photoArguments = try PhotoArguments(parsed)
        let writeOptions = WriteOptions.from(parsed, io: io)
        if let split {
            do {
                try Directories.create(split)
            } catch {
                io.error("\(error)")
                return ExitCode.ioFailure
            }
        }
        var names = split.map { CardFileNames(directory: $0) }
        var splitFailures = 0
        var book: BookOutput?
        if let bookPlace {
            do {
                book = try BookOutput(
                    bookPlace, access: PlaceAccess(io: io, user: parsed.option(.user)), limit: photoArguments.limit)
            } catch {
                return PlaceAccess(io: io).report(error)
            }
        }
        // UIDs made from each card as read, before its photo is fitted, so --max-bytes does not change them.
        var uids = parsed.flags.contains(.ensureUID) ? ContentUIDs() : nil
        var photo: [UInt8]?
        if let path = parsed.path(.photo) {
            guard let bytes = InputReader.readWhole(path, io: io) else { return ExitCode.ioFailure }
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
        var reader = InputReader(io: io, forcedFormat: forced, charset: try InputReader.charset(parsed))
        // Cards written as vCard (a file, a split folder, a vdir, a CardDAV book) must be ones a reader reads back.
        reader.writesVCard = target == .vcard3 || target == .vcard4
        // The output is opened first, so a refusal (a read-only file) comes before any work, and cards are
        // written as they are read.
        let output =
            split == nil && bookPlace == nil
            ? try CommandOutput.open(parsed.path(.output), io: io, options: writeOptions) : nil
        defer { output?.abandon() }
        reader.user = parsed.option(.user)
        var bytes: [UInt8] = []
        var document = DocumentWriter(target)
        let writer = document.vCard
        let elementWriter: VCardWriter? = target == .json ? nil : writer
        // Cards go out a chunk at a time, so memory stays bounded whatever the input's size.
        func flush() throws {
            if bytes.count >= DescriptorWriter.defaultBufferSize {
                try output?.write(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        var inputs = parsed.positionals
        if target == .csv && fitter == nil && uids == nil, let output {
            // Inputs that can be read twice are, so memory stays bounded; others (standard input, a pipe, a
            // collection URL) have their cards spooled to disk until the columns are known, or, when no temporary
            // file can be made, held.
            inputs = reader.expandingFolders(inputs.isEmpty ? [.standardStream] : inputs)
            if let rereadable = RereadableInputs(inputs) {
                return try writeCSV(rereadable, reader: &reader, output: output, io: io)
            }
            if let spool = try? RecordSpool() {
                return try writeSpooledCSV(inputs, spool: spool, reader: &reader, output: output, io: io)
            }
        }
        if fitter == nil && book == nil && names == nil && target.prepares {
            // Each card is read and written on the reading threads, in input order.
            let jCard = target == .jcard
            let prepare: @Sendable (Contact, Int) -> DocumentWriter.Element = { contact, sizeHint in
                if jCard { return .jCard(JCard.Writer.prepare(contact)) }
                return .bytes(DocumentWriter.element(contact, elementWriter, sizeHint: sizeHint))
            }
            if uids != nil {
                // A UID made for a card must differ from those before it, but that order matters only for handing
                // them out: each card is written on the reading threads with its content UID, which it nearly
                // always keeps, and written again here when that UID proves taken.
                let ensure: @Sendable (ReadCard) -> EnsuredCard = { EnsuredCard($0, prepare: prepare) }
                try reader.forEachCard(in: inputs, preparing: ensure) { card, _ in
                    cardCount += 1
                    document.append(encoded: card.handedOut(&uids!, prepare: prepare), to: &bytes)
                    try flush()
                }
            } else {
                let element: @Sendable (ReadCard) -> DocumentWriter.Element = {
                    prepare($0.contact, $0.raw.byteRange.count)
                }
                try reader.forEachCard(in: inputs, preparing: element) { element, _ in
                    cardCount += 1
                    document.append(encoded: element, to: &bytes)
                    try flush()
                }
            }
        } else {
            try reader.forEachCard(in: inputs) { card, source in
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
                    if !writeSplit(
                        contact, line: card.raw.beginLine, source: source, names: &names!, target, writeOptions, io)
                    {
                        splitFailures += 1
                    }
                } else {
                    document.append(contact, to: &bytes)
                    try flush()
                }
            }
        }
        if book != nil {
            let refused = try book!.finish()
            if reader.ioFailures > 0 { return ExitCode.ioFailure }
            return reader.errorCount > 0 || fitFailures > 0 ? ExitCode.problems : refused
        }
        if split != nil {
            if reader.ioFailures > 0 || splitFailures > 0 { return ExitCode.ioFailure }
            return reader.errorCount > 0 || fitFailures > 0 ? ExitCode.problems : ExitCode.success
        }
        guard let output else { return ExitCode.ioFailure }
        if reader.ioFailures > 0 && output.replacesFile {
            // Part of the input is missing: the file keeps what it had rather than part of what was asked.
            output.abandon()
            io.error("\(output.path ?? .standardStream): error: not written, because an input could not be read")
            return ExitCode.ioFailure
        }
        document.finish(into: &bytes)
        try output.write(bytes)
        try output.commit()
        sayLeftOut(document.leftOut, output: output, io: io)
        if reader.ioFailures > 0 { return ExitCode.ioFailure }
        return reader.errorCount > 0 || fitFailures > 0 ? ExitCode.problems : ExitCode.success
    }

    /// Writes one card to its own new file in the split directory; false after reporting a failure.
    private static func writeSplit(
        _ contact: Contact, line: Int, source: UserPath, names: inout CardFileNames, _ target: Target,
        _ options: FileReplacement.Options, _ io: CommandIO
    ) -> Bool {
        var options = options
        options.createOnly = true
        options.backup = false
        let document = target.document([contact])
        // A name taken between the choice and the write (another process) gets the next number.
        for _ in 0..<100 {
            let path = names.path(for: contact, line: line, extension: target.fileExtension)
            do {
                try CommandOutput.writeNew(document, to: path, options: options)
                io.error("\(source):\(max(line, 1)): wrote \(path)")
                return true
            } catch let error as FileError where error.code == EEXIST {
                continue
            } catch {
                io.error("\(error)")
                return false
            }
        }
        return false
    }
}

/// A card prepared on a reading thread for `--ensure-uid`: written with the UID it has, or with the UID its
/// content makes (`ContentUIDs.base(of:)`), to be given another should an earlier card have taken that one.
struct EnsuredCard: Sendable {
    private let element: DocumentWriter.Element
    private let uid: String?
    private let isMade: Bool
    /// The card, for a jCard, whose prepared form holds the UID twice: written again when its UID is taken.
    private let made: Contact?

    init(_ card: ReadCard, prepare: (Contact, Int) -> DocumentWriter.Element) {
        var contact = card.contact
        isMade = ContentUIDs.needsUID(contact)
        if isMade { contact.uid = ContentUIDs.base(of: contact) }
        uid = contact.uid
        element = prepare(contact, card.raw.byteRange.count)
        // Keeping every card until it is handed out, to be freed on another thread, took a third of the time
        // of a file without UIDs: the written bytes are given the other UID instead.
        if isMade, case .jCard = element { made = contact } else { made = nil }
    }

    /// The card as `uids.ensure` would give it, in input order: a UID it has is reserved, a UID made for it is
    /// handed out.
    func handedOut(_ uids: inout ContentUIDs, prepare: (Contact, Int) -> DocumentWriter.Element)
        -> DocumentWriter.Element
    {
        guard isMade, let base = uid else {
            if let uid { uids.reserve(uid) }
            return element
        }
        let given = uids.uid(base: base)
        guard given != base else { return element }
        if var contact = made {
            contact.uid = given
            return prepare(contact, 0)
        }
        guard case .bytes(var bytes) = element, let at = Self.range(of: Array(base.utf8), in: bytes) else {
            preconditionFailure("a card written with the UID \(base) does not hold it")
        }
        // The only place the UID is: a content UID is a hash of the card's content without its UID, which no
        // card holds of itself. It is written as it is (a urn:uuid: URI needs no escaping, and its line is
        // shorter than a fold).
        bytes.replaceSubrange(at, with: given.utf8)
        return .bytes(bytes)
    }

    /// Where `needle` first occurs in `bytes`.
    private static func range(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var start = 0
        while let at = bytes[start...].firstIndex(of: first), at + needle.count <= bytes.count {
            if bytes[at..<at + needle.count].elementsEqual(needle) { return at..<at + needle.count }
            start = at + 1
        }
        return nil
    }
}

/// Writes one document of a `Convert.Target` card by card: vCard, Contact JSON and jCard as the cards come
/// (the bytes `Target.document` gives for all of them), CSV at the end, as its columns come from every card.
struct DocumentWriter {
    let target: Convert.Target
    /// The vCard writer for the target (4.0 for vcard4, 3.0 otherwise).
    let vCard: VCardWriter
    private var json = JSONArrayWriter()
    private var jCard = JCard.Writer()
    private var held: [Contact] = []
    /// What CSV had no column for.
    private(set) var leftOut = ContactCSV.LeftOut()

    init(_ target: Convert.Target) {
        self.target = target
        vCard = VCardWriter(version: target == .vcard4 ? .v4_0 : .v3_0)
    }

    /// What `append(encoded:to:)` takes for `contact`, made on any thread: its vCard as `writer` writes it,
    /// or its Contact JSON element when `writer` is nil. `sizeHint` is the size of the card as read, which
    /// the vCard written is close to, so its bytes are allocated once rather than grown line by line.
    static func element(_ contact: Contact, _ writer: VCardWriter?, sizeHint: Int = 0) -> [UInt8] {
        guard let writer else { return JSONArrayWriter.element(contact) ?? [] }
        var out: [UInt8] = []
        out.reserveCapacity(sizeHint + sizeHint / 8 + 64)
        writer.write(contact, into: &out)
        return out
    }

    /// A card made on a reading thread: its bytes (`element`), or a jCard made ready to append.
    enum Element: Sendable {
        case bytes([UInt8])
        case jCard(JCard.Writer.Prepared)
    }

    /// Appends a card made by `element` or `JCard.Writer.prepare` to `out`.
    mutating func append(encoded element: Element, to out: inout [UInt8]) {
        switch element {
        case .bytes(let bytes): if target == .json { json.append(encoded: bytes, to: &out) } else { out += bytes }
        case .jCard(let prepared): jCard.append(prepared, to: &out)
        }
    }

    /// Appends `contact` to `out` (CSV holds it until `finish`).
    mutating func append(_ contact: Contact, to out: inout [UInt8]) {
        switch target {
        case .vcard3, .vcard4: vCard.write(contact, into: &out)
        case .json: json.append(contact, to: &out)
        case .jcard: jCard.append(contact, to: &out)
        case .csv:
            held.append(contact)
            leftOut.add(ContactCSV.leftOut(contact))
        }
    }

    /// Appends the end of the document to `out`.
    mutating func finish(into out: inout [UInt8]) {
        switch target {
        case .vcard3, .vcard4: break
        case .json: json.finish(into: &out)
        case .jcard: jCard.finish(into: &out)
        case .csv: out += ContactCSV.write(held)
        }
    }
}
