import ChoreoLibraries

/// Frames drawn by Cairo → a WebM of VP9, a frame at a time: each picture converted to the
/// encoder's YUV 4:2:0 (BT.601, limited range, as a WebM without colour metadata is read), its
/// alpha, on a transparent canvas, encoded as a second VP9 stream beside it.
package final class WebMStream {
    /// libvpx, loaded with the first WebM.
    package static var library: Result<Void, LibraryUnavailable> { VP9Encoder.library.map { _ in () } }

    let width: Int
    let height: Int
    private let color: VP9Encoder
    private let alpha: VP9Encoder?
    private var writer: WebMWriter

    /// `quality` 0…100 (nil: 75, a constant quality level of 16 of VP9's 63).
    init?(width: Int, height: Int, transparent: Bool, quality: Int?, duration: Double) {
        let level = Int((63 - Double(quality ?? 75) * 0.63).rounded())
        guard let color = VP9Encoder(width: width, height: height, cqLevel: level) else { return nil }
        self.color = color
        if transparent {
            guard let alpha = VP9Encoder(width: width, height: height, cqLevel: level) else { return nil }
            self.alpha = alpha
        } else {
            alpha = nil
        }
        self.width = width
        self.height = height
        writer = WebMWriter(width: width, height: height, alpha: transparent, duration: duration * 1000)
    }

    /// The bytes of a frame (Cairo's premultiplied ARGB words) shown from `milliseconds` for
    /// `duration` ms; the file's header comes with the first.
    func add(_ words: [UInt32], at milliseconds: Int, duration: Int) -> [UInt8]? {
        let w = width
        let h = height
        let chromaWidth = (w + 1) / 2
        let chromaHeight = (h + 1) / 2
        let straight = alpha != nil
        color.withPlanes { planes in
            let u = w * h
            let v = u + chromaWidth * chromaHeight
            for cy in 0..<chromaHeight {
                for cx in 0..<chromaWidth {
                    var sumU = 0.0
                    var sumV = 0.0
                    var count = 0.0
                    for y in (2 * cy)..<min(h, 2 * cy + 2) {
                        for x in (2 * cx)..<min(w, 2 * cx + 2) {
                            let word = words[y * w + x]
                            let a = Double(word >> 24)
                            // Straight colour where the alpha travels apart; over black where
                            // the canvas is opaque (the same there).
                            let k = straight && a > 0 ? 255 / a : 1
                            let r = min(255, Double((word >> 16) & 0xFF) * k)
                            let g = min(255, Double((word >> 8) & 0xFF) * k)
                            let b = min(255, Double(word & 0xFF) * k)
                            let luma = 16 + 0.256_788 * r + 0.504_129 * g + 0.097_906 * b
                            planes[y * w + x] = UInt8(max(0, min(255, luma.rounded())))
                            sumU += 128 - 0.148_223 * r - 0.290_993 * g + 0.439_216 * b
                            sumV += 128 + 0.439_216 * r - 0.367_788 * g - 0.071_427 * b
                            count += 1
                        }
                    }
                    planes[u + cy * chromaWidth + cx] = UInt8(max(0, min(255, (sumU / count).rounded())))
                    planes[v + cy * chromaWidth + cx] = UInt8(max(0, min(255, (sumV / count).rounded())))
                }
            }
        }
        guard let frame = color.encode(at: milliseconds, duration: duration) else { return nil }
        var alphaFrame: [UInt8]?
        if let alpha {
            alpha.withPlanes { planes in
                for index in 0..<(w * h) { planes[index] = UInt8(words[index] >> 24) }
            }
            guard let encoded = alpha.encode(at: milliseconds, duration: duration) else { return nil }
            alphaFrame = encoded.data
        }
        return writer.frame(frame.data, alpha: alphaFrame, key: frame.key, at: milliseconds)
    }
}
