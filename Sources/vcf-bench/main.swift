// Benchmark driver: `vcf-bench parse FILE` or `vcf-bench parse-write FILE` prints one JSON line
// {"bytes":N,"cards":N,"seconds":S}, timing only the work (not process start). Scripts/bench.sh runs it
// beside the peers.
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import VCardFormat
import VCardSyntax

let arguments = CommandLine.arguments
guard arguments.count == 3, ["parse", "parse-write", "lex"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: vcf-bench parse|parse-write|lex FILE\n".utf8))
    exit(64)
}
let mode = arguments[1]
let path = arguments[2]
let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0

let clock = ContinuousClock()
var cards = 0
var written = 0
let start = clock.now
do {
    let reader = try VCardFileReader(path: path)
    let writer = VCardWriter(version: .v3_0)
    var out: [UInt8] = []
    out.reserveCapacity(2 << 20)
    if mode == "lex" {
        while try reader.nextRaw() != nil { cards += 1 }
    } else {
        while let card = try reader.next() {
            cards += 1
            if mode == "parse-write" {
                writer.write(card.contact, into: &out)
                if out.count > 1 << 20 {
                    written += out.count
                    out.removeAll(keepingCapacity: true)
                }
            }
        }
        written += out.count
    }
} catch {
    FileHandle.standardError.write(Data("vcf-bench: \(error)\n".utf8))
    exit(2)
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("{\"bytes\":\(bytes),\"cards\":\(cards),\"seconds\":\(seconds),\"written\":\(written)}")
