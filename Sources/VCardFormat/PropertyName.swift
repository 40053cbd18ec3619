/// The property names the vCard layer gives meaning to, with an escape hatch for all others.
package enum PropertyName: Hashable, Sendable {
    case begin  // RFC 2426 2.1.1
    case end  // RFC 2426 2.1.1
    case version  // RFC 2426 3.6.9
    case formattedName  // FN, RFC 2426 3.1.1
    case name  // N, RFC 2426 3.1.2
    case nickname  // RFC 2426 3.1.3
    case photo  // RFC 2426 3.1.4
    case birthday  // BDAY, RFC 2426 3.1.5
    case address  // ADR, RFC 2426 3.2.1
    case telephone  // TEL, RFC 2426 3.3.1
    case email  // RFC 2426 3.3.2
    case title  // RFC 2426 3.5.1
    case role  // RFC 2426 3.5.2
    case organization  // ORG, RFC 2426 3.5.5
    case categories  // RFC 2426 3.6.1
    case note  // RFC 2426 3.6.2
    case revision  // REV, RFC 2426 3.6.4
    case uid  // RFC 2426 3.6.7
    case url  // RFC 2426 3.6.8
    case impp  // RFC 4770
    case anniversary  // RFC 6350 6.2.6
    case xAnniversary  // X-ANNIVERSARY: Evolution, KAddressBook, Thunderbird in 3.0
    case xSocialProfile  // X-SOCIALPROFILE: Apple
    case xABLabel  // X-ABLABEL: Apple's label for the property in the same group
    case other(String)

    /// The name as written in a content line (upper-cased by the lexer).
    public init(_ name: String) {
        switch name {
        case "BEGIN": self = .begin
        case "END": self = .end
        case "VERSION": self = .version
        case "FN": self = .formattedName
        case "N": self = .name
        case "NICKNAME": self = .nickname
        case "PHOTO": self = .photo
        case "BDAY": self = .birthday
        case "ADR": self = .address
        case "TEL": self = .telephone
        case "EMAIL": self = .email
        case "TITLE": self = .title
        case "ROLE": self = .role
        case "ORG": self = .organization
        case "CATEGORIES": self = .categories
        case "NOTE": self = .note
        case "REV": self = .revision
        case "UID": self = .uid
        case "URL": self = .url
        case "IMPP": self = .impp
        case "ANNIVERSARY": self = .anniversary
        case "X-ANNIVERSARY": self = .xAnniversary
        case "X-SOCIALPROFILE": self = .xSocialProfile
        case "X-ABLABEL": self = .xABLabel
        default: self = .other(name)
        }
    }

    /// The known name spelled by `bytes` (upper-case), or nil for any other; no String is made.
    static func known(_ bytes: UnsafeBufferPointer<UInt8>) -> PropertyName? {
        let count = bytes.count
        guard count <= 8 else {
            switch count {
            case 9: return bytes.isEqual(to: "X-ABLABEL") ? .xABLabel : nil
            case 10: return bytes.isEqual(to: "CATEGORIES") ? .categories : nil
            case 11: return bytes.isEqual(to: "ANNIVERSARY") ? .anniversary : nil
            case 13: return bytes.isEqual(to: "X-ANNIVERSARY") ? .xAnniversary : nil
            case 15: return bytes.isEqual(to: "X-SOCIALPROFILE") ? .xSocialProfile : nil
            default: return nil
            }
        }
        // Asked of every line twice: a short name is matched as one integer, its bytes little-endian (`TEL` is
        // 0x4C4554), rather than word by word. A last byte of zero would make it the shorter name's integer.
        guard count > 0, bytes[count - 1] != 0 else { return nil }
        var key: UInt64 = 0
        for index in 0..<count { key |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        return switch key {
        case 0x4E: .name  // N
        case 0x4E46: .formattedName  // FN
        case 0x4C_4554: .telephone  // TEL
        case 0x52_4441: .address  // ADR
        case 0x47_524F: .organization  // ORG
        case 0x44_4955: .uid  // UID
        case 0x56_4552: .revision  // REV
        case 0x4C_5255: .url  // URL
        case 0x44_4E45: .end  // END
        case 0x5941_4442: .birthday  // BDAY
        case 0x4554_4F4E: .note  // NOTE
        case 0x454C_4F52: .role  // ROLE
        case 0x5050_4D49: .impp  // IMPP
        case 0x4C_4941_4D45: .email  // EMAIL
        case 0x45_4C54_4954: .title  // TITLE
        case 0x4F_544F_4850: .photo  // PHOTO
        case 0x4E_4947_4542: .begin  // BEGIN
        case 0x4E_4F49_5352_4556: .version  // VERSION
        case 0x454D_414E_4B43_494E: .nickname  // NICKNAME
        default: nil
        }
    }
}
