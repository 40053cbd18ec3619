import ContactModel
import Foundation
import TestSupport
import Testing

/// `ContactJSON.forEachContact`, the array read a contact at a time, against `decode` of the whole document:
/// the same contacts whatever the size of the pieces (one byte at a time cuts every string, escape and bracket),
/// and for anything else an outcome that sends the caller to `decode` with nothing given twice.
@Suite struct ContactJSONStreamTests {
    static func streamed(_ bytes: [UInt8], size: Int) throws -> (ContactJSON.StreamOutcome, [Contact]) {
        let (outcome, contacts, _) = try streamedWithFailures(bytes, size: size)
        return (outcome, contacts)
    }

    static func streamedWithFailures(_ bytes: [UInt8], size: Int) throws -> (
        ContactJSON.StreamOutcome, [Contact], [ContactJSON.DecodeError]
    ) {
        var contacts: [Contact] = []
        var failures: [ContactJSON.DecodeError] = []
        let outcome = try ContactJSON.forEachContact(
            more: pieces(of: bytes, size: size), failed: { failures.append($0) },
            { contact, _ in contacts.append(contact) })
        return (outcome, contacts, failures)
    }

    /// Contacts whose text holds everything that could be taken for the array's grammar.
    static let contacts: [Contact] = [
        Contact(formattedName: "Ann ] } [ { , \" \\ Lee", note: "x,]\n\"quoted\" \\u0041 {"),
        Contact(uid: "urn:uuid:1", formattedName: "José 山田 🎉", emails: [LabeledValue("a@b.example")]),
        Contact(formattedName: "Bob", categories: ["[", "]", ","]),
    ]

    @Test func anArrayStreamsAsItDecodesWhole() throws {
        let compact = ContactJSON.encode(Self.contacts)
        let text = String(decoding: compact, as: UTF8.self)
        let shapes: [[UInt8]] = [
            compact,
            [0xEF, 0xBB, 0xBF] + Array(" \r\n\t".utf8) + compact + Array(" \n".utf8),
            Array(text.replacingOccurrences(of: "},\n  {", with: "} ,\n\t{").utf8),
        ]
        #expect(Set(shapes).count == shapes.count)
        for bytes in shapes {
            let whole = try ContactJSON.decode(bytes)
            #expect(whole == Self.contacts)
            for size in [1, 2, 3, 7, 64, 4_096, bytes.count + 1] {
                let (outcome, contacts) = try Self.streamed(bytes, size: size)
                #expect(outcome == .done, "\(size)")
                #expect(contacts == whole, "\(size)")
            }
        }
        let (outcome, none) = try Self.streamed(Array("[ ]".utf8), size: 1)
        #expect(outcome == .done && none.isEmpty)
    }

    /// One object is not an array: nothing given. A broken element or separator: the contacts before it given,
    /// and `decode` throws for the document, which is what the caller reports.
    @Test func anythingElseIsLeftToDecode() throws {
        let one = Array(String(decoding: ContactJSON.encode(Self.contacts), as: UTF8.self).dropFirst().dropLast().utf8)
        let object = Array(one.prefix { $0 != UInt8(ascii: "}") }) + [UInt8(ascii: "}")]
        #expect(try Self.streamed(object, size: 5).0 == .notAnArray)
        #expect(try Self.streamed(Array("not json".utf8), size: 5).0 == .notAnArray)
        let text = String(decoding: ContactJSON.encode(Self.contacts), as: UTF8.self)
        let broken = [
            (text.replacingOccurrences(of: "},\n  {", with: "}\n  {"), 1),
            (text + " trailing", 3),
            (String(text.dropLast(20)), 2),
        ]
        for (document, given) in broken {
            #expect(document != text)
            for size in [1, 7, 4_096] {
                let (outcome, contacts) = try Self.streamed(Array(document.utf8), size: size)
                #expect(outcome == .broken, "\(document.suffix(30)) \(size)")
                #expect(contacts == Array(Self.contacts.prefix(given)), "\(document.suffix(30)) \(size)")
            }
            #expect(throws: ContactJSON.DecodeError.self) { try ContactJSON.decode(Array(document.utf8)) }
        }
    }

    /// A contact that cannot be decoded is failed, with its place in the document, and the contacts after it
    /// are given: one bad contact lost all of them.
    @Test func aContactThatCannotBeDecodedIsFailedAndTheRestGiven() throws {
        let text = String(decoding: ContactJSON.encode(Self.contacts), as: UTF8.self)
            .replacingOccurrences(of: "\"formattedName\" : \"José", with: "\"formattedName\" : 5, \"note\" : \"José")
        let badLine =
            text.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("\"formattedName\" : 5") }! + 1
        for size in [1, 7, 4_096] {
            let (outcome, contacts, failures) = try Self.streamedWithFailures(Array(text.utf8), size: size)
            #expect(outcome == .done)
            #expect(contacts.map(\.formattedName) == [Self.contacts[0].formattedName, "Bob"])
            #expect(failures.map(\.message) == ["expected a string at [1].formattedName"])
            #expect(failures.map(\.line) == [badLine])
        }
        // Text that is not UTF-8 is said to be so where its byte is, not "not valid JSON" at the top.
        var latin = Array(text.utf8)
        let e = latin.firstIndex(of: 0xC3)!
        latin.replaceSubrange(e..<e + 2, with: [0xE9])
        let (_, given, failures) = try Self.streamedWithFailures(latin, size: 64)
        #expect(given.count == 2)
        #expect(failures.first?.message.hasPrefix("expected UTF-8 text, found the byte 0xE9") == true)
    }

    /// Contacts decoded a batch at a time on every processor come out as one at a time gives them: in order,
    /// each contact's unknown keys just before it, each failure in its place, the transform's result for each,
    /// and, when an element breaks the array, the contacts before it and none after.
    @Test func batchesDecodedTogetherGiveWhatOneAtATimeGives() throws {
        var people = (0..<300).map {
            Contact(formattedName: "Person \($0)", emails: [LabeledValue("p\($0)@x.example")])
        }
        people[7].note = "]},[{\""
        var text = String(decoding: ContactJSON.encode(people), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"Person 120\"", with: "120")
        text = text.replacingOccurrences(of: "\"Person 200\"", with: "\"Person 200\", \"nickName\" : \"P\"")
        let bytes = Array(text.utf8)
        let badLine =
            text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(": 120") }! + 1
        for batchBytes in [1, 150, 1_000, 1 << 20] {
            var events: [String] = []
            let outcome = try ContactJSON.forEachContact(
                more: pieces(of: bytes, size: 97),
                unknownKeys: { events.append("unknown \($0.path) of \($0.contact)") },
                failed: { events.append("failed at \($0.line)") }, batchBytes: batchBytes,
                transform: { contact, line in "\(contact.formattedName ?? "") at \(line)" }, { events.append($0) })
            #expect(outcome == .done)
            #expect(events.count == 301, "\(batchBytes)")
            #expect(events[120] == "failed at \(badLine)", "\(batchBytes)")
            #expect(events[200] == "unknown nickName of 200", "\(batchBytes)")
            #expect(events[201].hasPrefix("Person 200 at "), "\(batchBytes)")
            let given = events.filter { $0.hasPrefix("Person ") }
            #expect(
                given.map { $0.components(separatedBy: " at ")[0] }
                    == (0..<300).filter { $0 != 120 }.map { "Person \($0)" })
            // Each contact is given the line its object starts on.
            #expect(given.first == "Person 0 at 2")
        }
        // A broken separator after contact 250: the 250 before it, then the caller reads the document whole.
        let broken = Array(
            String(decoding: ContactJSON.encode(people), as: UTF8.self).replacingOccurrences(
                of: "\"Person 249\"\n  },\n", with: "\"Person 249\"\n  }\n"
            ).utf8)
        for batchBytes in [1, 2_000, 1 << 20] {
            var names: [String] = []
            let outcome = try ContactJSON.forEachContact(
                more: pieces(of: broken, size: 4_096), batchBytes: batchBytes,
                transform: { contact, _ in contact.formattedName ?? "" },
                { names.append($0) })
            #expect(outcome == .broken)
            #expect(names == (0..<250).map { "Person \($0)" }, "\(batchBytes)")
        }
    }
}
