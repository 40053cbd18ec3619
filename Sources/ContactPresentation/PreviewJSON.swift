import ContactModel
import Foundation
import TerminalText

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// The JSON preview: the neutral Contact JSON, with each photo summarised (media type, pixel size, bytes)
/// instead of carrying its base64, so the output stays readable.
public enum PreviewJSON {
    /// A contact whose photo is shown as a summary.
    public struct Card: Encodable, Sendable {
        /// The contact; its photo is left out in favour of `photo`.
        public var contact: Contact
        /// The summary written in place of the photo.
        public var photo: PhotoSummary?

        /// Creates an entry.
        public init(contact: Contact, photo: PhotoSummary?) {
            self.contact = contact
            self.photo = photo
        }

        private enum Key: String, CodingKey { case photo }

        public func encode(to encoder: any Encoder) throws {
            var bare = contact
            bare.photo = nil
            try bare.encode(to: encoder)
            // The same keyed container again: the summary joins the contact's own keys in one object.
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeIfPresent(photo, forKey: .photo)
        }
    }

    /// `json` with each character the one sanitiser (`TerminalText`) would not print as it is (a C1 control,
    /// DEL, a bidi override, a zero-width space) written as its JSON escape (`\u202E`): the same JSON to a
    /// program, and nothing hidden or active on a terminal. The encoder escapes only C0 controls.
    public static func escapingHiddenCharacters(_ json: [UInt8]) -> [UInt8] {
        guard let first = json.firstIndex(where: { $0 >= 0x7F }) else { return json }
        // On the bytes, a scalar at a time where one is not ASCII: the encoder's output is valid UTF-8.
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 16)
        out += json[..<first]
        let digits = Array("0123456789ABCDEF".utf8)
        var index = first
        while index < json.count {
            let lead = json[index]
            if lead < 0x7F {
                out.append(lead)
                index += 1
                continue
            }
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            guard index + length <= json.count else {
                out += json[index...]
                break
            }
            var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
            for offset in 1..<length { value = value << 6 | UInt32(json[index + offset] & 0x3F) }
            if let scalar = Unicode.Scalar(value), TerminalText.needsEscape(scalar, lineBreaks: .keep) {
                for unit in String(scalar).utf16 {
                    out += [0x5C, UInt8(ascii: "u")]
                    for shift in stride(from: 12, through: 0, by: -4) {
                        out.append(digits[Int(unit >> UInt16(shift)) & 0xF])
                    }
                }
            } else {
                out += json[index..<index + length]
            }
            index += length
        }
        return out
    }

    /// Pretty, key-sorted JSON of `cards`, the same layout as Contact JSON, with a final newline.
    public static func encode(_ cards: [Card]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(cards)) ?? Data("[]".utf8)
        return escapingHiddenCharacters([UInt8](data)) + [0x0A]
    }
}
