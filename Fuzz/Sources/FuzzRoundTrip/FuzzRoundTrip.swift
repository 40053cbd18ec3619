import VCardFormat

/// Differential: read the input, write vCard 3.0, read that, write again. The second write must give the same
/// bytes as the first, and both reads the same number of cards; anything else stops with `fatalError` so that
/// libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let writer = VCardWriter(version: .v3_0)
    let first = VCardDocument.read(bytes).cards
    let once = writer.bytes(first.map(\.contact))
    let second = VCardDocument.read(once).cards
    if second.count != first.count {
        fatalError("round trip: \(first.count) cards read, \(second.count) read back from what was written")
    }
    let twice = writer.bytes(second.map(\.contact))
    if twice != once { fatalError("round trip: writing the cards read back gave other bytes than the first write") }
    return 0
}
