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
    case xAndroidCustom  // X-ANDROID-CUSTOM: Android's fields 2.1 has no property for (a nickname, a relation)
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
        case "X-ANDROID-CUSTOM": self = .xAndroidCustom
        default: self = .other(name)
        }
    }

    /// The known name spelled by `bytes` (upper-case), or nil for any other; no String is made.
    static func known(_ bytes: UnsafeBufferPointer<UInt8>) -> PropertyName? {
        switch bytes.count {
        case 1: return bytes.isEqual(to: "N") ? .name : nil
        case 2: return bytes.isEqual(to: "FN") ? .formattedName : nil
        case 3:
            if bytes.isEqual(to: "TEL") { return .telephone }
            if bytes.isEqual(to: "ADR") { return .address }
            if bytes.isEqual(to: "ORG") { return .organization }
            if bytes.isEqual(to: "UID") { return .uid }
            if bytes.isEqual(to: "REV") { return .revision }
            if bytes.isEqual(to: "URL") { return .url }
            if bytes.isEqual(to: "END") { return .end }
            return nil
        case 4:
            if bytes.isEqual(to: "BDAY") { return .birthday }
            if bytes.isEqual(to: "NOTE") { return .note }
            if bytes.isEqual(to: "ROLE") { return .role }
            if bytes.isEqual(to: "IMPP") { return .impp }
            return nil
        case 5:
            if bytes.isEqual(to: "EMAIL") { return .email }
            if bytes.isEqual(to: "TITLE") { return .title }
            if bytes.isEqual(to: "PHOTO") { return .photo }
            if bytes.isEqual(to: "BEGIN") { return .begin }
            return nil
        case 7: return bytes.isEqual(to: "VERSION") ? .version : nil
        case 8: return bytes.isEqual(to: "NICKNAME") ? .nickname : nil
        case 9: return bytes.isEqual(to: "X-ABLABEL") ? .xABLabel : nil
        case 10: return bytes.isEqual(to: "CATEGORIES") ? .categories : nil
        case 11: return bytes.isEqual(to: "ANNIVERSARY") ? .anniversary : nil
        case 13: return bytes.isEqual(to: "X-ANNIVERSARY") ? .xAnniversary : nil
        case 15: return bytes.isEqual(to: "X-SOCIALPROFILE") ? .xSocialProfile : nil
        case 16: return bytes.isEqual(to: "X-ANDROID-CUSTOM") ? .xAndroidCustom : nil
        default: return nil
        }
    }
}
