#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation

/// The Contact JSON shape: an array of contacts (a single object is accepted on input).
public enum ContactJSON {
    /// Why JSON input was refused, with the line where the decoder stopped when known.
    public struct DecodeError: Error {
        /// 1-based line, or 1 when unknown.
        public var line: Int
        /// What was expected.
        public var message: String
    }

    /// Encodes contacts as pretty, key-sorted JSON with a final newline.
    public static func encode(_ contacts: [Contact]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(contacts)) ?? Data("[]".utf8)
        return [UInt8](data) + [0x0A]
    }

    /// Decodes an array of contacts or one contact.
    public static func decode(_ bytes: [UInt8]) throws -> [Contact] {
        let data = Data(bytes)
        let decoder = JSONDecoder()
        if let many = try? decoder.decode([Contact].self, from: data) { return many }
        do {
            return [try decoder.decode(Contact.self, from: data)]
        } catch {
            throw DecodeError(line: 1, message: "expected Contact JSON (an array of contacts or one contact): \(describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "not valid JSON" }
        switch decoding {
        case .dataCorrupted(let context): return context.debugDescription
        case .keyNotFound(let key, let context): return "missing \(key.stringValue) at \(path(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at \(path(context.codingPath))"
        @unknown default: return "not valid Contact JSON"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
