/// How many bytes of text a QR code holds, as libqrencode counts them: asked of the encoder, never taken from a
/// table, so the answer is the one the symbol will be made with.
public struct QRCapacity: Hashable, Sendable {
    /// The largest version allowed.
    public let maxVersion: Int
    /// The error correction level.
    public let level: ErrorCorrection
    /// Bytes of pure ASCII text that fit (one byte-mode segment, no ECI designator).
    public let asciiBytes: Int
    /// Bytes of text holding anything outside ASCII that fit (after the ECI designator for UTF-8).
    public let utf8Bytes: Int

    /// The capacity of versions up to `maxVersion` (1...40) at `level`.
    public init(maxVersion: Int, level: ErrorCorrection) {
        self.maxVersion = min(max(maxVersion, 1), 40)
        self.level = level
        asciiBytes = Self.largest(eci: 0, maxVersion: self.maxVersion, level: level)
        utf8Bytes = Self.largest(eci: QRCode.utf8ECI, maxVersion: self.maxVersion, level: level)
    }

    /// Whether `text` (UTF-8 bytes) fits.
    public func holds(_ text: [UInt8]) -> Bool {
        text.count <= bytes(for: text)
    }

    /// The capacity that applies to `text`: ASCII or UTF-8.
    public func bytes(for text: [UInt8]) -> Int {
        text.contains { $0 >= 0x80 } ? utf8Bytes : asciiBytes
    }

    /// Binary search over lengths: with one byte segment, n bytes fit whenever n + 1 do. About a dozen encodes.
    private static func largest(eci: UInt32, maxVersion: Int, level: ErrorCorrection) -> Int {
        func fits(_ count: Int) -> Bool {
            guard let code = try? QRCode(bytes: [UInt8](repeating: 0x61, count: count), eci: eci, level: level)
            else { return false }
            return code.version <= maxVersion
        }
        // Version 40 at level L holds 2,953 bytes: 4,096 is past any version's capacity.
        var low = 0
        var high = 4096
        while low < high {
            let middle = (low + high + 1) / 2
            if fits(middle) { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
