import TestSupport
import Testing
import VCardFormat

/// What the vCard fuzz targets found (Fixtures/fuzz/FuzzRoundTrip/...), run through the calls the targets make.
@Suite struct FuzzRegressionTests {

    /// A moved or emptied fixture folder fails here instead of running the cases below zero times.
    @Test func fixturesArePresent() {
        #expect(
            FuzzFixtures.files("FuzzRoundTrip").count >= 15, "expected at least 15 files in Fixtures/fuzz/FuzzRoundTrip"
        )
    }
    /// FuzzRoundTrip: read, write 3.0, read, write again gives the same bytes and the same number of cards.
    @Test(arguments: FuzzFixtures.files("FuzzRoundTrip"))
    func roundTripIsStable(_ file: String) throws {
        let bytes = try FixturePaths.bytes(file)
        let writer = VCardWriter(version: .v3_0)
        let first = VCardDocument.read(bytes).cards
        let once = writer.bytes(first.map(\.contact))
        let second = VCardDocument.read(once).cards
        #expect(second.count == first.count)
        let twice = writer.bytes(second.map(\.contact))
        #expect(
            twice == once,
            "second write:\n\(String(decoding: twice, as: UTF8.self))\nfirst:\n\(String(decoding: once, as: UTF8.self))"
        )
    }
}
