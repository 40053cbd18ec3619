import ContactCSV
import Utilities
import VCardFormat

/// The formats contact cards come in, and which one some bytes hold: what an app needs before it picks a
/// reader for a file a person gave it.
public enum ContactFormat: String, CaseIterable, Sendable {
    /// vCard 2.1, 3.0 or 4.0 (`VCardDocument`, `VCardFileReader`).
    case vcard
    /// jCard, RFC 7095 (`JCard`).
    case jcard
    /// Contact JSON, the neutral model (`ContactJSON`).
    case json
    /// A Google Contacts, Outlook or Thunderbird CSV export (`ContactCSV`).
    case csv

    /// The format of a file from its first bytes (64 KiB is plenty): `["vcard"` is jCard; a first row with three
    /// or more known Google, Outlook or Thunderbird column names is CSV; other JSON (`[` or `{` after an optional byte order
    /// mark and white space) is Contact JSON; anything else is vCard, whose reader reports what it cannot read.
    /// UTF-16 (with or without a byte order mark) is told apart the same way.
    public static func detect(_ prefix: [UInt8]) -> ContactFormat {
        // Each format may come in UTF-16 (which the vCard reader takes as it is).
        let prefix = UTF16Text.utf8(fromUTF16: prefix) ?? prefix
        if JCard.looksLikeJCard(prefix) { return .jcard }
        if ContactCSV.looksLikeCSV(prefix) { return .csv }
        var index = 0
        if prefix.count >= 3 && prefix[0] == 0xEF && prefix[1] == 0xBB && prefix[2] == 0xBF { index = 3 }
        while index < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[index]) { index += 1 }
        guard index < prefix.count else { return .vcard }
        return prefix[index] == UInt8(ascii: "[") || prefix[index] == UInt8(ascii: "{") ? .json : .vcard
    }
}
