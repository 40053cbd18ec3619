import ContactModel
import Testing
import VCardFormat
import VCardSyntax

/// URL, IMPP, TEL and photo links are written without escapes, yet read with clients' escapes undone: a backslash
/// that would read as an escape is doubled, and every `tel:` scheme is taken off (found by FuzzRoundTrip).
@Suite struct URIValueTests {
    static func readBack(_ contact: Contact) -> Contact? {
        VCardDocument.read(VCardWriter().bytes([contact])).cards.first?.contact
    }

    @Test(arguments: ["\\:", "\\\\", "C:\\new\\temp", "a\\,b;c", "\\", "x\\y"])
    func backslashesInAPhoneNumberOrURLReadBackAsWritten(_ value: String) {
        var contact = Contact()
        contact.formattedName = "A"
        contact.phones = [LabeledValue(value)]
        contact.urls = [LabeledValue("http://example.com/" + value)]
        let back = Self.readBack(contact)
        #expect(back?.phones.map(\.value) == [value])
        #expect(back?.urls.map(\.value) == ["http://example.com/" + value])
    }

    @Test(arguments: ["\\:", "file:C:\\new", "http://example.com/a\\,b"])
    func backslashesInAPhotoLinkReadBackAsWritten(_ uri: String) {
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nPHOTO;VALUE=uri:\(ValueEscaping.protectingBackslashes(uri))\r\nEND:VCARD\r\n"
        let once = VCardWriter().bytes(VCardDocument.read(Array(text.utf8)).cards.map(\.contact))
        let twice = VCardWriter().bytes(VCardDocument.read(once).cards.map(\.contact))
        #expect(once == twice)
        #expect(
            String(decoding: once, as: UTF8.self).contains(
                "PHOTO;VALUE=uri:\(ValueEscaping.protectingBackslashes(uri))\r\n"))
    }

    @Test func backslashIsDoubledOnlyBeforeWhatWouldReadAsAnEscape() {
        #expect(ValueEscaping.protectingBackslashes("C:\\new\\temp\\") == "C:\\\\new\\temp\\")
        #expect(ValueEscaping.protectingBackslashes("+1 555") == "+1 555")
    }

    @Test func everyTelSchemeIsTakenOff() {
        let text = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=uri:tel:TEL:+1-555\r\nEND:VCARD\r\n"
        #expect(VCardDocument.read(Array(text.utf8)).cards.first?.contact.phones.map(\.value) == ["+1-555"])
    }
}
