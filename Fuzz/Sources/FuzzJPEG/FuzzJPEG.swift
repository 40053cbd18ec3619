import PhotoFuzzing
import PhotoProcessing

/// Inspects the input as a JPEG, decodes it at three DCT scales, shows it upright and fits it into 1,500 bytes at 128 px.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard (try? JPEGCodec.inspect(bytes)) != nil else { return 0 }
    for scale in [1, 2, 8] { _ = try? JPEGCodec.decode(bytes, scale: scale, maxPixels: fuzzMaxPixels) }
    showAndFit(bytes)
    return 0
}
