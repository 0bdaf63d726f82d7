#include "../CLibraryBinding/binding.h"
#include <vpx/vpx_encoder.h>
#include <vpx/vp8cx.h>

/* libvpx's VP9 encoder (Debian's libvpx-dev), loaded with the first WebM rather than linked
   (ChoreoLibraries' SharedLibrary). */
#define CVPX_FUNCTIONS(X) \
    X(vpx_codec_vp9_cx) X(vpx_codec_enc_config_default) X(vpx_codec_enc_init_ver) X(vpx_codec_encode) \
    X(vpx_codec_get_cx_data) X(vpx_codec_destroy) X(vpx_codec_control_) X(vpx_codec_error) \
    X(vpx_img_wrap)

/* cvpx_functions and cvpx_bind (binding.h). */
CHOREO_LIBRARY(cvpx, CVPX_FUNCTIONS)

/* The header's macros, through the table: the encoder's ABI version, and a control that takes
   an int (vpx_codec_control_ is variadic, which Swift cannot call). */
static inline vpx_codec_err_t cvpx_encoder_init(
    const cvpx_functions *f, vpx_codec_ctx_t *context, const vpx_codec_enc_cfg_t *config) {
    return f->vpx_codec_enc_init_ver(context, f->vpx_codec_vp9_cx(), config, 0, VPX_ENCODER_ABI_VERSION);
}
static inline vpx_codec_err_t cvpx_control(const cvpx_functions *f, vpx_codec_ctx_t *context, int id, int value) {
    return f->vpx_codec_control_(context, id, value);
}
static inline int cvpx_packet_is_frame(const vpx_codec_cx_pkt_t *packet) { return packet->kind == VPX_CODEC_CX_FRAME_PKT; }
static inline const void *cvpx_packet_data(const vpx_codec_cx_pkt_t *packet) { return packet->data.frame.buf; }
static inline size_t cvpx_packet_size(const vpx_codec_cx_pkt_t *packet) { return packet->data.frame.sz; }
static inline int cvpx_packet_is_key(const vpx_codec_cx_pkt_t *packet) {
    return (packet->data.frame.flags & VPX_FRAME_IS_KEY) != 0;
}
