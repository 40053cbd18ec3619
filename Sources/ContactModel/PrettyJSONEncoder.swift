#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes a value as `JSONEncoder` does with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, byte for
/// byte, for the kinds of values Contact JSON holds: strings, integers, booleans, nil, data (as base64), arrays and
/// objects. Any other kind (a floating-point number, a date, a URL) throws `Unsupported`, for the caller to use
/// `JSONEncoder`.
///
/// Foundation's encoder boxes every value and checks it against its special types on the way; for Contact JSON
/// that was three quarters of `vcf convert --to json`. This one builds a small tree and writes it.
package enum PrettyJSONEncoder {
    /// A value this encoder does not write the way `JSONEncoder` would.
    package struct Unsupported: Error {}

    /// The encoding of `value`, as `JSONEncoder` gives it (without a final line break), with `margin` spaces
    /// before it and after every line break in it: an element of an array written at that indentation.
    package static func encode<T: Encodable>(_ value: T, margin: Int = 0) throws -> [UInt8] {
        let root = try node(value)
        var out: [UInt8] = []
        out.reserveCapacity(2048)
        spaces(margin, into: &out)
        write(root, indent: margin, margin: margin, into: &out)
        return out
    }

    // MARK: The tree

    /// An encoded value: text already in its JSON form (numbers, booleans, null), a string, or a container.
    fileprivate enum Node {
        case literal(String)
        case string(String)
        case object(ObjectBox)
        case array(ArrayBox)
    }

    /// An object's members in the order encoded. A key encoded again replaces its value, as in JSONEncoder;
    /// the writer keeps the last one (keys are sorted on the way out, so where the first stood does not matter).
    fileprivate final class ObjectBox {
        // One encoding on one thread reaches a box: the run-time exclusivity checks cost 3% of a conversion.
        @exclusivity(unchecked) var keys: [String] = []
        @exclusivity(unchecked) var values: [Node] = []

        func set(_ key: String, _ value: Node) {
            keys.append(key)
            values.append(value)
        }
    }

    fileprivate final class ArrayBox {
        @exclusivity(unchecked) var items: [Node] = []
    }

    /// The node for `value`: the kinds written directly, or whatever its `encode(to:)` builds.
    fileprivate static func node<T: Encodable>(_ value: T) throws -> Node {
        // Types compared first (a pointer comparison): the common kinds need no dynamic cast.
        if T.self == String.self { return .string(value as! String) }
        if T.self == [String].self { return .array(strings(value as! [String])) }
        if T.self == Int.self { return .literal(String(value as! Int)) }
        if T.self == Bool.self { return .literal((value as! Bool) ? "true" : "false") }
        if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
        if T.self == Double.self || T.self == Float.self || T.self == Date.self || T.self == URL.self
            || T.self == Decimal.self
        {
            throw Unsupported()
        }
        if let number = value as? any FixedWidthInteger { return .literal(String(describing: number)) }
        let encoder = TreeEncoder()
        try value.encode(to: encoder)
        if let failure = encoder.failure { throw failure }
        // A value that encodes nothing is an empty object, as JSONEncoder writes it inside another.
        return encoder.node ?? .object(ObjectBox())
    }

    private static func strings(_ list: [String]) -> ArrayBox {
        let box = ArrayBox()
        box.items = list.map { .string($0) }
        return box
    }

    // MARK: Writing

    private static func write(_ node: Node, indent: Int, margin: Int, into out: inout [UInt8]) {
        switch node {
        case .literal(let text):
            out += text.utf8
        case .string(let text):
            writeString(text, into: &out)
        case .object(let box):
            // Keys in the order of their UTF-8 bytes, as JSONEncoder sorts them; of a key encoded more than once,
            // the value encoded last.
            var order = Array(box.keys.indices)
            if !isSorted(box.keys) {
                order.sort { precedes(box.keys[$0], box.keys[$1]) || (box.keys[$0] == box.keys[$1] && $0 < $1) }
                order = order.indices.filter { $0 + 1 == order.count || box.keys[order[$0]] != box.keys[order[$0 + 1]] }
                    .map { order[$0] }
            }
            writeContainer(
                UInt8(ascii: "{"), UInt8(ascii: "}"), count: order.count, indent: indent, margin: margin, into: &out
            ) {
                position, out in
                let index = order[position]
                writeString(box.keys[index], into: &out)
                out.append(0x20)
                out.append(UInt8(ascii: ":"))
                out.append(0x20)
                write(box.values[index], indent: indent + 2, margin: margin, into: &out)
            }
        case .array(let box):
            writeContainer(
                UInt8(ascii: "["), UInt8(ascii: "]"), count: box.items.count, indent: indent, margin: margin, into: &out
            ) {
                position, out in
                write(box.items[position], indent: indent + 2, margin: margin, into: &out)
            }
        }
    }

    /// An object or array as JSONEncoder lays it out: each member on a line of its own, indented two more than
    /// the container; an empty one as an empty line between its brackets.
    private static func writeContainer(
        _ open: UInt8, _ close: UInt8, count: Int, indent: Int, margin: Int, into out: inout [UInt8],
        member: (Int, inout [UInt8]) -> Void
    ) {
        out.append(open)
        out.append(0x0A)
        if count == 0 {
            spaces(margin, into: &out)
            out.append(0x0A)
        } else {
            for position in 0..<count {
                if position > 0 {
                    out.append(UInt8(ascii: ","))
                    out.append(0x0A)
                }
                spaces(indent + 2, into: &out)
                member(position, &out)
            }
            out.append(0x0A)
        }
        spaces(indent, into: &out)
        out.append(close)
    }

    /// Whether `bytes` holds a byte below 0x20, a quote or a backslash (or, rarely, seems to: a byte after one
    /// of those may be flagged too, which only sends the string the long way).
    private static func mayNeedEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & high != 0 }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if (word &- ones &* 0x20) & ~word & high != 0 || hasZero(word ^ (ones &* 0x22))
                || hasZero(word ^ (ones &* 0x5C))
            {
                return true
            }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return true }
            index += 1
        }
        return false
    }

    private static func isSorted(_ keys: [String]) -> Bool {
        for index in keys.indices.dropFirst() where !precedes(keys[index - 1], keys[index]) { return false }
        return true
    }

    /// Whether `a` comes before `b` in the order of their UTF-8 bytes.
    private static func precedes(_ a: String, _ b: String) -> Bool {
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                let common = min(x.count, y.count)
                if common > 0, let p = x.baseAddress, let q = y.baseAddress {
                    let order = memcmp(p, q, common)
                    if order != 0 { return order < 0 }
                }
                return x.count < y.count
            }
        }
        return (fast ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Spaces enough for any indentation a contact reaches, appended a run at a time.
    private static let blanks = [UInt8](repeating: 0x20, count: 64)

    private static func spaces(_ count: Int, into out: inout [UInt8]) {
        var left = count
        while left > 0 {
            let run = min(left, blanks.count)
            blanks.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<run])) }
            left -= run
        }
    }

    /// A JSON string: quote and backslash escaped, control characters as `\b \t \n \f \r` or `\u00xx`, and
    /// everything else (the slash, DEL, every other character) as it is.
    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Most strings (all of a photo's base64) need no escape: found eight bytes at a time, copied whole.
            if !mayNeedEscape(bytes) {
                out.append(contentsOf: bytes)
                return
            }
            var run = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                run = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    out.append(UInt8(ascii: "u"))
                    out.append(UInt8(ascii: "0"))
                    out.append(UInt8(ascii: "0"))
                    out.append(hex.utf8Start[Int(byte >> 4)])
                    out.append(hex.utf8Start[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}

// MARK: The Encoder

/// Builds the node of one value; containers asked for again share what was built (a keyed container asked
/// for twice is one object, as in JSONEncoder).
private final class TreeEncoder: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var node: PrettyJSONEncoder.Node?
    /// The first value that could not be written as JSONEncoder writes it; the encoding is given up.
    var failure: (any Error)?

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object(let box)? = node { return KeyedEncodingContainer(KeyedBox<Key>(box, self)) }
        if node != nil { failure = PrettyJSONEncoder.Unsupported() }
        let box = PrettyJSONEncoder.ObjectBox()
        node = .object(box)
        return KeyedEncodingContainer(KeyedBox<Key>(box, self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let box)? = node { return UnkeyedBox(box, self) }
        if node != nil { failure = PrettyJSONEncoder.Unsupported() }
        let box = PrettyJSONEncoder.ArrayBox()
        node = .array(box)
        return UnkeyedBox(box, self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleBox(self) }
}

private struct KeyedBox<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: PrettyJSONEncoder.ObjectBox
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { [] }

    init(_ box: PrettyJSONEncoder.ObjectBox, _ encoder: TreeEncoder) {
        self.box = box
        self.encoder = encoder
    }

    mutating func encodeNil(forKey key: Key) throws { box.set(key.stringValue, .literal("null")) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.set(key.stringValue, try PrettyJSONEncoder.node(value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = PrettyJSONEncoder.ObjectBox()
        box.set(key.stringValue, .object(nested))
        return KeyedEncodingContainer(KeyedBox<NestedKey>(nested, encoder))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = PrettyJSONEncoder.ArrayBox()
        box.set(key.stringValue, .array(nested))
        return UnkeyedBox(nested, encoder)
    }

    mutating func superEncoder() -> any Encoder {
        encoder.failure = PrettyJSONEncoder.Unsupported()
        return TreeEncoder()
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.failure = PrettyJSONEncoder.Unsupported()
        return TreeEncoder()
    }
}

private struct UnkeyedBox: UnkeyedEncodingContainer {
    let box: PrettyJSONEncoder.ArrayBox
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { [] }
    var count: Int { box.items.count }

    init(_ box: PrettyJSONEncoder.ArrayBox, _ encoder: TreeEncoder) {
        self.box = box
        self.encoder = encoder
    }

    mutating func encodeNil() throws { box.items.append(.literal("null")) }

    mutating func encode<T: Encodable>(_ value: T) throws { box.items.append(try PrettyJSONEncoder.node(value)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nested = PrettyJSONEncoder.ObjectBox()
        box.items.append(.object(nested))
        return KeyedEncodingContainer(KeyedBox<NestedKey>(nested, encoder))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = PrettyJSONEncoder.ArrayBox()
        box.items.append(.array(nested))
        return UnkeyedBox(nested, encoder)
    }

    mutating func superEncoder() -> any Encoder {
        encoder.failure = PrettyJSONEncoder.Unsupported()
        return TreeEncoder()
    }
}

private struct SingleBox: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { [] }

    init(_ encoder: TreeEncoder) { self.encoder = encoder }

    mutating func encodeNil() throws { encoder.node = .literal("null") }

    mutating func encode<T: Encodable>(_ value: T) throws { encoder.node = try PrettyJSONEncoder.node(value) }
}
