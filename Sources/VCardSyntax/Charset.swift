import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// A character set 8-bit text in a vCard may be written in: what a `CHARSET` parameter names, what the
/// detector chooses for text that declares none (`CharsetDetector`), or what `--charset` says.
///
/// Single-byte code pages are decoded from our own tables (`CharsetTables.swift`), so every platform reads them
/// alike and a byte a code page leaves undefined is known; multi-byte ones (Shift_JIS, EUC-JP, GB18030, Big5,
/// EUC-KR, UTF-16) by Foundation.
public struct Charset: Hashable, Sendable, CustomStringConvertible {
    /// The name messages show (`Windows-1251`).
    public let name: String
    let kind: Kind

    enum Kind: Hashable, Sendable {
        case utf8
        case singleByte(SingleByteCharset)
        /// A Foundation string encoding, by its raw value.
        case foundation(UInt)
    }

    public var description: String { name }

    init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// UTF-8. As the charset of text that is not valid UTF-8, each damaged sequence becomes U+FFFD.
    public static let utf8 = Charset("UTF-8", .utf8)
    public static let windows1250 = Charset("Windows-1250", .singleByte(.windows1250))
    public static let windows1251 = Charset("Windows-1251", .singleByte(.windows1251))
    public static let windows1252 = Charset("Windows-1252", .singleByte(.windows1252))
    public static let windows1253 = Charset("Windows-1253", .singleByte(.windows1253))
    public static let windows1254 = Charset("Windows-1254", .singleByte(.windows1254))
    public static let windows1255 = Charset("Windows-1255", .singleByte(.windows1255))
    public static let windows1256 = Charset("Windows-1256", .singleByte(.windows1256))
    public static let windows1257 = Charset("Windows-1257", .singleByte(.windows1257))
    public static let latin1 = Charset("ISO-8859-1", .singleByte(.latin1))
    public static let latin2 = Charset("ISO-8859-2", .singleByte(.latin2))
    public static let latin4 = Charset("ISO-8859-4", .singleByte(.latin4))
    public static let isoCyrillic = Charset("ISO-8859-5", .singleByte(.isoCyrillic))
    public static let isoGreek = Charset("ISO-8859-7", .singleByte(.isoGreek))
    public static let isoHebrew = Charset("ISO-8859-8", .singleByte(.isoHebrew))
    public static let latin5 = Charset("ISO-8859-9", .singleByte(.latin5))
    public static let latin7 = Charset("ISO-8859-13", .singleByte(.latin7))
    public static let latin9 = Charset("ISO-8859-15", .singleByte(.latin9))
    public static let latin10 = Charset("ISO-8859-16", .singleByte(.latin10))
    public static let koi8R = Charset("KOI8-R", .singleByte(.koi8R))
    public static let koi8U = Charset("KOI8-U", .singleByte(.koi8U))
    public static let macRoman = Charset("Macintosh", .singleByte(.macRoman))
    public static let macCyrillic = Charset("x-mac-cyrillic", .singleByte(.macCyrillic))
    public static let shiftJIS = Charset("Shift_JIS", .foundation(String.Encoding.shiftJIS.rawValue))
    public static let eucJP = Charset("EUC-JP", .foundation(String.Encoding.japaneseEUC.rawValue))
    public static let iso2022JP = Charset("ISO-2022-JP", .foundation(String.Encoding.iso2022JP.rawValue))
    // CoreFoundation's encodings that Foundation names only by number: NSStringEncoding is 0x80000000 | the
    // CFStringEncoding (kCFStringEncodingGB_18030_2000, kCFStringEncodingBig5, kCFStringEncodingEUC_KR).
    public static let gb18030 = Charset("GB18030", .foundation(0x8000_0632))
    public static let big5 = Charset("Big5", .foundation(0x8000_0A03))
    public static let eucKR = Charset("EUC-KR", .foundation(0x8000_0940))
    public static let utf16 = Charset("UTF-16", .foundation(String.Encoding.utf16.rawValue))
    public static let utf16BE = Charset("UTF-16BE", .foundation(String.Encoding.utf16BigEndian.rawValue))
    public static let utf16LE = Charset("UTF-16LE", .foundation(String.Encoding.utf16LittleEndian.rawValue))

    /// Every charset by the names and aliases writers use, normalised (upper case, no `-`, `_` or space).
    private static let byName: [String: Charset] = {
        var names: [String: Charset] = [:]
        func add(_ charset: Charset, _ aliases: String...) {
            for alias in aliases { names[alias] = charset }
        }
        add(.utf8, "UTF8", "USASCII", "ASCII", "ANSIX3.41968", "US")
        add(.windows1250, "WINDOWS1250", "CP1250", "XCP1250")
        add(.windows1251, "WINDOWS1251", "CP1251", "XCP1251")
        add(.windows1252, "WINDOWS1252", "CP1252", "XCP1252", "XANSI", "ANSI")
        add(.windows1253, "WINDOWS1253", "CP1253")
        add(.windows1254, "WINDOWS1254", "CP1254")
        add(.windows1255, "WINDOWS1255", "CP1255")
        add(.windows1256, "WINDOWS1256", "CP1256")
        add(.windows1257, "WINDOWS1257", "CP1257")
        add(.latin1, "ISO88591", "LATIN1", "L1", "ISOLATIN1", "ISOIR100", "CP819")
        add(.latin2, "ISO88592", "LATIN2", "L2", "ISOLATIN2")
        add(.latin4, "ISO88594", "LATIN4")
        add(.isoCyrillic, "ISO88595", "CYRILLIC", "ISOCYRILLIC")
        add(.isoGreek, "ISO88597", "GREEK", "ELOT928", "ECMA118")
        add(.isoHebrew, "ISO88598", "HEBREW", "ISO88598I", "ISO88598E")
        add(.latin5, "ISO88599", "LATIN5")
        add(.latin7, "ISO885913", "LATIN7")
        add(.latin9, "ISO885915", "LATIN9", "LATIN0")
        add(.latin10, "ISO885916", "LATIN10")
        add(.koi8R, "KOI8R", "KOI8", "CSKOI8R")
        add(.koi8U, "KOI8U", "KOI8RU")
        add(.macRoman, "MACINTOSH", "MACROMAN", "MAC", "XMACROMAN", "CSMACINTOSH")
        add(.macCyrillic, "XMACCYRILLIC", "MACCYRILLIC")
        add(.shiftJIS, "SHIFTJIS", "SJIS", "XSJIS", "CP932", "WINDOWS31J", "MSKANJI", "CSSHIFTJIS")
        add(.eucJP, "EUCJP", "XEUCJP")
        add(.iso2022JP, "ISO2022JP", "CSISO2022JP")
        add(.gb18030, "GB18030", "GBK", "GB2312", "CP936", "EUCCN", "XGBK", "CSGB2312")
        add(.big5, "BIG5", "BIG5HKSCS", "CP950", "XXBIG5", "CNBIG5")
        add(.eucKR, "EUCKR", "CP949", "KSC56011987", "KSC5601")
        add(.utf16, "UTF16")
        add(.utf16BE, "UTF16BE")
        add(.utf16LE, "UTF16LE")
        return names
    }()

    /// The charset a name means (`CHARSET=Windows-1251`, `cp1251`, `KOI8-R`...), case and punctuation aside;
    /// nil when we cannot decode it.
    public init?(named name: String) {
        guard let charset = Self.byName[Self.normalized(name)] else { return nil }
        self = charset
    }

    /// The names `init(named:)` knows, one per charset, for a usage message.
    public static var knownNames: [String] {
        [
            utf8, windows1250, windows1251, windows1252, windows1253, windows1254, windows1255, windows1256,
            windows1257, latin1, latin2, latin4, isoCyrillic, isoGreek, isoHebrew, latin5, latin7,
            latin9, latin10, koi8R, koi8U, macRoman, macCyrillic, shiftJIS, eucJP, iso2022JP, gb18030, big5,
            eucKR, utf16, utf16BE, utf16LE,
        ].map(\.name)
    }

    static func normalized(_ name: String) -> String {
        var out = ""
        for scalar in name.trimmingASCIIWhitespace().unicodeScalars
        where scalar != "-" && scalar != "_" && scalar != " " && scalar != "\"" {
            out.unicodeScalars.append(scalar)
        }
        return out.uppercased()
    }

    /// Whether this is UTF-8 (or its ASCII subset), which needs no decision.
    public var isUTF8: Bool { kind == .utf8 }

    /// The text, or nil when a byte is not valid in this charset (a position a code page leaves undefined, a
    /// broken multi-byte sequence).
    func decodeStrictly(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch kind {
        case .utf8: return TextDecoding.utf8String(bytes)
        case .singleByte(let table): return table.decode(bytes, strict: true)
        case .foundation(let raw):
            guard !bytes.isEmpty else { return "" }
            return String(data: Data(buffer: bytes), encoding: String.Encoding(rawValue: raw))
        }
    }

    /// The text, never failing: a byte a code page leaves undefined reads as the character of the same number
    /// (as ISO-8859-1 and the WHATWG decoders read it, so no byte is lost), damaged UTF-8 as U+FFFD, and
    /// multi-byte text that does not decode as Windows-1252.
    func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch kind {
        case .utf8: return String(decoding: bytes, as: UTF8.self)
        case .singleByte(let table): return table.decode(bytes, strict: false)!
        case .foundation: return decodeStrictly(bytes) ?? SingleByteCharset.windows1252.decode(bytes, strict: false)!
        }
    }
}

/// A code page of 256 bytes: ASCII below 0x80 and a table above.
enum SingleByteCharset: Hashable, Sendable, CaseIterable {
    case windows1250, windows1251, windows1252, windows1253, windows1254, windows1255, windows1256, windows1257
    case latin1, latin2, latin4, isoCyrillic, isoGreek, isoHebrew, latin5, latin7, latin9
    case latin10, koi8R, koi8U, macRoman, macCyrillic

    /// The scalars of bytes 0x80...0xFF (0 where undefined); ISO-8859-1 maps every byte to its own number.
    var upperHalf: [UInt16]? {
        switch self {
        case .windows1250: Self.windows1250Table
        case .windows1251: Self.windows1251Table
        case .windows1252: Self.windows1252Table
        case .windows1253: Self.windows1253Table
        case .windows1254: Self.windows1254Table
        case .windows1255: Self.windows1255Table
        case .windows1256: Self.windows1256Table
        case .windows1257: Self.windows1257Table
        case .latin1: nil
        case .latin2: Self.latin2Table
        case .latin4: Self.latin4Table
        case .isoCyrillic: Self.isoCyrillicTable
        case .isoGreek: Self.isoGreekTable
        case .isoHebrew: Self.isoHebrewTable
        case .latin5: Self.latin5Table
        case .latin7: Self.latin7Table
        case .latin9: Self.latin9Table
        case .latin10: Self.latin10Table
        case .koi8R: Self.koi8RTable
        case .koi8U: Self.koi8UTable
        case .macRoman: Self.macRomanTable
        case .macCyrillic: Self.macCyrillicTable
        }
    }

    /// The scalar of one byte, or nil where the code page leaves it undefined.
    @inline(__always)
    func scalar(_ byte: UInt8, table: [UInt16]?) -> Unicode.Scalar? {
        guard byte >= 0x80, let table else { return Unicode.Scalar(byte) }
        let value = table[Int(byte - 0x80)]
        return value == 0 ? nil : Unicode.Scalar(value)
    }

    func decode(_ bytes: UnsafeBufferPointer<UInt8>, strict: Bool) -> String? {
        let table = upperHalf
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            if let scalar = scalar(byte, table: table) {
                scalars.append(scalar)
            } else if strict {
                return nil
            } else {
                scalars.append(Unicode.Scalar(byte))
            }
        }
        return String(scalars)
    }
}
