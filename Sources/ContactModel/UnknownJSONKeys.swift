import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// The keys of Contact JSON objects that the model has no place for, collected while decoding so a reader can
/// say that they were left out: a misspelt `"notes"` or `"phone"` otherwise lost its value without a word.
package final class UnknownJSONKeys: @unchecked Sendable {
    /// The path of each unknown key, the key last, in the order met.
    package private(set) var paths: [[any CodingKey]] = []

    package init() {}

    /// The `userInfo` entry a decoder carries the collector under.
    package static let userInfoKey = CodingUserInfoKey(rawValue: "vcf.unknownJSONKeys")!

    /// Every key of every object of the shape.
    private static let known: Set<String> = Set(
        Contact.jsonKeys + SourceSpelling.jsonKeys + StructuredName.jsonKeys + Organization.jsonKeys
            + ExtraParameter.jsonKeys + LabeledValue.jsonKeys + Address.jsonKeys + Photo.jsonKeys
            + Extension.jsonKeys)

    /// Whether every key in the JSON text `bytes` is a key of the shape (of some object), by a scan of its
    /// strings: then no object can have an unknown key, and it is decoded without asking each object for all
    /// its keys, which took a third longer. A key with an escape, or one of another object (a `spelling.groups`
    /// name), sends it the slow way, which tells exactly.
    package static func hasOnlyKnownKeys(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { text in
            let quote = UInt8(ascii: "\"")
            let backslash = UInt8(ascii: "\\")
            var index = 0
            while index < text.count {
                guard text[index] == quote else {
                    index += 1
                    continue
                }
                let start = index + 1
                var end = start
                var escaped = false
                while end < text.count && text[end] != quote {
                    if text[end] == backslash {
                        escaped = true
                        end += 1
                    }
                    end += 1
                }
                var next = end + 1
                while next < text.count
                    && (text[next] == 0x20 || text[next] == 0x0A || text[next] == 0x0D
                        || text[next] == 0x09)
                {
                    next += 1
                }
                if next < text.count && text[next] == UInt8(ascii: ":") {
                    guard !escaped else { return false }
                    let key = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
                    guard known.contains(key) else { return false }
                }
                index = end + 1
            }
            return true
        }
    }

    /// Forgets the keys collected, for the next contact.
    package func removeAll() { paths.removeAll(keepingCapacity: true) }

    /// Records the keys of the object `decoder` is at that `Known` does not name, when the decoder carries a
    /// collector (nothing is looked at otherwise).
    static func record<Known: CodingKey>(_ decoder: any Decoder, known: Known.Type) {
        guard let collector = decoder.userInfo[userInfoKey] as? UnknownJSONKeys,
            let container = try? decoder.container(keyedBy: AnyKey.self)
        else { return }
        for key in container.allKeys where Known(stringValue: key.stringValue) == nil {
            collector.paths.append(decoder.codingPath + [key])
        }
    }

    /// A key by its text, for listing every key an object has.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
