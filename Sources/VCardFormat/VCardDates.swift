/// Dates, times and UTC offsets between vCard's ISO 8601 basic form (`19850412`, `--0412`, `T102200`, `-0500`;
/// RFC 6350 section 4.3) and jCard's extended form (`1985-04-12`, `--04-12`, `T10:22:00`, `-05:00`; RFC 7095
/// section 3.5). Both readers accept either form, so a value already in the other form converts too.
public enum VCardDates {
    /// The value in jCard's extended form, or nil when it is not a value of `type`.
    static func extended(_ value: String, type: JCardValueType) -> String? {
        parse(value, type: type)?.text(extended: true)
    }

    /// The value in vCard's basic form, or nil when it is not a value of `type`.
    static func basic(_ value: String, type: JCardValueType) -> String? {
        parse(value, type: type)?.text(extended: false)
    }

    /// Whether a 4.0 writer marks a birthday or anniversary `VALUE=text`: it is no date-and-or-time.
    public static func isWrittenAsText(birthday value: String) -> Bool {
        basic(value, type: .dateAndOrTime) == nil
    }

    /// A UTC offset (`-05:00`, `-0500`, `-05`) in the extended or basic form, or nil when it is not one.
    static func utcOffset(_ value: String, extended: Bool) -> String? {
        let bytes = Array(value.utf8)
        guard let zone = Zone(bytes[...]), case .offset = zone else { return nil }
        return zone.text(extended: extended)
    }

    // MARK: Model

    /// A date, a time, or both, as far as the value gives them (digits kept as written).
    private struct Value {
        var date: DatePart?
        var time: TimePart?
        /// Whether a lone time is written with the `T` that date-and-or-time requires.
        var timeDesignator = false

        func text(extended: Bool) -> String {
            var out = ""
            if let date { out += date.text(extended: extended) }
            if let time {
                if date != nil || timeDesignator { out += "T" }
                out += time.text(extended: extended)
            }
            return out
        }
    }

    private struct DatePart {
        var year: Substring?
        var month: Substring?
        var day: Substring?

        /// Whether the date has a day (date-noreduc: the form a date-time may use).
        var hasDay: Bool { day != nil }
        var isComplete: Bool { year != nil && month != nil && day != nil }

        func text(extended: Bool) -> String {
            let dash = extended ? "-" : ""
            switch (year, month, day) {
            case (let y?, let m?, let d?): return "\(y)\(dash)\(m)\(dash)\(d)"
            // RFC 6350 writes year-month with a dash even in basic form (`1985-04`): `198504` would be ambiguous.
            case (let y?, let m?, nil): return "\(y)-\(m)"
            case (let y?, nil, nil): return "\(y)"
            case (nil, let m?, let d?): return "--\(m)\(dash)\(d)"
            case (nil, let m?, nil): return "--\(m)"
            case (nil, nil, let d?): return "---\(d)"
            default: return ""
            }
        }
    }

    private struct TimePart {
        var hour: Substring?
        var minute: Substring?
        var second: Substring?
        var zone: Zone?

        var isComplete: Bool { hour != nil && minute != nil && second != nil }

        func text(extended: Bool) -> String {
            let colon = extended ? ":" : ""
            var out: String
            switch (hour, minute, second) {
            case (let h?, let m?, let s?): out = "\(h)\(colon)\(m)\(colon)\(s)"
            case (let h?, let m?, nil): out = "\(h)\(colon)\(m)"
            case (let h?, nil, nil): out = "\(h)"
            case (nil, let m?, let s?): out = "-\(m)\(colon)\(s)"
            case (nil, let m?, nil): out = "-\(m)"
            case (nil, nil, let s?): out = "--\(s)"
            default: out = ""
            }
            if let zone { out += zone.text(extended: extended) }
            return out
        }
    }

    private enum Zone {
        case utc
        case offset(sign: Character, hour: Substring, minute: Substring?)

        /// `Z`, or a sign, two digits, and optionally two more (after a colon or not).
        init?(_ bytes: ArraySlice<UInt8>) {
            guard let first = bytes.first else { return nil }
            if bytes.count == 1 && (first == UInt8(ascii: "Z") || first == UInt8(ascii: "z")) {
                self = .utc
                return
            }
            guard first == UInt8(ascii: "+") || first == UInt8(ascii: "-") else { return nil }
            let rest = bytes.dropFirst()
            guard let (hour, minute, second) = VCardDates.clock(rest), second == nil, let hour else { return nil }
            self = .offset(sign: first == UInt8(ascii: "+") ? "+" : "-", hour: hour, minute: minute)
        }

        func text(extended: Bool) -> String {
            switch self {
            case .utc: return "Z"
            case .offset(let sign, let hour, let minute?): return "\(sign)\(hour)\(extended ? ":" : "")\(minute)"
            case .offset(let sign, let hour, nil): return "\(sign)\(hour)"
            }
        }
    }

    // MARK: Parsing

    private static func parse(_ text: String, type: JCardValueType) -> Value? {
        let bytes = Array(text.utf8)
        let all = bytes[...]
        let designator = bytes.firstIndex { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }
        switch type {
        case .date:
            return date(all).map { Value(date: $0) }
        case .time:
            // A leading T is not part of a time value, but costs nothing to accept.
            let body = designator == 0 ? all.dropFirst() : all
            return time(body).map { Value(time: $0) }
        case .dateTime, .timestamp:
            guard let designator, let date = date(all[..<designator]), date.hasDay,
                let time = time(all[(designator + 1)...]), time.hour != nil
            else { return nil }
            if type == .timestamp && !(date.isComplete && time.isComplete) { return nil }
            return Value(date: date, time: time)
        case .dateAndOrTime:
            guard let designator else { return date(all).map { Value(date: $0) } }
            if designator == 0 { return time(all.dropFirst()).map { Value(time: $0, timeDesignator: true) } }
            return parse(text, type: .dateTime)
        default:
            return nil
        }
    }

    private static func isDigits(_ bytes: ArraySlice<UInt8>, _ count: Int) -> Bool {
        bytes.count == count && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func substring(_ bytes: ArraySlice<UInt8>) -> Substring {
        Substring(String(decoding: bytes, as: UTF8.self))
    }

    /// `YYYY`, `YYYY-MM`, `YYYYMMDD`, `YYYY-MM-DD`, `--MM`, `--MMDD`, `--MM-DD`, `---DD`.
    private static func date(_ bytes: ArraySlice<UInt8>) -> DatePart? {
        let dash = UInt8(ascii: "-")
        let s = bytes.startIndex
        if bytes.starts(with: [dash, dash, dash]) {
            let day = bytes.dropFirst(3)
            return isDigits(day, 2) ? DatePart(day: substring(day)) : nil
        }
        if bytes.starts(with: [dash, dash]) {
            let rest = bytes.dropFirst(2)
            if isDigits(rest, 2) { return DatePart(month: substring(rest)) }
            if isDigits(rest, 4) {
                return DatePart(month: substring(rest.prefix(2)), day: substring(rest.suffix(2)))
            }
            if rest.count == 5, rest[rest.startIndex + 2] == dash, isDigits(rest.prefix(2), 2),
                isDigits(rest.suffix(2), 2)
            {
                return DatePart(month: substring(rest.prefix(2)), day: substring(rest.suffix(2)))
            }
            return nil
        }
        switch bytes.count {
        case 4:
            return isDigits(bytes, 4) ? DatePart(year: substring(bytes)) : nil
        case 7:
            guard bytes[s + 4] == dash, isDigits(bytes.prefix(4), 4), isDigits(bytes.suffix(2), 2) else { return nil }
            return DatePart(year: substring(bytes.prefix(4)), month: substring(bytes.suffix(2)))
        case 8:
            guard isDigits(bytes, 8) else { return nil }
            return DatePart(
                year: substring(bytes.prefix(4)), month: substring(bytes[(s + 4)..<(s + 6)]),
                day: substring(bytes.suffix(2)))
        case 10:
            guard bytes[s + 4] == dash, bytes[s + 7] == dash, isDigits(bytes.prefix(4), 4),
                isDigits(bytes[(s + 5)..<(s + 7)], 2), isDigits(bytes.suffix(2), 2)
            else { return nil }
            return DatePart(
                year: substring(bytes.prefix(4)), month: substring(bytes[(s + 5)..<(s + 7)]),
                day: substring(bytes.suffix(2)))
        default:
            return nil
        }
    }

    /// A time without its `T`: `HH[MM[SS]]`, `HH[:MM[:SS]]`, `-MM[SS]`, `-MM[:SS]`, `--SS`, then an optional zone.
    private static func time(_ bytes: ArraySlice<UInt8>) -> TimePart? {
        let dash = UInt8(ascii: "-")
        // The zone starts at Z or a sign; a leading dash (or two) marks truncation instead, so a dash
        // starts the zone only after a digit.
        var zoneStart = bytes.endIndex
        for index in bytes.indices.dropFirst() {
            let byte = bytes[index]
            let previous = bytes[index - 1]
            if byte == UInt8(ascii: "Z") || byte == UInt8(ascii: "z") || byte == UInt8(ascii: "+")
                || (byte == dash && previous >= UInt8(ascii: "0") && previous <= UInt8(ascii: "9"))
            {
                zoneStart = index
                break
            }
        }
        var part = TimePart()
        if zoneStart < bytes.endIndex {
            guard let zone = Zone(bytes[zoneStart...]) else { return nil }
            part.zone = zone
        }
        let body = bytes[..<zoneStart]
        if body.starts(with: [dash, dash]) {
            let second = body.dropFirst(2)
            guard isDigits(second, 2) else { return nil }
            part.second = substring(second)
            return part
        }
        if body.first == dash {
            guard let (minute, second, extra) = clock(body.dropFirst()), extra == nil, let minute else { return nil }
            part.minute = minute
            part.second = second
            return part
        }
        guard let (hour, minute, second) = clock(body), let hour else { return nil }
        part.hour = hour
        part.minute = minute
        part.second = second
        return part
    }

    /// One to three two-digit fields, run together (`102200`) or joined by colons (`10:22:00`).
    private static func clock(_ bytes: ArraySlice<UInt8>) -> (Substring?, Substring?, Substring?)? {
        var fields: [Substring] = []
        let colon = UInt8(ascii: ":")
        let withColons = bytes.contains(colon)
        var rest = bytes
        while !rest.isEmpty {
            if withColons && !fields.isEmpty {
                guard rest.first == colon else { return nil }
                rest = rest.dropFirst()
            }
            let field = rest.prefix(2)
            guard isDigits(field, 2) else { return nil }
            fields.append(substring(field))
            rest = rest.dropFirst(2)
            if fields.count > 3 { return nil }
        }
        guard !fields.isEmpty, fields.count <= 3 else { return nil }
        return (fields[0], fields.count > 1 ? fields[1] : nil, fields.count > 2 ? fields[2] : nil)
    }
}
