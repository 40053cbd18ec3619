import VCardFormat
import VCardSyntax

/// Reads the input as a vCard file into contacts and diagnostics, and touches what a caller would use.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let (cards, diagnostics) = VCardDocument.read(bytes, name: "fuzz.vcf")
    var total = diagnostics.count
    for card in cards {
        total &+= card.contact.hashValue & 1
        total &+= card.raw.lines.count + card.diagnostics.count
    }
    for diagnostic in diagnostics { total &+= diagnostic.description.utf8.count }
    return total == -1 ? 1 : 0
}
