/// Name-based UUIDs (RFC 9562 version 5: SHA-1 of a namespace and a name), so a UID made for a card
/// depends on nothing but the card: fixing a file twice gives the same UIDs.
public enum NameBasedUUID {
    /// The namespace for UIDs `vcf lint --fix` makes: 15ca0f11-67e8-53a8-a36a-88fe97ad4d4f, itself the
    /// version 5 UUID of `urn:vcf:lint:fix` in the RFC 9562 URL namespace. It must never change.
    public static let lintNamespace: [UInt8] = [
        0x15, 0xCA, 0x0F, 0x11, 0x67, 0xE8, 0x53, 0xA8, 0xA3, 0x6A, 0x88, 0xFE, 0x97, 0xAD, 0x4D, 0x4F,
    ]

    /// `urn:uuid:` and the lower-case UUID for `name` in `namespace`.
    public static func urn(namespace: [UInt8] = lintNamespace, name: [UInt8]) -> String {
        var digest = SHA1.hash(namespace + name)
        digest[6] = digest[6] & 0x0F | 0x50  // version 5
        digest[8] = digest[8] & 0x3F | 0x80  // RFC 9562 variant
        let hex = digest.prefix(16).map { byte -> String in
            let text = String(byte, radix: 16)
            return byte < 0x10 ? "0" + text : text
        }
        let groups = [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }
        return "urn:uuid:" + groups.joined(separator: "-")
    }
}
