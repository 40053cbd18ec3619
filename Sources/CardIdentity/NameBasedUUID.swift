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
        // Written straight into the string: formatting each byte as its own string and joining them took longer
        // than the hash itself, for every card a merge or `lint --fix` gives a UID.
        let digits: StaticString = "0123456789abcdef"
        let prefix: StaticString = "urn:uuid:"
        return String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + 36) { out in
            var at = 0
            for i in 0..<prefix.utf8CodeUnitCount {
                out[at] = prefix.utf8Start[i]
                at += 1
            }
            for i in 0..<16 {
                if i == 4 || i == 6 || i == 8 || i == 10 {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
                out[at] = digits.utf8Start[Int(digest[i] >> 4)]
                out[at + 1] = digits.utf8Start[Int(digest[i] & 0x0F)]
                at += 2
            }
            return at
        }
    }
}
