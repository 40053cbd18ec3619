import ContactMatching
import ContactModel

/// Two cards field by field, for a person deciding whether they are one: each field's values on either side,
/// and whether they differ (after the folding matching uses, so `ACME Inc.` and `Acme` do not count as a change).
public enum CardComparison {
    /// One field of both cards.
    public struct Row: Sendable, Equatable {
        /// The vCard property (`FN`, `EMAIL`...).
        public var field: String
        /// The values on the left card, one per line.
        public var left: [String]
        /// The values on the right card.
        public var right: [String]
        /// Whether the values differ (one side missing a value counts as different).
        public var differs: Bool
    }

    /// The rows for `left` and `right`, in a fixed order, fields neither card has left out.
    public static func rows(_ left: Contact, _ right: Contact) -> [Row] {
        let fields: [(String, (Contact) -> [String])] = [
            ("FN", { $0.formattedName.map { [$0] } ?? [] }),
            ("N", { $0.name.map { [$0.displayName] } ?? [] }),
            (
                "ORG",
                {
                    $0.organization.map { [([$0.name] + $0.units).filter { !$0.isEmpty }.joined(separator: ", ")] }
                        ?? []
                }
            ),
            ("TITLE", { $0.title.map { [$0] } ?? [] }),
            ("BDAY", { $0.birthday.map { [$0] } ?? [] }),
            ("EMAIL", { $0.emails.map(\.value) }),
            ("TEL", { $0.phones.map(\.value) }),
            ("ADR", { $0.addresses.map { $0.components.filter { !$0.isEmpty }.joined(separator: ", ") } }),
            ("URL", { $0.urls.map(\.value) }),
            ("NICKNAME", { $0.nicknames }),
            ("NOTE", { $0.note.map { [$0] } ?? [] }),
            ("UID", { $0.uid.map { [$0] } ?? [] }),
        ]
        var rows: [Row] = []
        for (field, values) in fields {
            let l = values(left)
            let r = values(right)
            guard !l.isEmpty || !r.isEmpty else { continue }
            let differs = Set(l.map(TextFolding.fold)) != Set(r.map(TextFolding.fold))
            rows.append(Row(field: field, left: l, right: r, differs: differs))
        }
        return rows
    }
}
