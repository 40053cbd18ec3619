import ContactModel

/// Property names as CardDAV servers accept them. The writer keeps a vendor's name byte for byte whenever it is
/// safe on a content line (`X-messaging/xmpp-All` for KDE, `X-GOOGLE TALK`), so the application that wrote it
/// finds its data again; but RFC 6350 3.3 allows only letters, digits and `-` in a name, and servers built on
/// Python vobject (Radicale) refuse a card holding any other with "400 Bad Request". A card sent to a server has
/// such names spelled with `-` for each run of other characters, and an `X-` in front when they lack one.
public enum ServerSafeNames {
    /// `name` as a server accepts it (itself when it is already).
    public static func name(_ name: String) -> String {
        guard name.utf8.contains(where: { !isNameByte($0) }) else { return name }
        var out = ""
        var inRun = false
        for scalar in name.unicodeScalars {
            if scalar.isASCII && isNameByte(UInt8(scalar.value)) {
                out.unicodeScalars.append(scalar)
                inRun = false
            } else if !inRun {
                out += "-"
                inRun = true
            }
        }
        return out.uppercased().hasPrefix("X-") ? out : "X-" + out
    }

    /// Renames every property of `contact` kept raw whose name a server refuses; whether any was.
    @discardableResult
    public static func apply(_ contact: inout Contact) -> Bool {
        var changed = false
        for index in contact.extensions.indices {
            let safe = name(contact.extensions[index].name)
            if safe != contact.extensions[index].name {
                contact.extensions[index].name = safe
                changed = true
            }
        }
        return changed
    }

    /// The card `bytes` holds, written again with server-safe names when it has a name a server refuses; nil when
    /// it needs nothing (nearly always).
    public static func rewritten(_ bytes: [UInt8]) -> [UInt8]? {
        guard hasUnsafeName(bytes) else { return nil }
        let cards = VCardDocument.read(bytes).cards
        guard cards.count == 1 else { return nil }
        var contact = cards[0].contact
        guard apply(&contact) else { return nil }
        let four = cards[0].raw.lines.contains { $0.name == "VERSION" && $0.value.hasPrefix("4") }
        return VCardWriter(version: four ? .v4_0 : .v3_0).bytes([contact])
    }

    /// Whether a content line's name (`group.NAME` up to `;` or `:`) holds a byte no name may (a second dot
    /// among them); continuation lines (starting with a space or tab) are values.
    private static func hasUnsafeName(_ bytes: [UInt8]) -> Bool {
        var atLineStart = true
        var inName = false
        var dots = 0
        for byte in bytes {
            if atLineStart {
                atLineStart = false
                inName = byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t")
                dots = 0
            }
            if byte == 0x0A {
                atLineStart = true
                inName = false
            } else if inName {
                if byte == UInt8(ascii: ":") || byte == UInt8(ascii: ";") {
                    inName = false
                } else if byte == UInt8(ascii: ".") {
                    // One dot ends the group; a second is in the name.
                    dots += 1
                    if dots > 1 { return true }
                } else if byte != 0x0D, !isNameByte(byte) {
                    return true
                }
            }
        }
        return false
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-")
    }
}
