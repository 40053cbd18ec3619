import Foundation
import Testing

@testable import ContactMatching

/// Match keys hash their texts by bytes where the text is composed by construction, and fold them by decoding
/// UTF-8 bytes: both must give exactly what the standard library's hashing and scalar-by-scalar folding give.
@Suite struct KeyHashingTests {
    /// Every scalar of the composed ranges is its own composition, has combining class 0, and is the second
    /// scalar of no canonical decomposition, so any text of them and ASCII is in normalization form C.
    @Test func composedRangesAreTheirOwnComposition() {
        var inRanges = Set<UInt32>()
        for range in KeyHashing.composedRanges {
            for v in range {
                guard let scalar = Unicode.Scalar(v) else { continue }
                inRanges.insert(v)
                #expect(scalar.properties.canonicalCombiningClass == .notReordered, "U+\(String(v, radix: 16))")
                let text = String(scalar)
                #expect(
                    Array(text.precomposedStringWithCanonicalMapping.unicodeScalars) == [scalar]
                        && Array(text.decomposedStringWithCanonicalMapping.unicodeScalars).count >= 1,
                    "U+\(String(v, radix: 16))")
            }
        }
        #expect(inRanges.count == 39_789)
        // No scalar decomposes to something that has one of them after its first scalar (they never compose
        // with what comes before them).
        var decomposing = 0
        for v in UInt32(0xC0)...0x2FFFF {
            guard let scalar = Unicode.Scalar(v), !scalar.properties.isNoncharacterCodePoint,
                scalar.properties.generalCategory != .unassigned
            else { continue }
            let parts = Array(String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars)
            guard parts.count > 1 else { continue }
            decomposing += 1
            for part in parts.dropFirst() where inRanges.contains(part.value) {
                Issue.record("U+\(String(v, radix: 16)) decomposes with U+\(String(part.value, radix: 16)) second")
            }
        }
        #expect(decomposing > 12_000)
    }

    /// Texts hash alike exactly when they are equal as strings (canonically equivalent): composed ones, others
    /// (decomposed accents, Hangul jamo, Devanagari), ASCII, empty, and several in a row, whose boundaries count.
    @Test func hashesAreAlikeExactlyForEqualTexts() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["", "a", "smith", "李娜", "김민준", "сергей козлов", "δημητρης", "أحمد", "שרה", "たなか カタカナ"]
        texts += ["e\u{301}", "\u{1112}\u{1161}\u{11AB}", "देवनागरी", "\u{212A}elvin", "ﬃ", "𝔘𝔫𝔦", "\u{3099}か", "ά"]
        texts += ["abcdefgh", "abcdefghi", "abcdefgh\u{0}", "12345678901234567", "a\u{0}", "a\u{0}\u{0}"]
        let pool =
            KeyHashing.composedRanges.map { $0.lowerBound...min($0.upperBound, $0.lowerBound + 40) }
            .flatMap { $0 }.compactMap(Unicode.Scalar.init) + Array("abz09 -'\u{301}\u{308}\u{1161}".unicodeScalars)
        for _ in 0..<2_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...24, using: &generator) {
                text.append(pool.randomElement(using: &generator)!)
            }
            texts.append(String(text))
        }
        // Every text's composed and decomposed spellings are equal strings, and hash alike.
        for text in texts {
            for other in [text.precomposedStringWithCanonicalMapping, text.decomposedStringWithCanonicalMapping] {
                #expect(text == other)
                #expect(
                    IndexKey(.name, text).hash == IndexKey(.name, other).hash, "\(text.unicodeScalars.map(\.value))")
            }
        }
        // Different texts hash differently (64 bits: a collision among these would be a defect of the hash).
        var byHash: [Int: String] = [:]
        for text in Set(texts) {
            let hash = IndexKey(.formattedName, text).hash
            if let seen = byHash[hash] {
                #expect(seen == text, "\(seen.unicodeScalars.map(\.value)) and \(text.unicodeScalars.map(\.value))")
            }
            byHash[hash] = text
        }
        #expect(byHash.count > 1_900)
        for (a, b) in zip(texts, texts.dropFirst()) where !a.isEmpty && !b.isEmpty {
            #expect(IndexKey(.name, parts: a, b).hash != IndexKey(.name, parts: a + b, "").hash, "\(a) \(b)")
            #expect(IndexKey(.name, parts: a, b).hash != IndexKey(.formattedName, parts: a, b).hash, "\(a) \(b)")
        }
        #expect(IndexKey(.name, "\u{D55C}").hash == IndexKey(.name, "\u{1112}\u{1161}\u{11AB}").hash)
        #expect(IndexKey(.name, "\u{212A}").hash == IndexKey(.name, "K").hash)
        let desk = PhoneKey("+1 555 010 1234 x7", countryCode: nil)!
        let switchboard = PhoneKey("+1 555 010 1234", countryCode: nil)!
        #expect(desk.ext == "7" && switchboard.ext == nil)
        #expect(IndexKey(.phone, desk).hash != IndexKey(.phone, switchboard).hash)
        #expect(
            IndexKey(.phone, switchboard).hash == IndexKey(.phone, PhoneKey("+1-555-010-1234", countryCode: nil)!).hash)
        #expect(IndexKey(.birthday, 19_800_101).hash != IndexKey(.birthday, 19_800_102).hash)
    }

    /// Folding by UTF-8 bytes gives, for every scalar alone, between letters and after a space, what folding
    /// scalar by scalar gives (the table below `tableEnd`, the blocks that are their own fold, the properties
    /// and `foldScalar` beyond).
    @Test func foldingByBytesIsFoldingByScalars() {
        var checked = 0
        for v in UInt32(0)...0x3FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            for text in [String(scalar), "a" + String(scalar) + "B", "x " + String(scalar) + "'y"] {
                #expect(TextFolding.fold(text) == Self.referenceFold(text), "U+\(String(v, radix: 16)) in \(text)")
            }
            checked += 1
        }
        #expect(checked == 0x40000 - 2048)
        for text in ["  Núñez-García, José ", "O'Brien", "李 娜", "Ǆemal ﬃ", "", " - ", "Straße 12b"] {
            #expect(TextFolding.fold(text) == Self.referenceFold(text), "\(text)")
            var parts: [UInt8] = Array("already".utf8)
            TextFolding.appendFolded(text, to: &parts)
            let joined = Self.referenceFold("already " + text)
            #expect(String(decoding: parts, as: UTF8.self) == joined, "\(text)")
        }
    }

    /// Folding as it was written scalar by scalar, before it read bytes.
    static func referenceFold(_ text: String) -> String {
        var out: [UInt8] = []
        var pendingSpace = false
        func letters(_ bytes: some Sequence<UInt8>) {
            var first = true
            for b in bytes {
                if first && pendingSpace && !out.isEmpty { out.append(0x20) }
                if first { pendingSpace = false }
                first = false
                out.append(b)
            }
        }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) {
                    letters([UInt8(v)])
                } else if v >= 0x41 && v <= 0x5A {
                    letters([UInt8(v + 0x20)])
                } else if v != 0x27 {
                    pendingSpace = true
                }
                continue
            }
            if v >= TextFolding.tableEnd {
                let p = scalar.properties
                if TextFolding.isOwnFold(v) || (p.isAlphabetic || p.numericType != nil) && !p.changesWhenLowercased {
                    letters(Array(String(scalar).utf8))
                    continue
                }
            }
            switch TextFolding.foldScalar(scalar) {
            case .separator: pendingSpace = true
            case .letters(let bytes): letters(bytes)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
