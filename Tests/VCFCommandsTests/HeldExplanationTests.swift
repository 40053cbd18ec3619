import Foundation
import Testing

/// A card merged because the existing card already has every email and phone of it is explained as such, not as
/// the possible duplicate the rule alone would call the pair, in `--explain` and in the JSON report.
@Suite struct HeldExplanationTests {
    @Test func aHeldCardIsExplainedAsHeld() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let book = try scratch.write(
            "book.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Dr. Maria García López\r\nN:García López;Maria;;Dr.;\r\n"
                + "EMAIL;TYPE=WORK:maria.garcia@hospital.example\r\nEND:VCARD\r\n")
        let incoming = try scratch.write(
            "in.vcf",
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:María Garcia\r\nN:Garcia;María;;;\r\n"
                + "EMAIL:maria.garcia@hospital.example\r\nEND:VCARD\r\n")
        let explained = try ChildProcess.run(["merge", incoming, "--into", book, "--explain", "-n"])
        #expect(explained.status == 0, "\(explained.stderr)")
        let text = String(decoding: explained.stdout, as: UTF8.self) + explained.stderr
        #expect(text.contains("María Garcia: merge into"), "\(text)")
        #expect(
            text.contains("same person (held: this card has every email and phone of the other already)"), "\(text)")
        #expect(!text.contains("possible duplicate, not merged"), "\(text)")
        let json = try ChildProcess.run(["merge", incoming, "--into", book, "--json", "-n"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(String(decoding: json.stdout, as: UTF8.self).contains("\"rule\" : \"held\""), "\(json.stdout.count)")
    }
}
