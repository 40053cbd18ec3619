import VCardFormat

/// Reads the input as jCard into contacts; refused input must be a `JCardError`, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    do {
        let cards = try JCard.read(bytes, name: "fuzz.json")
        // Writing back exercises the writer on whatever the reader accepted.
        _ = JCard.encode(cards.map(\.contact))
    } catch {
        _ = error.description
    }
    return 0
}
