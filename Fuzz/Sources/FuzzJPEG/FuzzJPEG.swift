import PhotoProcessing

/// Headers refused above this many pixels (4 MP), so that a huge claimed size is refused before decoding.
let maxPixels = 4_000_000

/// Inspects the input as a JPEG, decodes it at three DCT scales, shows it upright and fits it into 1,500 bytes at 128 px.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard (try? JPEGCodec.inspect(bytes)) != nil else { return 0 }
    for scale in [1, 2, 8] { _ = try? JPEGCodec.decode(bytes, scale: scale, maxPixels: maxPixels) }
    _ = try? ImageDecoder.upright(bytes, maxEdge: 64, maxPixels: maxPixels)
    var options = PhotoFitter.Options()
    options.maxPixels = maxPixels
    // Small enough that a JPEG is decoded with a reduced DCT, as for a thumbnail-sized record limit.
    options.maxEdge = 128
    _ = try? PhotoFitter(options: options).fit(bytes, maxBytes: 1_500)
    return 0
}
