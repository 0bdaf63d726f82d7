#include "../CLibraryBinding/binding.h"
#include <openssl/evp.h>
#include <openssl/hmac.h>

/* The OpenSSL libcrypto functions choreo calls (HMAC-SHA256 for signed alert webhooks), loaded
   with the first signature rather than linked (ChoreoLibraries' SharedLibrary). libcrypto comes
   with libcurl's OpenSSL flavour, which the prober loads anyway. */
#define CCRYPTO_FUNCTIONS(X) X(HMAC) X(EVP_sha256)

/* ccrypto_functions and ccrypto_bind (binding.h). */
CHOREO_LIBRARY(ccrypto, CCRYPTO_FUNCTIONS)
