import Testing

@testable import ContactCSV

/// `firstInvalidUTF8`, written by hand for speed (every jCard is checked), finds the offset the standard
/// library's parser finds, on every kind of sequence: ASCII, each length, overlong forms, surrogates, past
/// U+10FFFF, cut short, and random bytes.
@Suite struct UTF8ValidationTests {
    static func reference(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    @Test func agreesWithTheStandardLibrary() {
        let edges: [[UInt8]] = [
            [], Array("plain".utf8), Array("José 山田 🎉".utf8), [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80],
            [0xE0, 0x9F, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
            [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0x61, 0xE2, 0x82], [0x61, 0xE2, 0x82, 0x61], [0x80], [0xFF], [0xE9, 0x61],
        ]
        for bytes in edges {
            #expect(CSVTextDecoding.firstInvalidUTF8(bytes, from: 0) == Self.reference(bytes), "\(bytes)")
        }
        // Random text: mostly valid sequences with a stray byte now and then.
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [[0x61], [0xC3, 0xA9], [0xE5, 0xB1, 0xB1], [0xF0, 0x9F, 0x8E, 0x89]]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<12, using: &generator) {
                if Int.random(in: 0..<10, using: &generator) == 0 {
                    bytes.append(UInt8.random(in: 0x80...0xFF, using: &generator))
                } else {
                    bytes += pieces.randomElement(using: &generator)!
                }
            }
            #expect(CSVTextDecoding.firstInvalidUTF8(bytes, from: 0) == Self.reference(bytes), "\(bytes)")
        }
    }
}
