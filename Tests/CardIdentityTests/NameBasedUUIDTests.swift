import Foundation
import Testing

@testable import CardIdentity

/// Name-based UUIDs and the SHA-1 under them, against published answers.
@Suite struct NameBasedUUIDTests {
    @Test func nameBasedUUIDsMatchRFC9562() {
        // SHA-1 of "abc" (FIPS 180-4's own example) and Python's uuid.uuid5(namespace, "abc").
        let digest = SHA1.hash(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(digest == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(NameBasedUUID.urn(name: Array("abc".utf8)) == "urn:uuid:8fb8738e-4557-5d1b-aaee-86f5881db039")
    }
}
