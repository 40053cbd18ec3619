import ContactModel

/// A postal address reduced for comparison: house number, street name with its abbreviations expanded, locality,
/// region and postal code, each folded ("12 N. Main St." and "12 North Main Street" are the same street).
public struct AddressKey: Hashable, Sendable {
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

    /// The key of `address`, nil when it has neither a street nor a postal code (a city alone says little).
    public init?(_ address: Address) {
        let folded = TextFolding.fold(address.street)
        var words = folded.split(separator: " ")
        number = ""
        if let first = words.first, first.first?.isNumber == true {
            number = String(first)
            words.removeFirst()
        }
        // Every card of a large book comes through here: rebuild the street only when a word is abbreviated.
        if words.contains(where: { Self.expansions[String($0)] != nil }) {
            street = words.map { Self.expansions[String($0)] ?? String($0) }.joined(separator: " ")
        } else {
            street = number.isEmpty ? folded : String(folded.dropFirst(min(folded.count, number.count + 1)))
        }
        locality = TextFolding.fold(address.locality)
        let region = TextFolding.fold(address.region)
        self.region = Self.regions[region] ?? region
        var code = address.postalCode.utf8.filter { ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) }
            .map { $0 >= 0x61 ? $0 - 0x20 : $0 }
        if code.count == 9 && code.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { code.removeLast(4) }
        postalCode = String(decoding: code, as: UTF8.self)
        guard !street.isEmpty || !postalCode.isEmpty else { return nil }
    }

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
