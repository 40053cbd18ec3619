import CQRencode

/// A QR code symbol: its version, error correction level and module matrix, made by the system libqrencode.
///
/// Text is encoded as one byte-mode segment. When it holds any byte outside ASCII, an ECI designator for UTF-8
/// (ECI 26) goes first: ISO/IEC 18004 reads byte mode as ISO 8859-1 without one, and readers that guess get short
/// UTF-8 text wrong (zbar reads `José` without it as Shift JIS: `Jos矇`). Pure ASCII reads the same in every
/// character set, so it goes without the designator and its cost.
public struct QRCode: Hashable, Sendable {
    /// The version, 1 (21 x 21 modules) to 40 (177 x 177).
    public let version: Int
    /// The error correction level.
    public let level: ErrorCorrection
    /// Modules per side, without a quiet zone.
    public let size: Int
    /// Whether the text went with an ECI designator for UTF-8.
    public let declaresUTF8: Bool
    /// Row by row, 1 for a dark module.
    private let modules: [UInt8]

    /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) is light.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x] != 0
    }

    /// The smallest symbol at `level` holding `text`'s UTF-8 bytes.
    /// - Throws: `QRCodeError` `.tooLarge` when version 40 cannot hold them.
    public init(utf8 text: [UInt8], level: ErrorCorrection) throws(QRCodeError) {
        let utf8 = text.contains { $0 >= 0x80 }
        try self.init(bytes: text, eci: utf8 ? Self.utf8ECI : 0, level: level)
    }

    /// ECI 26: UTF-8 (AIM ECI specification).
    static let utf8ECI: UInt32 = 26

    init(bytes: [UInt8], eci: UInt32, level: ErrorCorrection) throws(QRCodeError) {
        var status = vcf_qr_status()
        var pointer: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var version: Int32 = 0
        let result = bytes.withUnsafeBufferPointer {
            vcf_qr_encode(
                $0.baseAddress, $0.count, eci, level.cLevel, 0, &pointer, &width, &version, &status)
        }
        guard result == VCF_QR_OK, let pointer else {
            throw QRCodeError(code: QRCodeError.Code(cResult: result), message: Self.text(ofCString: status.message))
        }
        defer { vcf_qr_free(pointer) }
        self.version = Int(version)
        self.level = level
        self.size = Int(width)
        self.declaresUTF8 = eci == Self.utf8ECI
        self.modules = [UInt8](UnsafeBufferPointer(start: pointer, count: Int(width) * Int(width)))
    }

    /// The text of a NUL-terminated C character array (a status message imported as a tuple).
    static func text<T>(ofCString array: T) -> String {
        withUnsafeBytes(of: array) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}

/// How much of a QR code can be damaged and still read: the share of codewords spent on error correction.
public enum ErrorCorrection: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// About 7% of codewords restorable.
    case low = "L"
    /// About 15%: the usual choice for codes shown on screens and printed on cards.
    case medium = "M"
    /// About 25%.
    case quartile = "Q"
    /// About 30%.
    case high = "H"

    /// The letter: L, M, Q or H.
    public var description: String { rawValue }

    var cLevel: Int32 {
        switch self {
        case .low: Int32(VCF_QR_LEVEL_L)
        case .medium: Int32(VCF_QR_LEVEL_M)
        case .quartile: Int32(VCF_QR_LEVEL_Q)
        case .high: Int32(VCF_QR_LEVEL_H)
        }
    }
}

/// Why a QR code could not be made.
public struct QRCodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure, for callers that branch on it.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// More data than version 40 holds at the level.
        public static let tooLarge = Code(rawValue: "too-large")
        /// Memory could not be had.
        public static let outOfMemory = Code(rawValue: "out-of-memory")
        /// libqrencode refused the input or an image could not be written.
        public static let failed = Code(rawValue: "failed")

        init(cResult: Int32) {
            switch cResult {
            case Int32(VCF_QR_TOO_LARGE): self = .tooLarge
            case Int32(VCF_QR_NO_MEMORY): self = .outOfMemory
            default: self = .failed
            }
        }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, as a phrase.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
