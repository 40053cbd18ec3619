import ContactModel

@testable import VCardFormat

/// What a contact becomes when written in one vCard version and read again, where that version cannot say
/// everything the model holds.
public enum VersionModel {
    /// The contact as vCard 3.0 can hold it: 3.0 has no tel: URI, so a number that was one is text there, and
    /// only a number with an extension (`+1-418-656-9254 ext. 102`) reads back as a URI; 3.0 requires N, so a
    /// card without one gets an empty one; and 3.0 names a 4.0 anniversary X-ANNIVERSARY.
    public static func as30(_ contact: Contact) -> Contact {
        var copy = contact
        if copy.name == nil && !copy.extensions.contains(where: { $0.name == "N" }) { copy.spelling.emptyName = true }
        if copy.anniversary != nil && copy.spelling.anniversaryName == nil {
            copy.spelling.anniversaryName = "X-ANNIVERSARY"
        }
        // One of each property 3.0 allows once (`SingleInstance`); text values with their commas escaped.
        SingleInstance.fit(&copy, version: .v3_0)
        for index in copy.extensions.indices {
            copy.extensions[index].value = ExtensionSpelling.writtenValue(copy.extensions[index])
        }
        copy.spelling.nicknameLines = []
        for index in copy.phones.indices where copy.phones[index].isURI {
            copy.phones[index].isURI = TelephoneValue.isPersonFormOfURI(copy.phones[index].value)
        }
        return copy
    }
}
