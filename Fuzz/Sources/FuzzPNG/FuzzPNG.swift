import PhotoFuzzing
import PhotoProcessing

/// Inspects the input as a PNG, decodes it, shows it upright and fits it into 1,500 bytes at 128 px.
///
/// libpng refuses a chunk whose CRC is wrong, which would stop nearly every mutation at the first chunk, so
/// the chunks' CRCs are recomputed first (the raw input is still inspected as it came).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    _ = try? PNGCodec.inspect(bytes)
    fixChunkCRCs(&bytes)
    guard (try? PNGCodec.inspect(bytes)) != nil else { return 0 }
    _ = try? PNGCodec.decode(bytes, maxPixels: fuzzMaxPixels)
    showAndFit(bytes)
    return 0
}

/// Rewrites the CRC of every whole chunk after the 8-byte signature.
func fixChunkCRCs(_ bytes: inout [UInt8]) {
    var index = 8
    while index + 12 <= bytes.count {
        let length = Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8
            | Int(bytes[index + 3])
        let end = index + 8 + length
        guard end + 4 <= bytes.count else { return }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes[(index + 4)..<end] {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        crc ^= 0xFFFF_FFFF
        for shift in 0..<4 { bytes[end + shift] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * shift)) }
        index = end + 4
    }
}

/// The CRC-32 table of PNG (ISO 3309, polynomial 0xEDB88320).
let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
}
