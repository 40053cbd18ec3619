/// Decoded 8-bit pixels, interleaved: one channel (gray) or three (RGB), rows top to bottom with no padding.
public struct PixelImage: Equatable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// 1 for gray, 3 for RGB.
    public var channels: Int
    /// width * height * channels samples.
    public var pixels: [UInt8]

    /// Creates an image; `pixels` must hold width * height * channels samples.
    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(channels == 1 || channels == 3, "channels must be 1 or 3")
        precondition(pixels.count == width * height * channels, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// The samples of the pixel at (x, y), x from the left and y from the top.
    public func pixel(x: Int, y: Int) -> ArraySlice<UInt8> {
        let start = (y * width + x) * channels
        return pixels[start..<(start + channels)]
    }

    /// The image turned upright as a viewer honouring `orientation` would show it.
    public func oriented(_ orientation: ExifOrientation) -> PixelImage {
        if orientation == .up { return self }
        let swapsAxes = orientation.swapsAxes
        let outWidth = swapsAxes ? height : width
        let outHeight = swapsAxes ? width : height
        let c = channels
        var out = [UInt8](repeating: 0, count: pixels.count)
        let w = width
        let h = height
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                var o = 0
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // Where the displayed pixel (x, y) sits in the stored image (EXIF 2.32, tag 0x0112).
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        let s = (sy * w + sx) * c
                        for k in 0..<c { target[o + k] = source[s + k] }
                        o += c
                    }
                }
            }
        }
        return PixelImage(width: outWidth, height: outHeight, channels: c, pixels: out)
    }
}

/// The EXIF orientation tag (0x0112): how the stored pixels must be turned to be shown upright.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: upside down.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored across the main diagonal.
    case leftMirrored = 5
    /// 6: shown after turning 90 degrees clockwise (the usual portrait phone photo).
    case right = 6
    /// 7: mirrored across the other diagonal.
    case rightMirrored = 7
    /// 8: shown after turning 90 degrees counter-clockwise.
    case left = 8

    /// Whether showing the image swaps its width and height.
    public var swapsAxes: Bool { rawValue >= 5 }
}
