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

    /// More names, each UUID from Python (`hashlib.sha1(namespace.bytes + name)`, version and variant bits set):
    /// an empty name, every byte value, and UTF-8 text; between them, bytes below 0x10 written with their zero.
    @Test(
        arguments: [
            ([UInt8](), "urn:uuid:18ad3c2a-6190-558f-85c4-97270b66ed24"),
            (Array(0...255), "urn:uuid:d7753cca-5ed7-5601-956c-43c32e445bd6"),
            (Array("Zoë Ünal\r\n".utf8), "urn:uuid:cc1ada6d-6ffa-5f6f-b29b-ffc038419f83"),
        ] as [([UInt8], String)])
    func nameBasedUUIDsMatchPython(_ name: [UInt8], _ expected: String) {
        #expect(NameBasedUUID.urn(name: name) == expected)
    }
}
