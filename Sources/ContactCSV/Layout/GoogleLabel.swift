/// Google's labels on emails, phones, addresses and websites (`E-mail 1 - Label`, or `- Type` in the older
/// layout), and the model's kinds (`LabeledValue.types`).
///
/// | Google label | types          |   | Google label | types          |
/// |--------------|----------------|---|--------------|----------------|
/// | Home         | home           |   | Home Fax     | home, fax      |
/// | Work         | work           |   | Work Fax     | work, fax      |
/// | Mobile       | cell           |   | Other Fax    | other, fax     |
/// | Main         | main           |   | Fax          | fax            |
/// | Pager        | pager          |   | Car          | car            |
/// | Other        | other          |   | ISDN         | isdn           |
///
/// Reading matches case-insensitively. A leading `* ` marks the preferred value (`pref` 1): `* Work` is
/// preferred work, `* ` alone preferred with no label. Any other label (`Google Voice`, `Home Page`, a user's
/// own) is kept as written in `label`, with no types.
///
/// Writing uses `label` when there is one; otherwise the table, matching the types as a set and ignoring the
/// defaults `voice` and `internet`; types the table does not know are written as a label of their own
/// (`video` -> `Video`). `* ` goes in front when `pref` is 1; other preferences are not written.
struct GoogleLabel: Hashable {
    var types: [String] = []
    var label: String?
    var pref: Int?

    private static let table: [(name: String, types: [String])] = [
        ("Home", ["home"]), ("Work", ["work"]), ("Mobile", ["cell"]), ("Main", ["main"]), ("Pager", ["pager"]),
        ("Other", ["other"]), ("Home Fax", ["home", "fax"]), ("Work Fax", ["work", "fax"]),
        ("Other Fax", ["other", "fax"]), ("Fax", ["fax"]), ("Car", ["car"]), ("ISDN", ["isdn"]),
    ]
    private static let byName: [String: [String]] = Dictionary(
        uniqueKeysWithValues: table.map { ($0.name.lowercased(), $0.types) })
    private static let byTypes: [Set<String>: String] = Dictionary(
        uniqueKeysWithValues: table.map { (Set($0.types), $0.name) })
    private static let defaultTypes: Set<String> = ["voice", "internet"]

    /// Reads a Google label cell.
    init(reading cell: String) {
        var text = Substring(cell)
        if text.hasPrefix("*") {
            pref = 1
            text = text.dropFirst()
        }
        let name = trimmed(String(text))
        guard !name.isEmpty else { return }
        if let types = Self.byName[name.lowercased()] {
            self.types = types
        } else {
            label = name
        }
    }

    /// The model's kinds, label and preference.
    init(types: [String], label: String?, pref: Int?) {
        self.types = types
        self.label = label
        self.pref = pref
    }

    /// The cell to write.
    var cell: String {
        var name = label ?? ""
        if label == nil {
            let kinds = Set(types.map { $0.lowercased() }).subtracting(Self.defaultTypes)
            if let known = Self.byTypes[kinds] {
                name = known
            } else if !kinds.isEmpty {
                // Keep the writer's order so the label is stable.
                var seen = Set<String>()
                name = types.map { $0.lowercased() }.filter {
                    !Self.defaultTypes.contains($0) && seen.insert($0).inserted
                }
                .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
            }
        }
        return pref == 1 ? "* " + name : name
    }
}
