import CardDAV
import Foundation
import Testing

/// Multistatus answers as servers write them: any prefixes, CDATA, properties split by status.
@Suite struct MultistatusTests {
    @Test func prefixesDoNotMatterNamespacesDo() throws {
        let body = """
            <?xml version="1.0"?>
            <x:multistatus xmlns:x="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav" xmlns:o="urn:other">
              <x:response><x:href>/ab/a%20b.vcf</x:href>
                <x:propstat><x:prop><x:getetag>"1"</x:getetag><c:address-data><![CDATA[BEGIN:VCARD
            FN:A & B
            END:VCARD
            ]]></c:address-data><o:getetag>"wrong"</o:getetag></x:prop><x:status>HTTP/1.1 200 OK</x:status></x:propstat>
                <x:propstat><x:prop><c:max-resource-size/></x:prop><x:status>HTTP/1.1 404 Not Found</x:status></x:propstat>
              </x:response>
              <x:response><x:href>/ab/gone.vcf</x:href><x:status>HTTP/1.1 404 Not Found</x:status></x:response>
            </x:multistatus>
            """
        let multistatus = try Multistatus(Array(body.utf8))
        #expect(multistatus.responses.count == 2)
        let first = multistatus.responses[0]
        #expect(first.href == "/ab/a%20b.vcf")
        #expect(first.property(DAVNamespace.dav, "getetag")?.text == "\"1\"")
        #expect(first.property(DAVNamespace.cardDAV, "address-data")?.text == "BEGIN:VCARD\nFN:A & B\nEND:VCARD\n")
        #expect(first.property(DAVNamespace.cardDAV, "max-resource-size") == nil)
        #expect(multistatus.responses[1].status == 404)
    }

    @Test func somethingElseIsABadResponse() throws {
        let notXML = try #require(throws: CardDAVError.self) { try Multistatus(Array("<html><body>".utf8)) }
        #expect(notXML.kind == .badResponse)
        let notMultistatus = try #require(throws: CardDAVError.self) {
            try Multistatus(Array("<?xml version=\"1.0\"?><error xmlns=\"DAV:\"/>".utf8))
        }
        #expect(notMultistatus.kind == .badResponse)
    }
}
