extension PixelImage {
    /// The image shrunk to exactly `width` x `height` by area averaging: each output pixel is the mean of the
    /// source area it covers, partial pixels weighted by their coverage. Never enlarges: a target larger than
    /// the image in either direction is a programming error.
    /// - Complexity: O(source pixels + target pixels) per channel.
    public func downscaled(width targetWidth: Int, height targetHeight: Int) -> PixelImage {
        precondition(targetWidth >= 1 && targetHeight >= 1 && targetWidth <= width && targetHeight <= height,
                     "downscaled(width:height:) only shrinks")
        if targetWidth == width && targetHeight == height { return self }
        let c = channels
        let columns = AreaWeights(source: width, target: targetWidth)
        let rows = AreaWeights(source: height, target: targetHeight)
        // Horizontal pass into floats, one source row at a time, then the vertical pass accumulates whole rows.
        var horizontal = [Float](repeating: 0, count: targetWidth * height * c)
        pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let sourceRow = y * width * c
                    let targetRow = y * targetWidth * c
                    for x in 0..<targetWidth {
                        let span = columns.spans[x]
                        for k in 0..<c {
                            var sum: Float = 0
                            for j in 0..<span.count {
                                sum += Float(source[sourceRow + (span.start + j) * c + k]) * columns.weights[span.offset + j]
                            }
                            target[targetRow + x * c + k] = sum
                        }
                    }
                }
            }
        }
        let rowLength = targetWidth * c
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
                            let row = (span.start + j) * rowLength
                            for i in 0..<rowLength { acc[i] += source[row + i] * weight }
                        }
                        let base = y * rowLength
                        for i in 0..<rowLength { target[base + i] = UInt8(min(255, max(0, acc[i] + 0.5))) }
                    }
                }
            }
        }
        return PixelImage(width: targetWidth, height: targetHeight, channels: c, pixels: out)
    }
}

/// For each output index, the source indices it covers and the share of each: coverage over the scale factor.
private struct AreaWeights {
    struct Span {
        var start: Int
        var count: Int
        var offset: Int
    }

    var spans: [Span] = []
    var weights: [Float] = []

    init(source: Int, target: Int) {
        let scale = Double(source) / Double(target)
        spans.reserveCapacity(target)
        for i in 0..<target {
            let from = Double(i) * scale
            let to = Double(i + 1) * scale
            let first = Int(from)
            let last = min(source - 1, Int((to - 1e-9).rounded(.down)))
            let offset = weights.count
            var total = 0.0
            for j in first...max(first, last) {
                let coverage = min(to, Double(j + 1)) - max(from, Double(j))
                weights.append(Float(max(0, coverage)))
                total += max(0, coverage)
            }
            // Normalise so rounding in the edges never darkens or brightens a flat area.
            for w in offset..<weights.count { weights[w] = Float(Double(weights[w]) / total) }
            spans.append(Span(start: first, count: weights.count - offset, offset: offset))
        }
    }
}
