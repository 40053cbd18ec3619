import ContactModel

@testable import VCardFormat

/// What a contact becomes when written in one vCard version and read again, where that version cannot say
/// everything the model holds.
public enum VersionModel {
    /// The contact as vCard 3.0 can hold it: 3.0 has no tel: URI, so a number that was one is text there, and
    /// only a number with an extension (`+1-418-656-9254 ext. 102`) reads back as a URI.
    public static func as30(_ contact: Contact) -> Contact {
        var copy = contact
        for index in copy.phones.indices where copy.phones[index].isURI {
            copy.phones[index].isURI = TelephoneValue.isPersonFormOfURI(copy.phones[index].value)
        }
        return copy
    }
}
