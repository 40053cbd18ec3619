import ContactModel
import Foundation
import Testing

@testable import ContactMatching

/// Normalised keys: phones, emails, names, birthdays, with known answers.
@Suite struct KeyTests {
    @Test(
        arguments: [
            ("+1 (555) 010-1234", nil, "+15550101234", nil),
            ("555.010.1234", 1, "+15550101234", nil),
            ("1-555-010-1234", 1, "+15550101234", nil),
            ("555-010-1234", nil, "national:5550101234", nil),
            ("020 7946 0123", 44, "+442079460123", nil),
            ("0049 30 1234567", nil, "+49301234567", nil),
            ("011 44 20 7946 0123", 1, "+442079460123", nil),
            ("tel:+1-555-010-1234;ext=12", nil, "+15550101234", "12"),
            ("+1 555 010 1234 x 7", nil, "+15550101234", "7"),
            ("(555) 010-1234 ext. 42", 1, "+15550101234", "42"),
        ] as [(String, Int?, String, String?)])
    func phoneKeys(_ text: String, _ code: Int?, _ number: String, _ ext: String?) throws {
        let key = try #require(PhoneKey(text, countryCode: code))
        #expect(key.number == number)
        #expect(key.ext == ext)
        // A book is keyed before its prevailing country code is known: resolving later must give the same key.
        if let code {
            #expect(try #require(PhoneKey(text, countryCode: nil)).resolved(countryCode: code) == key)
        }
    }

    @Test func shortAndLetteredNumbersAreNotKeys() {
        #expect(PhoneKey("911", countryCode: 1) == nil)
        #expect(PhoneKey("112", countryCode: 49) == nil)
        #expect(PhoneKey("1-800-FLOWERS", countryCode: 1) == nil)
        #expect(PhoneKey("+44 20 7946 0123", countryCode: nil)?.countryCode == 44)
        #expect(PhoneKey("+1 555 010 1234", countryCode: nil)?.countryCode == 1)
        #expect(PhoneKey("+49 30 1234567", countryCode: nil)?.countryCode == 49)
    }

    /// Copies of one card have one fingerprint whatever their UIDs (an import gives new ones), and their values'
    /// order; any other value makes another.
    @Test func copiesShareAFingerprint() {
        func keys(uid: String?, emails: [String], phone: String = "+1 555 010 1234") -> MatchKeys {
            MatchKeys(
                Contact(
                    uid: uid, formattedName: "Jane Roe", name: StructuredName(family: ["Roe"], given: ["Jane"]),
                    emails: emails.map { LabeledValue($0) }, phones: [LabeledValue(phone, types: ["CELL"])]),
                countryCode: 1)
        }
        let print = keys(uid: "a", emails: ["jane@example.com", "j@example.org"]).copyFingerprint
        #expect(keys(uid: "b", emails: ["J@example.org", "jane@example.com"]).copyFingerprint == print)
        #expect(keys(uid: nil, emails: ["jane@example.com", "j@example.org"]).copyFingerprint == print)
        #expect(keys(uid: "a", emails: ["jane@example.com"]).copyFingerprint != print)
        #expect(
            keys(uid: "a", emails: ["jane@example.com", "j@example.org"], phone: "+1 555 010 1235").copyFingerprint
                != print)
    }

    @Test func emailKeys() {
        #expect(EmailKey.key("  John.Smith@Example.COM ") == "john.smith@example.com")
        #expect(EmailKey.key("mailto:jane@example.org") == "jane@example.org")
        #expect(EmailKey.key("not an address") == nil)
        #expect(EmailKey.key("@example.org") == nil)
        #expect(EmailKey.key("MAILTO:Jane@Example.org") == "jane@example.org")
        #expect(EmailKey.key("user@") == nil)
        #expect(EmailKey.key("Jürgen.Müller@Example.DE") == "jürgen.müller@example.de")
    }

    @Test(
        arguments: [
            ("John Smith Jr.", "jr"), ("Smith, John, III", "iii"), ("Jürgen Ölz II", "ii"),
            ("John O'Smith-Senior", "sr"),
            ("John Smithjr", nil), ("Juniper Smith", nil),
        ] as [(String, String?)])
    func generationOnlyInFormattedName(_ fn: String, _ generation: String?) throws {
        // N has no suffix: the generation comes from FN alone.
        let contact = Contact(formattedName: fn, name: StructuredName(family: ["Smith"], given: ["John"]))
        #expect(try #require(PersonName(contact)).generation == generation)
    }

    @Test func uidKeys() {
        #expect(
            MatchKeys.uidKey("urn:uuid:0E1F2A3B-4C5D-4E6F-8A9B-0C1D2E3F4A5B") == "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b")
        #expect(MatchKeys.uidKey(" 0E1F2A3B-4C5D-4E6F-8A9B-0C1D2E3F4A5B ") == "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b")
        // Not a UUID: compared as written, case included.
        #expect(MatchKeys.uidKey("Contact-42@Example") == "Contact-42@Example")
        #expect(MatchKeys.uidKey("   ") == nil)
    }

    @Test func keysAreResolvedWithTheBooksPrevailingCountryCode() {
        let cards = (0..<4).map { i in
            Contact(formattedName: "P\(i)", phones: [LabeledValue(i < 3 ? "+44 20 7946 012\(i)" : "020 7946 0999")])
        }
        let (keys, code) = MatchKeys.all(cards, countryCode: nil)
        #expect(code == 44)
        #expect(keys[3].phones.map(\.key.number) == ["+442079460999"])
    }

    @Test func folding() {
        #expect(TextFolding.fold("  Núñez-García, José ") == "nunez garcia jose")
        #expect(TextFolding.fold("O'Brien") == "obrien")
        #expect(TextFolding.fold("Jürgen Strauß") == "jurgen strauss")
        #expect(TextFolding.fold("Søren") == "soren")
        #expect(TextFolding.fold("山田 太郎・やまだ") == "山田 太郎 やまだ")
        #expect(TextFolding.fold("김민준, ヤマダ") == "김민준 ヤマダ")
    }

    /// Email keys lower-case the scalars outside ASCII one by one, as `String.lowercased()` does: every scalar
    /// of Unicode, 256 to a text among ASCII letters, gives what `lowercased()` gives.
    @Test func emailKeysLowerCaseEveryScalarAsTheStandardLibraryDoes() {
        let scalars = (UInt32(0x80)...0x10FFFF).compactMap(Unicode.Scalar.init)
        var texts = 0
        for start in stride(from: 0, to: scalars.count, by: 256) {
            var text = "Ab"
            for scalar in scalars[start..<min(start + 256, scalars.count)] {
                text.unicodeScalars.append(scalar)
                text += "Zz"
            }
            var copy = text
            let ours = copy.withUTF8 { EmailKey.lowercased($0) }
            #expect(ours == text.lowercased(), "scalars from U+\(String(scalars[start].value, radix: 16))")
            texts += 1
        }
        #expect(texts == 4_344)
        #expect(EmailKey.key("Jörg.Müller@BÜCHER.example") == "jörg.müller@bücher.example")
        #expect(EmailKey.key(" İSTANBUL@Örnek.example ") == "i\u{307}stanbul@örnek.example")
    }

    /// FoldTable.swift holds what `foldScalar` says for every scalar the table covers, so the table decoded at run
    /// time folds as working it out would. `VCF_WRITE_FOLD_TABLE=1 swift test --filter foldTable` writes it again
    /// (after a change to `foldScalar`, or a toolchain with a newer Unicode).
    @Test func foldTableIsWhatFoldScalarSays() throws {
        let lines = TextFolding.encodedTable()
        if ProcessInfo.processInfo.environment["VCF_WRITE_FOLD_TABLE"] != nil {
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/ContactMatching/FoldTable.swift")
            let source =
                "// swift-format-ignore-file\n"
                + "// Generated by `VCF_WRITE_FOLD_TABLE=1 swift test --filter foldTable` (KeyTests): do not edit.\n\n"
                + "extension TextFolding {\n"
                + "    /// `foldScalar`'s answers from U+0080 to `tableEnd` (see `decodedTable`).\n"
                + "    static let foldTable: StaticString = \"\"\"\n"
                + lines.map { "        " + $0 + "\n" }.joined() + "        \"\"\"\n}\n"
            try source.write(to: file, atomically: true, encoding: .utf8)
        }
        let computed = Array(lines.joined(separator: "\n").utf8).withUnsafeBufferPointer {
            TextFolding.decodedTable($0)
        }
        let stored = TextFolding.decodedTable(TextFolding.foldTable)
        // A scalar's fold in a decoded table: its bytes, or nil for a separator.
        func fold(_ table: ([UInt32], [UInt8]), _ i: Int) -> [UInt8]? {
            guard table.0[i] != UInt32.max else { return nil }
            let start = Int(table.0[i] >> 8)
            return Array(table.1[start..<start + Int(table.0[i] & 0xFF)])
        }
        try #require(computed.0.count == Int(TextFolding.tableEnd) - 0x80)
        try #require(stored.0.count == computed.0.count)
        let differing = computed.0.indices.filter { fold(stored, $0) != fold(computed, $0) }
        #expect(
            differing.isEmpty,
            "FoldTable.swift differs from foldScalar at \(differing.prefix(8).map { "U+" + String($0 + 0x80, radix: 16) })"
        )
        // Known answers from the table: é, ß, Ж, a combining acute accent, an em dash.
        #expect(TextFolding.fold("\u{E9}\u{DF}\u{416}a\u{301}\u{2014}x") == "ess\u{436}a x")
    }

    /// The blocks folded without asking Unicode: every scalar in them is a letter (or number) without case, as
    /// the properties say, so the fast path folds them as the slow one would.
    @Test func blocksFoldedWithoutPropertiesAreLettersWithoutCase() {
        var checked = 0
        for block in TextFolding.ownFoldBlocks {
            for v in block {
                guard let scalar = Unicode.Scalar(v) else {
                    Issue.record("U+\(String(v, radix: 16)) is not a scalar")
                    continue
                }
                let p = scalar.properties
                #expect(
                    (p.isAlphabetic || p.numericType != nil) && !p.changesWhenLowercased, "U+\(String(v, radix: 16))")
                #expect(TextFolding.isOwnFold(v))
                checked += 1
            }
        }
        #expect(checked == 38_932)
        for v: UInt32 in [0x3040, 0x3097, 0x30A0, 0x30FB, 0x33FF, 0x4DC0, 0x9FFF + 1, 0xABFF, 0xD7A4] {
            #expect(!TextFolding.isOwnFold(v), "U+\(String(v, radix: 16))")
        }
    }

    static func name(_ fn: String, n: StructuredName? = nil) -> PersonName? {
        PersonName(Contact(formattedName: fn, name: n))
    }

    @Test func namesFromFormattedText() throws {
        let a = try #require(Self.name("Smith, John A."))
        #expect((a.given, a.family, a.middleInitials) == ("john", "smith", ["a"]))
        let b = try #require(Self.name("Dr. John Smith Jr."))
        #expect((b.given, b.family, b.generation) == ("john", "smith", "jr"))
        let c = try #require(Self.name("John Smith, Jr."))
        #expect((c.given, c.family, c.generation) == ("john", "smith", "jr"))
        let e = try #require(Self.name("M. Kim"))
        #expect((e.given, e.family) == ("m", "kim"))
        let f = try #require(Self.name("M. Jean Dupont"))
        #expect((f.given, f.family) == ("jean", "dupont"))
        let d = try #require(Self.name("Ludwig van Beethoven"))
        #expect(d.family == "van beethoven")
        #expect(Self.name("Acme Inc.", n: nil).map { _ in true } == true)
        #expect(PersonName(Contact(formattedName: "Acme Inc.", organization: Organization(name: "Acme Inc."))) == nil)
    }

    @Test(
        arguments: [
            ("John Smith", "Smith, John", PersonName.Relation.identical),
            ("Bob Smith", "Robert Smith", .compatible),
            ("J. Smith", "John Smith", .compatible),
            ("M. Kim", "Michael Kim", .compatible),
            ("José Núñez", "Jose Nunez", .identical),
            ("John Smith", "Jane Smith", .conflicting),
            ("John Smith", "John Smith Jr.", .conflicting),
            ("John Smith Sr.", "John Smith Jr.", .conflicting),
            ("John A. Smith", "John B. Smith", .conflicting),
            ("John A. Smith", "John Smith", .compatible),
            ("John Smith", "John Smyth", .conflicting),
            ("Smith John", "John Smith", .compatible),
        ] as [(String, String, PersonName.Relation)])
    func nameRelations(_ a: String, _ b: String, _ expected: PersonName.Relation) throws {
        let x = try #require(Self.name(a))
        let y = try #require(Self.name(b))
        #expect(x.relation(to: y) == expected)
        #expect(y.relation(to: x) == expected)
    }

    @Test func birthdays() throws {
        let a = try #require(Birthday("1985-04-15"))
        let b = try #require(Birthday("19850415"))
        #expect(a == b)
        let c = try #require(Birthday("--0415"))
        #expect(!a.conflicts(with: c))
        #expect(a.conflicts(with: try #require(Birthday("1986-04-15"))))
        #expect(a.conflicts(with: try #require(Birthday("1985-05-14"))))
        #expect(Birthday("April 15") == nil)
    }

    @Test(
        arguments: [
            ("1985-04-15", 1985, 4, 15), ("19850415", 1985, 4, 15), ("--0415", nil, 4, 15), ("--04-15", nil, 4, 15),
            (" 1985-04-15T00:00:00Z", 1985, 4, 15), ("2000-12-31", 2000, 12, 31), ("00010101", 1, 1, 1),
        ] as [(String, Int?, Int, Int)])
    func birthdayParts(text: String, year: Int?, month: Int, day: Int) throws {
        let birthday = try #require(Birthday(text))
        #expect(birthday.year == year && birthday.month == month && birthday.day == day)
    }

    @Test(arguments: ["1985-13-01", "1985-04-32", "1985-00-10", "198504155", "--415", "1985 04 15", "04/15/1985", ""])
    func textsThatAreNoBirthday(text: String) {
        #expect(Birthday(text) == nil)
    }

    /// A phone's types make it a shared line exactly when one of them, lower-cased, is a shared type: packed
    /// short types give the answer the set of names gives.
    @Test func sharedLinesByType() {
        let shared = ["work", "WORK", "Fax", "main", "pager", "company", "workfax", "textphone", "TextPhone", "msg"]
        let personal = ["cell", "home", "voice", "iphone", "x-work", "works", "wor", "textphones", "Mobile", "travail"]
        for type in shared { #expect(!MatchKeys.isPersonal(types: [type], label: nil), "\(type)") }
        for type in personal { #expect(MatchKeys.isPersonal(types: [type], label: nil), "\(type)") }
        #expect(!MatchKeys.isPersonal(types: ["cell", "work"], label: nil))
        #expect(!MatchKeys.isPersonal(types: ["cell"], label: "Work Fax"))
    }

    /// Legal forms are dropped from organisations whatever their length (packed up to eight letters, looked up
    /// by name beyond).
    @Test func organizationKeysDropLegalForms() {
        #expect(MatchKeys.organizationKey("Acme, Inc.") == "acme")
        #expect(MatchKeys.organizationKey("Acme Incorporated") == "acme")
        #expect(MatchKeys.organizationKey("The Acme Corporation") == "acme")
        #expect(MatchKeys.organizationKey("Müller GmbH & Co. KG") == "muller")
        #expect(MatchKeys.organizationKey("Incorporations Ltd") == "incorporations")
        #expect(MatchKeys.organizationKey("Inc.") == nil)
    }

    /// The first character of a text, found without searching for its end when it starts with two ASCII
    /// scalars, is the one the standard library finds.
    @Test func firstCharacters() {
        var texts = ["a", "ab", "\r\n", "\r\nx", "e\u{301}x", "\u{1F1EF}\u{1F1F5}", "é", "李娜", "a\u{200D}b", "\n\r"]
        for a in 1..<128 {
            for b in [nil, 32, 65, 0x0A, 0x0D, 0x301, 0x200D] as [Int?] {
                texts.append(String(Unicode.Scalar(UInt8(a))) + (b.map { String(Unicode.Scalar(UInt32($0))!) } ?? ""))
            }
        }
        for text in texts { #expect(MatchKeys.firstCharacter(text) == String(text.first!), "\(Array(text.utf8))") }
    }

    /// A national number read without a country code and resolved later is the key reading it with the code
    /// gives; the country code of an international key follows the ITU's code lengths.
    @Test func nationalNumbersResolveAsReadingWithTheCode() throws {
        let texts = ["555.010.1234", "1 555 010 1234", "011 44 20 7946 0123", "030 1234567", "(0)20 7946 0123 x12"]
        for text in texts {
            for code in [1, 7, 33, 44, 49, 81, 352] {
                let later = try #require(PhoneKey(text, countryCode: nil)).resolved(countryCode: code)
                #expect(later == PhoneKey(text, countryCode: code), "\(text) with \(code)")
            }
        }
        let codes: [(String, Int?)] = [
            ("+1 555 010 1234", 1), ("+44 20 7946 0123", 44), ("+49 30 1234567", 49), ("+352 123 456 78", 352),
            ("+7 916 123 45 67", 7), ("+86 10 1234 5678", 86), ("+380 44 123 4567", 380), ("555 010 1234", nil),
        ]
        for (text, code) in codes { #expect(PhoneKey(text, countryCode: nil)?.countryCode == code, "\(text)") }
    }

    /// A book's keys resolved in place with the code most of its numbers use are the keys resolved into copies:
    /// the same phones and index keys, the same code; and keys whose numbers name no code are left as they are.
    @Test func prevailingCountryCodeInPlaceIsAsCopied() {
        func contacts() -> [Contact] {
            (0..<40).map { i in
                var contact = Contact(
                    formattedName: "Person \(i)", name: StructuredName(family: ["Doe\(i)"], given: ["Jo"]))
                contact.phones = [
                    LabeledValue(i % 4 == 0 ? "+49 30 1234 \(1000 + i)" : "(030) 1234 \(2000 + i)", types: ["cell"]),
                    LabeledValue("030 1234 \(3000 + i)", types: ["work"]),
                ]
                if i % 5 == 0 { contact.phones.append(LabeledValue("+44 20 7946 \(4000 + i)")) }
                return contact
            }
        }
        let copied = MatchKeys.resolvingPrevailingCountryCode(contacts().map { MatchKeys($0, countryCode: nil) })
        let inPlace = contacts().map { MatchKeys($0, countryCode: nil) }
        #expect(MatchKeys.resolvePrevailingCountryCode(inPlace: inPlace) == copied.countryCode)
        #expect(copied.countryCode == 49)
        for (a, b) in zip(copied.keys, inPlace) {
            #expect(a.phones.map(\.key) == b.phones.map(\.key) && a.phones.map(\.personal) == b.phones.map(\.personal))
            #expect(a.indexKeys == b.indexKeys)
        }
        let none = [MatchKeys(Contact(formattedName: "A", phones: [LabeledValue("030 1234 567")]), countryCode: nil)]
        #expect(MatchKeys.resolvePrevailingCountryCode(inPlace: none) == nil)
        #expect(none[0].phones.map(\.key.number) == ["national:0301234567"])
    }
}
