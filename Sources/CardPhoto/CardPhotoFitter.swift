import ContactModel
import PhotoProcessing
import VCardFormat

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Fits a card's photo so the whole serialized card meets a `RecordLimit`: the exact byte budget for the image
/// comes from the writer's own arithmetic, the image from `PhotoFitter`, and the finished card is measured
/// once more before it is returned.
public struct CardPhotoFitter: Sendable {
    /// What was done to one card.
    public struct Outcome: Sendable, CustomStringConvertible {
        /// The card with its fitted photo.
        public var contact: Contact
        /// The photo fit, nil when the card has no embedded photo.
        public var photo: PhotoFitter.Result?
        /// The serialized card's size in octets.
        public var recordBytes: Int
        /// The limit that was met.
        public var limit: RecordLimit
        /// Why the card's own photo was left as it was, when it could not be read as JPEG or PNG but the card
        /// met the limit anyway.
        public var photoLeftAlone: String?

        /// One line for stderr, such as
        /// `photo 4032x3024 -> 1024x768 q86 4:4:4, 182,311 bytes; record 249,870 of 256,000 bytes`.
        public var description: String {
            var parts: [String] = []
            parts.append(photo?.summary ?? photoLeftAlone.map { "photo left as it was: \($0)" } ?? "no embedded photo")
            if let record = limit.recordBytes {
                parts.append("record \(ByteCount(recordBytes)) of \(ByteCount(record)) bytes")
            } else {
                parts.append("record \(ByteCount(recordBytes)) bytes")
            }
            return parts.joined(separator: "; ")
        }
    }

    /// The writer whose output is measured.
    public var writer: VCardWriter
    /// The image fitter.
    public var fitter: PhotoFitter

    /// Creates a fitter for `writer`'s version with the given photo options, reading and writing images through
    /// `codec`.
    public init(
        writer: VCardWriter = VCardWriter(), options: PhotoFitter.Options = PhotoFitter.Options(),
        codec: any ImageCodec = SystemImageCodec()
    ) {
        self.writer = writer
        self.fitter = PhotoFitter(options: options, codec: codec)
    }

    /// The card with `photo` (or, when nil, its own embedded photo) recompressed so the card meets `limit`.
    /// - Throws: `CardPhotoError` when the card cannot meet the limit, `PhotoError` when the image is unreadable.
    public func fit(_ contact: Contact, photo: [UInt8]? = nil, limit: RecordLimit) throws -> Outcome {
        var card = contact
        let image: [UInt8]
        if let photo {
            image = photo
        } else if let data = contact.photo?.data {
            image = [UInt8](data)
        } else {
            return try measured(card, photo: nil, limit: limit)
        }
        // The photo's own parameters ride along, except a crop rectangle that named pixels of the old image.
        let parameters = (photo == nil ? contact.photo?.parameters ?? [] : [])
            .filter { $0.name.uppercased() != "X-ABCROP-RECTANGLE" }
        card.photo = nil
        var maxBytes = limit.photoByteBound ?? Int.max
        var rest = 0
        if let record = limit.recordBytes {
            rest = size(of: card)
            guard
                let room = writer.largestEmbeddedPhoto(
                    fitting: record - rest, mediaType: "image/jpeg",
                    parameters: parameters)
            else {
                throw CardPhotoError(rest: rest, limit: limit, reason: "leaving no room for a photo")
            }
            maxBytes = min(maxBytes, room)
        }
        let result: PhotoFitter.Result
        do {
            result = try fitter.fit(image, maxBytes: maxBytes)
        } catch let error as PhotoError where error.code == .doesNotFit {
            throw CardPhotoError(
                rest: rest, limit: limit,
                reason: "leaving \(ByteCount(maxBytes)) bytes for the photo, and \(error.description)")
        } catch let error as PhotoError where photo == nil {
            // A card's own GIF or damaged photo that already fits is no reason to drop the card.
            var outcome = try measured(contact, photo: nil, limit: limit)
            if let bound = limit.photoByteBound, image.count > bound { throw error }
            outcome.photoLeftAlone = error.description
            return outcome
        }
        card.photo = Photo(data: Data(result.bytes), mediaType: "image/jpeg", parameters: parameters)
        return try measured(card, photo: result, limit: limit)
    }

    private func size(of contact: Contact) -> Int {
        var out: [UInt8] = []
        writer.write(contact, into: &out)
        return out.count
    }

    /// Measures the finished card: the guarantee is checked on real output, not only on arithmetic.
    private func measured(_ card: Contact, photo: PhotoFitter.Result?, limit: RecordLimit) throws -> Outcome {
        let bytes = size(of: card)
        if let record = limit.recordBytes, bytes > record {
            var photoBytes = 0
            if let embedded = card.photo, let data = embedded.data {
                photoBytes = writer.embeddedPhotoOctets(
                    byteCount: data.count, mediaType: embedded.mediaType,
                    parameters: embedded.parameters)
            }
            throw CardPhotoError(
                rest: bytes - photoBytes, limit: limit,
                reason: photo == nil ? "and it has no embedded photo to shrink" : "even with its photo fitted")
        }
        return Outcome(contact: card, photo: photo, recordBytes: bytes, limit: limit, photoLeftAlone: nil)
    }
}

/// The card cannot meet the limit: says how many bytes the rest of the card takes and what the limit is.
public struct CardPhotoError: Error, CustomStringConvertible, Sendable {
    /// Octets of the card without its photo.
    public var rest: Int
    /// The limit.
    public var limit: RecordLimit
    /// Why nothing fits.
    public var reason: String

    public var description: String {
        "the card does not fit the limit \(limit): the rest of the card takes \(ByteCount(rest)) bytes, \(reason)"
    }
}

extension PhotoFitter.Result {
    /// What the fit did, for one line on stderr: `photo 4032x3024 -> 1024x768 q86 4:4:4, 182,311 bytes`.
    public var summary: String {
        let from = "\(source.displayWidth)x\(source.displayHeight)"
        if keptOriginal { return "photo \(from) kept as it was, \(ByteCount(bytes.count)) bytes" }
        let q = quality.map { " q\($0)" } ?? ""
        let c = chroma.map { " \($0.rawValue)" } ?? ""
        return "photo \(from) -> \(width)x\(height)\(q)\(c), \(ByteCount(bytes.count)) bytes"
    }
}
