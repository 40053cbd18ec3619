import Dispatch
import Utilities

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `downscaled` weighs source pixels.
package enum ResamplingFilter: Sendable {
    /// Each output pixel is the mean of the source area it covers (partial pixels by coverage): soft, no ringing.
    case areaAverage
    /// Lanczos with three lobes, widened by the scale factor: sharper, the filter photo tools shrink with.
    case lanczos3
}

extension PixelImage {
    /// The image shrunk to exactly `width` x `height`. Never enlarges: a target larger than the image in either
    /// direction is a programming error.
    /// - Complexity: O(source pixels x filter taps) per channel, in two separable passes.
    package func downscaled(
        width targetWidth: Int, height targetHeight: Int,
        filter: ResamplingFilter = .lanczos3
    ) -> PixelImage {
        precondition(
            targetWidth >= 1 && targetHeight >= 1 && targetWidth <= width && targetHeight <= height,
            "downscaled(width:height:) only shrinks")
        return resampled(width: targetWidth, height: targetHeight, filter: filter)
    }

    /// The image resampled to `width` x `height` in either direction. Enlarging is only for comparing an image
    /// with a larger one (`structuralSimilarity`), never for output.
    func resampled(width targetWidth: Int, height targetHeight: Int, filter: ResamplingFilter = .lanczos3) -> PixelImage
    {
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
                        let pass = HorizontalPass(
                            source: source.baseAddress!, target: target.baseAddress!,
                            weights: weights.baseAddress!, spans: spans.baseAddress!,
                            sourceWidth: width, targetWidth: targetWidth, channels: c)
                        // The horizontal pass reads every source pixel (most of the time for a 12 MP photo);
                        // rows are independent, so large images share them between the cores.
                        let chunks = width * height >= 1 << 20 ? max(1, min(8, System.coreCount)) : 1
                        if chunks == 1 {
                            pass.run(rows: 0..<height)
                        } else {
                            Concurrently.forEach(chunks) { chunk in
                                pass.run(rows: (height * chunk / chunks)..<(height * (chunk + 1) / chunks))
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

/// One row range of the horizontal pass. Each range writes only its own rows, so ranges run at the same time;
/// the pointers stay valid for the whole `resampled` call that made them.
private struct HorizontalPass: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let target: UnsafeMutablePointer<Float>
    let weights: UnsafePointer<Float>
    let spans: UnsafePointer<FilterWeights.Span>
    let sourceWidth: Int
    let targetWidth: Int
    let channels: Int

    func run(rows: Range<Int>) {
        let c = channels
        let rowLength = targetWidth * c
        // Each source pixel feeds several outputs: convert a row to floats once, with one float of padding so
        // an RGB pixel loads as one 4-lane vector (the fourth lane, the next pixel's red, is ignored).
        let row = UnsafeMutablePointer<Float>.allocate(capacity: sourceWidth * c + 4)
        defer { row.deallocate() }
        row.initialize(repeating: 0, count: sourceWidth * c + 4)
        for y in rows {
            let sourceRow = source + y * sourceWidth * c
            for i in 0..<sourceWidth * c { row[i] = Float(sourceRow[i]) }
            let targetRow = target + y * rowLength
            for x in 0..<targetWidth {
                let span = spans[x]
                let w = weights + span.offset
                if c == 3 {
                    let p = UnsafeRawPointer(row + span.start * 3)
                    var sum = SIMD4<Float>()
                    for j in 0..<span.count {
                        sum += p.loadUnaligned(fromByteOffset: 12 * j, as: SIMD4<Float>.self) * w[j]
                    }
                    targetRow[3 * x] = sum[0]
                    targetRow[3 * x + 1] = sum[1]
                    targetRow[3 * x + 2] = sum[2]
                } else {
                    let p = row + span.start * c
                    var sum: Float = 0
                    for j in 0..<span.count { sum += p[j] * w[j] }
                    targetRow[x] = sum
                }
            }
        }
    }
}

/// The machine's cores, for splitting large images.
private enum System {
    static let coreCount: Int = {
        #if canImport(Glibc)
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
        Int(sysconf(_SC_NPROCESSORS_ONLN))
        #endif
    }()
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
                let from = Double(i) * scale
                let to = Double(i + 1) * scale
                first = Int(from)
                let last = min(source - 1, Int((to - 1e-9).rounded(.down)))
                for j in first...max(first, last) {
                    raw.append(max(0, min(to, Double(j + 1)) - max(from, Double(j))))
                }
            case .lanczos3:
                let center = (Double(i) + 0.5) * scale  // in source coordinates, pixel centres at j + 0.5
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
