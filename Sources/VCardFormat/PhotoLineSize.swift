import ContactModel
import VCardSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension VCardWriter {
    /// The exact octets `write` spends on a PHOTO line embedding `byteCount` image bytes: name, parameters,
    /// base64 (or the 4.0 `data:` URI), folding spaces and every CRLF.
    /// - Complexity: O(1) for the usual ASCII parameters; otherwise the line is written once to count it.
    public func embeddedPhotoOctets(byteCount: Int, mediaType: String?, parameters: [ExtraParameter] = []) -> Int {
        let extras = parameters.map { Parameter(name: $0.name, values: $0.values) }
        let empty = BinaryValue.embedded(Data(), mediaType).contentLine(
            name: "PHOTO", version: version,
            extraParameters: extras)
        let prefix = Array(ContentLineWriter.unfolded(empty).utf8)
        guard prefix.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\\") }) else {
            // Folding may move a cut before a UTF-8 sequence or an escape: count what the writer really does.
            let line = BinaryValue.embedded(Data(count: byteCount), mediaType).contentLine(
                name: "PHOTO", version: version, extraParameters: extras)
            var out: [UInt8] = []
            ContentLineWriter.write(line, into: &out)
            return out.count
        }
        let logical = prefix.count + 4 * ((byteCount + 2) / 3)
        let first = ContentLineWriter.maxLineOctets
        let continuation = first - 1  // after the leading space
        let continuations = logical > first ? (logical - first + continuation - 1) / continuation : 0
        return logical + continuations * 3 + 2  // each continuation adds CRLF + space; the last line its CRLF
    }

    /// The largest number of image bytes whose PHOTO line takes at most `octets`; nil when not even an empty
    /// photo fits.
    public func largestEmbeddedPhoto(fitting octets: Int, mediaType: String?, parameters: [ExtraParameter] = [])
        -> Int?
    {
        guard embeddedPhotoOctets(byteCount: 0, mediaType: mediaType, parameters: parameters) <= octets else {
            return nil
        }
        // The size only grows with the byte count, so a binary search finds the exact answer.
        var low = 0
        var high = max(0, octets)
        while low < high {
            let middle = low + (high - low + 1) / 2
            if embeddedPhotoOctets(byteCount: middle, mediaType: mediaType, parameters: parameters) <= octets {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return low
    }
}
