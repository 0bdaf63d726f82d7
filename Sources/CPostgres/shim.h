#include <libpq-fe.h>
#include <poll.h>

/* PG_DIAG_SQLSTATE is a character constant ('C') that Swift imports as an Int32 already, but
   named here so the one Swift file that calls libpq reads as the manual does. */
static inline int cpostgres_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
