import Foundation
import Testing

@testable import VCardSyntax

/// The byte-level codecs the lexer and writer use on every value, against Foundation and the standard library:
/// base64 both ways and the UTF-8 check, on every length around their word and group boundaries.
@Suite struct ByteCodecTests {
    /// Deterministic bytes, so a failure names a case that runs again the same.
    private static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    @Test func base64EncodesAsFoundationDoes() {
        for count in 0..<300 {
            let data = Data(Self.bytes(count, seed: UInt64(count)))
            var out: [UInt8] = []
            Base64.encode(data, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == data.base64EncodedString(), "\(count) bytes")
        }
    }

    @Test func base64DecodesWhatFoundationEncodes() {
        for count in 0..<300 {
            let data = Data(Self.bytes(count, seed: UInt64(count) + 1000))
            let text = Array(data.base64EncodedString().utf8)
            #expect(text.withUnsafeBufferPointer { Base64.decode($0) } == data, "\(count) bytes")
            // Folded as vCard 2.1 and 3.0 writers fold it, and without its padding.
            var folded: [UInt8] = []
            for (index, byte) in text.enumerated() {
                if index > 0 && index % 19 == 0 { folded += [0x0D, 0x0A, 0x20] }
                folded.append(byte)
            }
            #expect(folded.withUnsafeBufferPointer { Base64.decode($0) } == data, "\(count) bytes folded")
            let unpadded = Array(text.prefix { $0 != UInt8(ascii: "=") })
            #expect(unpadded.withUnsafeBufferPointer { Base64.decode($0) } == data, "\(count) bytes unpadded")
        }
    }

    @Test func base64RefusesWhatIsNotBase64AnywhereInTheText() {
        let text = Array(Data(Self.bytes(90, seed: 7)).base64EncodedString().utf8)
        for place in text.indices {
            for bad: UInt8 in [UInt8(ascii: "*"), 0x80, 0xFF, UInt8(ascii: "-")] {
                var damaged = text
                damaged[place] = bad
                #expect(damaged.withUnsafeBufferPointer { Base64.decode($0) } == nil, "\(bad) at \(place)")
            }
        }
        // Data after padding, and a lone last character.
        #expect(Array("QQ==QQ==".utf8).withUnsafeBufferPointer { Base64.decode($0) } == nil)
        #expect(Array("QUJDR".utf8).withUnsafeBufferPointer { Base64.decode($0) } == nil)
    }

    @Test func utf8CheckAgreesWithTheStandardLibrary() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("plain ascii text ".utf8), Array("é".utf8), Array("日本".utf8), Array("😊".utf8),
            [0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3],
            [0xE6, 0x97], [0xFF], [0x00], [0x7F],
        ]
        for seed in 0..<3000 {
            let choices = Self.bytes(12, seed: UInt64(seed))
            let count = Int(choices[0] % 12)
            var text: [UInt8] = []
            for index in 0..<count {
                // Mostly well-formed pieces, so that the damaged byte falls at every place in words of eight.
                let choice = Int(choices[index]) % (seed % 4 == 0 ? pieces.count : 6)
                text += pieces[choice]
            }
            let expected = String(validating: text, as: UTF8.self) != nil
            #expect(text.withUnsafeBufferPointer { TextDecoding.isUTF8($0) } == expected, "\(text)")
        }
    }
}
