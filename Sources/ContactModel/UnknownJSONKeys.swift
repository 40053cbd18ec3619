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

    /// The keys of each object of the shape, by the key whose value the object is (nil: any key, a dictionary).
    private static let contactKeys = Set(Contact.jsonKeys)
    private static let keysUnder: [String: Set<String>?] = {
        let labeled = Set(LabeledValue.jsonKeys)
        return [
            "name": Set(StructuredName.jsonKeys), "organization": Set(Organization.jsonKeys), "emails": labeled,
            "phones": labeled, "urls": labeled, "instantMessaging": labeled, "socialProfiles": labeled,
            "addresses": Set(Address.jsonKeys), "photo": Set(Photo.jsonKeys), "extensions": Set(Extension.jsonKeys),
            "spelling": Set(SourceSpelling.jsonKeys), "parameters": Set(ExtraParameter.jsonKeys), "groups": nil,
        ]
    }()

    /// Whether every key in the JSON text `bytes` (a contact, or an array of them) is a key of the object it is
    /// in, by a scan of its strings and brackets: then no object has an unknown key, and it is decoded without
    /// asking each object for all its keys, which took a third longer. Each object's keys are those of the key
    /// its value is under (an email's are `value`, `types`...), so a key of another object (`family` in an
    /// email) is caught too. A key with an escape sends it the slow way, which tells exactly.
    package static func hasOnlyKnownKeys(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { text in
            let quote = UInt8(ascii: "\"")
            let backslash = UInt8(ascii: "\\")
            // Each open object: the keys it may have (nil: any), and the last key read in it.
            var frames: [(keys: Set<String>?, last: String?)] = []
            var index = 0
            while index < text.count {
                let byte = text[index]
                if byte == UInt8(ascii: "{") {
                    if let parent = frames.last {
                        let under = parent.last.flatMap { keysUnder[$0] } ?? nil
                        frames.append((parent.keys == nil ? nil : under, nil))
                    } else {
                        frames.append((contactKeys, nil))
                    }
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: "}") {
                    _ = frames.popLast()
                    index += 1
                    continue
                }
                guard byte == quote else {
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
                    && (text[next] == 0x20 || text[next] == 0x0A || text[next] == 0x0D || text[next] == 0x09)
                {
                    next += 1
                }
                if next < text.count && text[next] == UInt8(ascii: ":"), !frames.isEmpty {
                    guard !escaped else { return false }
                    let key = String(
                        decoding: UnsafeBufferPointer(rebasing: text[start..<min(end, text.count)]), as: UTF8.self)
                    if let keys = frames[frames.count - 1].keys, !keys.contains(key) { return false }
                    frames[frames.count - 1].last = key
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
