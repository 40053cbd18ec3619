import ContactModel
import Foundation
import Testing
import VCardFormat

/// Android's 2.1 export (its default) has no NICKNAME and writes a nickname as
/// `X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Bob;1;;;...`: kept as that property, it reached no
/// reader but Android (an iPhone, Google's CSV, a 4.0 reader saw no nickname). A plain nickname is a nickname;
/// Android's other kinds (a maiden name, initials, a label of the user's own) and other fields stay as written.
@Suite struct AndroidNicknameTests {
    static func card(_ lines: String) -> Contact {
        let text = "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Bob\r\n\(lines)END:VCARD\r\n"
        return VCardDocument.read(Array(text.utf8)).cards[0].contact
    }

    static func written(_ contact: Contact, _ version: VCardVersion) -> [String] {
        // (Unfolded: Android's value with its fifteen fields makes a long line.)
        String(decoding: VCardWriter(version: version).bytes([contact]), as: UTF8.self)
            .replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter {
                $0.hasPrefix("NICKNAME") || $0.hasPrefix("X-ANDROID")
            }
    }

    @Test func aPlainNicknameIsANickname() {
        let bob = Self.card(
            "X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Bobby;1;;;;;;;;;;;;;\r\n"
                + "X-ANDROID-CUSTOM;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:vnd.android.cursor.item/nickname;"
                + "=E5=A4=AA=E9=83=8E;1;;;;;;;;;;;;;\r\n"
                // (A shorter line, as other exporters write it, without Android's fifteen data fields.)
                + "X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;B\\;B\r\n")
        #expect(bob.nicknames == ["Bobby", "太郎", "B;B"])
        #expect(bob.extensions.isEmpty)
        #expect(Self.written(bob, .v3_0) == ["NICKNAME:Bobby", "NICKNAME:太郎", "NICKNAME:B\\;B"])
        #expect(Self.written(bob, .v4_0) == ["NICKNAME:Bobby", "NICKNAME:太郎", "NICKNAME:B\\;B"])
    }

    @Test(arguments: [
        // A maiden name, initials, a label of the user's own, a value more than a name, another field, none.
        "vnd.android.cursor.item/nickname;Smith;3;;;;;;;;;;;;;",
        "vnd.android.cursor.item/nickname;R.S.;5;;;;;;;;;;;;;",
        "vnd.android.cursor.item/nickname;Rob;0;Gamer tag;;;;;;;;;;;;",
        "vnd.android.cursor.item/nickname;Rob;1;;;;;;;;;;;;;x",
        "vnd.android.cursor.item/relation;Linda;14;;;;;;;;;;;;;",
        "vnd.android.cursor.item/nickname;;1;;;;;;;;;;;;;",
    ])
    func anythingElseStaysAsWritten(_ value: String) {
        let bob = Self.card("X-ANDROID-CUSTOM:\(value)\r\n")
        #expect(bob.nicknames.isEmpty)
        #expect(bob.extensions.map(\.value) == [value])
        #expect(Self.written(bob, .v3_0) == ["X-ANDROID-CUSTOM:\(value)"])
    }

    @Test func aGroupOrParameterKeepsTheLineAsWritten() {
        let bob = Self.card(
            "item1.X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Bobby;1;;;;;;;;;;;;;\r\n"
                + "X-ANDROID-CUSTOM;X-KIND=1:vnd.android.cursor.item/nickname;Bobby;1;;;;;;;;;;;;;\r\n")
        #expect(bob.nicknames.isEmpty)
        #expect(bob.extensions.count == 2)
    }
}
