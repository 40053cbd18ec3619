/// What an email's TYPE says it is for.
package enum EmailKind: String, Sendable {
    case home, work, other

    /// The kind of an email with these TYPE values.
    init(types: [String]) {
        var kind = EmailKind.other
        for type in types {
            // Nearly every TYPE is a short ASCII word: compared packed, without a lower-cased copy.
            if let packed = ASCIIBytes.packedLowercased(type) {
                if packed == Self.packedHome {
                    if kind == .other { kind = .home }
                } else if packed == Self.packedWork {
                    kind = .work
                }
                continue
            }
            switch type.lowercased() {
            case "home": if kind == .other { kind = .home }
            case "work": kind = .work
            default: continue
            }
        }
        self = kind
    }

    private static let packedHome = ASCIIBytes.packed("home".utf8)!
    private static let packedWork = ASCIIBytes.packed("work".utf8)!
}
