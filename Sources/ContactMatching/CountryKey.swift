import Foundation

/// Countries as a merge compares them: one country is written as an ISO code (`US`, `de`), or by name in the
/// language of whoever typed it (`United States`, `Deutschland`, `アメリカ合衆国`), and two spellings of one
/// country must not make one address two.
package enum CountryKey {
    /// Whether `a` and `b` name the same country: equal when folded, or both known spellings of one code.
    package static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (TextFolding.fold(a), TextFolding.fold(b))
        if x == y { return true }
        guard let code = code(folded: x) else { return false }
        return self.code(folded: y) == code
    }

    /// The ISO 3166 code of a country written `text`, when it is one the table knows.
    package static func code(_ text: String) -> String? { code(folded: TextFolding.fold(text)) }

    /// Codes, English names and the aliases are looked up first: they are most of what clients write, and
    /// their table is built in a twentieth of the time of all the languages'.
    private static func code(folded: String) -> String? { english[folded] ?? codes[folded] }

    /// The languages whose names for countries are known: those of the clients and people vcf reads for.
    private static let languages = [
        "en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "pl", "cs", "hu", "ro", "ru", "uk", "el",
        "tr", "ar", "he", "hi", "ja", "ko", "zh-Hans", "zh-Hant", "vi", "th", "id",
    ]

    /// Spellings the locale data leaves out: common short and long forms, and ISO 3166 three-letter codes of
    /// the countries most address books hold.
    private static let aliases: [String: String] = [
        "usa": "US", "u s": "US", "u s a": "US", "united states of america": "US", "america": "US",
        "uk": "GB", "u k": "GB", "great britain": "GB", "britain": "GB", "china": "CN", "中国": "CN",
        "prc": "CN", "korea": "KR", "republic of korea": "KR", "대한민국": "KR", "한국": "KR", "holland": "NL",
        "the netherlands": "NL", "russian federation": "RU", "turkey": "TR", "czech republic": "CZ",
        "uae": "AE", "hongkong": "HK",
        "gbr": "GB", "deu": "DE", "fra": "FR", "esp": "ES", "ita": "IT", "prt": "PT", "nld": "NL", "bel": "BE",
        "che": "CH", "aut": "AT", "swe": "SE", "nor": "NO", "dnk": "DK", "fin": "FI", "irl": "IE", "pol": "PL",
        "cze": "CZ", "grc": "GR", "tur": "TR", "rus": "RU", "ukr": "UA", "can": "CA", "mex": "MX", "bra": "BR",
        "arg": "AR", "chl": "CL", "col": "CO", "aus": "AU", "nzl": "NZ", "jpn": "JP", "chn": "CN", "kor": "KR",
        "ind": "IN", "sgp": "SG", "hkg": "HK", "twn": "TW", "zaf": "ZA", "isr": "IL", "are": "AE", "sau": "SA",
        "egy": "EG", "nga": "NG",
    ]

    /// The table of codes, English names and aliases.
    private static let english = table(languages: ["en"])

    /// Folded spellings to codes: each code itself, its name in each language, and the aliases. A spelling of
    /// two countries (`Kongo` in German) is left out. Built the first time two addresses' countries are written
    /// differently and the English table does not know one of them.
    private static let codes = table(languages: languages)

    private static func table(languages: [String]) -> [String: String] {
        var table: [String: String] = [:]
        var ambiguous = Set<String>()
        func add(_ spelling: String, _ code: String) {
            let key = TextFolding.fold(spelling)
            guard !key.isEmpty, !ambiguous.contains(key) else { return }
            if let other = table[key], other != code {
                table[key] = nil
                ambiguous.insert(key)
            } else {
                table[key] = code
            }
        }
        let regions = Locale.Region.isoRegions.map(\.identifier).filter {
            $0.utf8.count == 2 && $0.utf8.allSatisfy { (0x41...0x5A).contains($0) }
        }
        for code in regions { add(code, code) }
        for language in languages {
            let locale = Locale(identifier: language)
            for code in regions {
                if let name = locale.localizedString(forRegionCode: code) { add(name, code) }
            }
        }
        for (spelling, code) in aliases where table[TextFolding.fold(spelling)] == nil { add(spelling, code) }
        return table
    }
}
