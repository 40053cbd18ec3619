import VCardFormat
import VCardSyntax

/// TYPE values of TEL, EMAIL, ADR and LABEL that no vCard version defines and no common writer uses.
///
/// The known values are the union over the versions, so a 2.1 type in a 3.0 card is not reported (readers
/// of every version know them all): TEL from vCard 2.1, RFC 2426 3.3.1, RFC 6350 6.4.1 and RFC 7852
/// (`main-number`); EMAIL from vCard 2.1 (the mail systems), RFC 2426 3.3.2 and RFC 6350 (`home`, `work`);
/// ADR and LABEL from RFC 2426 3.2.1 and 3.2.2. Apple's `iPhone`, `main` and `other` are known too, as is
/// Android's `EMAIL;CELL` (a mobile address), and so is any `X-` value (RFC 2426 3.3.1 reserves them for
/// private types).
struct TypeParameterRule: CardRule {
    static let general: Set<String> = ["home", "work", "pref", "other"]
    static let known: [String: Set<String>] = [
        "TEL": general.union([
            "voice", "fax", "msg", "cell", "pager", "bbs", "modem", "car", "isdn", "video", "pcs",
            "text", "textphone", "main-number", "iphone", "main",
        ]),
        "EMAIL": general.union([
            "internet", "x400", "aol", "applelink", "attmail", "cis", "eworld", "ibmmail",
            "mcimail", "powershare", "prodigy", "tlx", "cell",
        ]),
        "ADR": general.union(["dom", "intl", "postal", "parcel"]),
        "LABEL": general.union(["dom", "intl", "postal", "parcel"]),
    ]

    /// `known[name]`, without hashing the name of every line of every card (four names have a list).
    static func knownTypes(_ name: String) -> Set<String>? {
        switch name.utf8.count {
        case 3: return name == "TEL" || name == "ADR" ? known[name] : nil
        case 5: return name == "EMAIL" || name == "LABEL" ? known[name] : nil
        default: return nil
        }
    }

    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        for line in card.lines {
            guard let known = Self.knownTypes(line.name) else { continue }
            var reported: Set<String> = []
            for value in line.parameterValues("TYPE") {
                // A quoted `TYPE="work,voice"` (RFC 6350) is one parameter value holding a list.
                for item in Self.items(value) {
                    let type = item.trimmingASCIIWhitespace()
                    let lower = type.lowercased()
                    if lower.isEmpty || known.contains(lower) || lower.hasPrefix("x-") { continue }
                    guard reported.insert(lower).inserted else { continue }
                    findings.append(
                        finding(
                            .warning, .unknownType, TypeMessages.unknown(line.name, type),
                            line: line.line,
                            column: context.source.parameterValueColumn(type, onLine: line.line)))
                }
            }
        }
    }
}

extension TypeParameterRule {
    /// The comma-separated items of a TYPE value, split as the reader splits them (between characters). An
    /// ASCII value (nearly all) is split on its bytes: splitting a String by characters cost a fifth of
    /// `vcf lint`.
    static func items(_ value: String) -> [String] {
        // The lexer splits an unquoted list into values already: nearly every value is one item.
        if !value.containsUTF8Byte(UInt8(ascii: ",")) { return value.isEmpty ? [] : [value] }
        if value.utf8.allSatisfy({ $0 < 0x80 }) {
            return value.utf8.split(separator: UInt8(ascii: ",")).map { String(Substring($0)) }
        }
        return value.split(separator: ",").map(String.init)
    }
}

extension DiagnosticCode {
    /// A TYPE value of TEL, EMAIL, ADR or LABEL that no version defines.
    public static let unknownType: Self = "unknown-type"
}

enum TypeMessages {
    /// A type is shown only when it is a short token (`mobile`); a custom label (`Grandma's`) may be personal.
    static func unknown(_ property: String, _ type: String) -> String {
        let isToken =
            type.count <= 24
            && type.unicodeScalars.allSatisfy {
                ($0.value >= 0x30 && $0.value <= 0x39) || ($0.value | 0x20 >= 0x61 && $0.value | 0x20 <= 0x7A)
                    || $0 == "-"
            }
        let shown = isToken ? "`\(type)`" : "value"
        return
            "\(property) TYPE \(shown) is not a type any vCard version defines; readers may drop it (private types start with X-)"
    }
}
