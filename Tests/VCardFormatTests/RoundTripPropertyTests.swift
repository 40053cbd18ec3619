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
                // The one character not written as it is: a NUL is written as U+FFFD (see LineBuilder).
                let written = Self.nulReplaced(contact)
                #expect(back.formattedName == written.formattedName)
                #expect(back.note == written.note)
                #expect(back.title == written.title)
                #expect(back.organization == written.organization)
                #expect(back.name == written.name)
                #expect(back.nicknames == written.nicknames)
                #expect(back.categories == written.categories)
                #expect(back.emails == written.emails)
                #expect(back.addresses == written.addresses)
                #expect(back.extensions == written.extensions)
                Self.checkPhysicalLines(bytes)
            }
        }
    }

    /// The contact as the writer promises to write it: every NUL in its text as U+FFFD.
    static func nulReplaced(_ contact: Contact) -> Contact {
        func text(_ s: String) -> String {
            String(String.UnicodeScalarView(s.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
        }
        var c = contact
        c.formattedName = c.formattedName.map(text)
        c.note = c.note.map(text)
        c.title = c.title.map(text)
        c.organization = c.organization.map { Organization(name: text($0.name), units: $0.units.map(text)) }
        c.name = c.name.map {
            StructuredName(
                family: $0.family.map(text), given: $0.given.map(text), additional: $0.additional.map(text),
                prefixes: $0.prefixes.map(text), suffixes: $0.suffixes.map(text))
        }
        c.nicknames = c.nicknames.map(text)
        c.categories = c.categories.map(text)
        c.emails = c.emails.map {
            var v = $0
            v.label = v.label.map(text)
            return v
        }
        c.addresses = c.addresses.map {
            var a = $0
            a.street = text(a.street)
            a.locality = text(a.locality)
            return a
        }
        c.extensions = c.extensions.map {
            Extension(group: $0.group, name: $0.name, parameters: $0.parameters, value: text($0.value))
        }
        return c
    }

    @Test func aNULIsWrittenAsTheReplacementCharacterInEveryVersion() {
        let contact = Contact(
            formattedName: "A\u{0}B", note: "x\u{0}\u{0}y\u{1}z", extensions: [Extension(name: "X-A", value: "p\u{0}q")]
        )
        for version in [VCardVersion.v3_0, .v4_0] {
            let bytes = VCardWriter(version: version).bytes([contact])
            #expect(!bytes.contains(0))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("FN:A\u{FFFD}B\r\n"))
            #expect(text.contains("NOTE:x\u{FFFD}\u{FFFD}y\u{1}z\r\n"))
            #expect(text.contains("X-A:p\u{FFFD}q\r\n"))
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
