import ContactCSV
import ContactModel
import Foundation
import TestSupport
import Testing

/// `RecordStream` against `read`, the whole-file reader, as the oracle: the same records, the same problems in
/// the same order, each told before the same card, and the same errors on each card, whatever the size of the
/// pieces the file comes in (one byte at a time cuts every CRLF, quote and character).
@Suite struct RecordStreamTests {
    /// What the stream gives for `bytes` in pieces of `size`.
    static func streamed(_ bytes: [UInt8], size: Int) throws -> (
        layout: ContactCSV.Layout?, items: [ContactCSV.RecordStream.Item], rest: [ContactCSV.Problem]
    ) {
        func pieces() -> () -> [UInt8] {
            var offset = 0
            return {
                let end = min(bytes.count, offset + size)
                defer { offset = end }
                return Array(bytes[offset..<end])
            }
        }
        var check = ContactCSV.EncodingCheck()
        let first = pieces()
        while case let piece = first(), !piece.isEmpty { check.feed(piece) }
        check.finish()
        let dayFirst = try ContactCSV.RecordStream.datesAreDayFirst(check: check, more: pieces())
        var stream = ContactCSV.RecordStream(check: check, dayFirst: dayFirst, more: pieces())
        var items: [ContactCSV.RecordStream.Item] = []
        while let item = try stream.next() { items.append(item) }
        return (stream.layout, items, stream.rest())
    }

    static func expectSame(_ bytes: [UInt8], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let whole = ContactCSV.read(bytes)
        for size in [1, 2, 3, 5, 7, 64, 4_096, bytes.count + 1] {
            let (layout, items, rest) = try Self.streamed(bytes, size: size)
            #expect(layout == whole.layout, "\(what) \(size)", sourceLocation: sourceLocation)
            #expect(items.map(\.record) == whole.records, "\(what) \(size)", sourceLocation: sourceLocation)
            #expect(
                items.flatMap(\.before) + rest == whole.problems, "\(what) \(size)", sourceLocation: sourceLocation)
            for (k, item) in items.enumerated() {
                let end = k + 1 < items.count ? items[k + 1].record.line : Int.max
                let errors = whole.problems.filter {
                    $0.severity == .error && $0.line >= item.record.line && $0.line < end
                }
                #expect(item.errors == errors, "\(what) \(size) record \(k)", sourceLocation: sourceLocation)
                // Told before its card: every problem up to its first line, none after.
                #expect(item.before.allSatisfy { $0.line <= item.record.line }, sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: ["google-contacts.csv", "google-legacy.csv", "outlook.csv", "thunderbird.csv"])
    func fixturesStreamAsTheyReadWhole(_ file: String) throws {
        try Self.expectSame(try FixturePaths.bytes("csv/" + file), file)
    }

    /// The fixture written other ways: line ends, a byte order mark, quotes left open, a byte that is not UTF-8
    /// late in the file (so the whole file is Windows-1252), after a lone CR, blank lines, text after a quote,
    /// an unknown header, nothing at all, and a row of too many fields.
    @Test func everyShapeStreamsAsItReadsWhole() throws {
        let google = String(decoding: try FixturePaths.bytes("csv/google-contacts.csv"), as: UTF8.self)
        let lf = google.replacingOccurrences(of: "\r\n", with: "\n")
        let cr = google.replacingOccurrences(of: "\r\n", with: "\r")
        var shapes: [(String, [UInt8])] = [
            ("LF", Array(lf.utf8)),
            ("CR", Array(cr.utf8)),
            ("BOM", [0xEF, 0xBB, 0xBF] + Array(google.utf8)),
            ("open quote", Array((google + "Ann,\"never closed\r\nmore,text\r\n").utf8)),
            ("open quote after LF", Array((lf + "\"x").utf8)),
            ("blank lines", Array(google.replacingOccurrences(of: "\r\n", with: "\r\n\r\n\n").utf8)),
            ("text after quote", Array((google + "\"Ann\"x,Lee\r\nBob,\"Roe\"y\r\n").utf8)),
            ("unknown header", Array("name,email\r\nAnn,\"a@b\"x\r\nBob,\"open\r\n".utf8)),
            ("empty", []),
            ("only a BOM", [0xEF, 0xBB, 0xBF]),
            ("header only", Array(google.split(separator: "\r\n")[0].utf8)),
            ("too many fields", Array((google + String(repeating: "x,", count: 10_050) + "\r\nAnn,Lee\r\n").utf8)),
        ]
        var late = Array(google.utf8)
        late.insert(0xE9, at: late.count - 5)
        shapes.append(("Windows-1252 late", late))
        shapes.append(("Windows-1252 after a lone CR", Array("First Name,Last Name,E-mail Address\rJos".utf8) + [0xE9]))
        shapes.append(("cut character at the end", Array(google.utf8) + [0xC3]))
        shapes.append(("Windows-1252 at the start", [0xC9] + Array(google.utf8)))
        // Outlook's dates in a British locale: day first, shown only by the last record's.
        let outlook = "First Name,Last Name,E-mail Address,Job Title,Birthday\r\n"
        let british = outlook + "Ann,Lee,a@x.example,,04/05/1985\r\nBo,Kim,b@x.example,,15/04/1990\r\n"
        shapes.append(("Outlook dates day first", Array(british.utf8)))
        shapes.append(("Outlook dates either way", Array((british + "Cy,Ng,c@x.example,,4/15/1990\r\n").utf8)))
        for (what, bytes) in shapes { try Self.expectSame(bytes, what) }
    }
}
