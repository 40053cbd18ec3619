import ContactModel
import Foundation

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

    /// Pretty, key-sorted JSON of `cards`, the same layout as Contact JSON, with a final newline.
    public static func encode(_ cards: [Card]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(cards)) ?? Data("[]".utf8)
        return [UInt8](data) + [0x0A]
    }
}
