import ContactModel
import ContactPresentation
import PhotoProcessing
import UserFiles
import VCardFormat

/// `vcf preview`: each card as a receiving app shows it, as text, JSON or an HTML page.
enum Preview {
    static let configuration = CommandConfiguration(
        name: "preview",
        abstract: "show each card as text, JSON or an HTML page: photo, name, title and company first",
        options: [spec], help: { Help.preview }, run: { try run($0, io: $1) })

    static let spec = Arguments.Spec(
        flags: [.help, .photo, .noPhoto, .includePhoto, .force],
        options: [.format, .output, .charset],
        aliases: ["-h": .help, "--output": .output, "-f": .format])

    enum Format: String {
        case text, json, html
    }

    /// Thumbnails are this many pixels on their longest edge: one column per pixel, two pixels per row.
    static let thumbnailEdge = 20

    static func run(_ arguments: [[UInt8]], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: spec)
        if parsed.flags.contains(.help) {
            io.write(Help.preview)
            return ExitCode.success
        }
        let formatName = parsed.option(.format) ?? "text"
        guard let format = Format(rawValue: formatName) else {
            throw UsageError("--format takes text, json or html, not \(formatName)")
        }
        if parsed.flags.contains(.photo) && parsed.flags.contains(.noPhoto) {
            throw UsageError("--photo and --no-photo cannot be given together")
        }
        let outputPath = parsed.path(.output).flatMap { $0.isStandardStream ? nil : $0 }
        let terminal = TerminalStyle(io: io, writesToFile: outputPath != nil)
        let thumbnails =
            parsed.flags.contains(.photo)
            || (!parsed.flags.contains(.noPhoto) && terminal.color && terminal.trueColor)
        let output = try CommandOutput.open(outputPath, io: io, options: WriteOptions.from(parsed, io: io))
        defer { output.abandon() }

        var reader = InputReader(io: io, charset: try InputReader.charset(parsed))
        var first = true
        var cardCount = 0
        var json = JSONArrayWriter()
        var bytes: [UInt8] = []
        // The page is written as it is read: its first card waits only until a second says it is a list.
        var html = HTMLPreview.Writer()
        if format == .json {
            // Each card's JSON is made on the reading threads and written as it comes, in input order.
            let includePhoto = parsed.flags.contains(.includePhoto)
            let prepare: @Sendable (ReadCard) -> [UInt8]? = { card in
                let element =
                    includePhoto
                    ? JSONArrayWriter.element(card.contact)
                    : JSONArrayWriter.element(
                        PreviewJSON.Card(
                            contact: card.contact, photo: photo(of: card.contact, thumbnail: false).summary))
                return element.map(PreviewJSON.escapingHiddenCharacters)
            }
            try reader.forEachCard(in: parsed.positionals, preparing: prepare) { element, _ in
                cardCount += 1
                guard let element else { return }
                json.append(encoded: element, to: &bytes)
                if bytes.count >= DescriptorWriter.defaultBufferSize {
                    try output.write(bytes)
                    bytes.removeAll(keepingCapacity: true)
                }
            }
        } else if format == .html {
            // Each card's article (its photo's base64 included) is made on the reading threads.
            let prepare: @Sendable (ReadCard) -> HTMLPreview.Writer.Entry = { card in
                let contact = card.contact
                return HTMLPreview.Writer.Entry(
                    HTMLPreview.Card(
                        view: CardView(contact, photo: photo(of: contact, thumbnail: false).summary),
                        photo: contact.photo?.data.map { [UInt8]($0) }))
            }
            try reader.forEachCard(in: parsed.positionals, preparing: prepare) { prepared, _ in
                cardCount += 1
                html.append(prepared, to: &bytes)
                if bytes.count >= DescriptorWriter.defaultBufferSize {
                    try output.write(bytes)
                    bytes.removeAll(keepingCapacity: true)
                }
            }
        } else {
            // Each card is drawn on the reading threads (its thumbnail decoded there too).
            let style: TextPreview.Style = terminal.color ? .terminal : .plain
            let prepare: @Sendable (ReadCard) -> [UInt8] = { card in
                let (summary, thumbnail) = photo(of: card.contact, thumbnail: thumbnails)
                return Array(
                    TextPreview.render(CardView(card.contact, photo: summary), thumbnail: thumbnail, style: style).utf8)
            }
            try reader.forEachCard(in: parsed.positionals, preparing: prepare) { chunk, _ in
                cardCount += 1
                if !first { bytes.append(0x0A) }
                first = false
                bytes += chunk
                // A long file previews as it is read, rather than after the last card.
                try output.write(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        // Inputs with no card at all (an empty file, a download cut to nothing) are no card to show: they
        // previewed as nothing, exit 0. Beside inputs with cards, an empty one is only noted.
        let nothing = cardCount == 0
        for empty in reader.emptyInputs {
            io.error(
                "\(InputReader.name(empty)): "
                    + (nothing ? "error: no cards found; there is nothing to preview" : "note: no cards found"))
        }
        let unread = reader.ioFailures + (nothing ? reader.emptyInputs.count : 0)
        if unread > 0 && output.replacesFile {
            output.abandon()
            io.error("\(output.path ?? .standardStream): error: not written, because an input could not be read")
            return ExitCode.ioFailure
        }
        switch format {
        case .text: break
        case .json:
            json.finish(into: &bytes)
            try output.write(bytes)
        case .html:
            html.finish(into: &bytes)
            try output.write(bytes)
        }
        try output.commit()
        if unread > 0 { return ExitCode.ioFailure }
        return reader.errorCount > 0 ? ExitCode.problems : ExitCode.success
    }

    /// The photo's summary with its pixel size when the image can be read, and a thumbnail when asked for.
    /// An unreadable image is still summarised from what the card says; a preview never fails on a photo.
    static func photo(of contact: Contact, thumbnail: Bool) -> (summary: PhotoSummary?, thumbnail: Thumbnail?) {
        guard let photo = contact.photo else { return (nil, nil) }
        var summary = PhotoSummary(photo)
        guard let data = photo.data else { return (summary, nil) }
        let bytes = [UInt8](data)
        guard let info = try? ImageInfo.inspect(bytes) else { return (summary, nil) }
        summary.width = info.displayWidth
        summary.height = info.displayHeight
        if summary.mediaType == nil { summary.mediaType = info.mediaType }
        guard thumbnail, let decoded = try? ImageDecoder.upright(bytes, maxEdge: thumbnailEdge) else {
            return (summary, nil)
        }
        let image = decoded.image
        let pixels: [UInt8]
        let channels: Int
        switch image.channels {
        case 1, 3:
            (pixels, channels) = (image.pixels, image.channels)
        default:
            // Anything else keeps its first three channels (the decoder composites alpha already).
            channels = 3
            pixels = stride(from: 0, to: image.pixels.count, by: image.channels).flatMap { image.pixels[$0..<$0 + 3] }
        }
        return (summary, Thumbnail(width: image.width, height: image.height, channels: channels, pixels: pixels))
    }
}

/// What the terminal on standard output can show: colour only on a terminal, never with `NO_COLOR` or
/// `TERM=dumb`; true colour when `COLORTERM` says so.
struct TerminalStyle {
    var color: Bool
    var trueColor: Bool

    init(io: CommandIO, writesToFile: Bool) {
        let environment = io.environment
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        color = io.outputIsTerminal && !writesToFile && !noColor && environment["TERM"] != "dumb"
        trueColor = ["truecolor", "24bit"].contains(environment["COLORTERM"]?.lowercased() ?? "")
    }
}
