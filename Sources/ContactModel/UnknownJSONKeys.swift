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
