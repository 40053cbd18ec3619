/// The file name (vdir) or href segment (CardDAV) of a card, made from its UID so that a tool reading the
/// folder can find a card by UID and writing the same card twice lands on the same name: the UID itself when
/// it is short and made only of letters, digits and `-_.+@` (a `urn:uuid:` prefix dropped, as khard and
/// vdirsyncer name files by the bare UUID), else the name-based UUID of the UID, which any file system and
/// URL takes as it is.
public enum UIDFileName {
    /// The longest UID used as it is.
    public static let maxLength = 100

    /// The name, without extension, for a card with `uid`.
    public static func stem(for uid: String) -> String {
        var text = uid.trimmingCharacters(in: " \t")
        if text.lowercased().hasPrefix("urn:uuid:") { text = String(text.dropFirst(9)) }
        let safe = text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "@")]
                    .contains(byte)
        }
        if safe && !text.isEmpty && text.utf8.count <= maxLength && !text.hasPrefix(".") && !text.hasSuffix(".") {
            return text
        }
        return String(NameBasedUUID.urn(name: Array(uid.utf8)).dropFirst(9))
    }

    /// `stem(for:)` with `.vcf`.
    public static func fileName(for uid: String) -> String { stem(for: uid) + ".vcf" }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}
