#include "../CLibraryBinding/binding.h"
#include <webp/encode.h>
#include <webp/mux.h>

/* libwebp's animated WebP encoder (Debian's libwebp-dev), loaded with the first animated WebP
   rather than linked (ChoreoLibraries' SharedLibrary): bound by name from libwebpmux, which
   brings libwebp with it. */
#define CWEBP_FUNCTIONS(X) \
    X(WebPConfigInitInternal) X(WebPPictureInitInternal) X(WebPPictureImportBGRA) X(WebPPictureFree) \
    X(WebPAnimEncoderOptionsInitInternal) X(WebPAnimEncoderNewInternal) X(WebPAnimEncoderAdd) \
    X(WebPAnimEncoderAssemble) X(WebPAnimEncoderGetError) X(WebPAnimEncoderDelete) X(WebPFree)

/* cwebp_functions and cwebp_bind (binding.h). */
CHOREO_LIBRARY(cwebp, CWEBP_FUNCTIONS)

/* The header's inline initialisers, through the table: they pass the ABI versions this build
   was compiled against. */
static inline int cwebp_config_init(const cwebp_functions *f, WebPConfig *config, float quality) {
    return f->WebPConfigInitInternal(config, WEBP_PRESET_DEFAULT, quality, WEBP_ENCODER_ABI_VERSION);
}
static inline int cwebp_picture_init(const cwebp_functions *f, WebPPicture *picture) {
    return f->WebPPictureInitInternal(picture, WEBP_ENCODER_ABI_VERSION);
}
static inline int cwebp_anim_options_init(const cwebp_functions *f, WebPAnimEncoderOptions *options) {
    return f->WebPAnimEncoderOptionsInitInternal(options, WEBP_MUX_ABI_VERSION);
}
static inline WebPAnimEncoder *cwebp_anim_encoder_new(
    const cwebp_functions *f, int width, int height, const WebPAnimEncoderOptions *options) {
    return f->WebPAnimEncoderNewInternal(width, height, options, WEBP_MUX_ABI_VERSION);
}
