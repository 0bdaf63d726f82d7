/// A WebM file (Matroska's EBML subset for the web) of one VP9 video track, written a frame at
/// a time: the header, then one cluster per frame, so that a response streams it as the frames
/// are drawn. With alpha, each frame's alpha is a second VP9 frame in the block's
/// `BlockAdditional` (`AlphaMode` 1), as browsers and ffmpeg's libvpx decoder read it.
///
/// A writer of the project's own rather than Debian's libwebm: libwebm is a C++ library with no
/// C interface, and the part of Matroska a stream of frames needs is these few elements.
struct WebMWriter {
    let width: Int
    let height: Int
    let alpha: Bool
    /// The whole duration, in milliseconds (`Info`'s `Duration`).
    let duration: Double
    private var started = false

    init(width: Int, height: Int, alpha: Bool, duration: Double) {
        self.width = width
        self.height = height
        self.alpha = alpha
        self.duration = duration
    }

    // MARK: EBML

    /// An element's size as a variable-length integer of the fewest bytes.
    static func size(_ value: Int) -> [UInt8] {
        var length = 1
        while length < 8 && value >= (1 << (7 * length)) - 1 { length += 1 }
        var bytes = [UInt8](repeating: 0, count: length)
        var rest = UInt64(value)
        for index in stride(from: length - 1, through: 0, by: -1) {
            bytes[index] = UInt8(rest & 0xFF)
            rest >>= 8
        }
        bytes[0] |= UInt8(0x80 >> (length - 1))
        return bytes
    }

    /// An element ID, its marker bits included, as its bytes.
    static func id(_ value: UInt32) -> [UInt8] {
        let bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        return Array(bytes.drop { $0 == 0 })
    }

    static func element(_ id: UInt32, _ body: [UInt8]) -> [UInt8] { Self.id(id) + size(body.count) + body }

    static func unsigned(_ id: UInt32, _ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        } while rest > 0
        return element(id, bytes)
    }

    static func float(_ id: UInt32, _ value: Double) -> [UInt8] {
        let bits = value.bitPattern
        return element(id, (0..<8).map { UInt8((bits >> (56 - 8 * UInt64($0))) & 0xFF) })
    }

    static func string(_ id: UInt32, _ value: String) -> [UInt8] { element(id, Array(value.utf8)) }

    // MARK: The file

    /// The EBML header, the segment (of unknown size: it is streamed), its `Info` and its track.
    func header() -> [UInt8] {
        let ebml = Self.element(
            0x1A45_DFA3,
            Self.unsigned(0x4286, 1) + Self.unsigned(0x42F7, 1) + Self.unsigned(0x42F2, 4) + Self.unsigned(0x42F3, 8)
                + Self.string(0x4282, "webm") + Self.unsigned(0x4287, 4) + Self.unsigned(0x4285, 2))
        let info = Self.element(
            0x1549_A966,
            Self.unsigned(0x2AD7B1, 1_000_000) + Self.float(0x4489, duration) + Self.string(0x4D80, "choreo")
                + Self.string(0x5741, "choreo"))
        var video = Self.unsigned(0xB0, UInt64(width)) + Self.unsigned(0xBA, UInt64(height))
        if alpha { video += Self.unsigned(0x53C0, 1) }
        let track = Self.element(
            0xAE,
            Self.unsigned(0xD7, 1) + Self.unsigned(0x73C5, 1) + Self.unsigned(0x83, 1) + Self.string(0x86, "V_VP9")
                + Self.unsigned(0x9C, 0) + Self.element(0xE0, video))
        let tracks = Self.element(0x1654_AE6B, track)
        // Segment, size unknown (all ones).
        let segment: [UInt8] = Self.id(0x1853_8067) + [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        return ebml + segment + info + tracks
    }

    /// A frame at `milliseconds` as a cluster of its own (the header first, before the first
    /// frame): a `SimpleBlock`, or with alpha a `BlockGroup` with the alpha frame beside it.
    mutating func frame(_ data: [UInt8], alpha alphaData: [UInt8]?, key: Bool, at milliseconds: Int) -> [UInt8] {
        var out: [UInt8] = []
        if !started {
            out = header()
            started = true
        }
        // Track 1, at the cluster's time, and the flags.
        let blockHeader: [UInt8] = [0x81, 0, 0]
        var block: [UInt8]
        if let alphaData {
            let more = Self.element(0xA6, Self.unsigned(0xEE, 1) + Self.element(0xA5, alphaData))
            block = Self.element(0xA1, blockHeader + [0x00] + data) + Self.element(0x75A1, more)
            // A block group without a reference is a key frame; a delta frame names the one
            // before (any non-zero relative time).
            if !key { block += Self.element(0xFB, [0xFF]) }
            block = Self.element(0xA0, block)
        } else {
            block = Self.element(0xA3, blockHeader + [key ? 0x80 : 0x00] + data)
        }
        out += Self.element(0x1F43_B675, Self.unsigned(0xE7, UInt64(max(0, milliseconds))) + block)
        return out
    }
}
