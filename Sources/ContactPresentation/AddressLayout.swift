import ContactModel

/// The lines of a postal address as people in its country write them: where the town, the region and the postal
/// code go differs (`Cupertino, CA 95014` in the United States, `Toronto ON M5V 2T6` in Canada, the postcode on
/// a line of its own in Britain, `75008 Paris` in most of Europe and elsewhere).
enum AddressLayout {
    /// The order of town, region and postal code.
    enum Style: Equatable {
        /// `Cupertino, CA 95014`.
        case american
        /// `Toronto ON M5V 2T6`, `Sydney NSW 2000`.
        case townRegionCode
        /// The town, the county and the postcode, each on its own line.
        case british
        /// `75008 Paris`, then the region.
        case codeFirst
    }

    /// The address's lines: PO box, extended address, street, the town's line or lines, country; empty parts
    /// left out.
    static func lines(_ address: Address, in contact: Contact) -> [String] {
        lines(address, style: style(of: address, in: contact))
    }

    static func lines(_ address: Address, style: Style) -> [String] {
        func joined(_ parts: [String], _ separator: String) -> String {
            parts.filter { !$0.isEmpty }.joined(separator: separator)
        }
        let town: [String]
        switch style {
        case .american:
            town = [joined([address.locality, joined([address.region, address.postalCode], " ")], ", ")]
        case .townRegionCode: town = [joined([address.locality, address.region, address.postalCode], " ")]
        case .british: town = [address.locality, address.region, address.postalCode]
        case .codeFirst: town = [joined([address.postalCode, address.locality], " "), address.region]
        }
        return ([address.poBox, address.extended, address.street] + town + [address.country]).filter { !$0.isEmpty }
    }

    /// The style of the address's country: its country as written (a code, or a name or short form of one of the
    /// countries laid out otherwise than postal code first), else the country code Apple writes beside it
    /// (`item1.X-ABADR:us`, whatever the language of the name), else, with no country at all, an American ZIP
    /// code after a two-letter state. Any other address puts its postal code first.
    static func style(of address: Address, in contact: Contact) -> Style {
        if !address.country.isEmpty, let style = styles[key(address.country)] { return style }
        let apple = address.group.flatMap { group in
            contact.extensions.first {
                $0.group?.lowercased() == group.lowercased() && $0.name.uppercased() == "X-ABADR"
            }
        }
        if let apple, let style = styles[key(apple.value)] { return style }
        if address.country.isEmpty && apple == nil && isAmericanZIP(address.postalCode)
            && isStateCode(address.region)
        {
            return .american
        }
        return .codeFirst
    }

    /// A country as the table below spells it: lower case, dots left out, spaces single (`U.S.A.` is `usa`).
    private static func key(_ country: String) -> String {
        let lower = country.lowercased()
        // Most countries are written plainly: only a dot or a space needs more than lower case.
        guard lower.utf8.contains(where: { $0 == 0x2E || $0 == 0x20 || $0 == 0x09 }) else { return lower }
        return lower.filter { $0 != "." }.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The countries laid out otherwise than postal code first, by their ISO codes (two and three letters),
    /// English names and common short forms. A table of its own: the platform's names of every country in every
    /// language would cost a streaming preview several megabytes of locale data for these few.
    private static let styles: [String: Style] = {
        var table: [String: Style] = [:]
        let spellings: [(Style, [String])] = [
            (
                .american,
                [
                    "us", "usa", "u s", "u s a", "united states", "united states of america", "america", "pr", "pri",
                    "puerto rico", "gu", "gum", "guam", "vi", "vir", "as", "asm", "mp", "mnp",
                ]
            ),
            (.townRegionCode, ["ca", "can", "canada", "au", "aus", "australia"]),
            (
                .british,
                [
                    "gb", "gbr", "uk", "u k", "united kingdom", "great britain", "britain", "england", "scotland",
                    "wales", "northern ireland", "ie", "irl", "ireland", "im", "imn", "isle of man", "je", "jey",
                    "jersey", "gg", "ggy", "guernsey",
                ]
            ),
        ]
        for (style, names) in spellings { for name in names { table[name] = style } }
        return table
    }()

    /// `95014` or `95014-2083`.
    private static func isAmericanZIP(_ code: String) -> Bool {
        let digits = Array(code.utf8)
        func allDigits(_ part: ArraySlice<UInt8>) -> Bool { part.allSatisfy { (0x30...0x39).contains($0) } }
        return digits.count == 5 && allDigits(digits[...])
            || digits.count == 10 && digits[5] == UInt8(ascii: "-") && allDigits(digits[..<5])
                && allDigits(digits[6...])
    }

    /// Two capital letters, as a state is written beside a ZIP code.
    private static func isStateCode(_ region: String) -> Bool {
        region.utf8.count == 2 && region.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }
}
