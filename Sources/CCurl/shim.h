#include "../CLibraryBinding/binding.h"
/* curl.h would otherwise make curl_easy_setopt a type-checking macro, which a call through the
   table below cannot go through. */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

/* The libcurl functions choreo calls, loaded with the first probe client rather than linked
   (ChoreoLibraries' SharedLibrary): a table of pointers typed from curl.h, bound by name. */
#define CCURL_FUNCTIONS(X) \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_setopt) \
    X(curl_easy_getinfo) X(curl_easy_strerror) X(curl_slist_append) X(curl_multi_init) \
    X(curl_multi_cleanup) X(curl_multi_add_handle) X(curl_multi_remove_handle) \
    X(curl_multi_perform) X(curl_multi_info_read) X(curl_multi_poll) X(curl_multi_wakeup) \
    X(curl_easy_perform) X(curl_slist_free_all)

/* ccurl_functions and ccurl_bind (binding.h). */
CHOREO_LIBRARY(ccurl, CCURL_FUNCTIONS)

/* curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so each argument
   type gets a fixed-signature wrapper. */
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode ccurl_set_long(const ccurl_functions *curl, CURL *handle, CURLoption option, long value) {
    return curl->curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_set_string(const ccurl_functions *curl, CURL *handle, CURLoption option, const char *value) {
    return curl->curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_set_pointer(const ccurl_functions *curl, CURL *handle, CURLoption option, void *value) {
    return curl->curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_set_write_function(const ccurl_functions *curl, CURL *handle, ccurl_write_callback callback) {
    return curl->curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
/* CURLOPT_OPENSOCKETFUNCTION's callback: it sees every address libcurl is about to connect to
   (after name resolution) and may refuse it with CURL_SOCKET_BAD. */
typedef curl_socket_t (*ccurl_opensocket_callback)(void *context, curlsocktype purpose, struct curl_sockaddr *address);
static inline CURLcode ccurl_set_opensocket_function(const ccurl_functions *curl, CURL *handle, ccurl_opensocket_callback callback) {
    return curl->curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}
static inline CURLcode ccurl_get_long(const ccurl_functions *curl, CURL *handle, CURLINFO info, long *value) {
    return curl->curl_easy_getinfo(handle, info, value);
}
static inline CURLcode ccurl_get_pointer(const ccurl_functions *curl, CURL *handle, CURLINFO info, void **value) {
    return curl->curl_easy_getinfo(handle, info, value);
}
static inline CURLcode ccurl_get_double(const ccurl_functions *curl, CURL *handle, CURLINFO info, double *value) {
    return curl->curl_easy_getinfo(handle, info, value);
}

/* The request headers every probe sends: "Connection: close", so the target closes the
   connection as soon as it has answered. Built once, never freed. */
static inline struct curl_slist *ccurl_probe_headers(const ccurl_functions *curl) {
    static struct curl_slist *headers = 0;
    if (!headers) headers = curl->curl_slist_append(0, "Connection: close");
    return headers;
}
