import ContactModel
import Testing

@testable import ContactCSV

/// A name, organisation, title, note or birthday the model kept in `extensions` for a parameter it cannot hold
/// (`ORG;TYPE=work`) fills its Google column when the model's field is empty; it was left out of the CSV.
@Suite struct PromotedFieldsTests {
    @Test func fieldsKeptForTheirParametersFillTheirColumns() {
        let contact = Contact(
            formattedName: "Ann Lee",
            extensions: [
                Extension(
                    name: "N", parameters: [ExtraParameter(name: "SORT-AS", values: ["Lee"])], value: "Lee;Ann;;Dr.;"),
                Extension(
                    name: "ORG", parameters: [ExtraParameter(name: "TYPE", values: ["work"])], value: "Acme;R\\,D;Lab"),
                Extension(name: "ORG", value: "Second Org"),
                Extension(
                    name: "NOTE", parameters: [ExtraParameter(name: "LANGUAGE", values: ["de"])], value: "Hallo\\, Welt"
                ),
                Extension(name: "TITLE", parameters: [ExtraParameter(name: "LANGUAGE", values: ["en"])], value: "Eng"),
                Extension(
                    name: "BDAY", parameters: [ExtraParameter(name: "CALSCALE", values: ["gregorian"])],
                    value: "19850415"),
            ])
        let csv = String(decoding: ContactCSV.write([contact]), as: UTF8.self)
        let read = ContactCSV.read(Array(csv.utf8)).contacts[0]
        #expect(read.name?.family == ["Lee"] && read.name?.given == ["Ann"] && read.name?.prefixes == ["Dr."])
        #expect(read.organization == Organization(name: "Acme", units: ["R,D", "Lab"]))
        #expect(read.note == "Hallo, Welt" && read.title == "Eng" && read.birthday == "19850415")
        // The second ORG has no column, nor an FN other than the name's ("Dr. Ann Lee"): the note names them.
        #expect(ContactCSV.leftOut(contact) == ["FN", "ORG"])
        // A field the model holds keeps its column, and the kept property is left out.
        var held = contact
        held.note = "own note"
        #expect(ContactCSV.leftOut(held) == ["FN", "ORG", "NOTE"])
    }
}
