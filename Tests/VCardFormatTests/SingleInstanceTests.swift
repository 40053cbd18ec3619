import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

/// What the writer does with properties a card may hold once (N, REV, UID, ...; `SingleInstance`) and with text
/// values holding commas, so that CardDAV servers accept our cards and Radicale (Python vobject) keeps them as
/// written. The fixtures are `Fixtures/fidelity/single-instance-*.vcf` and `text-commas-30.vcf`; their goldens
/// hold the exact bytes.
@Suite struct SingleInstanceTests {
    static func lines(_ file: String, _ version: VCardVersion) throws -> [String] {
        try FidelityTests.written(file, version)
    }

    static func count(_ lines: [String], _ name: String) -> Int {
        lines.filter { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }.count
    }

    @Test func a40NameInTwoLanguagesStaysTwoNIn40AndIsOneNIn30() throws {
        let four = try Self.lines("single-instance-40.vcf", .v4_0)
        #expect(four.contains("N;ALTID=1;LANGUAGE=en:Tanaka;Aiko;;;"))
        #expect(four.contains("N;ALTID=1;LANGUAGE=ja:田中;愛子;;;"))
        let three = try Self.lines("single-instance-40.vcf", .v3_0)
        #expect(three.contains("N;ALTID=1;LANGUAGE=en:Tanaka;Aiko;;;"))
        #expect(three.contains("X-N;ALTID=1;LANGUAGE=ja:田中;愛子;;;"))
        // The second card: an N outside any ALTID, and a second BDAY, are X- properties in both versions.
        for version in [VCardVersion.v3_0, .v4_0] {
            let text = try Self.lines("single-instance-40.vcf", version)
            #expect(text.contains("X-N;LANGUAGE=es:Ortiz Vega;Lena;;;"))
            #expect(text.contains("X-BDAY:--0212"))
        }
    }

    @Test func everyCardHoldsEachSinglePropertyOnce() throws {
        for file in ["single-instance-40.vcf", "single-instance-30.vcf"] {
            for version in [VCardVersion.v3_0, .v4_0] {
                let bytes = VCardWriter(version: version).bytes(try FidelityTests.read(file).contacts)
                for card in VCardDocument.read(bytes).cards {
                    let names = card.raw.lines.map(\.name)
                    for name in ["REV", "UID", "BDAY"] { #expect(names.filter { $0 == name }.count <= 1) }
                    let ns = card.raw.lines.filter { $0.name == "N" }
                    // Several N only in 4.0, and only sharing one ALTID.
                    if ns.count > 1 {
                        #expect(version == .v4_0)
                        #expect(
                            Set(ns.map { $0.parameter("ALTID") ?? "" }).count == 1 && ns[0].parameter("ALTID") != nil)
                    }
                }
            }
        }
    }

    @Test func theNewestRevisionIsKept() throws {
        #expect(try Self.lines("single-instance-40.vcf", .v3_0).contains("REV:20231105T101500Z"))
        let three = try Self.lines("single-instance-30.vcf", .v3_0)
        #expect(three.filter { $0.hasPrefix("REV") } == ["REV:2021-03-04T05:06:07Z"])
        #expect(three.contains("UID:omar-1") && three.contains("X-UID:omar-2"))
        #expect(three.contains("X-N:Haddad;Omar\\,Sami;;;"))
    }

    @Test func textValuesHaveTheirCommasEscaped() throws {
        let three = try Self.lines("text-commas-30.vcf", .v3_0)
        #expect(three.contains("LABEL;TYPE=HOME:12 Rua Augusta\\, apt 3\\n1100-053 Lisboa\\, Portugal"))
        #expect(three.contains("item1.X-ABADR:pt\\, eu"))
        #expect(three.contains("X-EVOLUTION-FILE-AS:Mendes\\, Carla"))
        // Already escaped, and a backslash (escaped) before a bare comma.
        #expect(three.contains("X-NOTE-ESCAPED:one\\, two"))
        #expect(three.contains("X-PATH:C:\\\\\\,d"))
        // A URI is no text: left as it was.
        #expect(three.contains("X-LINK;VALUE=uri:https://example.com/a,b"))
        #expect(Self.count(three, "NICKNAME") == 3)
    }

    /// python3 with `arguments`, `input` as its standard input: its output, or nil when it fails or is absent.
    static func python(_ arguments: [String], input: [UInt8]) -> String? {
        let inputPath = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-\(UUID().uuidString).vcf")
        defer { try? FileManager.default.removeItem(at: inputPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? Data(input).write(to: inputPath)) != nil,
            let handle = try? FileHandle(forReadingFrom: inputPath)
        else { return nil }
        defer { try? handle.close() }
        process.standardInput = handle
        guard (try? process.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    /// Python vobject is how Radicale reads and stores a card: every value of our 3.0 output comes back from its
    /// read and re-serialisation with the same text (its escaping of `;` and `,` aside).
    @Test func pythonVobjectKeepsEveryValueOfOurOutput() throws {
        guard Self.python(["-c", "import vobject"], input: []) != nil else {
            print("skipped: python3 with vobject is not installed (pip install vobject)")
            return
        }
        var bytes: [UInt8] = []
        for file in ["text-commas-30.vcf", "single-instance-40.vcf", "single-instance-30.vcf", "repeated-lists.vcf"] {
            bytes += VCardWriter(version: .v3_0).bytes(try FidelityTests.read(file).contacts)
        }
        let script = """
            import sys, vobject
            for card in vobject.readComponents(sys.stdin.read()):
                sys.stdout.write(card.serialize())
            """
        let stored = try #require(Self.python(["-c", script], input: bytes))
        let before = VCardDocument.read(bytes).cards.map(\.contact)
        let after = VCardDocument.read(Array(stored.utf8)).cards.map(\.contact)
        #expect(after.count == before.count)
        for (ours, theirs) in zip(before, after) {
            #expect(theirs.nicknames == ours.nicknames)
            #expect(theirs.name == ours.name)
            #expect(theirs.revision == ours.revision)
            // vobject upper-cases names and escapes `;` in X- values; the text is what counts. It cuts a URI
            // at a comma too (RFC 6350 3.4 escapes commas in text only; a URI keeps its bytes): left out here.
            let text = { (c: Contact) in
                c.extensions.filter { $0.name != "X-LINK" }.map {
                    "\($0.name.uppercased())=\(ValueEscaping.unescapeText($0.value))"
                }.sorted()
            }
            #expect(text(theirs) == text(ours))
        }
    }
}
