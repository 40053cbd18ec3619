import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Writes a pretty-printed, key-sorted JSON array one element at a time, giving the bytes `JSONEncoder`
/// gives for the whole array, so a long list is written as it is produced instead of held.
///
/// Each element is encoded alone and indented one level; `finish` closes the array (an empty array is
/// encoded as `JSONEncoder` encodes one) and adds the final newline.
public struct JSONArrayWriter {
    /// The elements written so far.
    public private(set) var count = 0

    /// A writer with the layout of Contact JSON (pretty, sorted keys, slashes unescaped).
    public init() {}

    /// Appends `element` (with the separator before it) to `out`.
    public mutating func append<T: Encodable>(_ element: T, to out: inout [UInt8]) {
        guard let element = Self.element(element) else { return }
        append(encoded: element, to: &out)
    }

    /// Appends an element made by `element(_:)` (with the separator before it) to `out`.
    public mutating func append(encoded element: [UInt8], to out: inout [UInt8]) {
        out += Array((count == 0 ? "[\n" : ",\n").utf8)
        count += 1
        out += element
    }

    /// `element` encoded and indented as an element of the array, without a separator; nil when it cannot be
    /// encoded. Elements can be made on other threads, then appended in order.
    public static func element<T: Encodable>(_ element: T) -> [UInt8]? {
        // Written directly when it holds only what PrettyJSONEncoder writes as JSONEncoder does (every contact).
        if let direct = try? PrettyJSONEncoder.encode(element, margin: 2) { return direct }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(element) else { return nil }
        var out: [UInt8] = [0x20, 0x20]
        out.reserveCapacity(data.count + data.count / 8)
        // JSON strings escape their line breaks, so every LF in the encoding is the layout's own.
        data.withUnsafeBytes { raw in
            var start = 0
            for index in 0..<raw.count where raw[index] == 0x0A {
                out.append(contentsOf: raw[start...index])
                out += [0x20, 0x20]
                start = index + 1
            }
            out.append(contentsOf: raw[start..<raw.count])
        }
        return out
    }

    /// Appends the end of the array and the final newline to `out`.
    public func finish(into out: inout [UInt8]) {
        if count == 0 {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            out += (try? encoder.encode([Int]())).map { [UInt8]($0) } ?? Array("[]".utf8)
            out.append(0x0A)
        } else {
            out += Array("\n]\n".utf8)
        }
    }
}
