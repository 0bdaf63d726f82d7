/// Reading and writing PNG chunks (length, type, data, CRC), for assembling animated PNGs from
/// the still frames Cairo writes. Debian's libpng writes no APNG, so its three chunks (`acTL`,
/// `fcTL`, `fdAT`, from the APNG specification) are put together here.
public enum PNGChunks {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunks of a PNG file as (type, data), or nil if it is not one.
    public static func read(_ png: [UInt8]) -> [(type: String, data: ArraySlice<UInt8>)]? {
        guard png.count >= 8, Array(png[0..<8]) == signature else { return nil }
        var chunks: [(type: String, data: ArraySlice<UInt8>)] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(be32(png, offset))
            let start = offset + 8
            guard length >= 0, start + length + 4 <= png.count else { return nil }
            let type = String(decoding: png[(offset + 4)..<start], as: UTF8.self)
            chunks.append((type, png[start..<(start + length)]))
            offset = start + length + 4
        }
        return chunks
    }

    static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    /// Appends one chunk with its length and CRC.
    static func write(_ type: String, _ data: [UInt8], to bytes: inout [UInt8]) {
        append32(UInt32(data.count), to: &bytes)
        let start = bytes.count
        bytes += Array(type.utf8)
        bytes += data
        append32(Zlib.crc(bytes[start...]), to: &bytes)
    }
}

/// An animated PNG written frame by frame: the signature, `IHDR` and `acTL` with the first
/// frame, then an `fcTL` and the image data of each frame (`IDAT` for the first, `fdAT` after),
/// then `IEND`. Only the frame being added is in memory, never the whole animation. After the
/// first, a frame may be only the rectangle that changed, drawn over the frame before.
public struct APNGWriter {
    let frameCount: Int
    private var sequence: UInt32 = 0
    private var written = 0

    /// An animation of `frameCount` frames that loops for ever.
    public init(frameCount: Int) { self.frameCount = max(1, frameCount) }

    /// The bytes for the next frame, a still PNG of the animation's size, shown for `delay`
    /// seconds (kept in milliseconds, at most 65.535 s); the first frame's bytes start the file.
    public mutating func frame(_ png: [UInt8], delay: Double) -> [UInt8] {
        frame(png, x: 0, y: 0, delay: delay)
    }

    /// The bytes for the next frame when only a rectangle changed: `png` is that rectangle, put
    /// at (`x`, `y`) over the previous frame (dispose: none; blend: source, or over when `over`).
    /// The first frame must be whole: it is also the still image of decoders without animation.
    public mutating func frame(_ png: [UInt8], x: Int, y: Int, delay: Double, over: Bool = false) -> [UInt8] {
        guard let chunks = PNGChunks.read(png), let header = chunks.first(where: { $0.type == "IHDR" }) else {
            return []
        }
        var out: [UInt8] = []
        if written == 0 {
            out = PNGChunks.signature
            PNGChunks.write("IHDR", Array(header.data), to: &out)
            var actl: [UInt8] = []
            PNGChunks.append32(UInt32(frameCount), to: &actl)
            PNGChunks.append32(0, to: &actl)
            PNGChunks.write("acTL", actl, to: &out)
        }
        var fctl: [UInt8] = []
        PNGChunks.append32(sequence, to: &fctl)
        sequence += 1
        fctl += Array(header.data.prefix(8))  // width, height (of the rectangle)
        PNGChunks.append32(UInt32(x), to: &fctl)  // x offset
        PNGChunks.append32(UInt32(y), to: &fctl)  // y offset
        let milliseconds = delay.isFinite ? UInt16(max(0, min(65_535, (delay * 1000).rounded()))) : 0
        PNGChunks.append16(milliseconds, to: &fctl)
        PNGChunks.append16(1000, to: &fctl)
        // Dispose: none (the next frame draws over this one). Blend: source (the rectangle replaces
        // what was there), or over (its transparent pixels keep what was there).
        fctl += [0, over ? 1 : 0]
        PNGChunks.write("fcTL", fctl, to: &out)
        for chunk in chunks where chunk.type == "IDAT" {
            if written == 0 {
                PNGChunks.write("IDAT", Array(chunk.data), to: &out)
            } else {
                var data: [UInt8] = []
                PNGChunks.append32(sequence, to: &data)
                sequence += 1
                data += chunk.data
                PNGChunks.write("fdAT", data, to: &out)
            }
        }
        written += 1
        return out
    }

    /// The end of the file.
    public func end() -> [UInt8] {
        var out: [UInt8] = []
        PNGChunks.write("IEND", [], to: &out)
        return out
    }
}
