extension PixelImage {
    /// Structural similarity (SSIM) of this image's luma to `other`'s, both the same size: 1 for identical
    /// images, lower as structure is lost. Used to choose between a smaller image and a lower quality.
    /// - Complexity: O(pixels): uniform 7 x 7 windows from running sums, as scikit-image computes it by default.
    package func structuralSimilarity(to other: PixelImage) -> Double {
        precondition(width == other.width && height == other.height, "images must be the same size")
        let radius = 3
        let side = 2 * radius + 1
        guard width >= side && height >= side else { return self.luma() == other.luma() ? 1 : 0 }
        let x = luma()
        let y = other.luma()
        let n = Float(side * side)
        // Box sums of x, y, x², y² and xy over each window, column sums first then rows.
        let fields = 5
        var columnSums = [Float](repeating: 0, count: fields * width)
        let c1: Float = (0.01 * 255) * (0.01 * 255)
        let c2: Float = (0.03 * 255) * (0.03 * 255)
        let covarianceNorm = n / (n - 1)  // sample covariance
        var total = 0.0
        var windows = 0
        func addRow(_ row: Int, _ sign: Float) {
            for i in 0..<width {
                let a = x[row * width + i]
                let b = y[row * width + i]
                columnSums[i] += sign * a
                columnSums[width + i] += sign * b
                columnSums[2 * width + i] += sign * a * a
                columnSums[3 * width + i] += sign * b * b
                columnSums[4 * width + i] += sign * a * b
            }
        }
        for row in 0..<side { addRow(row, 1) }
        for top in 0...(height - side) {
            if top > 0 {
                addRow(top - 1, -1)
                addRow(top + side - 1, 1)
            }
            var s = [Float](repeating: 0, count: fields)
            for i in 0..<side { for f in 0..<fields { s[f] += columnSums[f * width + i] } }
            for left in 0...(width - side) {
                if left > 0 {
                    for f in 0..<fields {
                        s[f] += columnSums[f * width + left + side - 1] - columnSums[f * width + left - 1]
                    }
                }
                let mx = s[0] / n
                let my = s[1] / n
                let vx = (s[2] / n - mx * mx) * covarianceNorm
                let vy = (s[3] / n - my * my) * covarianceNorm
                let cxy = (s[4] / n - mx * my) * covarianceNorm
                let value = ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
                total += Double(value)
                windows += 1
            }
        }
        return total / Double(windows)
    }

    /// Luma (Rec. 601 weights) as floats, one per pixel.
    func luma() -> [Float] {
        if channels == 1 { return pixels.map(Float.init) }
        var out = [Float](repeating: 0, count: width * height)
        for i in 0..<out.count {
            out[i] = 0.299 * Float(pixels[3 * i]) + 0.587 * Float(pixels[3 * i + 1]) + 0.114 * Float(pixels[3 * i + 2])
        }
        return out
    }
}
