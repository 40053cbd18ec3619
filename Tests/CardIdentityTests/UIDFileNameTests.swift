import CardIdentity
import Testing

/// File names made from UIDs: the UID itself where it is safe, else a UUID made from it.
@Suite struct UIDFileNameTests {
    @Test func safeUIDsAreTheirOwnNames() {
        #expect(
            UIDFileName.fileName(for: "urn:uuid:8fb8738e-4557-5d1b-aaee-86f5881db039")
                == "8fb8738e-4557-5d1b-aaee-86f5881db039.vcf")
        #expect(UIDFileName.stem(for: "ann-1") == "ann-1")
        #expect(UIDFileName.stem(for: "abc+def@example.com") == "abc+def@example.com")
    }

    @Test func otherUIDsBecomeAUUIDMadeFromThem() {
        let unsafe = [
            "a/b", "../etc/passwd", ".hidden", "x.", "Ann Lee", "é", String(repeating: "a", count: 101), "", "a:b",
        ]
        var stems = Set<String>()
        for uid in unsafe {
            let stem = UIDFileName.stem(for: uid)
            #expect(stem.count == 36 && stem.allSatisfy { $0.isHexDigit || $0 == "-" })
            #expect(stem == UIDFileName.stem(for: uid))
            stems.insert(stem)
        }
        #expect(stems.count == unsafe.count)
        #expect(UIDFileName.stem(for: "a/b") == String(NameBasedUUID.urn(name: Array("a/b".utf8)).dropFirst(9)))
    }
}
