// rlottie's C API (Debian's librlottie-dev): the Lottie player the export tests check
// choreo's Lottie files against. Linked by the tests only.
#include <rlottie_capi.h>
