import ContactCSV

/// Reads the input as a Google or Outlook CSV export, then writes the contacts found as Google CSV.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let result = ContactCSV.read(bytes)
    for problem in result.problems { _ = problem.description }
    _ = ContactCSV.write(result.contacts)
    return 0
}
