import CWebP
import ChoreoLibraries

/// An animated WebP made by libwebp's `WebPAnimEncoder` (Debian's libwebp-dev): frames added as
/// they are drawn, each shown from its time to the next one's, and the file assembled at the
/// end (a WebP's RIFF header holds the file's size, so it cannot be streamed). Lossless by
/// default, lossy at a `quality` of 0…100.
///
/// The only file with libwebp calls; the library is loaded with the first animated WebP.
public final class WebPAnimation {
    /// libwebpmux, which brings libwebp with it, loaded once.
    package static let library = SharedLibrary.load("libwebpmux.so.3", package: "libwebpmux3", bind: cwebp_bind)

    let width: Int
    let height: Int
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private var straight: [UInt8]

    /// An encoder of `width` × `height` frames; nil when libwebp refuses the size or settings.
    public init?(width: Int, height: Int, quality: Int?) {
        let W = Self.library.functions("animated WebP needs libwebp")
        self.width = width
        self.height = height
        straight = [UInt8](repeating: 0, count: width * height * 4)
        var options = WebPAnimEncoderOptions()
        guard withUnsafePointer(to: W.table, { cwebp_anim_options_init($0, &options) }) != 0 else { return nil }
        // Each frame a whole picture or a rectangle over the one before, as the encoder finds
        // smaller; never lossy and lossless mixed.
        options.allow_mixed = 0
        guard
            let made = withUnsafePointer(
                to: W.table, { cwebp_anim_encoder_new($0, Int32(width), Int32(height), &options) })
        else { return nil }
        encoder = made
        guard withUnsafePointer(to: W.table, { cwebp_config_init($0, &config, Float(quality ?? 75)) }) != 0 else {
            W.WebPAnimEncoderDelete(encoder)
            return nil
        }
        config.lossless = quality == nil ? 1 : 0
        config.method = quality == nil ? 2 : 4
    }

    deinit {
        let W = Self.library.functions("animated WebP needs libwebp")
        W.WebPAnimEncoderDelete(encoder)
    }

    /// Adds a frame, Cairo's premultiplied ARGB words, shown from `milliseconds`.
    public func add(_ words: [UInt32], at milliseconds: Int) -> Bool {
        let W = Self.library.functions("animated WebP needs libwebp")
        // WebP takes straight (not premultiplied) colour: BGRA bytes, as the words lie in memory.
        for (index, word) in words.enumerated() {
            let alpha = word >> 24
            let offset = index * 4
            guard alpha > 0 else {
                straight[offset] = 0
                straight[offset + 1] = 0
                straight[offset + 2] = 0
                straight[offset + 3] = 0
                continue
            }
            func channel(_ shift: UInt32) -> UInt8 {
                UInt8(min(255, (((word >> shift) & 0xFF) * 255 + alpha / 2) / alpha))
            }
            straight[offset] = channel(0)
            straight[offset + 1] = channel(8)
            straight[offset + 2] = channel(16)
            straight[offset + 3] = UInt8(alpha)
        }
        var picture = WebPPicture()
        guard withUnsafePointer(to: W.table, { cwebp_picture_init($0, &picture) }) != 0 else { return false }
        defer { W.WebPPictureFree(&picture) }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = 1
        guard
            straight.withUnsafeBufferPointer({ W.WebPPictureImportBGRA(&picture, $0.baseAddress, Int32(width * 4)) })
                != 0
        else { return false }
        return W.WebPAnimEncoderAdd(encoder, &picture, Int32(milliseconds), &config) != 0
    }

    /// The file, the last frame shown until `milliseconds`.
    public func finish(at milliseconds: Int) -> [UInt8]? {
        let W = Self.library.functions("animated WebP needs libwebp")
        guard W.WebPAnimEncoderAdd(encoder, nil, Int32(milliseconds), nil) != 0 else { return nil }
        var data = WebPData()
        guard W.WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else { return nil }
        defer { W.WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }
}
