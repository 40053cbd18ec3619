import ContactModel
import VCardSyntax

/// A contact read from Contact JSON, jCard or CSV measured as the vCard it would be, against what the vCard
/// lexer reads (`Limits`): those formats have no line of their own to limit, and a 20 MB note from JSON was
/// written as a vCard line that vcf itself, and most readers, refuse to read back.
package enum WrittenSize {
    /// Why `contact` written as vCard would break `limits` (a line longer than `maxLineBytes`, a card larger
    /// than `maxCardBytes`), or nil when it would not. Most contacts are far below: their text is counted, and
    /// only a contact whose text could reach the line limit once escaped is written to be measured.
    package static func excess(of contact: Contact, limits: Limits = .default) -> String? {
        // Escaping at most doubles text, and base64 takes 4 bytes for 3; names and parameters add little.
        guard textBytes(contact) * 2 + 4_096 > limits.maxLineBytes else { return nil }
        var out: [UInt8] = []
        VCardWriter(version: .v4_0).write(contact, into: &out)
        if out.count > limits.maxCardBytes {
            return
                "the contact would be a vCard of \(megabytes(out.count)), more than the \(megabytes(limits.maxCardBytes)) "
                + "a card may be for vcf and most readers"
        }
        // The longest logical line: a physical line that starts with a space or a tab continues the one before.
        var longest = (length: 0, start: 0)
        var current = (length: 0, start: 0)
        var index = 0
        while index < out.count {
            var end = index
            while end < out.count && out[end] != 0x0A { end += 1 }
            let length = end - index - (end > index && out[end - 1] == 0x0D ? 1 : 0)
            if index < out.count && (out[index] == 0x20 || out[index] == 0x09) {
                current.length += max(length - 1, 0)
            } else {
                current = (length, index)
            }
            if current.length > longest.length { longest = current }
            index = end + 1
        }
        guard longest.length > limits.maxLineBytes else { return nil }
        let head = out[longest.start...].prefix { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: ";") }
        let name = String(decoding: head.prefix(64), as: UTF8.self)
        return "its \(name) would be a vCard line of \(megabytes(longest.length)), more than the "
            + "\(megabytes(limits.maxLineBytes)) a line may be for vcf and most readers"
    }

    /// The bytes of every text the contact holds, and of its photo as base64.
    static func textBytes(_ contact: Contact) -> Int {
        var total = 0
        func add(_ text: String?) { total += text?.utf8.count ?? 0 }
        func add(_ texts: [String]) { for text in texts { total += text.utf8.count } }
        func add(_ parameters: [ExtraParameter]) {
            for parameter in parameters {
                add(parameter.name)
                add(parameter.values)
            }
        }
        add(contact.uid)
        add(contact.formattedName)
        if let name = contact.name { add(name.family + name.given + name.additional + name.prefixes + name.suffixes) }
        add(contact.nicknames)
        if let organization = contact.organization { add([organization.name] + organization.units) }
        add(contact.title)
        add(contact.role)
        for value in contact.emails + contact.phones + contact.urls + contact.instantMessaging + contact.socialProfiles
        {
            add(value.value)
            add(value.label)
            add(value.types)
            add(value.parameters)
        }
        for address in contact.addresses {
            add(address.components)
            add(address.label)
            add(address.types)
            add(address.parameters)
        }
        add(contact.birthday)
        add(contact.anniversary)
        add(contact.note)
        add(contact.categories)
        if let photo = contact.photo {
            total += (photo.data?.count ?? 0) * 4 / 3 + 4
            add(photo.uri)
            add(photo.parameters)
        }
        add(contact.revision)
        for ext in contact.extensions {
            add(ext.value)
            add(ext.parameters)
        }
        return total
    }

    private static func megabytes(_ bytes: Int) -> String {
        if bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
