/// Keeps spreadsheets from running a field as a formula (CSV injection), reversibly.
///
/// Writing: a field that starts with `=`, `+`, `-`, `@`, TAB or CR, possibly after a run of `'`, gets one more
/// `'` in front, as OWASP advises: `=SUM(1)` is written `'=SUM(1)`, `'=x` is written `''=x`, and a phone number
/// `+1 555 0100` is written `'+1 555 0100` (so is a birthday without a year, `--04-15`).
/// Reading: a field that is one or more `'` followed by one of those characters loses exactly one `'`.
/// So reading gives back exactly what was written, and a field that merely starts with `'` (`'tis`) is left
/// alone both ways.
enum FormulaGuard {
    static let quote = UInt8(ascii: "'")

    /// Whether a spreadsheet would take a field starting with `byte` as a formula.
    @inline(__always)
    static func isTrigger(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "@") || byte == 0x09 || byte == 0x0D
    }

    /// Whether `field` is a run of zero or more `'` and then a trigger character.
    static func needsGuard<C: Collection<UInt8>>(_ field: C) -> Bool {
        for byte in field where byte != quote { return isTrigger(byte) }
        return false
    }

    /// The field as written: one `'` in front when it needs the guard.
    static func guarded(_ field: String) -> String {
        needsGuard(field.utf8) ? "'" + field : field
    }

    /// The field as read: one leading `'` removed when one or more `'` precede a trigger character.
    static func unguarded(_ field: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard field.first == quote, needsGuard(field) else { return field }
        return field.dropFirst()
    }
}
