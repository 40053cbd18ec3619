import Foundation
import TestSupport
import Testing

@testable import VCardSyntax

/// The charset tables against Foundation, and the order in which the charset of undeclared 8-bit text is decided
/// (`DecodingOptions`): `--charset`, a CHARSET elsewhere in the card, damaged UTF-8, a CHARSET elsewhere in the
/// file, the detector.
@Suite struct CharsetDecisionTests {
    // MARK: Tables

    /// Every table decodes every byte as Foundation does wherever Foundation knows the code page and the byte,
    /// so our tables follow the standard.
    @Test(
        arguments: [
            (Charset.windows1250, String.Encoding.windowsCP1250), (.windows1251, .windowsCP1251),
            (.windows1252, .windowsCP1252), (.windows1253, .windowsCP1253), (.windows1254, .windowsCP1254),
            (.latin2, .isoLatin2), (.latin1, .isoLatin1),
            (.windows1255, String.Encoding(rawValue: 0x8000_0505)), (.koi8R, String.Encoding(rawValue: 0x8000_0A02)),
            (.isoCyrillic, String.Encoding(rawValue: 0x8000_0205)), (.isoGreek, String.Encoding(rawValue: 0x8000_0207)),
            (.latin9, String.Encoding(rawValue: 0x8000_020F)),
        ] as [(Charset, String.Encoding)])
    func tablesAgreeWithFoundation(_ charset: Charset, _ encoding: String.Encoding) {
        var compared = 0
        for byte in UInt8(0x80)...UInt8(0xFF) {
            guard let ours = [byte].withUnsafeBufferPointer({ charset.decodeStrictly($0) }),
                let theirs = String(data: Data([byte]), encoding: encoding)
            else { continue }
            #expect(ours == theirs, "\(charset.name) byte \(String(byte, radix: 16))")
            compared += 1
        }
        #expect(compared >= 100, "\(charset.name): only \(compared) bytes compared")
    }

    /// Mac OS Roman by known points: swift-corelibs-foundation's decoder gives every byte over 0x7F as the
    /// character 0x20 above it (0x80 as U+00A0), one more reason for our own tables.
    @Test func macRomanByKnownPoints() {
        let points: [(UInt8, String)] = [(0x80, "Ä"), (0x8E, "é"), (0x9A, "ö"), (0xA7, "ß"), (0xAF, "Ø"), (0xD2, "“")]
        for (byte, text) in points {
            #expect([byte].withUnsafeBufferPointer { Charset.macRoman.decodeStrictly($0) } == text)
        }
    }

    @Test func namesAndAliasesResolve() {
        #expect(Charset(named: "windows-1251") == .windows1251)
        #expect(Charset(named: "CP1251") == .windows1251)
        #expect(Charset(named: " koi8_r ") == .koi8R)
        #expect(Charset(named: "MACINTOSH") == .macRoman)
        #expect(Charset(named: "Shift-JIS") == .shiftJIS)
        #expect(Charset(named: "us-ascii") == .utf8)
        #expect(Charset(named: "klingon") == nil)
        #expect(Charset.knownNames.allSatisfy { Charset(named: $0) != nil })
    }

    @Test func anUndefinedByteIsRejectedStrictlyAndKeptLeniently() {
        let bytes: [UInt8] = [0x41, 0x81]
        #expect(bytes.withUnsafeBufferPointer { Charset.windows1252.decodeStrictly($0) } == nil)
        #expect(bytes.withUnsafeBufferPointer { Charset.windows1252.decode($0) } == "A\u{81}")
    }

    // MARK: Damaged UTF-8

    @Test(
        arguments: [
            ([0xC3, 0x84, 0xC3, 0x84, 0xC3], true),  // ÄÄ and a cut Ä
            (Array("Grüße ".utf8) + [0xFF] + Array(" schön".utf8), true),
            ([0x43, 0x61, 0x66, 0xE9], false),  // Caf + Windows-1252 é: no UTF-8 character at all
            ([0xC3, 0x84, 0xFF, 0xFE], false),  // two damaged sequences
            ([0xC3, 0x84], false),  // nothing damaged
        ] as [([UInt8], Bool)])
    func damagedUTF8(_ bytes: [UInt8], _ damaged: Bool) {
        #expect(bytes.withUnsafeBufferPointer(TextDecoding.isDamagedUTF8) == damaged)
    }

    // MARK: The order of decisions

    static func card(_ lines: [UInt8]...) -> [UInt8] {
        Array("BEGIN:VCARD\r\nVERSION:2.1\r\n".utf8) + lines.flatMap { $0 + [0x0D, 0x0A] } + Array("END:VCARD\r\n".utf8)
    }

    static func values(_ bytes: [UInt8], _ options: DecodingOptions = DecodingOptions()) -> ([[String]], [String]) {
        let (cards, diagnostics) = VCardLexer.parse(bytes, decoding: options)
        return (cards.map { $0.lines.filter { $0.name != "VERSION" }.map(\.value) }, diagnostics.map(\.message))
    }

    static let cyrillic1251 = Array("Іван".data(using: .windowsCP1251)!)

    @Test func aCharsetDeclaredElsewhereInTheCardComesFirst() {
        let text = Self.card(
            Array("N;CHARSET=KOI8-R:".utf8) + Array("Петров".data(using: String.Encoding(rawValue: 0x8000_0A02))!),
            Array("FN:".utf8) + Array("Пётр".data(using: String.Encoding(rawValue: 0x8000_0A02))!))
        let (values, messages) = Self.values(text)
        #expect(values == [["Петров", "Пётр"]])
        #expect(
            messages == ["FN: not UTF-8 and no CHARSET; read as KOI8-R, the CHARSET another line of this card declares"]
        )
    }

    @Test func theUserSaysFirst() {
        let text = Self.card(Array("N;CHARSET=KOI8-R:x".utf8), Array("FN:".utf8) + Self.cyrillic1251)
        let (values, messages) = Self.values(text, DecodingOptions(charset: .windows1251))
        #expect(values == [["x", "Іван"]])
        #expect(messages == ["FN: not UTF-8 and no CHARSET; read as Windows-1251, as --charset says"])
        // UTF-8 as the user's charset: each damaged sequence becomes U+FFFD.
        let utf8 = Self.values(Self.card(Array("FN:a".utf8) + [0xE9]), DecodingOptions(charset: .utf8)).0
        #expect(utf8 == [["a\u{FFFD}"]])
    }

    @Test func aCharsetTheFileDeclaresComesBeforeTheDetector() {
        let text = Self.card(Array("FN:".utf8) + Self.cyrillic1251)
        let evidence = CharsetEvidence(declared: .windows1251, detected: nil)
        let (values, messages) = Self.values(text, DecodingOptions(file: evidence))
        #expect(values == [["Іван"]])
        #expect(messages.first?.hasSuffix("read as Windows-1251, the CHARSET other cards of this file declare") == true)
    }

    @Test func theFilesDetectedCharsetLeadsAShortValue() {
        // `Ð` and `Đ` are both plausible alone; the file's own letters point to Windows-1250.
        let text = Self.card(Array("FN:".utf8) + [0xD0, 0x75, 0x72, 0x6F])
        #expect(Self.values(text).0 == [["Ðuro"]])
        let (values, _) = Self.values(text, DecodingOptions(file: CharsetEvidence(detected: .windows1250)))
        #expect(values == [["Đuro"]])
    }

    @Test func aParameterValueWaitsForTheDecisionToo() {
        let text = Self.card(Array("ADR;X-PLACE=".utf8) + Self.cyrillic1251 + Array(":;;".utf8) + Self.cyrillic1251)
        let (cards, _) = VCardLexer.parse(text, decoding: DecodingOptions(charset: .windows1251))
        #expect(cards.first?.lines.last?.parameters == [Parameter(name: "X-PLACE", values: ["Іван"])])
        #expect(cards.first?.lines.last?.value == ";;Іван")
    }

    // MARK: The file's evidence

    @Test func aUTF8FileNeedsNoSurvey() {
        let bytes = Array("BEGIN:VCARD\r\nFN:Zoë\r\nEND:VCARD\r\n".utf8)
        #expect(CharsetEvidence.survey(bytes) == .none)
        // A survey cut inside a character is still UTF-8.
        #expect(CharsetEvidence.survey(Array(bytes.dropLast(12))) == .none)
    }

    @Test func parametersThatLookLikeEscapesNeedNoSurvey() {
        // `=CE` in TYPE=CELL and `=da` in VALUE=date are not escapes without a parameter asking for them.
        let bytes = Array("BEGIN:VCARD\r\nTEL;TYPE=CELL:+1 555\r\nBDAY;VALUE=date:1990-01-02\r\nEND:VCARD\r\n".utf8)
        #expect(CharsetEvidence.survey(bytes) == .none)
        #expect(!bytes.withUnsafeBufferPointer(CharsetEvidence.needsSurvey))
    }

    @Test(arguments: [
        "FN;ENCODING=QUOTED-PRINTABLE:=C8=E2=E0=ED", "FN;quoted-printable:=C8=E2=E0=ED", "FN;ENCODING=qp:=C8=E2=E0=ED",
        "FN;ENCODING=QUOTED-PRI\r\n NTABLE:=C8=E2=E0=ED", "FN;ENCODING=Q\r\n\tP:=C8=E2=E0=ED",
    ])
    func aParameterAskingForQuotedPrintableIsSurveyed(_ line: String) {
        let bytes = Self.card(Array(line.utf8))
        #expect(bytes.withUnsafeBufferPointer(CharsetEvidence.needsSurvey))
        #expect(CharsetEvidence.survey(bytes).detected == .windows1251)
    }

    @Test func onlyTheTwoWordsAskForQuotedPrintable() {
        for (text, asks) in [
            ("Jacques Quentin", false), ("QUOTED-PRINT", false), ("Q-P", false), ("xqpx", false), ("Q", false),
            ("ENCODING=b", false), ("ENCODING=BASE64", false), ("ENCODING", false), ("ENCODING=QP", true),
            ("encoding = \"qp\"", true), ("ENCO\r\n DING=Q\r\n P", true), ("QUOTED-\r\n PRINTABLE", true),
            ("quoted-printable", true),
        ] {
            #expect(
                Array(text.utf8).withUnsafeBufferPointer(CharsetEvidence.mayAskForQuotedPrintable) == asks, "\(text)")
        }
    }

    /// Every file the survey skips (the fixtures, and the corpus when `VCF_CORPUS` names it) gives no evidence
    /// when lexed: skipping loses nothing.
    @Test func aFileTheSurveySkipsHoldsNoEvidence() throws {
        var roots = [FixturePaths.root]
        if let corpus = ProcessInfo.processInfo.environment["VCF_CORPUS"] { roots.append(URL(fileURLWithPath: corpus)) }
        var skipped = 0
        var surveyed = 0
        for root in roots {
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = walker?.nextObject() as? URL {
                guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true,
                    ["vcf", "vcard", "txt", "vcs"].contains(url.pathExtension.lowercased())
                else { continue }
                let bytes = [UInt8](try Data(contentsOf: url).prefix(CharsetEvidence.surveyedBytes))
                try bytes.withUnsafeBufferPointer { buffer in
                    if CharsetEvidence.needsSurvey(buffer) {
                        surveyed += 1
                    } else {
                        skipped += 1
                        let lexed = CharsetEvidence.lexedSurvey(buffer, limits: .default)
                        try #require(lexed == .none, "\(url.path) gives \(lexed)")
                    }
                }
            }
        }
        #expect(skipped > 100 && surveyed > 10, "skipped \(skipped), surveyed \(surveyed)")
    }

    @Test func aSurveyFindsTheDeclaredAndTheDetectedCharset() {
        let bytes =
            Self.card(Array("N;CHARSET=WINDOWS-1251:".utf8) + Self.cyrillic1251)
            + Self.card(
                Array("N;CHARSET=WINDOWS-1251:".utf8) + Self.cyrillic1251, Array("FN:".utf8) + Self.cyrillic1251)
        #expect(CharsetEvidence.survey(bytes) == CharsetEvidence(declared: .windows1251, detected: .windows1251))
        let qp = Self.card(Array("FN;ENCODING=QUOTED-PRINTABLE:=C8=E2=E0=ED".utf8))
        #expect(CharsetEvidence.survey(qp).detected == .windows1251)
    }

    @Test func everyChunkingGivesTheSameDecisions() throws {
        var bytes: [UInt8] = []
        for file in try FixturePaths.files(in: "fidelity", withExtension: "vcf") where file.hasPrefix("charset-") {
            bytes += try FixturePaths.bytes("fidelity/" + file)
        }
        let options = DecodingOptions(file: CharsetEvidence.survey(bytes))
        let whole = VCardLexer.parse(bytes, decoding: options)
        var lexer = VCardLexer(decoding: options)
        var cards: [RawCard] = []
        var start = 0
        var size = 1
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            cards += lexer.feed(Array(bytes[start..<end]))
            start = end
            size = size % 97 + 7
        }
        cards += lexer.finish()
        #expect(cards == whole.cards)
        #expect(lexer.takeDiagnostics() == whole.diagnostics)
        #expect(whole.cards.count >= 15)
    }
}
