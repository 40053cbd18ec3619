import ContactModel
import VCardFormat

/// `vcf preview`: each card as a receiving app shows it: name, title and company first, then the rest.
enum Preview {
    static let spec = Arguments.Spec(flags: ["--help"], options: [], aliases: ["-h": "--help"])

    static func run(_ arguments: [String], io: CommandIO) throws -> Int32 {
        let parsed = try Arguments.parse(arguments, spec: spec)
        if parsed.flags.contains("--help") {
            io.write(Help.preview)
            return ExitCode.success
        }
        var reader = InputReader(io: io)
        var first = true
        try reader.forEachCard(in: parsed.positionals) { card, _ in
            if !first { io.write("\n") }
            first = false
            io.write(text(card.contact))
        }
        if reader.ioFailures > 0 { return ExitCode.ioFailure }
        return reader.errorCount > 0 ? ExitCode.problems : ExitCode.success
    }

    /// The plain-text preview of one contact.
    static func text(_ contact: Contact) -> String {
        var out = ""
        let name = contact.formattedName.flatMap { $0.isEmpty ? nil : $0 } ?? contact.derivedDisplayName
        out += (name.isEmpty ? "(no name)" : oneLine(name)) + "\n"
        let headline = [contact.title, contact.role, contact.organization.map { ([$0.name] + $0.units).filter { !$0.isEmpty }.joined(separator: ", ") }]
            .compactMap { $0 }.filter { !$0.isEmpty }.map(oneLine)
        if !headline.isEmpty { out += headline.joined(separator: " · ") + "\n" }
        if let photo = contact.photo {
            if let data = photo.data {
                out += "[photo: \(photo.mediaType ?? "unknown type"), \(data.count) bytes]\n"
            } else if let uri = photo.uri {
                out += "[photo: \(oneLine(uri))]\n"
            }
        }
        var rows: [(String, String)] = []
        if !contact.nicknames.isEmpty { rows.append(("nickname", contact.nicknames.joined(separator: ", "))) }
        for phone in contact.phones { rows.append((label(phone, default: "phone"), phone.value)) }
        for email in contact.emails { rows.append((label(email, default: "email", skip: ["internet"]), email.value)) }
        for address in contact.addresses {
            let lines = [address.poBox, address.extended, address.street,
                         [address.postalCode, address.locality].filter { !$0.isEmpty }.joined(separator: " "),
                         address.region, address.country].filter { !$0.isEmpty }
            let title = address.label ?? (address.types.first ?? "address")
            for (index, line) in lines.enumerated() { rows.append((index == 0 ? title : "", line)) }
        }
        for url in contact.urls { rows.append((label(url, default: "url"), url.value)) }
        for im in contact.instantMessaging { rows.append((label(im, default: "im"), im.value)) }
        for profile in contact.socialProfiles { rows.append((label(profile, default: "social"), profile.value)) }
        if let birthday = contact.birthday { rows.append(("birthday", birthday)) }
        if let anniversary = contact.anniversary { rows.append(("anniversary", anniversary)) }
        if !contact.categories.isEmpty { rows.append(("categories", contact.categories.joined(separator: ", "))) }
        if let note = contact.note {
            for (index, line) in note.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                rows.append((index == 0 ? "note" : "", String(line)))
            }
        }
        let width = rows.map { $0.0.count }.max() ?? 0
        for (title, value) in rows {
            out += "  " + title + String(repeating: " ", count: width - title.count) + "  " + oneLine(value) + "\n"
        }
        return out
    }

    private static func label(_ item: LabeledValue, default fallback: String, skip: Set<String> = []) -> String {
        if let label = item.label { return oneLine(label) }
        let types = item.types.filter { !skip.contains($0) && $0 != "voice" }
        let base = types.isEmpty ? fallback : types.joined(separator: ",")
        return item.pref == 1 ? base + " *" : base
    }

    /// Control characters would let a card rewrite the terminal; show them as visible escapes.
    static func oneLine(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                out += scalar == "\n" ? "⏎" : "�"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
