/// What an email's TYPE says it is for.
package enum EmailKind: String, Sendable {
    case home, work, other

    /// The kind of an email with these TYPE values.
    init(types: [String]) {
        var kind = EmailKind.other
        for type in types {
            switch type.lowercased() {
            case "home": if kind == .other { kind = .home }
            case "work": kind = .work
            default: continue
            }
        }
        self = kind
    }
}
