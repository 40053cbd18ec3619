import VCardFormat
import VCardSyntax

/// A card or its photo over the limit chosen with `--max-bytes` (a server's or store's record limit).
///
/// A card's size is its bytes as written in the file, from the B of `BEGIN:VCARD` to the line end after
/// `END:VCARD` (for a UTF-16 file, of its UTF-8 form), which is what a CardDAV server stores. A photo's
/// size is its decoded image bytes. Both are warnings: the file is valid, but the server will refuse the
/// card; `vcf convert --max-bytes` recompresses photos to fit.
struct SizeRule: CardRule {
    func check(_ card: LintedCard, _ context: RuleContext, into findings: inout [Diagnostic]) {
        let options = context.options
        if let limit = options.maxRecordBytes, card.raw.byteRange.count > limit, options.carddav == nil {
            findings.append(
                finding(
                    .warning, .recordTooLarge,
                    SizeMessages.record(card.raw.byteRange.count, limit: limit, name: options.limitName),
                    line: card.beginLine))
        }
        if let limit = options.maxPhotoBytes, let data = card.contact.photo?.data, data.count > limit,
            let line = card.lines(named: "PHOTO").first
        {
            findings.append(
                finding(
                    .warning, .photoTooLarge,
                    SizeMessages.photo(data.count, limit: limit, name: options.limitName),
                    line: line.line))
        }
    }
}

extension DiagnosticCode {
    /// A card is larger than the chosen record limit.
    public static let recordTooLarge: Self = "record-too-large"
    /// A card's photo is larger than the chosen photo limit.
    public static let photoTooLarge: Self = "photo-too-large"
}

enum SizeMessages {
    static func record(_ size: Int, limit: Int, name: String?) -> String {
        "card is \(grouped(size)) bytes, over the \(grouped(limit))-byte record limit\(name.map { " (\($0))" } ?? "")"
    }

    static func photo(_ size: Int, limit: Int, name: String?) -> String {
        "PHOTO is \(grouped(size)) bytes, over the \(grouped(limit))-byte photo limit\(name.map { " (\($0))" } ?? "")"
    }

    /// 1234567 as 1,234,567.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
