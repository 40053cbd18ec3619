import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A few end-to-end runs of the built `vcf` binary: exit codes, stdout and stderr kept apart, stdin,
/// and a closed pipe ending quietly.
@Suite(.enabled(if: builtBinary != nil, "the vcf binary is not built"))
struct ExecutableTests {
    static var binary: URL? { builtBinary }
}

/// The `vcf` binary `swift build` made, if any; `VCF_TEST_BINARY` names another (the release build, to run these
/// tests against the tool as the README builds it).
let builtBinary: URL? = {
    if let path = ProcessInfo.processInfo.environment["VCF_TEST_BINARY"] { return URL(fileURLWithPath: path) }
    let root = FixturePaths.root.deletingLastPathComponent()
    for configuration in ["debug", "release"] {
        let url = root.appendingPathComponent(".build/\(configuration)/vcf")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
}()

extension ExecutableTests {
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> (
        Int32, Data, String
    ) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, outData, String(decoding: errData, as: UTF8.self))
    }

    @Test func stdinToStdout() throws {
        let input = try Data(contentsOf: FixturePaths.url("vcard/02-lf.vcf"))
        let (code, out, err) = try Self.run(["convert", "-"], stdin: input)
        #expect(code == 0)
        #expect(err.isEmpty)
        #expect(String(decoding: out, as: UTF8.self).hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"))
    }

    @Test func exitCodes() throws {
        #expect(try Self.run(["--version"]).0 == 0)
        #expect(try Self.run(["convert", "--bogus"]).0 == 64)
        #expect(try Self.run(["convert", "/nonexistent.vcf"]).0 == 2)
        let broken = try Self.run(["convert", FixturePaths.url("vcard/90-missing-end.vcf").path])
        #expect(broken.0 == 1)
        #expect(broken.2.contains("90-missing-end.vcf:1:1: error: card has no END:VCARD"))
    }

    /// lint whose findings nobody reads any more stops reading its file: of 200,000 cards without a UID or N,
    /// it checks the first megabytes' and says so in its summary.
    @Test func lintStopsReadingWhenItsOutputIsClosed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cards = (0..<200_000).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:T\($0)\r\nEND:VCARD\r\n" }.joined()
        let book = try scratch.write("tiny.vcf", cards)
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["lint", book]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try out.fileHandleForReading.close()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        let errors = errText.split(separator: " ").dropFirst(2).first.flatMap { Int($0) } ?? -1
        #expect(errText.hasPrefix("1 file: "), "\(errText)")
        #expect(errors >= 0 && errors < 100_000, "\(errText)")
    }

    @Test func closedPipeEndsQuietly() throws {
        // Many cards into a reader that closes after the first bytes: no crash, no message.
        var many = Data()
        let card = try Data(contentsOf: FixturePaths.url("vcard/01-crlf.vcf"))
        for _ in 0..<20_000 { many.append(card) }
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["convert", "-"]
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        try out.fileHandleForReading.close()
        // vcf stops reading once its output is closed, so the rest of the input may meet a closed pipe here.
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: many)
        try? input.fileHandleForWriting.close()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(errText.isEmpty)
    }
}

extension ExecutableTests {
    /// A Contact JSON or jCard file of many batches (each read on every processor) converts as one read card by
    /// card would: the cards in order, each bad one told at its line in its place among the others and left out,
    /// an unknown key warned about before the cards after it, and exit 1 for the skipped cards.
    @Test func jsonInputsReadOnEveryProcessorKeepTheirOrder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // About 1.5 MB each: six batches and more.
        let count = 6_000
        let contacts = (0..<count).map { i -> String in
            switch i {
            case 1_234: return "  {\"formattedName\": 5}"
            case 4_321: return "  {\"formattedName\": \"Person \(i)\", \"nickName\": \"P\"}"
            default:
                return "  {\"formattedName\": \"Person \(i)\", \"note\": \"\(String(repeating: "x", count: 200))\"}"
            }
        }
        let json = try scratch.write("in.json", "[\n" + contacts.joined(separator: ",\n") + "\n]\n")
        let jCards = (0..<count).map { i -> String in
            i == 2_345
                ? "  [\"vcard\", [[\"fn\", {}]]]"
                : "  [\"vcard\", [[\"version\", {}, \"text\", \"4.0\"], [\"fn\", {}, \"text\", \"Person \(i)\"], "
                    + "[\"note\", {}, \"text\", \"\(String(repeating: "y", count: 200))\"]]]"
        }
        let jCard = try scratch.write("in.jcard", "[\n" + jCards.joined(separator: ",\n") + "\n]\n")
        for (input, bad) in [(json, 1_234), (jCard, 2_345)] {
            let out = scratch("out.vcf")
            let (code, _, err) = try Self.run(["convert", input, "-o", out])
            #expect(code == 1)
            let lines = err.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("\(input):\(bad + 2):") == true, "\(lines.prefix(3))")
            #expect(lines.first?.hasSuffix("skipped") == true)
            if input == json {
                #expect(lines.count == 2)
                #expect(lines.last?.hasPrefix("\(input):4323:") == true && lines.last?.contains("nickName") == true)
            } else {
                #expect(lines.count == 1)
            }
            let names = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\r\n")
                .filter { $0.hasPrefix("FN:") }
            #expect(names == (0..<count).filter { $0 != bad }.map { "FN:Person \($0)"[...] })
        }
    }
}
