import ContactCSV
import ContactModel
import Testing

/// Google's IM columns and the model's messaging addresses (vCard IMPP): read from CSV, a handle became an
/// `X-CSV-FIELD` column no phone reads, and a card's IMPP was left out of CSV altogether.
@Suite struct MessagingColumnsTests {
    static func read(_ text: String) -> [Contact] { ContactCSV.read(Array(text.utf8)).contacts }

    static func service(_ value: LabeledValue) -> String {
        value.parameters.first { $0.name == "X-SERVICE-TYPE" }?.values.joined(separator: ",") ?? "-"
    }

    static func described(_ values: [LabeledValue]) -> [String] {
        values.map { "\($0.value) \($0.types) \($0.label ?? "-") \($0.pref ?? 0) \(Self.service($0))" }
    }

    @Test func eachServiceBecomesItsURIWithTheServiceNamed() {
        let ann = Self.read(
            "First Name,Last Name,IM 1 - Label,IM 1 - Service,IM 1 - Value,IM 2 - Label,IM 2 - Service,IM 2 - Value,"
                + "IM 3 - Label,IM 3 - Service,IM 3 - Value,IM 4 - Label,IM 4 - Service,IM 4 - Value\n"
                + "Ann,Lee,* Home,Skype,ann.lee ::: ann2,Work,Google Talk,ann@gmail.com,Other,Signal,+15550100,"
                + "Gaming,,matrix:u/ann:example.org\n")[0]
        #expect(
            Self.described(ann.instantMessaging) == [
                "skype:ann.lee [\"home\"] - 1 Skype", "skype:ann2 [\"home\"] - 0 Skype",
                "xmpp:ann@gmail.com [\"work\"] - 0 Google Talk",
                // A service without a scheme of its own: Apple's URI for one.
                "x-apple:+15550100 [\"other\"] - 0 Signal",
                // A URI already: as it is.
                "matrix:u/ann:example.org [] Gaming 0 -",
            ])
        #expect(ann.extensions.isEmpty)
    }

    @Test func theOlderLayoutsTypeIsTheLabel() {
        let ann = Self.read(
            "Name,Given Name,Group Membership,IM 1 - Type,IM 1 - Service,IM 1 - Value\n"
                + "Ann Lee,Ann,* My Contacts,Home,AIM,annlee\n")[0]
        #expect(Self.described(ann.instantMessaging) == ["aim:annlee [\"home\"] - 0 AIM"])
    }

    @Test func aServiceWithoutAValueIsKeptAsItWas() {
        let ann = Self.read(
            "First Name,E-mail 1 - Label,E-mail 1 - Value,IM 1 - Label,IM 1 - Service,IM 1 - Value\n"
                + "Ann,,,Home,Skype,\n")[0]
        #expect(ann.instantMessaging.isEmpty)
        #expect(ann.extensions.map { $0.parameters[0].values[0] } == ["IM 1 - Label", "IM 1 - Service"])
    }

    @Test func aCardsAddressesFillTheIMColumns() {
        var ann = Contact()
        ann.name = StructuredName(family: ["Lee"], given: ["Ann"])
        ann.instantMessaging = [
            LabeledValue(
                "skype:ann.lee", types: ["home"], pref: 1,
                parameters: [ExtraParameter(name: "X-SERVICE-TYPE", values: ["Skype"])]),
            // Without a service named, the scheme's.
            LabeledValue("xmpp:ann@jabber.org", types: ["work"]),
            LabeledValue(
                "x-apple:ann_lee", label: "Games",
                parameters: [ExtraParameter(name: "X-SERVICE-TYPE", values: ["Discord"])]),
            LabeledValue("matrix:u/ann:example.org"),
        ]
        let written = String(decoding: ContactCSV.write([ann]), as: UTF8.self)
        let lines = written.split(whereSeparator: \.isNewline).map(String.init)
        #expect(
            lines[0].hasSuffix(
                ",IM 1 - Label,IM 1 - Service,IM 1 - Value,IM 2 - Label,IM 2 - Service,IM 2 - Value,"
                    + "IM 3 - Label,IM 3 - Service,IM 3 - Value,IM 4 - Label,IM 4 - Service,IM 4 - Value"))
        #expect(
            lines[1].hasSuffix(
                ",* Home,Skype,ann.lee,Work,Jabber,ann@jabber.org,Games,Discord,ann_lee,,,matrix:u/ann:example.org"))
        // Read back: the same addresses, each service now named.
        let again = Self.read(written)[0]
        #expect(again.instantMessaging.map(\.value) == ann.instantMessaging.map(\.value))
        #expect(again.instantMessaging.map(Self.service) == ["Skype", "Jabber", "Discord", "-"])
        #expect(String(decoding: ContactCSV.write([again]), as: UTF8.self) == written)
    }

    @Test func aBookWithoutMessagingHasNoIMColumns() {
        var ann = Contact()
        ann.name = StructuredName(given: ["Ann"])
        #expect(!String(decoding: ContactCSV.write([ann]), as: UTF8.self).contains("IM 1"))
    }
}
