// libwebp's own animation decoder (Debian's libwebp-dev): the tests decode choreo's animated
// WebP with it. Linked by the tests only.
#include <webp/demux.h>

static inline int cwebpdemux_options_init(WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderOptionsInit(options);
}
static inline WebPAnimDecoder *cwebpdemux_new(const WebPData *data, const WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderNew(data, options);
}
