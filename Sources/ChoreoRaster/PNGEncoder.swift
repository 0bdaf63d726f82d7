import CZlib

/// Still PNGs of a canvas, always 8-bit RGBA (colour type 6), filtered "Up" and deflated by
/// zlib at its fastest level with run-length matching (the filtered rows of flat layers are
/// mostly runs of zeros), in four parts at once.
///
/// Written here rather than with Cairo's `cairo_surface_write_to_png`: libpng through Cairo
/// picks RGB or RGBA by the image's content, and every frame of an animated PNG must share
/// the first frame's header; the fixed filter and level also make a 1280 × 720 frame several
/// times faster to encode than libpng's adaptive filters. No time or text chunks: the same
/// pixels always give the same bytes.
public enum PNGEncoder {
    /// Parts of the image data deflated apart (in parallel): fixed, so the bytes are the same
    /// on any number of cores.
    static let parts = 4

    /// Encodes premultiplied ARGB pixels in Cairo's layout (native-endian 32-bit words: B, G,
    /// R, A bytes on little-endian machines), `stride` bytes a row.
    ///
    /// `compact`: the small rectangles of an animated PNG's later frames, where bytes matter
    /// more than time: rows unfiltered (None), deflated at zlib's best level. Measured on the
    /// status card's 600 frames: 359,676 bytes, where libpng's heuristic (each row the filter
    /// whose output has the smallest sum of absolute values) made 464,625 and "Up" 527,649 —
    /// drawn layers are flat runs and anti-aliased edges, which filters only scatter.
    static func encode(
        _ pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, compact: Bool = false
    ) -> [UInt8] {
        let rowBytes = width * 4
        // Straight RGBA rows, then each row minus the one above ("Up") behind its filter byte.
        var rgba = [UInt8](repeating: 0, count: rowBytes * height)
        rgba.withUnsafeMutableBufferPointer { out in
            let target = out.baseAddress!
            for y in 0..<height {
                let source = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                let row = target + y * rowBytes
                for x in 0..<width {
                    let word = UInt32(littleEndian: source[x])
                    let a = word >> 24
                    let o = row + x * 4
                    if a == 255 {
                        o[0] = UInt8(truncatingIfNeeded: word >> 16)
                        o[1] = UInt8(truncatingIfNeeded: word >> 8)
                        o[2] = UInt8(truncatingIfNeeded: word)
                        o[3] = 255
                    } else if a == 0 {
                        o[0] = 0
                        o[1] = 0
                        o[2] = 0
                        o[3] = 0
                    } else {
                        let half = a / 2
                        o[0] = UInt8(min(255, (((word >> 16) & 0xFF) * 255 + half) / a))
                        o[1] = UInt8(min(255, (((word >> 8) & 0xFF) * 255 + half) / a))
                        o[2] = UInt8(min(255, ((word & 0xFF) * 255 + half) / a))
                        o[3] = UInt8(a)
                    }
                }
            }
        }
        // Filtered rows in parts of about equal size, deflated in parallel.
        // A small image is one part: four streams would cost more than they save.
        let partCount = width * height < 65_536 ? 1 : min(Self.parts, height)
        var parts: [[UInt8]] = []
        rgba.withUnsafeBufferPointer { rows in
            let source = rows.baseAddress!
            for part in 0..<partCount {
                let lower = part * height / partCount
                let upper = (part + 1) * height / partCount
                var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * (upper - lower))
                raw.withUnsafeMutableBufferPointer { out in
                    let target = out.baseAddress!
                    for y in lower..<upper {
                        let line = target + (y - lower) * (rowBytes + 1)
                        let current = source + y * rowBytes
                        if compact {
                            line[0] = 0  // filter: None
                            (line + 1).update(from: current, count: rowBytes)
                            continue
                        }
                        line[0] = 2  // filter: Up
                        if y == 0 {
                            (line + 1).update(from: current, count: rowBytes)
                        } else {
                            let above = current - rowBytes
                            for i in 0..<rowBytes { line[1 + i] = current[i] &- above[i] }
                        }
                    }
                }
                parts.append(raw)
            }
        }
        var png = PNGChunks.signature
        var header: [UInt8] = []
        PNGChunks.append32(UInt32(width), to: &header)
        PNGChunks.append32(UInt32(height), to: &header)
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        PNGChunks.write("IHDR", header, to: &png)
        PNGChunks.write(
            "IDAT", compact ? Zlib.deflate(parts, level: 9, strategy: Z_DEFAULT_STRATEGY) : Zlib.deflate(parts),
            to: &png)
        PNGChunks.write("IEND", [], to: &png)
        return png
    }
}
