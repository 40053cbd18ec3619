import ContactModel

/// A postal address reduced for comparison: house number, street name with its abbreviations expanded, locality,
/// region and postal code, each folded ("12 N. Main St." and "12 North Main Street" are the same street).
package struct AddressKey: Hashable, Sendable {
    /// The house number as written before the street name (`12`, `12b`), or empty.
    public var number: String
    /// The street name, folded, abbreviations expanded: `north main street`.
    public var street: String
    /// The locality, folded.
    public var locality: String
    /// The region, folded.
    public var region: String
    /// The postal code, letters and digits only, upper case; a US ZIP+4 cut to its five digits.
    public var postalCode: String

    /// The extended-address field (ADR component 2) read as a street, when it holds one: some forms put the
    /// street there and a building or flat in the street field.
    public var extendedNumber: String
    /// The extended-address field's street name, folded and expanded as `street`, or empty.
    public var extendedStreet: String

    /// The house number and street, when there is a street.
    public var streetLine: (number: String, street: String)? { street.isEmpty ? nil : (number, street) }
    /// The extended-address field read as a street, with the street field's house number when it has none.
    public var extendedLine: (number: String, street: String)? {
        extendedStreet.isEmpty ? nil : (extendedNumber.isEmpty ? number : extendedNumber, extendedStreet)
    }

    /// The key of `address`, nil when it has neither a street nor a postal code (a city alone says little).
    public init?(_ address: borrowing Address) {
        (number, street) = Self.streetParts(address.street)
        (extendedNumber, extendedStreet) =
            address.extended.isEmpty ? ("", "") : Self.streetParts(address.extended)
        locality = TextFolding.fold(address.locality)
        let region = TextFolding.fold(address.region)
        // Every state name is longer than its abbreviation: a region as short is not looked up (hashed).
        self.region = region.utf8.count >= Self.shortestRegionName ? Self.regions[region] ?? region : region
        postalCode = Self.postalCode(address.postalCode)
        guard !street.isEmpty || !postalCode.isEmpty || !extendedStreet.isEmpty else { return nil }
    }

    /// Letters (upper-cased) and digits of a postal code, a US ZIP+4 cut to its five digits: written straight
    /// into the string (a list of bytes copied into a string cost two allocations for each address).
    static func postalCode(_ text: String) -> String {
        let utf8 = text.utf8
        guard !utf8.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: utf8.count) { out in
            var count = 0
            var allDigits = true
            for b in utf8 {
                if b >= 0x30 && b <= 0x39 {
                    out[count] = b
                    count += 1
                } else if (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A {
                    out[count] = b & ~0x20
                    count += 1
                    allDigits = false
                }
            }
            return count == 9 && allDigits ? 5 : count
        }
    }

    /// The house number (the first word, when it starts with a digit) and the rest of a street line, folded,
    /// abbreviations expanded.
    static func streetParts(_ text: String) -> (number: String, street: String) {
        var folded: [UInt8] = []
        folded.reserveCapacity(text.utf8.count)
        TextFolding.appendFolded(text, to: &folded)
        // Every card of a large book comes through here: walk the folded bytes word by word, looking abbreviations
        // up by their packed bytes, and write the street straight into its string.
        guard !folded.isEmpty else { return ("", "") }
        var number = ""
        var start = 0
        if let first = folded.first, first != 0x20 {
            let end = folded.firstIndex(of: 0x20) ?? folded.count
            if Self.startsWithNumber(folded[..<end], first: first) {
                number = String(decoding: folded[..<end], as: UTF8.self)
                start = end + 1
            }
        }
        guard start < folded.count else { return (number, "") }
        // No word grows beyond four times its bytes with its space (`ne` to `northeast`: three to ten; a test
        // checks every expansion).
        let street = String(unsafeUninitializedCapacity: Self.growth * (folded.count - start) + Self.growth) { out in
            var count = 0
            func append(_ bytes: some Sequence<UInt8>) {
                for b in bytes {
                    out[count] = b
                    count += 1
                }
            }
            for end in start...folded.count where end == folded.count || folded[end] == 0x20 {
                let word = folded[start..<end]
                start = end + 1
                if count > 0 {
                    out[count] = 0x20
                    count += 1
                }
                if let expanded = ASCIIBytes.packed(word).flatMap({ Self.packedExpansions[$0] }) {
                    append(expanded.utf8)
                } else {
                    append(word)
                }
            }
            return count
        }
        return (number, street)
    }

    /// How many times its bytes (with the space after it) a word of a street can grow when expanded.
    static let growth = 4

    private static func startsWithNumber(_ word: ArraySlice<UInt8>, first: UInt8) -> Bool {
        if first < 0x80 { return first >= 0x30 && first <= 0x39 }
        // Other scripts' digits (Arabic-Indic, full-width) fold to themselves.
        return String(decoding: word, as: UTF8.self).first?.isNumber == true
    }

    private static let packedExpansions: [UInt64: String] = Dictionary(
        uniqueKeysWithValues: expansions.map {
            (ASCIIBytes.packed($0.key.utf8)!, $0.value)
        })

    /// Street types and directions as the post office abbreviates them, expanded (USPS Publication 28, the
    /// common ones, and their UK and Australian cousins).
    static let expansions: [String: String] = [
        "st": "street", "str": "street", "rd": "road", "ave": "avenue", "av": "avenue", "blvd": "boulevard",
        "dr": "drive", "ln": "lane", "ct": "court", "pl": "place", "tce": "terrace", "ter": "terrace",
        "hwy": "highway", "pkwy": "parkway", "cir": "circle", "sq": "square", "cres": "crescent", "pde": "parade",
        "trl": "trail", "way": "way", "mt": "mount", "ste": "suite", "apt": "apartment",
        "n": "north", "s": "south", "e": "east", "w": "west", "ne": "northeast", "nw": "northwest",
        "se": "southeast", "sw": "southwest",
    ]

    /// The length in bytes of the shortest name in `regions` (`iowa`, `ohio`, `utah`).
    static let shortestRegionName = 4

    /// US state names folded to their postal abbreviation, so `California` and `CA` agree.
    static let regions: [String: String] = {
        let pairs = [
            ("alabama", "al"), ("alaska", "ak"), ("arizona", "az"), ("arkansas", "ar"), ("california", "ca"),
            ("colorado", "co"), ("connecticut", "ct"), ("delaware", "de"), ("florida", "fl"), ("georgia", "ga"),
            ("hawaii", "hi"), ("idaho", "id"), ("illinois", "il"), ("indiana", "in"), ("iowa", "ia"),
            ("kansas", "ks"), ("kentucky", "ky"), ("louisiana", "la"), ("maine", "me"), ("maryland", "md"),
            ("massachusetts", "ma"), ("michigan", "mi"), ("minnesota", "mn"), ("mississippi", "ms"),
            ("missouri", "mo"), ("montana", "mt"), ("nebraska", "ne"), ("nevada", "nv"), ("new hampshire", "nh"),
            ("new jersey", "nj"), ("new mexico", "nm"), ("new york", "ny"), ("north carolina", "nc"),
            ("north dakota", "nd"), ("ohio", "oh"), ("oklahoma", "ok"), ("oregon", "or"), ("pennsylvania", "pa"),
            ("rhode island", "ri"), ("south carolina", "sc"), ("south dakota", "sd"), ("tennessee", "tn"),
            ("texas", "tx"), ("utah", "ut"), ("vermont", "vt"), ("virginia", "va"), ("washington", "wa"),
            ("west virginia", "wv"), ("wisconsin", "wi"), ("wyoming", "wy"), ("district of columbia", "dc"),
        ]
        return Dictionary(uniqueKeysWithValues: pairs)
    }()
}
