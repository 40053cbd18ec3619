import Testing
import VCardSyntax

@testable import VCardLint

/// The streaming linter gives the whole-file linter's findings, in order, a few cards' at a time.
@Suite struct StreamLinterTests {
    /// Tiny cards, each with two findings (no N, no UID), past the bytes held for the charset survey.
    static let tinyCards: [UInt8] = {
        var text = ""
        var index = 0
        while text.utf8.count < CharsetEvidence.surveyedBytes + (1 << 20) {
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:P\(index)\r\nEND:VCARD\r\n"
            index += 1
        }
        return Array(text.utf8)
    }()

    /// The findings of `bytes` fed to a streaming linter `first` bytes, then `chunk` bytes at a time.
    static func streamed(_ bytes: [UInt8], file: String, first: Int? = nil, chunk: Int) throws -> [Diagnostic] {
        var linter = StreamLinter(file: file)
        var streamed: [Diagnostic] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + (offset == 0 ? first ?? chunk : chunk))
            try linter.feed(Array(bytes[offset..<end])) { streamed += $0 }
            offset = end
        }
        linter.finish { streamed += $0 }
        return streamed
    }

    @Test func findingsHandedOnAsTheyComeAreTheWholeFilesInOrder() throws {
        let whole = Linter.lint(Self.tinyCards, file: "t.vcf")
        var linter = StreamLinter(file: "t.vcf")
        var batches: [[Diagnostic]] = []
        var offset = 0
        while offset < Self.tinyCards.count {
            let end = min(Self.tinyCards.count, offset + (1 << 20))
            try linter.feed(Array(Self.tinyCards[offset..<end])) { batches.append($0) }
            offset = end
        }
        linter.finish { batches.append($0) }
        let streamed = batches.flatMap { $0 }
        #expect(streamed.count == whole.count)
        #expect(streamed.map(\.description) == whole.map(\.description))
        // The first 4 MiB (about 87,000 cards) are held for the survey, but not handed on as one batch: a
        // batch is a part of about 64 KiB, some 1,300 of these cards.
        let largest = batches.map(\.count).max() ?? 0
        #expect(largest > 0 && largest <= 2 * 2 * (StreamLinter.partBytes / 48), "\(largest) findings in one batch")
    }

    /// A card just under the 32 MiB a card may hold, ended, with cards before and after it: more than a card's
    /// worth is held when it ends, and that used to be taken for a card cut short (a missing END, then an END
    /// closing no card, on a valid file). The whole file's findings, none of them an error.
    @Test func aLargeCardThatEndsIsCutAfterLikeAnyOther() throws {
        let filler = String(repeating: "x", count: 1_000)
        func small(_ n: Int) -> String {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:S\(n)\r\nN:S\(n);;;;\r\nUID:\(n)\r\nNOTE:\(filler)\r\nEND:VCARD\r\n"
        }
        let note = "NOTE:" + String(repeating: "a", count: 1 << 20) + "\r\n"
        let large =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:L\r\nN:L;;;;\r\nUID:L\r\n" + String(repeating: note, count: 31)
            + "NOTE:" + String(repeating: "b", count: 900 << 10) + "\r\nEND:VCARD\r\n"
        let bytes = Array(((0..<300).map(small).joined() + large + (300..<2_300).map(small).joined()).utf8)
        let streamed = try Self.streamed(bytes, file: "t.vcf", chunk: 1 << 20)
        #expect(!streamed.contains { $0.severity == .error }, "\(streamed.filter { $0.severity == .error })")
        #expect(streamed.map(\.description) == Linter.lint(bytes, file: "t.vcf").map(\.description))
    }

    /// A card larger than a card may be (32 MiB), so that no card ends in what is held, gives the whole file's
    /// findings: linted as a part of its own, it gave a card without END, then the rest of it as text outside
    /// cards and an END closing none. A card that ends, one that runs to the end of the file, one cut short by the
    /// next BEGIN, a 2.1 card holding a card past the limit, and as much text outside cards. The lines the lexer
    /// skips are held as their lengths, and text outside cards is not held: what is held stays near the limit.
    @Test(arguments: ["ended", "unended", "next", "nested", "junk"])
    func aCardLargerThanACardMayBeGivesTheWholeFilesFindings(_ kind: String) throws {
        // A line of 1 MiB, then a short one, again and again: 40 MiB, or 4.
        func lines(_ count: Int, _ name: String = "NOTE:") -> String {
            String(repeating: name + String(repeating: "x", count: 1 << 20) + "\r\nX-SHORT:y\r\n", count: count)
        }
        let small = (0..<200).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:S\($0)\r\nN:S;;;;\r\nUID:\($0)\r\nEND:VCARD\r\n" }
        var text = small.joined()
        let large = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:L\r\nN:L;;;;\r\nUID:L\r\n"
        switch kind {
        case "ended": text += large + lines(40) + "END:VCARD\r\n" + small.joined()
        case "unended": text += large + lines(40)
        case "next": text += large + lines(40) + small.joined()
        case "nested":
            text += "BEGIN:VCARD\r\nVERSION:2.1\r\nN:L\r\n" + lines(36) + "AGENT:\r\nBEGIN:VCARD\r\nVERSION:2.1\r\n"
            text += "FN:Inner\r\nNOTE:" + String(repeating: "i", count: 100) + "\r\nEND:VCARD\r\n" + lines(4)
            text += "END:VCARD\r\n" + small.joined()
        default: text += lines(40, "junk ") + small.joined()
        }
        let bytes = Array(text.utf8)
        let whole = Linter.lint(bytes, file: "l.vcf")
        let tooLarge = whole.filter { $0.code == .cardTooLarge }.count
        #expect(tooLarge == (kind == "junk" ? 0 : 1))
        if kind == "ended" || kind == "nested" {
            #expect(!whole.contains { [.missingEnd, .unexpectedEnd, .textOutsideCard].contains($0.code) })
        }
        var linter = StreamLinter(file: "l.vcf")
        var streamed: [Diagnostic] = []
        var held = 0
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + (1 << 20) + 13)
            try linter.feed(Array(bytes[offset..<end])) { streamed += $0 }
            held = max(held, linter.heldByteCount)
            offset = end
        }
        linter.finish { streamed += $0 }
        #expect(streamed.map(\.description) == whole.map(\.description))
        #expect(held < 36 << 20, "\(held) bytes held")
    }

    /// vCard 2.1 cards that hold an AGENT card: a part cut where the inner card begins ends inside a card, and
    /// parts linted ahead on other processors must give way to the serial cut from there on.
    @Test func cardsInsideCardsAcrossPartsGiveTheWholeFilesFindings() throws {
        var text = ""
        var index = 0
        while text.utf8.count < 12 * StreamLinter.partBytes {
            // The second inner card begins right after the first ends: a place that looks like a cut.
            text += "BEGIN:VCARD\r\nVERSION:2.1\r\nN:P\(index);A\r\nAGENT:\r\nBEGIN:VCARD\r\nVERSION:2.1\r\n"
            text += "FN:Q\(index)\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:2.1\r\nFN:R\(index)\r\n"
            // Padding that moves the inner cards across every place a part could be cut.
            text += "NOTE:" + String(repeating: "x", count: index % 97) + "\r\nEND:VCARD\r\nEND:VCARD\r\n"
            index += 1
        }
        let bytes = Array(text.utf8)
        let whole = Linter.lint(bytes, file: "n.vcf")
        let streamed = try Self.streamed(bytes, file: "n.vcf", chunk: 3 * StreamLinter.partBytes + 17)
        #expect(!whole.isEmpty)
        #expect(streamed.count == whole.count)
        let difference = zip(streamed, whole).first { $0.description != $1.description }
        #expect(difference == nil, "first difference: \(String(describing: difference))")
    }

    /// Stretches with no place to cut between cards (BEGIN lines with no END; 2.1 cards nesting others; junk
    /// lines between cards) give the whole file's findings, and are linted as they come: held for a cut that
    /// never came, a 20 MB file of BEGIN lines was linted all at once (11 GB). Each card carries a long note, so
    /// the stretch outgrows the charset survey with few cards.
    @Test(arguments: ["begins", "mixed", "nested"])
    func stretchesWithNoCutGiveTheWholeFilesFindingsAsTheyCome(_ kind: String) throws {
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nN:A;Ann;;;\r\nEND:VCARD\r\n"
        var index = 0
        while text.utf8.count < CharsetEvidence.surveyedBytes + 6 * StreamLinter.partBytes {
            let note = "NOTE:" + String(repeating: "x", count: 3_000 + index % 97) + "\r\n"
            switch kind {
            case "begins": text += "BEGIN:VCARD\r\n" + note
            case "mixed":
                // A card cut short by the next BEGIN, junk, a whole card, and a card with a line of no colon.
                text += "BEGIN:VCARD\r\nFN:P\(index)\r\n\(note)junk \(index)\r\nBEGIN:VCARD\r\nVERSION:3.0\r\n"
                text += "FN:Q\(index)\r\nnocolon\r\nEND:VCARD\r\nstray text\r\n"
            default:
                // 2.1 cards with a card nested inside, a line of text after each.
                text += "BEGIN:VCARD\r\nVERSION:2.1\r\nN:P\(index)\r\nBEGIN:VCARD\r\nVERSION:2.1\r\n"
                text += "FN:Q\(index)\r\nEND:VCARD\r\n\(note)END:VCARD\r\n-- \(index)\r\n"
            }
            index += 1
        }
        text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bo\r\nN:B;Bo;;;\r\nEND:VCARD\r\n"
        let bytes = Array(text.utf8)
        let whole = Linter.lint(bytes, file: "s.vcf")
        var linter = StreamLinter(file: "s.vcf")
        var batches: [[Diagnostic]] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + (1 << 20) + 13)
            try linter.feed(Array(bytes[offset..<end])) { batches.append($0) }
            offset = end
        }
        linter.finish { batches.append($0) }
        let streamed = batches.flatMap { $0 }
        #expect(whole.count > 1000)
        #expect(streamed.count == whole.count)
        let difference = zip(streamed, whole).first { $0.description != $1.description }
        #expect(difference == nil, "first difference: \(String(describing: difference))")
        // Handed on a part at a time, not as one batch of the whole stretch.
        let largest = batches.map(\.count).max() ?? 0
        #expect(largest < whole.count / 8, "\(largest) of \(whole.count) findings in one batch")
    }

    /// With `--carddav`, a card whose UID an earlier card has is found however far apart the two are: each
    /// UID's first line is kept as the parts go by, and the finding is placed as the whole file's linter
    /// places it. Cards in order, cards with no cut between them, and 2.1 cards nesting others.
    @Test(arguments: ["cards", "begins", "nested"])
    func duplicateUIDsAcrossPartsAreTheWholeFilesFindings(_ kind: String) throws {
        var text = ""
        var index = 0
        while text.utf8.count < CharsetEvidence.surveyedBytes + 8 * StreamLinter.partBytes {
            let uid = "UID:u\(index % 3_001)\r\n"
            let note = "NOTE:" + String(repeating: "x", count: (kind == "cards" ? 40 : 3_000) + index % 97) + "\r\n"
            switch kind {
            case "cards":
                // A second UID now and then, no N now and then, and a line of junk between some of the first
                // cards (fewer than the lexer's hundred: past that, one problem on lines far apart is summed up
                // once by a whole-file read and once per part by a streamed one).
                text +=
                    "BEGIN:VCARD\r\nVERSION:3.0\r\n\(uid)FN:P\(index)\r\n" + (index % 7 == 0 ? "UID:second\r\n" : "")
                text += (index % 11 == 0 ? "" : "N:P;Q;;;\r\n") + note + "END:VCARD\r\n"
                text += index % 13 == 0 && index < 1_000 ? "junk\r\n" : ""
            case "begins": text += "BEGIN:VCARD\r\n\(uid)" + note
            default:
                text += "BEGIN:VCARD\r\nVERSION:2.1\r\n\(uid)N:P\(index)\r\nBEGIN:VCARD\r\nVERSION:2.1\r\n"
                text += "\(uid)FN:Q\(index)\r\nEND:VCARD\r\n\(note)END:VCARD\r\n"
            }
            index += 1
        }
        let bytes = Array(text.utf8)
        // Without `--carddav` too, and strict, on the cards in order (the other inputs are checked so elsewhere).
        let all = [
            LintOptions(carddav: CardDAVServer()), LintOptions(), LintOptions(strict: true, carddav: CardDAVServer()),
        ]
        for options in kind == "cards" ? all : [all[0]] {
            let whole = Linter.lint(bytes, file: "d.vcf", options: options)
            let duplicates = whole.filter { $0.code == .cardDAVDuplicateUID }.count
            // Cards cut short by the next BEGIN are not checked for their UIDs, streamed or whole.
            #expect(options.carddav == nil || kind == "begins" ? duplicates == 0 : duplicates > 100)
            #expect(StreamLinter.canStream(prefix: Array(bytes.prefix(64 << 10)), options: options))
            var linter = StreamLinter(file: "d.vcf", options: options)
            var streamed: [Diagnostic] = []
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + (1 << 20) + 13)
                try linter.feed(Array(bytes[offset..<end])) { streamed += $0 }
                offset = end
            }
            linter.finish { streamed += $0 }
            #expect(streamed.count == whole.count)
            let difference = zip(streamed, whole).first { $0.description != $1.description }
            #expect(difference == nil, "first difference: \(String(describing: difference))")
        }
    }

    /// `text` as UTF-16: little-endian with a byte order mark, big-endian without one, or little-endian with a
    /// lone surrogate inside a card and a dangling surrogate and an odd byte at the end.
    static func utf16(_ text: String, _ form: String) -> [UInt8] {
        var units = Array(text.utf16)
        if form == "damaged" {
            units.insert(0xDC00, at: units.count / 2)
            units.append(0xD800)
        }
        var bytes: [UInt8] = form == "big-endian" ? [] : [0xFF, 0xFE]
        for unit in units {
            bytes +=
                form == "big-endian" ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        if form == "damaged" { bytes.append(0x41) }
        return bytes
    }

    /// A UTF-16 file is turned into UTF-8 as it is read and linted a few cards at a time, with the whole-file
    /// linter's findings (the file's own UTF-16 finding once): it was read whole (286 MB for 4 MB of tiny cards).
    /// Fed in pieces that cut code units and surrogate pairs, the first piece shorter than the four bytes that
    /// tell UTF-16 from UTF-8.
    @Test(arguments: ["little-endian", "big-endian", "damaged"])
    func aUTF16FileStreamedGivesTheWholeFilesFindings(_ form: String) throws {
        var text = ""
        var index = 0
        while text.utf8.count < CharsetEvidence.surveyedBytes + 6 * StreamLinter.partBytes {
            // Names beyond the Basic Multilingual Plane (surrogate pairs), no N now and then, long lines (their
            // length is not measured for UTF-16) and 2.1 cards nesting others.
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:P\(index) \u{1F600}\u{20000}\r\n"
            text +=
                (index % 5 == 0 ? "" : "N:P\(index);Q;;;\r\n") + "NOTE:" + String(repeating: "é", count: index % 120)
            text += "\r\nEND:VCARD\r\n"
            if index % 97 == 0 {
                text += "BEGIN:VCARD\r\nVERSION:2.1\r\nN:A;B\r\nAGENT:\r\nBEGIN:VCARD\r\nVERSION:2.1\r\nFN:C\r\n"
                text += "END:VCARD\r\nEND:VCARD\r\n"
            }
            index += 1
        }
        let bytes = Self.utf16(text, form)
        let whole = Linter.lint(bytes, file: "u.vcf")
        #expect(whole.filter { $0.code == .notUTF8 }.count == 1)
        #expect(whole.contains { $0.code == .missingN })
        let streamed = try Self.streamed(bytes, file: "u.vcf", first: 1, chunk: 3 * StreamLinter.partBytes + 17)
        #expect(streamed.count == whole.count)
        let difference = zip(streamed, whole).first { $0.description != $1.description }
        #expect(difference == nil, "first difference: \(String(describing: difference))")
    }

    /// Inputs too short to tell UTF-16 by four bytes are linted as the whole-file linter lints them.
    @Test(arguments: [[], [0xFF, 0xFE], [0xFF, 0xFE, 0x42], [0x42, 0x00], [0x42, 0x00, 0x45]] as [[UInt8]])
    func aFewBytesStreamedGiveTheWholeFilesFindings(_ bytes: [UInt8]) throws {
        var linter = StreamLinter(file: "s.vcf")
        var streamed: [Diagnostic] = []
        for byte in bytes { try linter.feed([byte]) { streamed += $0 } }
        linter.finish { streamed += $0 }
        #expect(streamed.map(\.description) == Linter.lint(bytes, file: "s.vcf").map(\.description))
    }
}
