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

    /// The types the RFCs name come out as the same lower-case words in any case, and any other word is
    /// lower-cased as it stands.
    @Test func knownAndOtherTypesAreLowerCased() {
        let emails = Self.emails("EMAIL;TYPE=InterNet;type=HOME;TYPE=x400,Pref;TYPE=Homely;TYPE=IPHONE:a@example.com")
        #expect(emails.map(\.types) == [["internet", "home", "x400", "homely", "iphone"]])
        #expect(emails.map(\.pref) == [1])
    }

    /// An Apple label token is unwrapped, plain text is kept whole, and a wrapper whose `<` a combining mark
    /// joins (so that the characters are no longer `<`) is no token.
    @Test func appleLabelsAreReadByCharacters() {
        func label(_ raw: String) -> (String?, Bool?) {
            let text =
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nitem1.EMAIL:a@example.com\r\nitem1.X-ABLabel:\(raw)\r\nEND:VCARD\r\n"
            let email = VCardDocument.read(Array(text.utf8)).cards.first?.contact.emails.first
            return (email?.label, email?.appleLabel)
        }
        #expect(label("_$!<Mobile>!$_") == ("Mobile", true))
        #expect(label("_$!<>!$_") == ("", true))
        #expect(label("_$!<Caf\u{E9}>!$_") == ("Caf\u{E9}", true))
        #expect(label("Ferienhaus") == ("Ferienhaus", false))
        #expect(label("_$!<Mobile") == ("_$!<Mobile", false))
        #expect(label("_$!<\u{338}x>!$_") == ("_$!<\u{338}x>!$_", false))
    }
}
