import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

/// Random contacts written and read back: text survives exactly, every physical line is at most 75 octets
/// plus CRLF and valid UTF-8, whatever the characters.
@Suite struct RoundTripPropertyTests {
    static func randomContact(_ random: inout SeededRandom) -> Contact {
        var contact = Contact()
        contact.formattedName = random.text(maxLength: 40)
        // A list item is never empty: `[""]` and `[]` are the same name part.
        contact.name = StructuredName(
            family: ["f" + random.text(maxLength: 12)], given: [random.text(maxLength: 12) + "g"],
            additional: ["a" + random.text(maxLength: 6), "b" + random.text(maxLength: 6)])
        contact.organization = Organization(name: random.text(maxLength: 20), units: [random.text(maxLength: 10)])
        contact.title = random.text(maxLength: 30)
        contact.note = random.text(maxLength: 300)
        contact.nicknames = [random.text(maxLength: 8) + "n", "x" + random.text(maxLength: 8)]
        contact.categories = ["c" + random.text(maxLength: 10)]
        // A label travels in a group (`item1.X-ABLabel`), so a labeled value has one.
        contact.emails = [
            LabeledValue("a@example.com", types: ["work"], label: random.text(maxLength: 10), group: "item1")
        ]
        // Parameter values cannot hold control characters other than tab and line breaks (RFC 6868).
        let parameter = String(
            String.UnicodeScalarView(
                random.text(maxLength: 15).unicodeScalars.filter {
                    $0.value >= 0x20 || $0 == "\n" || $0 == "\t"
                }))
        contact.addresses = [
            Address(
                street: random.text(maxLength: 30), locality: random.text(maxLength: 10),
                types: ["home"], parameters: [ExtraParameter(name: "X-P", values: [parameter])])
        ]
        contact.extensions = [Extension(name: "X-CUSTOM", value: ValueEscaping.escapeText(random.text(maxLength: 50)))]
        return contact
    }

    @Test func randomTextSurvivesWriteAndRead() {
        var random = SeededRandom(seed: 2426)
        for version in [VCardVersion.v3_0, .v4_0] {
            let writer = VCardWriter(version: version)
            for _ in 0..<300 {
                var contact = Self.randomContact(&random)
                if contact.name?.isEmpty == true { contact.name = nil }
                let bytes = writer.bytes([contact])
                let (cards, diagnostics) = VCardDocument.read(bytes)
                #expect(cards.count == 1)
                #expect(diagnostics.filter { $0.severity == .error }.isEmpty)
                guard let back = cards.first?.contact else { continue }
                #expect(back.formattedName == contact.formattedName)
                #expect(back.note == contact.note)
                #expect(back.title == contact.title)
                #expect(back.organization == contact.organization)
                #expect(back.name == contact.name)
                #expect(back.nicknames == contact.nicknames)
                #expect(back.categories == contact.categories)
                #expect(back.emails == contact.emails)
                #expect(back.addresses == contact.addresses)
                #expect(back.extensions == contact.extensions)
                Self.checkPhysicalLines(bytes)
            }
        }
    }

    /// Every line ends in CRLF, holds at most 75 octets, is valid UTF-8 on its own, and has no bare CR/LF.
    static func checkPhysicalLines(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                #expect(index > start && bytes[index - 1] == 0x0D, "LF without CR", sourceLocation: sourceLocation)
                let line = Array(bytes[start..<(index - 1)])
                #expect(line.count <= 75, "line of \(line.count) octets", sourceLocation: sourceLocation)
                #expect(!line.contains(0x0D), "bare CR inside a line", sourceLocation: sourceLocation)
                #expect(
                    String(validating: line, as: UTF8.self) != nil, "line is not valid UTF-8",
                    sourceLocation: sourceLocation)
                start = index + 1
            }
            index += 1
        }
        #expect(start == bytes.count, "output does not end with CRLF", sourceLocation: sourceLocation)
    }

    @Test func injectedLineBreaksStayInsideTheValue() throws {
        let contact = Contact(
            formattedName: "Mallory\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:Evil",
            note: "one\r\nEND:VCARD\nBEGIN:VCARD\rFN:Evil",
            extensions: [Extension(name: "X-RAW", value: "a\r\nEND:VCARD")])
        let bytes = VCardWriter().bytes([contact])
        let (cards, _) = VCardDocument.read(bytes)
        #expect(cards.count == 1)
        #expect(cards.first?.contact.formattedName == "Mallory\nEND:VCARD\nBEGIN:VCARD\nFN:Evil")
        #expect(cards.first?.contact.note == "one\nEND:VCARD\nBEGIN:VCARD\nFN:Evil")
        Self.checkPhysicalLines(bytes)
    }

    @Test func foldingNeverSplitsACharacterOrAnEscape() {
        // 74 octets of ASCII then a 4-byte emoji: the fold must come before the emoji, not inside it.
        let contact = Contact(
            formattedName: "x", note: String(repeating: "a", count: 69) + "😀" + String(repeating: "\\", count: 80))
        let bytes = VCardWriter().bytes([contact])
        Self.checkPhysicalLines(bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("NOTE:" + String(repeating: "a", count: 69) + "\r\n 😀"))
        #expect(VCardDocument.read(bytes).cards.first?.contact.note == contact.note)
        // No fold may fall inside a `\\` pair: at every fold, the backslashes before it in the logical
        // line come in whole pairs.
        var logical = ""
        for physical in text.components(separatedBy: "\r\n") {
            if physical.hasPrefix(" ") {
                let run = logical.reversed().prefix { $0 == "\\" }.count
                #expect(run % 2 == 0, "a fold splits an escape")
                logical += physical.dropFirst()
            } else {
                logical = physical
            }
        }
    }
}
