import Foundation

/// A JSON value decoded by Foundation, for comparing jCard as data: key order and white space do not matter,
/// `true` and `1` differ.
indirect enum JSONTree: Equatable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    init(from decoder: any Decoder) throws {
        if var items = try? decoder.unkeyedContainer() {
            var array: [JSONTree] = []
            while !items.isAtEnd { array.append(try items.decode(JSONTree.self)) }
            self = .array(array)
        } else if let members = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: JSONTree] = [:]
            for key in members.allKeys { object[key.stringValue] = try members.decode(JSONTree.self, forKey: key) }
            self = .object(object)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let flag = try? single.decode(Bool.self) {
                self = .bool(flag)
            } else if let text = try? single.decode(String.self) {
                self = .string(text)
            } else {
                self = .number(try single.decode(Double.self))
            }
        }
    }

    init(_ bytes: [UInt8]) throws { self = try JSONDecoder().decode(JSONTree.self, from: Data(bytes)) }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .number(let number): "\(number)"
        case .string(let text): "\"\(text)\""
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.keys.sorted().map { "\"\($0)\": \(members[$0]!)" }.joined(separator: ", ") + "}"
        }
    }
}
