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
    /// more than time: each row takes the filter (None, Sub, Up, Average, Paeth) whose output
    /// has the smallest sum of absolute values (libpng's heuristic), deflated at zlib's default
    /// level.
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
                            Self.bestFilter(
                                current, above: y == 0 ? nil : current - rowBytes, count: rowBytes, into: line)
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
            "IDAT", compact ? Zlib.deflate(parts, level: 6, strategy: Z_DEFAULT_STRATEGY) : Zlib.deflate(parts),
            to: &png)
        PNGChunks.write("IEND", [], to: &png)
        return png
    }

    /// Writes one row behind the filter byte whose output is smallest by the sum of absolute
    /// values (bytes read as signed), for RGBA rows (4 bytes a pixel): the filters are costed
    /// first, then the chosen one is written, with no buffer of its own.
    static func bestFilter(
        _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, count: Int, into line: UnsafeMutablePointer<UInt8>
    ) {
        @inline(__always) func filtered(_ filter: UInt8, _ i: Int) -> UInt8 {
            let a = i >= 4 ? Int(row[i - 4]) : 0
            let b = above.map { Int($0[i]) } ?? 0
            let predicted: Int
            switch filter {
            case 0: predicted = 0
            case 1: predicted = a
            case 2: predicted = b
            case 3: predicted = (a + b) / 2
            default:
                let c = i >= 4 ? above.map { Int($0[i - 4]) } ?? 0 : 0
                let p = a + b - c
                let pa = abs(p - a)
                let pb = abs(p - b)
                let pc = abs(p - c)
                predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            }
            return UInt8(truncatingIfNeeded: Int(row[i]) - predicted)
        }
        var chosen: UInt8 = 0
        var lowest = Int.max
        for filter in UInt8(0)...4 {
            if above == nil && (filter == 2 || filter == 4) { continue }
            var cost = 0
            for i in 0..<count {
                let value = filtered(filter, i)
                cost += value < 128 ? Int(value) : 256 - Int(value)
                if cost >= lowest { break }
            }
            if cost < lowest {
                lowest = cost
                chosen = filter
            }
        }
        line[0] = chosen
        for i in 0..<count { line[1 + i] = filtered(chosen, i) }
    }
}
