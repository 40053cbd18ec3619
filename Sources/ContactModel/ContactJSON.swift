import Foundation
import Utilities

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// The Contact JSON shape: an array of contacts (a single object is accepted on input).
public enum ContactJSON {
    /// Why JSON input was refused, with where the problem lies and what was expected there.
    public struct DecodeError: Error {
        /// 1-based line.
        public var line: Int
        /// 1-based column (1 when only the line is known).
        public var column: Int
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

    /// Writes contacts one at a time, with the bytes `encode` gives for all of them.
    public typealias Writer = JSONArrayWriter

    /// Decodes an array of contacts or one contact.
    /// - Throws: `DecodeError` naming the line and what was expected: a syntax error where it is, a value of
    ///   the wrong type at its path (`[2].emails[0].value`).
    public static func decode(_ bytes: [UInt8]) throws -> [Contact] {
        try decode(bytes, collecting: nil).contacts
    }

    /// A key of a contact's JSON that the model has no place for, left out of the contact.
    package struct UnknownKey: Equatable, Sendable {
        /// The contact's position in the document (0 for a single object).
        package var contact: Int
        /// The key's path within the contact (`emails[0].kind`).
        package var path: String
        /// The 1-based line and byte column of its value.
        package var line: Int
        package var column: Int
    }

    /// Decodes as `decode(_:)` does, and gives each key the model has no place for, in document order.
    /// - Throws: as `decode(_:)`.
    package static func decode(_ bytes: [UInt8], unknownKeys: (UnknownKey) -> Void) throws -> [Contact] {
        let collector = UnknownJSONKeys()
        let (contacts, bytes) = try decode(
            bytes, collecting: UnknownJSONKeys.hasOnlyKnownKeys(bytes) ? nil : collector)
        if !collector.paths.isEmpty, let root = try? JSONText.parse(bytes) {
            let isArray = root.array != nil
            for key in located(collector.paths, in: bytes, root: root, dropsIndex: isArray) { unknownKeys(key) }
        }
        // One object with keys, none of them the shape's (`{"contacts": [...]}`), is no contact, not an empty
        // card (`{}` is one).
        if contacts == [Contact()] && !collector.paths.isEmpty
            && bytes.first(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") }) == UInt8(ascii: "{")
        {
            let start = bytes.firstIndex(of: UInt8(ascii: "{")) ?? 0
            let (line, column) = JSONText.LineIndex(bytes).position(of: start)
            throw nothingKnown(at: line, column, within: [])
        }
        return contacts
    }

    /// The error of an object with keys, none of them the shape's.
    private static func nothingKnown(at line: Int, _ column: Int, within: [any CodingKey]) -> DecodeError {
        DecodeError(
            line: line, column: column,
            message: "expected a contact: an object with at least one Contact JSON key at \(path(within))")
    }

    private static func decode(_ bytes: [UInt8], collecting collector: UnknownJSONKeys?) throws -> (
        contacts: [Contact], bytes: [UInt8]
    ) {
        // (Windows PowerShell writes UTF-16; Foundation reads it, but positions are told in UTF-8.)
        let bytes = UTF16Text.utf8(fromUTF16: bytes) ?? bytes
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        guard first == UInt8(ascii: "[") || first == UInt8(ascii: "{") else {
            throw DecodeError(
                line: 1, column: 1, message: "expected Contact JSON: an array of contacts or one contact object")
        }
        let data = Data(bytes)
        let decoder = JSONDecoder()
        if let collector { decoder.userInfo[UnknownJSONKeys.userInfoKey] = collector }
        do {
            if first == UInt8(ascii: "[") { return (try decoder.decode([Contact].self, from: data), bytes) }
            return ([try decoder.decode(Contact.self, from: data)], bytes)
        } catch let error as DecodingError {
            throw located(error, in: bytes, within: [])
        }
    }

    /// Where `error`, met decoding `bytes`, lies and what was expected there. `within` is the path of `bytes`
    /// in the document (an element's index), put before the error's own.
    private static func located(_ error: DecodingError, in bytes: [UInt8], within: [any CodingKey]) -> DecodeError {
        // Foundation says what went wrong but not where: only now, on the failure path, is the text read
        // again with positions, for the syntax error's place or the offending value's. JSON is UTF-8, and
        // Foundation says only that the data is not JSON when a byte is not.
        let lines = JSONText.LineIndex(bytes)
        if let invalid = UTF8Validation.firstInvalid(bytes) {
            let (line, column) = lines.position(of: invalid)
            return DecodeError(
                line: line, column: column,
                message: "expected UTF-8 text, found the byte 0x\(String(bytes[invalid], radix: 16, uppercase: true)) "
                    + "(JSON is UTF-8; save the file as UTF-8)")
        }
        let root: JSONValue
        do {
            root = try JSONText.parse(bytes)
        } catch {
            let (line, column) = lines.position(of: error.offset)
            return DecodeError(line: line, column: column, message: "expected \(error.expected)")
        }
        let (path, message) = describe(error, within: within)
        let (line, column) = lines.position(of: offset(of: path, in: root))
        return DecodeError(line: line, column: column, message: message)
    }

    /// How `forEachContact` ended.
    package enum StreamOutcome: Sendable {
        /// Every contact of the array was given.
        case done
        /// The document is not an array (one contact object, or no JSON): nothing was given.
        case notAnArray
        /// An element or the array's grammar is broken: the contacts before it were given.
        case broken
    }

    /// Decodes a Contact JSON array a contact at a time from its bytes in pieces (`more`, empty at the end),
    /// giving each to `body`: memory holds a piece and a batch of contacts' text, not the document and every
    /// contact (a 216 MB array of 100,000 contacts took 1 GB read whole). UTF-8 only. When the outcome is not
    /// `done`, `decode` of the whole document says what is wrong, as it says it for any document.
    /// Each key the model has no place for goes to `unknownKeys` before its contact goes to `body`, with the line
    /// the contact starts on. A contact
    /// that cannot be decoded (a number where text goes, a byte that is not UTF-8) goes to `failed`, named by
    /// line, column and path, and those after it are read: one bad contact lost every one after it.
    package static func forEachContact(
        more: @escaping () throws -> [UInt8], unknownKeys: (UnknownKey) -> Void = { _ in },
        failed: (DecodeError) -> Void = { _ in }, _ body: (Contact, _ line: Int) throws -> Void
    ) throws -> StreamOutcome {
        try forEachContact(
            more: more, unknownKeys: unknownKeys, failed: failed, transform: { ($0, $1) }, { try body($0.0, $0.1) })
    }

    /// `forEachContact`, with `transform` applied to each contact and its line on every processor (it must not
    /// depend on earlier contacts) and its results handed to `body` in order on this thread. The array is cut
    /// into contacts here, and the contacts of about `batchBytes` are decoded together: decoding is most of the
    /// work, and it ran on one thread.
    package static func forEachContact<T: Sendable>(
        more: @escaping () throws -> [UInt8], unknownKeys: (UnknownKey) -> Void = { _ in },
        failed: (DecodeError) -> Void = { _ in }, batchBytes: Int = 256 << 10,
        transform: @escaping @Sendable (Contact, _ line: Int) -> T, _ body: (T) throws -> Void
    ) throws -> StreamOutcome {
        var stream = JSONArrayStream(more: more)
        // Shared by the decoding threads: it holds no state of a decoding. A contact with a key the model does not
        // know is decoded again with a collector of its own.
        let decoder = JSONDecoder()
        var first = true
        var index = 0
        var batch: [(bytes: [UInt8], position: JSONArrayStream.Position, index: Int)] = []
        var held = 0
        // The batch gathered, decoded on every processor and given in order.
        func flush() throws {
            let decoded = Concurrently.map(batch, chunk: 8) { element -> StreamedContact<T> in
                switch decodeElement(element.bytes, at: element.position, index: element.index, decoder: decoder) {
                case .failure(let error): .failed(error)
                case .success(let (contact, keys)): .contact(transform(contact, element.position.line), keys)
                }
            }
            batch = []
            held = 0
            for result in decoded {
                switch result {
                case .failed(let error): failed(error)
                case .contact(let made, let keys):
                    for key in keys { unknownKeys(key) }
                    try body(made)
                }
            }
        }
        while true {
            switch try stream.next() {
            case .element(let bytes, let position):
                first = false
                batch.append((bytes, position, index))
                index += 1
                held += bytes.count
                if held >= batchBytes { try flush() }
            case .end:
                try flush()
                return .done
            case .notAnArray: return .notAnArray
            case .malformed:
                try flush()
                return first ? .notAnArray : .broken
            }
        }
    }

    /// One element of a streamed array decoded, with its unknown keys placed in the document; or why it is not
    /// a contact.
    private static func decodeElement(
        _ bytes: [UInt8], at position: JSONArrayStream.Position, index: Int, decoder: JSONDecoder
    ) -> Result<(Contact, [UnknownKey]), DecodeError> {
        var chosen = decoder
        var collector: UnknownJSONKeys?
        if !UnknownJSONKeys.hasOnlyKnownKeys(bytes) {
            let found = UnknownJSONKeys()
            chosen = JSONDecoder()
            chosen.userInfo[UnknownJSONKeys.userInfoKey] = found
            collector = found
        }
        let contact: Contact
        do {
            contact = try chosen.decode(Contact.self, from: Data(bytes))
        } catch {
            var found =
                (error as? DecodingError).map { located($0, in: bytes, within: [Index(index)]) }
                ?? DecodeError(line: 1, column: 1, message: "expected a contact object")
            // Positions within the element, made the document's.
            if found.line == 1 { found.column += position.column - 1 }
            found.line += position.line - 1
            return .failure(found)
        }
        let paths = collector?.paths ?? []
        var keys: [UnknownKey] = []
        if !paths.isEmpty, let root = try? JSONText.parse(bytes) {
            for var key in located(paths, in: bytes, root: root, dropsIndex: false) {
                // Positions within the element, made the document's.
                if key.line == 1 { key.column += position.column - 1 }
                key.line += position.line - 1
                key.contact = index
                keys.append(key)
            }
        }
        // Keys, none of them the shape's (`{"contacts": [...]}`): not a contact. `{}` is an empty card.
        guard contact != Contact() || paths.isEmpty else {
            return .failure(Self.nothingKnown(at: position.line, position.column, within: [Index(index)]))
        }
        return .success((contact, keys))
    }

    /// The unknown keys at `paths` of the document `bytes` (parsed as `root`), where their values are. When
    /// `dropsIndex`, each path starts with the contact's index in the array.
    private static func located(_ paths: [[any CodingKey]], in bytes: [UInt8], root: JSONValue, dropsIndex: Bool)
        -> [UnknownKey]
    {
        let lines = JSONText.LineIndex(bytes)
        // Found as the decoder went (a contact's own keys before those of its emails): told in the file's order.
        return paths.map { keys in
            let (line, column) = lines.position(of: offset(of: keys, in: root))
            let contact = dropsIndex ? keys.first?.intValue ?? 0 : 0
            return UnknownKey(
                contact: contact, path: path(Array(keys.dropFirst(dropsIndex ? 1 : 0))), line: line, column: column)
        }.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// Where the value at `path` starts, or the deepest part of the path that exists.
    private static func offset(of path: [any CodingKey], in root: JSONValue) -> Int {
        var value = root
        for key in path {
            switch value.kind {
            case .array(let items):
                guard let index = key.intValue, index < items.count else { return value.start }
                value = items[index]
            case .object(let members):
                guard let member = members.first(where: { $0.key == key.stringValue }) else { return value.start }
                value = member.value
            default:
                return value.start
            }
        }
        return value.start
    }

    /// What `error` says, and the path (within the decoded bytes) of the value it is about; the message names
    /// the path in the document, `within` before it.
    private static func describe(_ error: DecodingError, within: [any CodingKey] = []) -> (
        path: [any CodingKey], message: String
    ) {
        switch error {
        case .dataCorrupted(let context):
            return (context.codingPath, "\(context.debugDescription) at \(path(within + context.codingPath))")
        case .keyNotFound(let key, let context):
            return (
                context.codingPath,
                "expected the key \"\(key.stringValue)\" in the object at \(path(within + context.codingPath))"
            )
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return (context.codingPath, "expected \(kind(type)) at \(path(within + context.codingPath))")
        @unknown default:
            return ([], "expected Contact JSON")
        }
    }

    /// An array index in a path.
    private struct Index: CodingKey {
        var intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    /// How a reader would name the JSON value a Swift type is decoded from.
    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        case is Data.Type: "a base64 string"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.isEmpty ? "the top level" : (text.hasPrefix(".") ? String(text.dropFirst()) : text)
    }
}

/// What decoding one element of a streamed array gave: what the caller made of the contact, with the keys the
/// model has no place for; or why it is not a contact.
private enum StreamedContact<T: Sendable>: Sendable {
    case contact(T, [ContactJSON.UnknownKey])
    case failed(ContactJSON.DecodeError)
}
