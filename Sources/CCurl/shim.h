#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so each argument
   type gets a fixed-signature wrapper. */
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode ccurl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_set_write_function(CURL *handle, ccurl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode ccurl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode ccurl_get_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode ccurl_get_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

/* The request headers every probe sends: "Connection: close", so the target closes the
   connection as soon as it has answered. Built once, never freed. */
static inline struct curl_slist *ccurl_probe_headers(void) {
    static struct curl_slist *headers = 0;
    if (!headers) headers = curl_slist_append(0, "Connection: close");
    return headers;
}
