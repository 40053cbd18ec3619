/// Name-based UUIDs (RFC 9562 version 5: SHA-1 of a namespace and a name), so a UID made for a card
/// depends on nothing but the card: fixing a file twice gives the same UIDs, and `vcf lint --fix` and a merge
/// that must name a card without UID give it the same one.
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

/// Makes the UIDs of one file: each from its card's content, never one already in the file.
public struct UIDAllocator {
    /// Every UID in the file, given and made.
    private(set) var used: Set<String>
    /// How many cards gave each content UID, for the cards after the first.
    private var occurrences: [String: Int] = [:]

    /// An allocator that never makes one of `existing`.
    public init(existing: Set<String>) { used = existing }

    /// A UID for a card whose content (written without UID) is `content`. A card identical to an earlier
    /// one gets the UID made from the earlier one's UID and a counter, so the file never holds two cards
    /// with one UID and the content is hashed once however many copies there are.
    public mutating func uid(for content: [UInt8]) -> String {
        let base = NameBasedUUID.urn(name: content)
        var uid = base
        if used.contains(uid) {
            var count = occurrences[base, default: 1]
            repeat {
                count += 1
                uid = NameBasedUUID.urn(name: Array("\(base)\n\(count)".utf8))
            } while used.contains(uid)
            occurrences[base] = count
        }
        used.insert(uid)
        return uid
    }
}

/// SHA-1 (FIPS 180-4), only for name-based UUIDs: not for anything that needs collision resistance.
public enum SHA1 {
    /// The 20-byte digest of `message`.
    public static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] =
                    UInt32(padded[j]) << 24 | UInt32(padded[j + 1]) << 16 | UInt32(padded[j + 2]) << 8
                    | UInt32(padded[j + 3])
            }
            for i in 16..<80 { w[i] = rotate(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = rotate(a, 5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, temp)
            }
            h[0] &+= a
            h[1] &+= b
            h[2] &+= c
            h[3] &+= d
            h[4] &+= e
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - $0 * 8)) } }
    }

    private static func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { x << n | x >> (32 - n) }
}
