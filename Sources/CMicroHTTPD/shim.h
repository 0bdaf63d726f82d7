#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include "../CLibraryBinding/binding.h"

/* The libmicrohttpd functions choreo calls, loaded when the server starts rather than linked
   (ChoreoLibraries' SharedLibrary), so that the other commands never map it nor GnuTLS: a
   table of pointers typed from microhttpd.h, bound by name. */
#define CMHD_FUNCTIONS(X) \
    X(MHD_start_daemon) X(MHD_stop_daemon) X(MHD_quiesce_daemon) X(MHD_get_daemon_info) \
    X(MHD_get_connection_info) X(MHD_get_connection_values) X(MHD_lookup_connection_value) \
    X(MHD_http_unescape) X(MHD_suspend_connection) X(MHD_resume_connection) \
    X(MHD_create_response_from_buffer) X(MHD_create_response_from_callback) \
    X(MHD_add_response_header) X(MHD_queue_response) X(MHD_destroy_response)

/* cmhd_functions and cmhd_bind (binding.h). */
CHOREO_LIBRARY(cmhd, CMHD_FUNCTIONS)

/* MHD_start_daemon is C-variadic, which Swift cannot call: every option goes through one MHD_OPTION_ARRAY. */
static inline struct MHD_Daemon *
cmhd_start_daemon(const cmhd_functions *mhd, unsigned int flags, uint16_t port, MHD_AccessHandlerCallback handler,
                  void *handler_cls, const struct MHD_OptionItem *options)
{
    return mhd->MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* MHD_get_daemon_info is variadic too; a daemon bound to port 0 reports its real port here. */
static inline uint16_t cmhd_bound_port(const cmhd_functions *mhd, struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = mhd->MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The connection's socket (MHD_get_connection_info is C-variadic). */
static inline int cmhd_connection_fd(const cmhd_functions *mhd, struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = mhd->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* The client's address as text (inet_ntop) into `buffer`; 0 when there is none. */
#include <arpa/inet.h>
static inline int cmhd_client_address(const cmhd_functions *mhd, struct MHD_Connection *connection, char *buffer, socklen_t size)
{
    const union MHD_ConnectionInfo *info = mhd->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *address = info->client_addr;
    const void *bytes = address->sa_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)address)->sin6_addr
        : (const void *)&((const struct sockaddr_in *)address)->sin_addr;
    if (address->sa_family != AF_INET && address->sa_family != AF_INET6) return 0;
    return inet_ntop(address->sa_family, bytes, buffer, size) != NULL;
}

/* Whether the client has closed its end: a read that would not block returns 0. A suspended
 * connection is not polled, so an idle stream checks this before it suspends. */
static inline int cmhd_peer_closed(const cmhd_functions *mhd, struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = mhd->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) return 0;
    char byte;
    return recv(info->connect_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/* The reader callback's end-of-stream marker is a cast macro Swift cannot import. */
static inline ssize_t cmhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t cmhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

/* The calling thread's kernel id, for per-thread scheduling priority (syscall is variadic). */
#include <unistd.h>
#include <sys/syscall.h>
static inline int cmhd_thread_id(void) { return (int)syscall(SYS_gettid); }

/* MHD_OPTION_EXTERNAL_LOGGER hands over a va_list, which a Swift closure cannot take: this
   formats the message and passes it on as one string to a sink of the caller's. */
#include <stdarg.h>
#include <stdio.h>
typedef void (*cmhd_message_sink)(void *cls, const char *message);
struct cmhd_logger {
    cmhd_message_sink sink;
    void *cls;
};
static inline void cmhd_format_log(void *cls, const char *format, va_list arguments)
{
    struct cmhd_logger *logger = (struct cmhd_logger *)cls;
    char buffer[1024];
    vsnprintf(buffer, sizeof buffer, format, arguments);
    logger->sink(logger->cls, buffer);
}
static inline intptr_t cmhd_format_log_pointer(void) { return (intptr_t)&cmhd_format_log; }
