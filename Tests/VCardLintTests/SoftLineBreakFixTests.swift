import Testing
import VCardSyntax

@testable import VCardLint

/// `lint --fix` on 2.1 cards whose quoted-printable NOTE ends in `=` right before `END:VCARD` (issue 18, item
/// 12): every card stays a card of its own, and fixing the fixed file changes nothing.
@Suite struct SoftLineBreakFixTests {
    static let twelve: [UInt8] = {
        var text = ""
        for index in 1...12 {
            text += "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Person\(index);Ann\r\nFN:Ann Person\(index)\r\n"
            text += "UID:card-\(index)\r\nNOTE;ENCODING=QUOTED-PRINTABLE:first=0D=0Alast=\r\nEND:VCARD\r\n"
        }
        return Array(text.utf8)
    }()

    @Test func twelveCardsFixToTwelveCardsAndAFixedPoint() {
        let once = Linter.fix(Self.twelve, file: "qp.vcf")
        let (cards, _) = VCardLexer.parse(once.bytes)
        #expect(cards.count == 12)
        #expect(cards.allSatisfy { card in card.lines.filter { $0.name == "NOTE" }.map(\.value) == ["first\\nlast"] })
        let twice = Linter.fix(once.bytes, file: "qp.vcf")
        #expect(twice.bytes == once.bytes)
        let thrice = Linter.fix(twice.bytes, file: "qp.vcf")
        #expect(thrice.bytes == once.bytes)
    }
}
