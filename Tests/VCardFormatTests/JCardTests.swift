// Over 400 lines on purpose: one suite over the RFC 7095 examples, value type by value type, against the
// RFC's own text; its JSON comparison is in JSONTree.swift.

import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

/// jCard (RFC 7095) in both directions, against the RFC's examples and hand-reviewed goldens.
@Suite struct JCardTests {
    static let fixtures: [String] = (try? FixturePaths.files(in: "jcard", withExtension: "json")) ?? []

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The vCard text for jCard text, through content lines only.
    private func vCard(_ jCard: String) throws -> String {
        text(JCard.vCardBytes(try JCard.cards(from: Array(jCard.utf8)).cards))
    }

    /// The jCard text for vCard text, through content lines only.
    private func jCard(_ vCard: String) -> String {
        text(JCard.encode(VCardLexer.parse(Array(vCard.utf8)).cards))
    }

    // MARK: jCard -> vCard -> jCard on the RFC examples

    /// A text value is written as one JSON string, exactly: quotes, backslashes and line ends escaped, the rest
    /// (non-ASCII letters, emoji) as UTF-8, the runs between escapes copied whole.
    @Test func textIsEscapedAsJSONAsks() {
        let written = jCard(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nNOTE:say \"hi\"\\, back\\\\slash\\nnext\tJosé 🎉 \"\"\r\nEND:VCARD\r\n"
        )
        #expect(written.contains(#"["note", {}, "text", "say \"hi\", back\\slash\nnext\tJosé 🎉 \"\""]"#))
    }

    @Test func fixturesArePresent() {
        #expect(Self.fixtures.filter { $0.hasPrefix("rfc7095-") }.count == 7)
        #expect(Self.fixtures.count >= 9)
    }

    /// The writer `vcf convert --to jcard` uses, fed card by card (made ready on other threads, or given each
    /// contact), writes the bytes `encode` gives for all of them: none, one alone (no array) and several.
    @Test func writerCardByCardIsTheWholeDocument() throws {
        let contacts = try [
            "vcard/21-apple-photo-base64.vcf", "vcard/33-v40-kind-anniversary-bday.vcf", "preview/all.vcf",
        ].flatMap {
            VCardDocument.read(try FixturePaths.bytes($0)).cards.map(\.contact)
        }
        #expect(contacts.count >= 7)
        for count in [0, 1, 2, contacts.count] {
            let some = Array(contacts.prefix(count))
            var prepared = JCard.Writer()
            var given = JCard.Writer()
            var fromPrepared: [UInt8] = []
            var fromGiven: [UInt8] = []
            for contact in some {
                prepared.append(JCard.Writer.prepare(contact), to: &fromPrepared)
                given.append(contact, to: &fromGiven)
            }
            prepared.finish(into: &fromPrepared)
            given.finish(into: &fromGiven)
            let whole = JCard.encode(some)
            #expect(fromPrepared == whole, "\(count) cards")
            #expect(fromGiven == whole, "\(count) cards")
            // One card alone is one jCard; any other number an array of them.
            let opening = count == 0 ? "[]" : count == 1 ? "[\"vcard\"" : "[\n  [\"vcard\""
            #expect(text(whole).hasPrefix(opening), "\(text(whole).prefix(20))")
        }
    }

    @Test(arguments: fixtures)
    func jCardConvertsToVCardAndBack(_ file: String) throws {
        let input = try FixturePaths.bytes("jcard/" + file)
        let (cards, diagnostics) = try JCard.cards(from: input, name: file)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let vCard = JCard.vCardBytes(cards)
        Golden.check(vCard, against: "jcard/expected/\(file.dropLast(5)).vcf")

        // The vCard text lexes cleanly and maps back to the same jCard, as data.
        let (relexed, lexDiagnostics) = VCardLexer.parse(vCard)
        #expect(lexDiagnostics.isEmpty, "\(lexDiagnostics)")
        let again = JCard.encode(relexed)
        let original = try JSONTree(input)
        #expect(try JSONTree(again) == original, "\(text(again))")
        // Our own output reads back to the same lines, so a second trip changes nothing.
        #expect(JCard.encode(try JCard.cards(from: again).cards) == again)
    }

    @Test func appendixB1ReadsToTheContactOfSection8() throws {
        let cards = try JCard.read(try FixturePaths.bytes("jcard/rfc7095-b1.json"), name: "b1.json")
        try #require(cards.count == 1)
        let card = cards[0]
        #expect(card.diagnostics.isEmpty, "\(card.diagnostics)")
        let contact = card.contact
        #expect(contact.formattedName == "Simon Perreault")
        #expect(contact.name?.family == ["Perreault"])
        #expect(contact.name?.given == ["Simon"])
        #expect(contact.name?.suffixes == ["ing. jr", "M.Sc."])
        #expect(contact.birthday == "--0203")
        #expect(contact.anniversary == "20090808T143000-0500")
        #expect(contact.phones.map(\.value) == ["+1-418-656-9254 ext. 102", "+1-418-262-6501"])
        #expect(contact.phones.map(\.isURI) == [true, true])
        #expect(contact.phones.map(\.types) == [["work", "voice"], ["work", "cell", "voice", "video", "text"]])
        #expect(contact.phones.map(\.pref) == [1, nil])
        #expect(contact.emails.map(\.value) == ["simon.perreault@viagenie.ca"])
        #expect(contact.addresses.map(\.extended) == ["Suite D2-630"])
        #expect(contact.addresses.map(\.street) == ["2875 Laurier"])
        #expect(contact.addresses.map(\.locality) == ["Quebec"])
        #expect(contact.addresses.map(\.postalCode) == ["G1V 2M2"])
        #expect(contact.urls.map(\.value) == ["http://nomis80.org"])
        #expect(contact.extensions.map(\.name) == ["GENDER", "LANG", "LANG", "ORG", "GEO", "KEY", "TZ"])
        // Content lines keep the JSON line each property started on.
        #expect(card.raw.lines.map(\.line).prefix(4) == [3, 4, 5, 10])
        #expect(card.raw.beginLine == 1)
    }

    // MARK: vCard 4.0: RFC 6350 section 8

    @Test func section8ReadsAndRoundTripsAsVCard4() throws {
        let input = try FixturePaths.bytes("vcard4/rfc6350-section8.vcf")
        let (cards, diagnostics) = VCardDocument.read(input, name: "rfc6350-section8.vcf")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        try #require(cards.count == 1)
        let contact = cards[0].contact
        #expect(contact.formattedName == "Simon Perreault")
        #expect(contact.name?.suffixes == ["ing. jr", "M.Sc."])
        #expect(contact.birthday == "--0203")
        #expect(contact.anniversary == "20090808T1430-0500")
        #expect(contact.phones.map(\.value) == ["+1-418-656-9254 ext. 102", "+1-418-262-6501"])
        #expect(contact.phones.map(\.isURI) == [true, true])
        #expect(contact.phones[1].types == ["work", "cell", "voice", "video", "text"])
        #expect(contact.addresses.first?.street == "2875 Laurier")
        #expect(contact.addresses.first?.locality == "Quebec")

        let written = VCardWriter(version: .v4_0).bytes([contact])
        Golden.check(written, against: "vcard4/expected/rfc6350-section8.vcf")
        let (again, againDiagnostics) = VCardDocument.read(written)
        #expect(againDiagnostics.isEmpty, "\(againDiagnostics)")
        #expect(again.map(\.contact) == [contact])
        #expect(VCardWriter(version: .v4_0).bytes(again.map(\.contact)) == written)
    }

    @Test func section8ConvertsToTheJCardOfAppendixB1() throws {
        let input = try FixturePaths.bytes("vcard4/rfc6350-section8.vcf")
        let jCard = JCard.encode(VCardLexer.parse(input).cards)
        Golden.check(jCard, against: "jcard/expected/rfc6350-section8.json")

        // Appendix B.1 is this card, except that it gives the anniversary seconds the vCard does not have
        // (`20090808T1430-0500`).
        guard case .array(var b1) = try JSONTree(try FixturePaths.bytes("jcard/rfc7095-b1.json")),
            case .array(var properties) = b1[1], case .array(var anniversary) = properties[4]
        else {
            Issue.record("B.1 is not shaped as a jCard")
            return
        }
        #expect(anniversary[3] == .string("2009-08-08T14:30:00-05:00"))
        anniversary[3] = .string("2009-08-08T14:30-05:00")
        properties[4] = .array(anniversary)
        b1[1] = .array(properties)
        #expect(try JSONTree(jCard) == .array(b1))
    }

    @Test func contactsRoundTripThroughJCard() throws {
        let input = try FixturePaths.bytes("vcard4/rfc6350-section8.vcf")
        let contacts = VCardDocument.read(input).cards.map(\.contact)
        let jCard = JCard.encode(contacts)
        let read = try JCard.read(jCard, name: "out.json")
        #expect(read.flatMap(\.diagnostics).isEmpty, "\(read.flatMap(\.diagnostics))")
        // jCard carries TZ:-0500 as a utc-offset (as appendix B.1 does), and vCard 4.0 spells that type out.
        // KEY's link is held in the model's one spelling (VALUE=uri), which jCard's uri type keeps.
        var expected = contacts
        let tz = try #require(expected[0].extensions.firstIndex { $0.name == "TZ" })
        expected[0].extensions[tz].parameters = [ExtraParameter(name: "VALUE", values: ["utc-offset"])]
        let key = try #require(expected[0].extensions.firstIndex { $0.name == "KEY" })
        #expect(expected[0].extensions[key].parameters.map(\.name) == ["VALUE", "TYPE"])
        #expect(read.map(\.contact) == expected)
        // After that one normalisation the conversion is stable.
        #expect(JCard.encode(read.map(\.contact)) == jCard)
    }

    /// Every quirk fixture's contacts survive jCard: one trip may normalise a value (basic date form, a TZ
    /// type), after which writing and reading again changes nothing.
    @Test func quirkFixturesAreStableThroughJCard() throws {
        let files = try FixturePaths.files(in: "vcard", withExtension: "vcf")
        #expect(files.count >= 50)
        for file in files {
            let contacts = VCardDocument.read(try FixturePaths.bytes("vcard/" + file)).cards.map(\.contact)
            let once = try JCard.read(JCard.encode(contacts)).map(\.contact)
            let jCard = JCard.encode(once)
            let twice = try JCard.read(jCard)
            #expect(twice.flatMap(\.diagnostics).filter { $0.severity == .error }.isEmpty, "\(file)")
            #expect(twice.map(\.contact) == once, "\(file)")
            #expect(JCard.encode(twice.map(\.contact)) == jCard, "\(file)")
            #expect(once.count == contacts.count, "\(file)")
        }
    }

    // MARK: Values, parameters and properties

    @Test func datesAndTimesTakeVCardsBasicForm() throws {
        let vCard = try vCard(
            """
            ["vcard", [
              ["version", {}, "text", "4.0"],
              ["bday", {}, "date", "1985-04-12"],
              ["x-a", {}, "date", "--04-12"],
              ["x-b", {}, "date", "---12"],
              ["x-c", {}, "date-and-or-time", "T10:22:00"],
              ["x-d", {}, "date-time", "2013-02-14T12:30:00-05:00"],
              ["tz", {}, "utc-offset", "-05:00"],
              ["anniversary", {}, "date-and-or-time", "--04-12T10:22Z"],
              ["rev", {}, "timestamp", "2013-02-14T12:30:00+01"],
              ["x-e", {}, "time", "-22:00"]
            ]]
            """)
        #expect(
            vCard == """
                BEGIN:VCARD\r
                VERSION:4.0\r
                BDAY;VALUE=date:19850412\r
                X-A;VALUE=date:--0412\r
                X-B;VALUE=date:---12\r
                X-C;VALUE=date-and-or-time:T102200\r
                X-D;VALUE=date-time:20130214T123000-0500\r
                TZ;VALUE=utc-offset:-0500\r
                ANNIVERSARY:--0412T1022Z\r
                REV:20130214T123000+01\r
                X-E;VALUE=time:-2200\r
                END:VCARD\r

                """)
    }

    @Test func vCardDatesTakeJCardsExtendedForm() {
        let jCard = jCard(
            """
            BEGIN:VCARD\r
            VERSION:4.0\r
            BDAY:19850412\r
            ANNIVERSARY:T1022\r
            REV:2008-04-24T19:52:43Z\r
            DEATHDATE:---12\r
            X-T;VALUE=time:102200-0800\r
            X-L;VALUE=date:19850412,--0412\r
            TZ;VALUE=utc-offset:+0530\r
            END:VCARD\r

            """)
        #expect(
            jCard == """
                ["vcard",
                  [
                    ["version", {}, "text", "4.0"],
                    ["bday", {}, "date-and-or-time", "1985-04-12"],
                    ["anniversary", {}, "date-and-or-time", "T10:22"],
                    ["rev", {}, "timestamp", "2008-04-24T19:52:43Z"],
                    ["deathdate", {}, "date-and-or-time", "---12"],
                    ["x-t", {}, "time", "10:22:00-08:00"],
                    ["x-l", {}, "date", "1985-04-12", "--04-12"],
                    ["tz", {}, "utc-offset", "+05:30"]
                  ]
                ]

                """)
    }

    @Test func propertiesAndParametersMapAsRFC7095Says() {
        let jCard = jCard(
            """
            BEGIN:VCARD\r
            VERSION:4.0\r
            item1.TEL;TYPE="work,voice";type=cell;PREF=1;VALUE=uri:tel:+1-555-0100\r
            UID:urn:uuid:1234\r
            UID;VALUE=text:plain\\, text\r
            X-SECRET;X-WHY=because:a\\,b;c\r
            X-COUNT;VALUE=integer:+007,-3\r
            X-ON;VALUE=boolean:True\r
            X-PI;VALUE=float:+03.14\r
            NICKNAME:Jim,Jimmy\\, Jr.\r
            N:Public;John;Quinlan,Q.;Mr.;Esq.\r
            GENDER:M;\r
            TZ:America/Montreal\r
            BDAY:circa 1800\r
            X-WHEN;VALUE=date:someday\r
            NOTE;LANGUAGE=en;LABEL="caret ^^ and ^'quote^' and^nline":x\r
            END:VCARD\r

            """)
        #expect(
            jCard == #"""
                ["vcard",
                  [
                    ["version", {}, "text", "4.0"],
                    ["tel", {"group": "item1", "type": ["work", "voice", "cell"], "pref": "1"}, "uri", "tel:+1-555-0100"],
                    ["uid", {}, "uri", "urn:uuid:1234"],
                    ["uid", {}, "text", "plain, text"],
                    ["x-secret", {"x-why": "because"}, "unknown", "a\\,b;c"],
                    ["x-count", {}, "integer", 7, -3],
                    ["x-on", {}, "boolean", true],
                    ["x-pi", {}, "float", 3.14],
                    ["nickname", {}, "text", "Jim", "Jimmy, Jr."],
                    ["n", {}, "text", ["Public", "John", ["Quinlan", "Q."], "Mr.", "Esq."]],
                    ["gender", {}, "text", ["M", ""]],
                    ["tz", {}, "text", "America/Montreal"],
                    ["bday", {}, "unknown", "circa 1800"],
                    ["x-when", {}, "unknown", "someday"],
                    ["note", {"language": "en", "label": "caret ^ and \"quote\" and\nline"}, "text", "x"]
                  ]
                ]

                """#)
    }

    @Test func jCardValuesAreEscapedAsVCard4Text() throws {
        let vCard = try vCard(
            #"""
            ["vcard", [
              ["version", {}, "text", "4.0"],
              ["note", {"label": "a \"quote\",\nand ^caret"}, "text", "one, two; three\\ \nfour"],
              ["org", {"value": "ignored", "group": "g1"}, "text", ["A; B", ["C", "D,E"]]],
              ["categories", {}, "text", "x,y", "z"],
              ["x-raw", {}, "unknown", "kept\\, as; is"],
              ["url", {}, "uri", "http://example.com/a,b;c"],
              ["x-n", {}, "integer", 12],
              ["x-f", {}, "float", -1.5],
              ["x-b", {}, "boolean", false],
              ["kind", {}, "x-kind", "thing"]
            ]]
            """#)
        #expect(
            vCard
                == #"""
                BEGIN:VCARD
                VERSION:4.0
                NOTE;LABEL="a ^'quote^',^nand ^^caret":one\, two\; three\\ \nfour
                g1.ORG:A\; B;C,D\,E
                CATEGORIES:x\,y,z
                X-RAW:kept\, as; is
                URL:http://example.com/a,b;c
                X-N;VALUE=integer:12
                X-F;VALUE=float:-1.5
                X-B;VALUE=boolean:FALSE
                KIND;VALUE=x-kind:thing
                END:VCARD

                """#.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test func versionComesFirstAndIsAddedWhenMissing() throws {
        let (cards, diagnostics) = try JCard.cards(
            from: Array(
                """
                [["vcard", [["fn", {}, "text", "A"], ["version", {}, "text", "4.0"]]],
                 ["vcard", [["fn", {}, "text", "B"]]]]
                """.utf8), name: "v.json")
        #expect(cards.map { $0.lines.map(\.name) } == [["VERSION", "FN"], ["VERSION", "FN"]])
        #expect(
            diagnostics.map(\.description)
                == [
                    #"v.json:2:2: warning: card 2: expected a "version" property first; 4.0 was assumed [missing-version]"#
                ])
        // Written back, VERSION leads too.
        #expect(
            jCard("BEGIN:VCARD\r\nFN:A\r\nVERSION:4.0\r\nEND:VCARD\r\n").contains(
                "[\n    [\"version\", {}, \"text\", \"4.0\"],\n    [\"fn\""))
    }

    @Test func valuesThatDoNotFitTheirTypeAreKeptWithAWarning() throws {
        let (cards, diagnostics) = try JCard.cards(
            from: Array(
                """
                ["vcard", [
                  ["version", {}, "text", "4.0"],
                  ["bday", {}, "date", "April 1st"],
                  ["x-n", {}, "integer", "12"],
                  ["fn", {}, "text", 42]
                ]]
                """.utf8), name: "w.json")
        #expect(cards[0].lines.map(\.value) == ["4.0", "April 1st", "12", "42"])
        #expect(
            diagnostics.map(\.description) == [
                #"w.json:3:24: warning: card 1, property 2 ("bday"): expected a date such as "1985-04-12", "--04-12" or "---12" for type "date"; the value was kept as written [invalid-value]"#,
                #"w.json:4:26: warning: card 1, property 3 ("x-n"): expected a whole number for type "integer"; the value was kept as written [invalid-value]"#,
                #"w.json:5:22: warning: card 1, property 4 ("fn"): expected a string for type "text"; the value was kept as written [invalid-value]"#,
            ])
    }

    /// Null or an object where text goes has no text to keep: the warning says the value was left out (it said
    /// "kept as written" of the empty value written).
    @Test func nullOrAnObjectAsTextIsSaidToBeLeftOut() throws {
        let (cards, diagnostics) = try JCard.cards(
            from: Array(
                #"["vcard", [["version", {}, "text", "4.0"], ["email", {}, "text", {"a": "b"}], ["note", {}, "text", null], ["x-foo", {}, "unknown", null]]]"#
                    .utf8), name: "w.json")
        #expect(cards[0].lines.map(\.value) == ["4.0", "", "", ""])
        #expect(
            diagnostics.map(\.message) == [
                #"card 1, property 2 ("email"): expected a string, found an object; the value was left out"#,
                #"card 1, property 3 ("note"): expected a string, found null; the value was left out"#,
                #"card 1, property 4 ("x-foo"): expected a string, found null; the value was left out"#,
            ])
    }

    // MARK: Output layout

    @Test func oneCardIsOneJCardAndOtherCountsAreAnArray() throws {
        let card = RawCard(lines: [ContentLine(name: "VERSION", value: "4.0"), ContentLine(name: "FN", value: "A")])
        #expect(
            text(JCard.encode([card])) == """
                ["vcard",
                  [
                    ["version", {}, "text", "4.0"],
                    ["fn", {}, "text", "A"]
                  ]
                ]

                """)
        #expect(
            text(JCard.encode([card, card])) == """
                [
                  ["vcard",
                    [
                      ["version", {}, "text", "4.0"],
                      ["fn", {}, "text", "A"]
                    ]
                  ],
                  ["vcard",
                    [
                      ["version", {}, "text", "4.0"],
                      ["fn", {}, "text", "A"]
                    ]
                  ]
                ]

                """)
        #expect(text(JCard.encode([RawCard]())) == "[]\n")
        #expect(try JCard.cards(from: Array("[]\n".utf8)).cards.isEmpty)
    }

    @Test func stringsAreEscapedForJSON() throws {
        let card = RawCard(lines: [ContentLine(name: "NOTE", value: "q\" b\\\\ t\t c\u{1} é 😀")])
        let jCard = JCard.encode([card])
        #expect(text(jCard).contains(#"["note", {}, "text", "q\" b\\ t\t c\u0001 é 😀"]"#))
        #expect(
            try JSONTree(jCard)
                == .array([
                    .string("vcard"),
                    .array([
                        .array([.string("version"), .object([:]), .string("text"), .string("4.0")]),
                        .array([.string("note"), .object([:]), .string("text"), .string("q\" b\\ t\t c\u{1} é 😀")]),
                    ]),
                ]))
    }

    // MARK: Errors

    /// The error text for `json`, named `bad.json`.
    private func error(_ json: String) -> String? {
        do {
            _ = try JCard.cards(from: Array(json.utf8), name: "bad.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func malformedJCardIsRefusedWithLineAndExpectation() {
        #expect(error("BEGIN:VCARD") == "bad.json:1:1: error: not valid JSON: expected a value")
        #expect(
            error("[\"vcard\", [\n  [\"fn\", {}, \"text\", \"A\"]\n")
                == "bad.json:3:1: error: not valid JSON: expected ',' or ']'")
        #expect(
            error("[\"vcard\", [[\"fn\", {}, \"text\", \"A]]]")
                == "bad.json:1:31: error: not valid JSON: expected a closing '\"' for this string")
        #expect(error("[\"vcard\", []] x") == "bad.json:1:15: error: not valid JSON: expected the end of the input")
        #expect(
            error("{\"vcard\": []}")
                == #"bad.json:1:1: error: expected a jCard ["vcard", [properties]] or an array of jCards"#)
        #expect(
            error("[[\"vcard\", []],\n [\"vcalendar\", []]]")
                == #"bad.json:2:2: error: card 2: expected ["vcard", [properties]]"#)
        #expect(
            error(
                """
                ["vcard", [
                  ["version", {}, "text", "4.0"],
                  "fn: A"
                ]]
                """) == "bad.json:3:3: error: card 1, property 2: expected [name, parameters, type, value...]")
        #expect(
            error(
                """
                ["vcard", [
                  ["version", {}, "text", "4.0"],
                  ["fn", {}, "text", "A"],
                  ["email", {}, "text", "a@example.com"],
                  ["tel", {"type": "cell"}]
                ]]
                """) == #"bad.json:5:3: error: card 1, property 4 ("tel"): expected [name, parameters, type, value...]"#
        )
        #expect(
            error(
                """
                ["vcard", [["fn", [], "text", "A"]]]
                """)
                == #"bad.json:1:19: error: card 1, property 1 ("fn"): expected the parameters as an object, such as {} or {"type": "work"}"#
        )
        #expect(
            error(
                """
                ["vcard", [["fn", {}, null, "A"]]]
                """)
                == #"bad.json:1:23: error: card 1, property 1 ("fn"): expected the value type as a string, such as "text""#
        )
        #expect(
            error(
                """
                ["vcard", [["tel", {"type": {"a": 1}}, "text", "1"]]]
                """)
                == #"bad.json:1:29: error: card 1, property 1 ("tel"): expected parameter "type" to be a string or an array of strings"#
        )
        #expect(
            error(
                """
                ["vcard", [["x-n", {}, "integer", [1, 2]]]]
                """)
                == #"bad.json:1:35: error: card 1, property 1 ("x-n"): expected a single value for type "integer", not an array"#
        )
        #expect(
            error(
                """
                ["vcard", [["n", {}, "text", ["a", [["b"]]]]]]
                """)
                == #"bad.json:1:37: error: card 1, property 1 ("n"): expected component 2 to be a string or an array of strings"#
        )
        #expect(
            error(
                """
                ["vcard", [["f n", {}, "text", "A"]]]
                """)
                == #"bad.json:1:13: error: card 1, property 1 ("f n"): expected a property name of letters, digits and '-'"#
        )
        #expect(
            error(
                """
                ["vcard", [["fn", {"x;y": "1"}, "text", "A"]]]
                """)
                == #"bad.json:1:27: error: card 1, property 1 ("fn"): expected parameter names of letters, digits and '-', not "x;y""#
        )
        #expect(
            error(String(repeating: "[", count: 100))
                == "bad.json:1:65: error: not valid JSON: expected nesting no deeper than 64 levels")
    }

    @Test func jsonStringsAndNumbersFollowRFC8259() throws {
        #expect(
            error(#"["vcard", [["fn", {}, "text", "a\qb"]]]"#)
                == #"bad.json:1:33: error: not valid JSON: expected an escape such as \" \\ \n or \u00e9"#)
        #expect(
            error("[\"vcard\", [[\"fn\", {}, \"text\", \"a\tb\"]]]")
                == #"bad.json:1:33: error: not valid JSON: expected a control character escaped (\n, \t, \u0001)"#)
        #expect(
            error(#"["vcard", [["x-n", {}, "integer", 01]]]"#)
                == "bad.json:1:36: error: not valid JSON: expected ',' or ']'")
        #expect(
            error(#"["vcard", [["x-n", {}, "integer", -]]]"#)
                == "bad.json:1:36: error: not valid JSON: expected a digit")
        #expect(
            error(#"["vcard", [["fn", {}, "text", "\u12"]]]"#)
                == #"bad.json:1:36: error: not valid JSON: expected four hex digits after \u"#)
        // Escapes decode, a surrogate pair joins, and a lone surrogate becomes U+FFFD rather than failing.
        let cards = try JCard.cards(
            from: Array(
                #"""
                ["vcard", [["version", {}, "text", "4.0"],
                           ["fn", {}, "text", "\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x"],
                           ["x-big", {}, "integer", -12345678901234567890], ["x-e", {}, "float", 2.5E+3]]]
                """#.utf8)
        ).cards
        #expect(cards[0].lines[1].value == "\"\\\\/\u{8}\u{C}\\n\\n\té😀\u{FFFD}x")
        // Numbers keep every digit as written, even where a Double would round them.
        #expect(cards[0].lines[2].value == "-12345678901234567890")
        #expect(cards[0].lines[3].value == "2.5E+3")
    }

    @Test func readCardsNameTheFileAndTheJSONLine() throws {
        let cards = try JCard.read(
            Array(
                """
                ["vcard", [
                  ["version", {}, "text", "4.0"],
                  ["n", {}, "text", ["Doe", "Jane", "", "", ""]],
                  ["bday", {}, "date", "someday"]
                ]]
                """.utf8), name: "people.json")
        #expect(cards.map(\.contact.formattedName) == ["Jane Doe"])
        #expect(
            cards.flatMap(\.diagnostics).map(\.description) == [
                "people.json:1:1: warning: card has no FN; the display name was derived from its other fields [missing-fn]",
                #"people.json:4:24: warning: card 1, property 3 ("bday"): expected a date such as "1985-04-12", "--04-12" or "---12" for type "date"; the value was kept as written [invalid-value]"#,
            ])
    }

    @Test func errorsNameTheLineAfterCRLFAndABOM() {
        #expect(
            error("\u{FEFF}[\"vcard\",\r\n [\r\n  42\r\n ]\r\n]")
                == "bad.json:3:3: error: card 1, property 1: expected [name, parameters, type, value...]")
    }

    // MARK: Detection

    @Test func jCardIsDetectedFromItsFirstBytes() throws {
        #expect(JCard.looksLikeJCard(try FixturePaths.bytes("jcard/rfc7095-b1.json")))
        #expect(JCard.looksLikeJCard(try FixturePaths.bytes("jcard/edge-two-cards.json")))
        #expect(JCard.looksLikeJCard([0xEF, 0xBB, 0xBF] + Array(" \r\n[ [\n\"vcard\"".utf8)))
        #expect(JCard.looksLikeJCard(Array("[\"vcard\"".utf8)))
        #expect(!JCard.looksLikeJCard(Array("BEGIN:VCARD\r\n".utf8)))
        #expect(!JCard.looksLikeJCard(Array("[{\"formattedName\": \"A\"}]".utf8)))
        #expect(!JCard.looksLikeJCard(Array("{\"vcard\": []}".utf8)))
        #expect(!JCard.looksLikeJCard(Array("[\"vcards\"".utf8)))
        #expect(!JCard.looksLikeJCard(Array("[\"vca".utf8)))
        #expect(!JCard.looksLikeJCard(Array("[]".utf8)))
        #expect(!JCard.looksLikeJCard([]))
    }
}
