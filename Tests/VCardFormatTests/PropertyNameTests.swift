import Testing

@testable import VCardFormat

/// `PropertyName.known`, which the reader asks of every line's bytes, names exactly what `PropertyName(_:)` names
/// from a String, and nothing else: not a prefix, an extension, a lower-case spelling or a longer name.
@Suite struct PropertyNameTests {
    private static let knownNames = [
        "BEGIN", "END", "VERSION", "FN", "N", "NICKNAME", "PHOTO", "BDAY", "ADR", "TEL", "EMAIL", "TITLE", "ROLE",
        "ORG",
        "CATEGORIES", "NOTE", "REV", "UID", "URL", "IMPP", "ANNIVERSARY", "X-ANNIVERSARY", "X-SOCIALPROFILE",
        "X-ABLABEL",
    ]

    private func known(_ name: String) -> PropertyName? {
        Array(name.utf8).withUnsafeBufferPointer { PropertyName.known($0) }
    }

    @Test func everyKnownNameIsFound() {
        for name in Self.knownNames {
            let found = known(name)
            #expect(found != nil && found == PropertyName(name), "\(name)")
        }
        #expect(Self.knownNames.count == 24)
    }

    @Test func nothingElseIsFound() {
        var others = [
            "", "X", "TE", "TELX", "tel", "Tel", "NICKNAMES", "NICKNAM", "EMAIL2", "X-ABLABE", "VERSIONS",
            "ADR\u{0}", "\u{0}ADR", "LABEL", "X-ABADR", "KEY", "LOGO", "GEO", "TZ", "AGENT", "SOUND",
        ]
        for name in Self.knownNames {
            others.append(String(name.dropLast()))
            others.append(name + "S")
            others.append(name.lowercased())
            others.append("X" + name.dropFirst())
        }
        for name in others where !Self.knownNames.contains(name) {
            #expect(known(name) == nil, "\(name.debugDescription)")
        }
    }
}
