/// Why a photo could not be read or made to fit; `description` is the sentence a user sees.
public struct PhotoError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What kind of failure, for callers that branch on it.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Neither JPEG nor PNG.
        public static let unsupportedFormat = Code(rawValue: "unsupported-format")
        /// The decoder refused the data.
        public static let corrupt = Code(rawValue: "corrupt")
        /// More pixels than the configured limit; refused before decoding.
        public static let tooManyPixels = Code(rawValue: "too-many-pixels")
        /// Even the smallest allowed image is over the byte budget.
        public static let doesNotFit = Code(rawValue: "does-not-fit")
        /// Memory could not be had for the pixels.
        public static let outOfMemory = Code(rawValue: "out-of-memory")
    }

    /// The kind of failure.
    public var code: Code
    /// A complete sentence saying what went wrong and what was expected.
    public var description: String

    /// Creates an error.
    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}

extension PhotoError {
    /// The text of a NUL-terminated C character array (a status message imported as a tuple).
    static func text<T>(ofCString array: T) -> String {
        withUnsafeBytes(of: array) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
