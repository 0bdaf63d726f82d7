import CVPX
import ChoreoLibraries

/// A VP9 stream made by libvpx (Debian's libvpx-dev): one compressed frame out for each picture
/// in (no look-ahead, so a WebM can be streamed a frame at a time), at a constant quality, on one
/// thread (the same bytes every time).
///
/// The only file with libvpx calls; the library is loaded with the first WebM.
final class VP9Encoder {
    /// libvpx, loaded once.
    static let library = SharedLibrary.load("libvpx.so.7", package: "libvpx7", bind: cvpx_bind)

    let width: Int
    let height: Int
    private var context = vpx_codec_ctx_t()
    private var planes: [UInt8]
    private var image = vpx_image_t()

    /// An encoder of `width` × `height` pictures at a constant quality level `cqLevel` (0 best …
    /// 63); nil when libvpx refuses them.
    init?(width: Int, height: Int, cqLevel: Int) {
        let V = Self.library.functions("WebM needs libvpx")
        self.width = width
        self.height = height
        let chroma = ((width + 1) / 2) * ((height + 1) / 2)
        planes = [UInt8](repeating: 128, count: width * height + 2 * chroma)
        var config = vpx_codec_enc_cfg_t()
        guard V.vpx_codec_enc_config_default(V.vpx_codec_vp9_cx(), &config, 0) == VPX_CODEC_OK else { return nil }
        config.g_w = UInt32(width)
        config.g_h = UInt32(height)
        config.g_timebase = vpx_rational(num: 1, den: 1000)
        config.g_threads = 1
        config.g_lag_in_frames = 0
        config.rc_end_usage = VPX_Q
        // A key frame every 240 frames exactly, in the colour and the alpha streams alike.
        config.kf_min_dist = 240
        config.kf_max_dist = 240
        let initialised = withUnsafePointer(to: V.table) { cvpx_encoder_init($0, &context, &config) }
        guard initialised == VPX_CODEC_OK else { return nil }
        withUnsafePointer(to: V.table) { table in
            _ = cvpx_control(table, &context, Int32(VP8E_SET_CQ_LEVEL.rawValue), Int32(cqLevel))
            _ = cvpx_control(table, &context, Int32(VP8E_SET_CPUUSED.rawValue), 5)
        }
    }

    deinit {
        let V = Self.library.functions("WebM needs libvpx")
        _ = V.vpx_codec_destroy(&context)
    }

    /// The planes to fill for the next picture: Y (`width` × `height`), then U and V (half
    /// each way, rounded up).
    func withPlanes<T>(_ body: (UnsafeMutableBufferPointer<UInt8>) -> T) -> T {
        planes.withUnsafeMutableBufferPointer { body($0) }
    }

    /// Encodes the planes as the picture at `milliseconds`, shown for `duration`: the frame's
    /// bytes and whether it is a key frame.
    func encode(at milliseconds: Int, duration: Int) -> (data: [UInt8], key: Bool)? {
        let V = Self.library.functions("WebM needs libvpx")
        return planes.withUnsafeMutableBufferPointer { buffer -> (data: [UInt8], key: Bool)? in
            guard V.vpx_img_wrap(&image, VPX_IMG_FMT_I420, UInt32(width), UInt32(height), 1, buffer.baseAddress) != nil
            else { return nil }
            let deadline = UInt(VPX_DL_GOOD_QUALITY)
            guard
                V.vpx_codec_encode(&context, &image, vpx_codec_pts_t(milliseconds), UInt(max(1, duration)), 0, deadline)
                    == VPX_CODEC_OK
            else { return nil }
            var iterator: vpx_codec_iter_t?
            var data: [UInt8] = []
            var key = false
            while let packet = V.vpx_codec_get_cx_data(&context, &iterator) {
                guard cvpx_packet_is_frame(packet) != 0, let bytes = cvpx_packet_data(packet) else { continue }
                data += UnsafeRawBufferPointer(start: bytes, count: cvpx_packet_size(packet))
                key = key || cvpx_packet_is_key(packet) != 0
            }
            return (data, key)
        }
    }
}
