import Foundation
import VCardFormat
import VCardSyntax

/// The (group, name, value) multiset of a card, with values decoded so that spelling differences that
/// carry no meaning (escapes, 2.1 vs 3.0 base64 parameters, `tel:` prefixes, list splitting, Apple label
/// form) compare equal while any lost or changed value does not.
public enum PropertyMultiset {
    /// One property occurrence.
    public struct Entry: Hashable, Comparable, CustomStringConvertible {
        public var group: String
        public var name: String
        public var value: String

        public static func < (a: Entry, b: Entry) -> Bool { (a.name, a.group, a.value) < (b.name, b.group, b.value) }
        public var description: String { "\(group.isEmpty ? "" : group + ".")\(name):\(value.prefix(60))" }
    }

    /// The entries of a card, sorted; VERSION and PROFILE:VCARD are left out (markers the writer sets or drops).
    public static func entries(_ card: RawCard, excludingLines excluded: Set<Int> = []) -> [Entry] {
        var result: [Entry] = []
        for line in card.lines where line.name != "VERSION" && !excluded.contains(line.line) {
            if line.name == "PROFILE" && line.value.uppercased() == "VCARD" { continue }
            let group = line.group?.lowercased() ?? ""
            var name = line.name
            if name == "X-ANNIVERSARY" { name = "ANNIVERSARY" }
            let encoding = line.parameter("ENCODING")?.lowercased()
            let raw = line.value
            if encoding == "b" || encoding == "base64" || raw.hasPrefix("data:") {
                result.append(Entry(group: group, name: name, value: "binary:" + binaryKey(line)))
                continue
            }
            switch name {
            case "GEO":
                // 4.0's `geo:lat,lon` is 3.0's `lat;lon`.
                var value = ValueEscaping.unescapeText(raw)
                let numbers = value.lowercased().hasPrefix("geo:") ? value.dropFirst(4).split(separator: ",") : []
                if numbers.count == 2 { value = "\(numbers[0]);\(numbers[1])" }
                result.append(Entry(group: group, name: name, value: value))
            case "AGENT" where ValueEscaping.unescapeText(raw).uppercased().hasPrefix("BEGIN:VCARD"):
                // A nested card is converted like any other: compare what it holds, not its spelling (the FN
                // and N that 3.0 requires may be added to it).
                let nested = VCardLexer.parse(Array(ValueEscaping.unescapeText(raw).utf8)).cards
                let inner = nested.first.map { entries($0) } ?? []
                let kept = inner.filter { $0.name != "FN" && !($0.name == "N" && $0.value.isEmpty) }
                result.append(
                    Entry(group: group, name: name, value: "vcard:" + kept.map(\.description).joined(separator: "|")))
            case "NICKNAME", "CATEGORIES":
                for item in ValueEscaping.list(raw) where !item.isEmpty {
                    result.append(Entry(group: group, name: name, value: item))
                }
                if ValueEscaping.list(raw).allSatisfy(\.isEmpty) {
                    result.append(Entry(group: group, name: name, value: ""))
                }
            case "TEL":
                // `tel:+1-555-0100;ext=7` is written to 3.0 as `+1-555-0100 ext. 7`.
                var value = ValueEscaping.unescapeText(raw)
                if value.lowercased().hasPrefix("tel:") { value = String(value.dropFirst(4)) }
                let parts = value.split(separator: ";", omittingEmptySubsequences: false)
                if parts.count == 2 && parts[1].lowercased().hasPrefix("ext=") && parts[1].count > 4 {
                    value = "\(parts[0]) ext. \(parts[1].dropFirst(4))"
                }
                result.append(Entry(group: group, name: name, value: value))
            case "N", "ADR":
                // Trailing empty components carry nothing; 3.0 writers pad N to five and ADR to seven.
                var components = ValueEscaping.split(raw, on: ";").map(ValueEscaping.unescapeText)
                while components.last == "" { components.removeLast() }
                result.append(Entry(group: group, name: name, value: components.joined(separator: ";")))
            case "X-ANDROID-CUSTOM"
            where group.isEmpty
                && line.parameters.allSatisfy({ ["CHARSET", "ENCODING"].contains($0.name.uppercased()) })
                && androidNickname(raw) != nil:
                // Android's plain nickname (`vnd.android.cursor.item/nickname;Bob;1;;...`) is read as NICKNAME.
                result.append(Entry(group: group, name: "NICKNAME", value: androidNickname(raw)!))
            case "X-ABLABEL":
                var value = ValueEscaping.unescapeText(raw)
                if value.hasPrefix("_$!<") && value.hasSuffix(">!$_") { value = String(value.dropFirst(4).dropLast(4)) }
                result.append(Entry(group: group, name: name, value: value))
            default:
                result.append(Entry(group: group, name: name, value: ValueEscaping.unescapeText(raw)))
            }
        }
        return result.sorted()
    }

    /// The name an Android nickname value holds when it is a plain one (kind 1 or none, nothing after it).
    static func androidNickname(_ raw: String) -> String? {
        let parts = ValueEscaping.split(raw, on: ";").map(ValueEscaping.unescapeText)
        guard parts.count >= 2, parts[0] == "vnd.android.cursor.item/nickname", !parts[1].isEmpty,
            parts.count < 3 || ["", "1"].contains(parts[2]), parts.dropFirst(3).allSatisfy(\.isEmpty)
        else { return nil }
        return parts[1]
    }

    private static func binaryKey(_ line: ContentLine) -> String {
        var text = line.value
        if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
            text = String(text[text.index(after: comma)...])
        }
        var cleaned = text.utf8.filter { $0 > 0x20 }
        while cleaned.count % 4 != 0 { cleaned.append(UInt8(ascii: "=")) }
        if let data = Data(base64Encoded: Data(cleaned)) { return "\(data.count):" + data.base64EncodedString() }
        // Damaged base64 is read for its decodable part (the reader warns), so compare that part.
        var alphabet = text.utf8.filter {
            ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B
                || $0 == 0x2F
        }
        alphabet.removeLast(alphabet.count % 4)
        guard alphabet.count * 4 >= text.utf8.count * 3, let data = Data(base64Encoded: Data(alphabet)) else {
            return "undecodable:" + text
        }
        return "\(data.count):" + data.base64EncodedString()
    }
}
