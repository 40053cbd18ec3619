import CardQR
import ContactModel
import Foundation
import QRCode
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

@testable import VCFCommands

/// `vcf qr`: in-process for files, errors and exit codes; the built binary for the photo case and for
/// the drawing as a terminal shows it (tmux).
@Suite struct QRCommandTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let apple = FixturePaths.url("vcard/80-vendor-apple.vcf").path

    /// What the library fits for the first card of a fixture: the text every output must carry.
    static func fittedText(_ path: String) throws -> [UInt8] {
        let raw = try #require(VCardLexer.parse(try FixturePaths.bytes(path)).cards.first)
        return try CardQRFitter().fit(VCardReader.contact(from: raw).contact).text
    }

    @Test func helpText() {
        let help = CommandTests.run(["help", "qr"])
        #expect(help.code == 0)
        Golden.check(help.out, against: "cli/help-qr.txt")
        #expect(CommandTests.run(["qr", "--help"]).out == help.out)
        // The drop order in the help comes from the library's table, least important first.
        #expect(help.out.contains("LOGO, SOUND and KEY; UID, REV and other metadata; X- properties; NOTE;"))
    }

    @Test(.enabled(if: QRReader.zbarimg != nil, "zbarimg (zbar-tools) is not installed: codes not read back"))
    func writesPNGAndSVGThatReadBack() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let expected = try Self.fittedText("vcard/80-vendor-apple.vcf")
        for ext in ["png", "svg"] {
            let out = directory.appendingPathComponent("card.\(ext)").path
            let run = CommandTests.run(["qr", Self.apple, "-o", out])
            #expect(run.code == 0, "\(run.err)")
            #expect(run.out.isEmpty)
            #expect(run.err.contains("80-vendor-apple.vcf:1: QR code version "))
            #expect(run.err.contains(" of 663 bytes up to version 20 (UTF-8)"))
            let image = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
            if ext == "svg" && QRReader.imageMagick == nil {
                print("skipped: ImageMagick's /usr/bin/convert is not installed, so SVG is not rasterised")
                continue
            }
            #expect(try QRReader.decode(image: image, extension: ext) == expected, "\(ext)")
        }
        // JSON input, and the text drawing into a pipe (no colour codes), read back.
        let json = CommandTests.run(["qr", FixturePaths.url("convert/contact.json").path])
        #expect(json.code == 0, "\(json.err)")
        #expect(!json.out.contains("\u{1B}"))
        let decoded = try QRReader.decode(bitmap: HalfBlockReader.bitmap(json.out))
        #expect(decoded.map { String(decoding: $0, as: UTF8.self) }?.contains("FN:Aiko Tanaka\r\n") == true)
    }

    /// Docs/qr-example.png is what vcf qr makes of its fixture today: regenerate it with
    /// `vcf qr Fixtures/convert/contact.json -o Docs/qr-example.png --scale 4` when this fails.
    @Test(.enabled(if: QRReader.zbarimg != nil, "zbarimg (zbar-tools) is not installed: codes not read back"))
    func documentationExampleIsCurrent() throws {
        let example = FixturePaths.root.deletingLastPathComponent().appendingPathComponent("Docs/qr-example.png")
        let decoded = try QRReader.decode(imageAt: example.path)
        let card = try #require(try ContactJSON.decode(FixturePaths.bytes("convert/contact.json")).first)
        #expect(decoded == (try CardQRFitter().fit(card).text))
    }

    @Test func oneCardOnly() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let two = directory.appendingPathComponent("two.vcf")
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\n"
        try Data((card + card + card).utf8).write(to: two)
        let many = CommandTests.run(["qr", two.path])
        #expect(many.code == 64)
        #expect(many.err.contains("qr takes one card, but the input holds 3 cards"))
        #expect(many.out.isEmpty)

        let empty = directory.appendingPathComponent("empty.vcf")
        try Data().write(to: empty)
        let none = CommandTests.run(["qr", empty.path])
        #expect(none.code == 1)
        #expect(none.err.contains("empty.vcf: error: no card in the input"))

        #expect(CommandTests.run(["qr", directory.appendingPathComponent("missing.vcf").path]).code == 2)
        #expect(CommandTests.run(["qr", Self.apple, Self.apple]).code == 64)
    }

    @Test func badOptionsAreUsageErrors() {
        for arguments in [
            ["--level", "X"], ["--max-version", "41"], ["--max-version", "0"], ["-o", "card.jpg"],
            ["--format", "gif"], ["--scale", "0"], ["--scale", "33"],
        ] {
            let run = CommandTests.run(["qr", Self.apple] + arguments)
            #expect(run.code == 64, "\(arguments)")
            #expect(run.err.hasPrefix("vcf: error: "), "\(arguments)")
        }
    }

    /// The first email never goes: the error names it and the options that would make room.
    @Test func protectedFieldTooLargeIsAnError() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let card = directory.appendingPathComponent("long.vcf")
        let email = String(repeating: "a", count: 700) + "@example.com"
        try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nTEL:1\r\nEMAIL:\(email)\r\nEND:VCARD\r\n".utf8).write(
            to: card)
        let run = CommandTests.run(["qr", card.path, "-o", directory.appendingPathComponent("x.png").path])
        #expect(run.code == 1)
        #expect(run.err.contains("long.vcf:1: error: the card takes "))
        #expect(run.err.contains("it would fit only without the first EMAIL"))
        // 780 bytes: version 22 at M holds 758, version 23 holds 842 (ISO/IEC 18004 table 7).
        #expect(run.err.contains("the card takes 780 bytes"))
        #expect(run.err.contains("--max-version 23"))
        #expect(run.err.contains("--level L"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.png").path))
    }

    /// The case, end to end with the built binary: a 200 KB photo and a long note are left out and
    /// said so, and the code reads back as the rest of the card.
    @Test(
        .enabled(if: builtBinary != nil, "the vcf binary is not built"),
        .enabled(if: QRReader.zbarimg != nil, "zbarimg (zbar-tools) is not installed: codes not read back"))
    func largePhotoAndNoteAreLeftOut() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SeededRandom(seed: 200)
        let photo = Data(
            [0xFF, 0xD8, 0xFF, 0xE0] + (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) })
        let note = String(repeating: "Met at the trade fair, interested in the blue widgets. ", count: 40)
        var card = Contact(
            formattedName: "Ann Lee", name: StructuredName(family: ["Lee"], given: ["Ann"]),
            organization: Organization(name: "Example Widgets"), title: "Buyer",
            emails: [LabeledValue("ann@example.com")], phones: [LabeledValue("+1 555 0100", types: ["cell"])],
            urls: [LabeledValue("https://example.com")], note: note,
            photo: Photo(data: photo, mediaType: "image/jpeg"))
        let input = directory.appendingPathComponent("ann.vcf")
        try Data(VCardWriter().bytes([card])).write(to: input)
        #expect(try Data(contentsOf: input).count > 270_000)
        let png = directory.appendingPathComponent("ann.png").path
        let (code, out, err) = try ExecutableTests.run(["qr", input.path, "-o", png])
        #expect(code == 0, "\(err)")
        #expect(out.isEmpty)
        #expect(err.contains("ann.vcf:1: left out of the QR code: PHOTO, NOTE\n"))
        let decoded = try #require(try QRReader.decode(imageAt: png))
        card.photo = nil
        card.note = nil
        let read = VCardLexer.parse(decoded).cards.first.map { VCardReader.contact(from: $0).contact }
        #expect(read == card)
    }

    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs `vcf ARGUMENTS` in a detached 120x80 tmux pane on a server of its own, and returns the pane as
    /// `capture-pane -p -e -N` gives it (colour codes and trailing spaces kept) once vcf has finished.
    static func inTmux(_ arguments: [String], environment: String) throws -> String {
        let tmux = try #require(Self.tmux)
        let binary = try #require(builtBinary)
        // A server of its own, on a socket in a directory of its own that is removed afterwards.
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("tmux").path
        let quoted = ([binary.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let command = "env -u NO_COLOR \(environment) \(quoted); echo vcf-exit-$?; sleep 60"
        let started = QRReader.runLeavingDaemon(
            tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "qr", "-x", "120", "-y", "80", command])
        #expect(started == 0)
        defer { _ = QRReader.runLeavingDaemon(tmux, ["-S", socket, "kill-server"]) }
        var pane = ""
        for _ in 0..<50 where started == 0 {
            let capture = try QRReader.run(tmux, ["-S", socket, "capture-pane", "-p", "-e", "-N", "-t", "qr"])
            pane = String(decoding: capture.out, as: UTF8.self)
            if pane.contains("vcf-exit-") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(pane.contains("vcf-exit-0"), "\(pane)")
        return pane
    }

    /// The drawing as tmux shows it: black on white from colour codes, and without them (NO_COLOR) for the dark
    /// background a pane has. Read back cell by cell it is the symbol with its quiet zone, and zbar reads it.
    @Test(
        .enabled(if: tmux != nil, "tmux is not installed: the terminal drawing is not checked in a terminal"),
        .enabled(if: builtBinary != nil, "the vcf binary is not built"))
    func terminalDrawingScansInTmux() throws {
        let raw = try #require(VCardLexer.parse(try FixturePaths.bytes("vcard/80-vendor-apple.vcf")).cards.first)
        let fit = try CardQRFitter().fit(VCardReader.contact(from: raw).contact)
        let side = fit.code.sizeWithQuietZone()
        let expected = (0..<side).map { y in
            (0..<side).map { x in fit.code[x - QRCode.quietZone, y - QRCode.quietZone] }
        }
        for environment in ["", "NO_COLOR=1"] {
            let pane = try Self.inTmux(["qr", Self.apple], environment: environment)
            #expect(pane.contains("\u{1B}[") == environment.isEmpty, "colour codes with \(environment)")
            // The pane is wider than the code: what lies right of the quiet zone is the terminal's own.
            let bitmap = HalfBlockReader.bitmap(pane).prefix(side).map { Array($0.prefix(side)) }
            let same = bitmap == expected
            #expect(same, "the drawing with \(environment) is not the symbol: \(bitmap.count) rows read")
            if QRReader.zbarimg != nil {
                #expect(try QRReader.decode(bitmap: bitmap) == fit.text, "read back with \(environment)")
            }
        }
    }
}
