import ContactMatching
import Testing

/// Spellings of one country give its ISO code: codes of either case, names in the languages of the locale data,
/// three-letter codes and common short forms; a spelling of two countries gives none.
@Suite struct CountryKeyTests {
    @Test(arguments: [
        ("us", "US"), ("USA", "US"), ("U.S.A.", "US"), ("United States", "US"), ("United States of America", "US"),
        ("Vereinigte Staaten", "US"), ("États-Unis", "US"), ("アメリカ合衆国", "US"), ("Deutschland", "DE"),
        ("Allemagne", "DE"), ("DEU", "DE"), ("UK", "GB"), ("Royaume-Uni", "GB"), ("中国", "CN"), ("Россия", "RU"),
        ("Türkiye", "TR"), ("Turkey", "TR"), ("Österreich", "AT"), ("Schweiz", "CH"), ("대한민국", "KR"),
    ])
    func spellings(_ text: String, _ code: String) {
        #expect(CountryKey.code(text) == code)
    }

    @Test func unknownAndAmbiguousSpellingsGiveNoCode() {
        #expect(CountryKey.code("Atlantis") == nil)
        #expect(CountryKey.code("") == nil)
        // German for both Congos.
        #expect(CountryKey.code("Kongo") == nil)
        #expect(CountryKey.same("Kongo", "kongo"))
        #expect(!CountryKey.same("Kongo", "CD"))
    }
}
