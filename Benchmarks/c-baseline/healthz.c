/* A minimal C libmicrohttpd server doing what choreo's GET /healthz does, for the CPU
 * comparison in Benchmarks/load.sh: same daemon flags and options, the same storage check (the
 * database file still the one opened; the write lock taken, the schema page read, rolled back)
 * under a mutex, an X-Request-Id header, and one JSON log line per request on stderr. choreo
 * also moves the check off the I/O thread to its health queue; this baseline does not.
 * Build: cc -O2 -o bench-c-server healthz.c -lmicrohttpd -lsqlite3 -lpthread
 * Run:   ./bench-c-server PORT DATABASE-FILE */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdint.h>
#include <sqlite3.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static sqlite3 *db;
static pthread_mutex_t db_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_long counter;

static const char *db_path;
static struct stat db_identity;

static int ping(void) {
    struct stat now;
    if (stat(db_path, &now) != 0 || now.st_ino != db_identity.st_ino || now.st_dev != db_identity.st_dev) return 0;
    pthread_mutex_lock(&db_lock);
    int ok = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
    if (ok) {
        ok = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) == SQLITE_OK;
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
    pthread_mutex_unlock(&db_lock);
    return ok;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_size, void **state) {
    (void)cls; (void)version; (void)upload;
    if (*state == NULL) { *state = (void *)1; return MHD_YES; }
    if (*upload_size != 0) { *upload_size = 0; return MHD_YES; }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int healthy = strcmp(method, "GET") == 0 && strcmp(url, "/healthz") == 0 && ping();
    const char *body = healthy ? "{\"status\":\"ok\"}" : "{\"status\":\"down\"}";
    struct MHD_Response *response = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
    char id[32];
    long n = atomic_fetch_add(&counter, 1) + 1;
    snprintf(id, sizeof id, "c0ffee-%lx", n);
    MHD_add_response_header(response, "X-Request-Id", id);
    MHD_add_response_header(response, "Content-Type", "application/json");
    unsigned int status = healthy ? 200 : 503;
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    clock_gettime(CLOCK_MONOTONIC, &end);
    char line[256];
    int length = snprintf(line, sizeof line,
                          "{\"request.id\":\"%s\",\"method\":\"%s\",\"path\":\"%s\",\"status\":%u,\"bytes\":%zu,\"duration_ms\":%.3f}\n",
                          id, method, url, status, strlen(body),
                          (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6);
    if (write(2, line, (size_t)length) < 0) { /* logging is best effort */ }
    return result;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s PORT DATABASE\n", argv[0]); return 2; }
    if (sqlite3_open(argv[2], &db) != SQLITE_OK) return 1;
    sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
    sqlite3_busy_timeout(db, 1000);
    db_path = argv[2];
    if (stat(db_path, &db_identity) != 0) return 1;
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)atoi(argv[1]));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME,
        (uint16_t)atoi(argv[1]), NULL, NULL, handler, NULL,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)15, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)1000, MHD_OPTION_SOCK_ADDR, &address, MHD_OPTION_END);
    if (daemon == NULL) return 1;
    int received;
    sigwait(&signals, &received);
    MHD_stop_daemon(daemon);
    sqlite3_close(db);
    return 0;
}
