/// Still PNGs of a canvas, always 8-bit RGBA (colour type 6), filtered "Up" and deflated at
/// zlib level 3.
///
/// Written here rather than with Cairo's `cairo_surface_write_to_png`: libpng through Cairo
/// picks RGB or RGBA by the image's content, and every frame of an animated PNG must share
/// the first frame's header; the fixed filter and level also make a 1280 × 720 frame several
/// times faster to encode than libpng's adaptive filters. No time or text chunks: the same
/// pixels always give the same bytes.
public enum PNGEncoder {
    /// Encodes premultiplied ARGB pixels in Cairo's layout (native-endian 32-bit words: B, G,
    /// R, A bytes on little-endian machines), `stride` bytes a row.
    static func encode(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> [UInt8] {
        let rowBytes = width * 4
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var current = [UInt8](repeating: 0, count: rowBytes)
        raw.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = pixels + y * stride
                for x in 0..<width {
                    let word =
                        UInt32(row[x * 4]) | UInt32(row[x * 4 + 1]) << 8 | UInt32(row[x * 4 + 2]) << 16
                        | UInt32(row[x * 4 + 3]) << 24
                    let a = word >> 24
                    var r: UInt32 = 0
                    var g: UInt32 = 0
                    var b: UInt32 = 0
                    if a == 255 {
                        r = (word >> 16) & 0xFF
                        g = (word >> 8) & 0xFF
                        b = word & 0xFF
                    } else if a > 0 {
                        r = (((word >> 16) & 0xFF) * 255 + a / 2) / a
                        g = (((word >> 8) & 0xFF) * 255 + a / 2) / a
                        b = ((word & 0xFF) * 255 + a / 2) / a
                    }
                    current[x * 4] = UInt8(min(r, 255))
                    current[x * 4 + 1] = UInt8(min(g, 255))
                    current[x * 4 + 2] = UInt8(min(b, 255))
                    current[x * 4 + 3] = UInt8(a)
                }
                let base = y * (rowBytes + 1)
                out[base] = 2  // filter: Up
                for i in 0..<rowBytes { out[base + 1 + i] = current[i] &- previous[i] }
                swap(&previous, &current)
            }
        }
        var png = PNGChunks.signature
        var header: [UInt8] = []
        PNGChunks.append32(UInt32(width), to: &header)
        PNGChunks.append32(UInt32(height), to: &header)
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        PNGChunks.write("IHDR", header, to: &png)
        PNGChunks.write("IDAT", Zlib.deflate(raw, level: 3), to: &png)
        PNGChunks.write("IEND", [], to: &png)
        return png
    }
}
