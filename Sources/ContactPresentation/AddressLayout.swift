import ContactMatching
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

    /// The style of the address's country: its country as written (a code, or a name in one of the languages
    /// `CountryKey` knows), else the country code Apple writes beside it (`item1.X-ABADR:us`), else an American
    /// ZIP code after a two-letter state. Any other address puts its postal code first.
    static func style(of address: Address, in contact: Contact) -> Style {
        let written = address.country.isEmpty ? nil : CountryKey.code(address.country)
        let apple = address.group.flatMap { group in
            contact.extensions.first {
                $0.group?.lowercased() == group.lowercased() && $0.name.uppercased() == "X-ABADR" && !$0.value.isEmpty
            }
            .flatMap { CountryKey.code($0.value) }
        }
        let code = written ?? apple
        if let code { return style(code) }
        if address.country.isEmpty && isAmericanZIP(address.postalCode) && isStateCode(address.region) {
            return .american
        }
        return .codeFirst
    }

    private static func style(_ code: String) -> Style {
        switch code {
        case "US", "PR", "GU", "VI", "AS", "MP": .american
        case "CA", "AU": .townRegionCode
        case "GB", "IE", "IM", "JE", "GG": .british
        default: .codeFirst
        }
    }

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
