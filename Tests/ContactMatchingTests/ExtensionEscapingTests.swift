import ContactMerge
import ContactModel
import Testing

/// X- properties compared as a person reads them: the same value escaped or not is one value, so a server
/// that escapes what it stores (Radicale) does not get the value again on every merge.
@Suite struct ExtensionEscapingTests {
    @Test func anEscapedValueIsTheSameValue() {
        let stored = Contact(
            formattedName: "Bob Alvarez",
            extensions: [Extension(name: "X-ANDROID-CUSTOM", value: "vnd.android.cursor.item/nickname\\;Bobby\\;1")])
        let incoming = Contact(
            formattedName: "Bob Alvarez",
            extensions: [Extension(name: "X-ANDROID-CUSTOM", value: "vnd.android.cursor.item/nickname;Bobby;1")])
        let (merged, changes) = ContactMerger().merge(incoming, into: stored)
        #expect(changes.isEmpty)
        #expect(merged == stored)
        let other = Contact(
            formattedName: "Bob Alvarez",
            extensions: [Extension(name: "X-ANDROID-CUSTOM", value: "vnd.android.cursor.item/nickname;Rob;1")])
        #expect(ContactMerger().merge(other, into: stored).contact.extensions.count == 2)
    }
}
