import CardPhoto
import PhotoProcessing

/// The photo options shared by `convert` and `photo fit`: `--max-bytes N|PRESET` and `--max-edge PX`.
struct PhotoArguments {
    static let options: Set<OptionName> = [.maxBytes, .maxEdge]

    var limit: RecordLimit?
    var fitOptions = PhotoFitter.Options()

    init(_ parsed: Arguments) throws {
        if let text = parsed.option(.maxBytes) {
            guard let limit = RecordLimit(parsing: text) else {
                let presets = RecordLimit.presets.compactMap(\.name).joined(separator: ", ")
                throw UsageError("--max-bytes takes a byte count or one of \(presets), not \(text)")
            }
            self.limit = limit
        }
        if let text = parsed.option(.maxEdge) {
            guard let edge = Int(text), edge >= fitOptions.minEdge else {
                throw UsageError("--max-edge takes a pixel count of at least \(fitOptions.minEdge), not \(text)")
            }
            fitOptions.maxEdge = edge
        }
    }
}
