#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `downscaled` weighs source pixels.
public enum ResamplingFilter: Sendable {
    /// Each output pixel is the mean of the source area it covers (partial pixels by coverage): soft, no ringing.
    case areaAverage
    /// Lanczos with three lobes, widened by the scale factor: sharper, the filter photo tools shrink with.
    case lanczos3
}

extension PixelImage {
    /// The image shrunk to exactly `width` x `height`. Never enlarges: a target larger than the image in either
    /// direction is a programming error.
    /// - Complexity: O(source pixels x filter taps) per channel, in two separable passes.
    public func downscaled(width targetWidth: Int, height targetHeight: Int,
                           filter: ResamplingFilter = .lanczos3) -> PixelImage
    {
        precondition(targetWidth >= 1 && targetHeight >= 1 && targetWidth <= width && targetHeight <= height,
                     "downscaled(width:height:) only shrinks")
        return resampled(width: targetWidth, height: targetHeight, filter: filter)
    }

    /// The image resampled to `width` x `height` in either direction. Enlarging is only for comparing an image
    /// with a larger one (`structuralSimilarity`), never for output.
    func resampled(width targetWidth: Int, height targetHeight: Int, filter: ResamplingFilter = .lanczos3) -> PixelImage {
        if targetWidth == width && targetHeight == height { return self }
        let c = channels
        let columns = FilterWeights(source: width, target: targetWidth, filter: filter)
        let rows = FilterWeights(source: height, target: targetHeight, filter: filter)
        // Horizontal pass into floats, row by row; then the vertical pass accumulates whole rows, which keeps
        // both passes streaming through memory.
        let rowLength = targetWidth * c
        var horizontal = [Float](repeating: 0, count: rowLength * height)
        pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { target in
                columns.weights.withUnsafeBufferPointer { weights in
                    columns.spans.withUnsafeBufferPointer { spans in
                        for y in 0..<height {
                            let sourceRow = source.baseAddress! + y * width * c
                            let targetRow = target.baseAddress! + y * rowLength
                            for x in 0..<targetWidth {
                                let span = spans[x]
                                let w = weights.baseAddress! + span.offset
                                let p = sourceRow + span.start * c
                                if c == 3 {
                                    var r: Float = 0, g: Float = 0, b: Float = 0
                                    for j in 0..<span.count {
                                        r += Float(p[3 * j]) * w[j]
                                        g += Float(p[3 * j + 1]) * w[j]
                                        b += Float(p[3 * j + 2]) * w[j]
                                    }
                                    targetRow[3 * x] = r
                                    targetRow[3 * x + 1] = g
                                    targetRow[3 * x + 2] = b
                                } else {
                                    var sum: Float = 0
                                    for j in 0..<span.count { sum += Float(p[j]) * w[j] }
                                    targetRow[x] = sum
                                }
                            }
                        }
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: rowLength * targetHeight)
        var accumulator = [Float](repeating: 0, count: rowLength)
        horizontal.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                accumulator.withUnsafeMutableBufferPointer { acc in
                    for y in 0..<targetHeight {
                        let span = rows.spans[y]
                        for i in 0..<rowLength { acc[i] = 0 }
                        for j in 0..<span.count {
                            let weight = rows.weights[span.offset + j]
                            let row = source.baseAddress! + (span.start + j) * rowLength
                            for i in 0..<rowLength { acc[i] += row[i] * weight }
                        }
                        let base = target.baseAddress! + y * rowLength
                        for i in 0..<rowLength { base[i] = UInt8(min(255, max(0, acc[i] + 0.5))) }
                    }
                }
            }
        }
        return PixelImage(width: targetWidth, height: targetHeight, channels: c, pixels: out)
    }
}

/// For each output index, the source indices it draws on and the normalised weight of each.
private struct FilterWeights {
    struct Span {
        var start: Int
        var count: Int
        var offset: Int
    }

    var spans: [Span] = []
    var weights: [Float] = []

    init(source: Int, target: Int, filter: ResamplingFilter) {
        let scale = Double(source) / Double(target)
        spans.reserveCapacity(target)
        for i in 0..<target {
            let offset = weights.count
            var raw: [Double] = []
            let first: Int
            switch filter {
            case .areaAverage:
                let from = Double(i) * scale, to = Double(i + 1) * scale
                first = Int(from)
                let last = min(source - 1, Int((to - 1e-9).rounded(.down)))
                for j in first...max(first, last) {
                    raw.append(max(0, min(to, Double(j + 1)) - max(from, Double(j))))
                }
            case .lanczos3:
                let center = (Double(i) + 0.5) * scale // in source coordinates, pixel centres at j + 0.5
                // Shrinking widens the kernel by the scale so it also low-passes; enlarging uses it as it is.
                let width = max(1, scale)
                let support = 3 * width
                first = max(0, Int((center - support).rounded(.down)))
                let last = min(source - 1, Int((center + support).rounded(.up)))
                for j in first...last { raw.append(Self.lanczos3((Double(j) + 0.5 - center) / width)) }
            }
            // Normalise so a flat area stays exactly flat (edges and rounding would otherwise shift it).
            let total = raw.reduce(0, +)
            for w in raw { weights.append(Float(w / total)) }
            spans.append(Span(start: first, count: weights.count - offset, offset: offset))
        }
    }

    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }
}
