/// A size limit a store or server puts on a serialized card and its photo.
public struct RecordLimit: Equatable, Sendable, CustomStringConvertible {
    /// The preset's name, nil for a plain byte count.
    public var name: String?
    /// The whole serialized card (vCard octets), when limited.
    public var recordBytes: Int?
    /// The photo's image bytes, when limited separately.
    public var photoBytes: Int?
    /// The photo's base64 text, when that is what the server counts.
    public var photoBase64Bytes: Int?

    /// Creates a limit; at least one bound should be given.
    public init(name: String? = nil, recordBytes: Int? = nil, photoBytes: Int? = nil, photoBase64Bytes: Int? = nil) {
        self.name = name
        self.recordBytes = recordBytes
        self.photoBytes = photoBytes
        self.photoBase64Bytes = photoBase64Bytes
    }

    /// A CloudKit record holds at most 1 MB.
    public static let cloudKit = RecordLimit(name: "cloudkit", recordBytes: 1_000_000)
    /// An iCloud contact card: 256 KB, its photo at most 224 KB (decimal kilobytes, to be safe).
    public static let iCloud = RecordLimit(name: "icloud", recordBytes: 256_000, photoBytes: 224_000)
    /// Exchange ActiveSync: a contact picture of at most 48,000 bytes of base64.
    public static let exchange = RecordLimit(name: "exchange", photoBase64Bytes: 48_000)
    /// Nextcloud's CardDAV default maximum card size, 5 MiB.
    public static let nextcloud = RecordLimit(name: "nextcloud", recordBytes: 5_242_880)
    /// Baïkal (sabre/dav) as commonly configured: 1,000,000 bytes.
    public static let baikal = RecordLimit(name: "baikal", recordBytes: 1_000_000)

    /// Every preset, by name.
    public static let presets: [RecordLimit] = [.cloudKit, .iCloud, .exchange, .nextcloud, .baikal]

    /// A preset name (`cloudkit`, `icloud`, `exchange`, `nextcloud`, `baikal`) or a record size in bytes
    /// (`256000`, `256_000` or `256,000`); nil for anything else.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if let preset = Self.presets.first(where: { $0.name == lowered }) {
            self = preset
            return
        }
        let digits = text.filter { $0 != "_" && $0 != "," }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let bytes = Int(digits), bytes > 0 else { return nil }
        self.init(recordBytes: bytes)
    }

    /// The largest image byte count the photo bounds allow, before the record is considered.
    public var photoByteBound: Int? {
        let base64 = photoBase64Bytes.map { $0 / 4 * 3 }  // whole base64 quanta, padding included
        switch (photoBytes, base64) {
        case (let a?, let b?): return min(a, b)
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (nil, nil): return nil
        }
    }

    public var description: String {
        var parts: [String] = []
        if let recordBytes { parts.append("record \(ByteCount(recordBytes)) bytes") }
        if let photoBytes { parts.append("photo \(ByteCount(photoBytes)) bytes") }
        if let photoBase64Bytes { parts.append("photo base64 \(ByteCount(photoBase64Bytes)) bytes") }
        let bounds = parts.joined(separator: ", ")
        return name.map { "\($0) (\(bounds))" } ?? bounds
    }
}

/// A byte count written with thousands separators, as people read sizes: 1,000,000.
package struct ByteCount: CustomStringConvertible, Sendable {
    /// The count.
    public var value: Int

    /// Wraps a count.
    public init(_ value: Int) { self.value = value }

    public var description: String {
        let digits = Array(String(abs(value)))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return value < 0 ? "-" + out : out
    }
}
