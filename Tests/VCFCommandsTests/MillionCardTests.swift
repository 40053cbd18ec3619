import Foundation
import TestSupport
import Testing

/// Every command on a file of many tiny cards, as a process: peak memory (GNU time's `%M`) stays under a stated
/// bound, a constant for the commands that stream and a constant plus a per-card allowance for merge and
/// dedupe, which hold what matching needs of each card.
///
/// By default the built binary (debug) reads 40,000 cards (2 MB): enough for memory that grows with the input
/// to break the bound (the reader used to hold every card of its first 4 MiB at about 4 KB each), and quick.
/// `VCF_MILLION_CARDS=1` runs the release binary (`swift build -c release`) on 1,000,000 cards (49 MB), the
/// figure issue 18 names; the bounds are the same.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"), .serialized)
struct MillionCardTests {
    static let million = ProcessInfo.processInfo.environment["VCF_MILLION_CARDS"] == "1"
    static let cards = million ? 1_000_000 : 40_000
    static var binary: URL? {
        guard million else { return builtBinary }
        return FixturePaths.root.deletingLastPathComponent().appendingPathComponent(".build/release/vcf")
    }

    /// The bound for a command that streams: its own code and buffers, a few segments of input in flight
    /// (measured with the release build on 1,000,000 cards: 82-121 MB; with the debug build on 40,000: 41-82).
    static let streamingBoundMB = 128.0
    /// The commands that hold cards: a base, and a stated cost per card. merge holds every incoming card whole,
    /// with its match keys and the card it makes (measured with the release build on 1,000,000 tiny cards:
    /// 2.5 GB, about 2.4 KB a card; it was 5.3 GB while each card kept the lexer's reserved line records);
    /// dedupe holds what it needs of each card (0.9 GB).
    static let holdingBaseMB = 128.0
    static func perCardKB(_ command: [String]) -> Double { command[0] == "merge" ? 4 : 2 }

    /// Every command, with its arguments (INPUT, OUT and DIR are filled in) and whether it streams.
    static let commands: [(arguments: [String], streams: Bool)] = [
        (["convert", "INPUT", "-o", "OUT"], true),
        (["convert", "INPUT", "--to", "vcard4", "-o", "OUT"], true),
        (["convert", "INPUT", "--to", "json", "-o", "OUT"], true),
        (["convert", "INPUT", "--to", "jcard", "-o", "OUT"], true),
        // CSV's columns come from every card: a first reading settles them, a second writes the rows.
        (["convert", "INPUT", "--to", "csv", "-o", "OUT"], true),
        (["preview", "INPUT", "-o", "OUT"], true),
        (["preview", "INPUT", "--format", "json", "-o", "OUT"], true),
        (["preview", "INPUT", "--format", "html", "-o", "OUT"], true),
        (["lint", "INPUT"], true),
        (["lint", "--json", "INPUT"], true),
        // A UTF-16 file is turned into UTF-8 as it is read (it was read whole: 286 MB for 40,000 tiny cards).
        (["lint", "INPUT16"], true),
        (["lint", "--fix", "INPUT16", "-o", "OUT"], true),
        (["photo", "extract", "INPUT", "-o", "DIR"], true),
        (["merge", "INPUT", "--into", "OUT"], false),
        (["dedupe", "COPY"], false),
    ]

    static let input: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-tiny-\(cards).vcf").path
        var text = ""
        text.reserveCapacity(cards * 50)
        for index in 0..<cards { text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:P\(index)\r\nEND:VCARD\r\n" }
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }()

    /// The same cards in UTF-16 (little-endian, with a byte order mark), as Windows tools write them.
    static let input16: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-tiny-\(cards)-utf16.vcf").path
        var bytes: [UInt8] = [0xFF, 0xFE]
        bytes.reserveCapacity(cards * 100)
        for index in 0..<cards {
            for unit in "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:P\(index)\r\nEND:VCARD\r\n".utf16 {
                bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
        }
        try? Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }()

    @Test func theCommandListCoversEveryCommand() {
        let names = Set(Self.commands.map { $0.arguments[0] })
        #expect(names == ["convert", "preview", "lint", "photo", "merge", "dedupe"])
        #expect(Self.commands.count == 15)
    }

    @Test(arguments: commands.indices) func peakMemoryStaysUnderTheBound(command index: Int) throws {
        let (template, streams) = Self.commands[index]
        let scratch = try Scratch()
        defer { scratch.remove() }
        let copy = scratch("copy.vcf")
        if template.contains("COPY") { try FileManager.default.copyItem(atPath: Self.input, toPath: copy) }
        let arguments = template.map { argument in
            switch argument {
            case "INPUT": Self.input
            case "INPUT16": Self.input16
            case "OUT": scratch("out")
            case "DIR": scratch("photos")
            case "COPY": copy
            default: argument
            }
        }
        let outcome = try ChildProcess.run(
            arguments.map { Array($0.utf8) }, stdout: .truncate("/dev/null"), measureMemory: true,
            binary: Self.binary)
        // lint finds a missing N in every card (exit 1), which --fix repairs; everything else succeeds.
        let finds = template[0] == "lint" && !template.contains("--fix")
        #expect(outcome.status == (finds ? 1 : 0), "\(outcome.stderr.prefix(300))")
        let peakMB = Double(try #require(outcome.peakKB, "GNU time did not measure")) / 1024
        let bound =
            streams ? Self.streamingBoundMB : Self.holdingBaseMB + Double(Self.cards) * Self.perCardKB(template) / 1024
        print(
            "\(template.joined(separator: " ")): \(Self.cards) cards, \(String(format: "%.1f", peakMB)) MB peak, "
                + "bound \(String(format: "%.0f", bound)) MB, \(String(format: "%.1f", outcome.seconds)) s")
        #expect(peakMB < bound, "\(template.joined(separator: " ")): \(peakMB) MB")
    }
}
