import VCardFormat
import VCardSyntax

/// BDAY, ANNIVERSARY and REV that are not the dates and times their version defines.
///
/// 2.1 and 3.0 (RFC 2426 3.1.5, 3.6.4, ISO 8601): a complete date, basic or extended (`19850415`,
/// `1985-04-15`), or a date and time (`1995-10-31T22:27:10Z`, fractions and offsets allowed). Year-less
/// birthdays (`--0415`, `--04-15`, the ISO 8601:2000 forms) are accepted too: 3.0 writers use them and
/// readers understand them. 4.0 (RFC 6350 4.3) adds the reduced forms (`1985`, `1985-04`, `--04`, `---15`)
/// and times alone (`T1022`). Extended forms are accepted in 4.0 as everyone writes them. REV must be a
/// whole date or date-time in every version. A value marked `VALUE=text` is free text and not checked.
struct DateRule: CardRule {
    static let properties: [String] = ["BDAY", "ANNIVERSARY", "REV"]

    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        for line in card.lines where Self.properties.contains(line.name) {
            if line.parameter("VALUE")?.lowercased() == "text" { continue }
            let value = Array(line.value.trimmingASCIIWhitespace().utf8)
            if value.isEmpty { continue }
            let valid =
                line.name == "REV"
                ? DateGrammar.isTimestamp(value)
                : DateGrammar.isDateAndOrTime(value, reduced: card.version == .v4_0)
            if !valid {
                findings.append(
                    finding(
                        .error, .invalidDate, DateMessages.invalid(line.name, card.version),
                        line: line.line, column: context.source.valueColumn(ofLine: line.line)))
            }
        }
    }
}

extension DiagnosticCode {
    /// BDAY, ANNIVERSARY or REV is not a valid date or date-time.
    public static let invalidDate: Self = "invalid-date"
}

enum DateMessages {
    static func invalid(_ name: String, _ version: VCardVersion) -> String {
        if name == "REV" { return "REV is not a date-time such as 2024-03-05T14:30:00Z" }
        let examples = version == .v4_0 ? "19850415, 1985-04-15 or --0415" : "1985-04-15 or 19850415"
        return "\(name) is not a date such as \(examples) (mark free text VALUE=text)"
    }
}

/// ISO 8601 dates and times as vCard uses them, checked on ASCII bytes, ranges included.
enum DateGrammar {
    /// A birthday or anniversary: a date, a date and time, or (reduced forms, 4.0) a time alone.
    static func isDateAndOrTime(_ value: [UInt8], reduced: Bool) -> Bool {
        var cursor = Cursor(value)
        if value.first == UInt8(ascii: "T") {
            guard reduced else { return false }
            cursor.index = 1
            return cursor.time(truncatedAllowed: true) && cursor.atEnd
        }
        guard let kind = cursor.date(reduced: reduced) else { return false }
        if cursor.atEnd { return true }
        // A time may follow only a date with its day (RFC 6350 date-noreduc).
        guard kind != .reduced, cursor.take(UInt8(ascii: "T")) else { return false }
        return cursor.time(truncatedAllowed: false) && cursor.atEnd
    }

    /// A revision: a complete date, optionally with a time.
    static func isTimestamp(_ value: [UInt8]) -> Bool {
        var cursor = Cursor(value)
        guard cursor.date(reduced: false) == .complete else { return false }
        if cursor.atEnd { return true }
        guard cursor.take(UInt8(ascii: "T")) else { return false }
        return cursor.time(truncatedAllowed: false) && cursor.atEnd
    }

    enum DateKind { case complete, yearless, reduced }

    struct Cursor {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        func peek(_ byte: UInt8, at offset: Int = 0) -> Bool {
            index + offset < bytes.count && bytes[index + offset] == byte
        }

        /// `count` digits as a number, or nil (the cursor stays) when there are fewer.
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }

        /// A date; reduced forms only when `reduced`.
        mutating func date(reduced: Bool) -> DateKind? {
            let dash = UInt8(ascii: "-")
            if take(dash) {
                guard take(dash) else { return nil }
                if take(dash) {
                    // ---DD
                    guard reduced, let day = digits(2) else { return nil }
                    return (1...31).contains(day) ? .reduced : nil
                }
                guard let month = digits(2), (1...12).contains(month) else { return nil }
                if atEnd || peek(UInt8(ascii: "T")) { return reduced ? .reduced : nil }
                _ = take(dash)
                guard let day = digits(2), day >= 1, day <= Self.days(in: month, year: nil) else { return nil }
                return .yearless
            }
            guard let year = digits(4) else { return nil }
            if atEnd || peek(UInt8(ascii: "T")) { return reduced ? .reduced : nil }
            let extended = take(dash)
            guard let month = digits(2), (1...12).contains(month) else { return nil }
            if atEnd || peek(UInt8(ascii: "T")) {
                // YYYY-MM; YYYYMM is no ISO 8601 form.
                return reduced && extended ? .reduced : nil
            }
            if extended { guard take(dash) else { return nil } }
            guard let day = digits(2), day >= 1, day <= Self.days(in: month, year: year) else { return nil }
            return .complete
        }

        /// A time of day with an optional zone; `truncatedAllowed` admits `-mmss` and `--ss` (4.0).
        mutating func time(truncatedAllowed: Bool) -> Bool {
            let colon = UInt8(ascii: ":")
            let dash = UInt8(ascii: "-")
            if peek(dash) {
                guard truncatedAllowed else { return false }
                index += 1
                if take(dash) {
                    guard let second = digits(2), second <= 60 else { return false }
                } else {
                    guard let minute = digits(2), minute <= 59 else { return false }
                    if let second = digits(2), second > 60 { return false }
                }
                return zone()
            }
            guard let hour = digits(2), hour <= 23 else { return false }
            let extended = take(colon)
            if let minute = digits(2) {
                guard minute <= 59 else { return false }
                if extended ? take(colon) : true, let second = digits(2) {
                    guard second <= 60 else { return false }
                    if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
                        guard digits(1) != nil else { return false }
                        while digits(1) != nil {}
                    }
                } else if extended && peek(colon) {
                    return false
                }
            } else if extended {
                return false
            }
            return zone()
        }

        /// `Z`, `+hh`, `+hhmm` or `+hh:mm` (or none).
        mutating func zone() -> Bool {
            if atEnd || take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) { return true }
            guard take(UInt8(ascii: "+")) || take(UInt8(ascii: "-")) else { return false }
            guard let hours = digits(2), hours <= 14 else { return false }
            if atEnd { return true }
            _ = take(UInt8(ascii: ":"))
            guard let minutes = digits(2), minutes <= 59 else { return false }
            return true
        }

        static func days(in month: Int, year: Int?) -> Int {
            switch month {
            case 2:
                guard let year else { return 29 }
                return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
            case 4, 6, 9, 11: return 30
            default: return 31
            }
        }
    }
}
