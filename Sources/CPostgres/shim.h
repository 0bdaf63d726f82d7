#include "../CLibraryBinding/binding.h"
#include <libpq-fe.h>
#include <poll.h>

/* PG_DIAG_SQLSTATE is a character constant ('C') that Swift imports as an Int32 already, but
   named here so the one Swift file that calls libpq reads as the manual does. */
static inline int cpostgres_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }

/* The libpq functions choreo calls, loaded with the first PostgreSQL connection rather than
   linked (ChoreoLibraries' SharedLibrary): a table of pointers typed from libpq-fe.h, bound
   by name. */
#define CPOSTGRES_FUNCTIONS(X) \
    X(PQclear) X(PQcmdTuples) X(PQconnectdbParams) X(PQconsumeInput) X(PQerrorMessage) \
    X(PQescapeIdentifier) X(PQexec) X(PQexecParams) X(PQfinish) X(PQfreemem) X(PQftype) \
    X(PQgetisnull) X(PQgetlength) X(PQgetResult) X(PQgetvalue) X(PQisBusy) X(PQnfields) \
    X(PQnotifies) X(PQntuples) X(PQreset) X(PQresultErrorField) X(PQresultErrorMessage) \
    X(PQresultStatus) X(PQsendQuery) X(PQsendQueryParams) X(PQsetNoticeProcessor) X(PQsocket) \
    X(PQstatus)

/* cpostgres_functions and cpostgres_bind (binding.h). */
CHOREO_LIBRARY(cpostgres, CPOSTGRES_FUNCTIONS)
