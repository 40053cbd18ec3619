import ContactModel
import Testing
import VCardFormat

/// TYPE values are read without white space or control characters around them: the writer can only write a
/// control character in a parameter value as a space, so a type kept with one would change when read back
/// (found by FuzzRoundTrip: a 2.1 bare parameter `\0` became `TYPE=" "`, then no type at all).
@Suite struct TypeParameterTests {
    static func emails(_ line: String) -> [LabeledValue] {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\n\(line)\r\nEND:VCARD\r\n"
        return VCardDocument.read(Array(text.utf8)).cards.first?.contact.emails ?? []
    }

    @Test func controlCharactersAroundATypeAreTrimmed() {
        let emails = Self.emails("EMAIL;TYPE=\"\u{1}pref\",\"work\u{0}\",\"\u{0}\",\"caf\u{E9}\u{0}\":a@example.com")
        #expect(emails.map(\.types) == [["work", "caf\u{E9}"]])
        #expect(emails.map(\.pref) == [1])
    }

    @Test func bareControlCharacterIsNoType() {
        let emails = Self.emails("EMAIL;\u{0}:a@example.com")
        #expect(emails.map(\.types) == [[]])
    }
}
