#include "../CLibraryBinding/binding.h"
#include <clang-c/Index.h>
#include <stdlib.h>

/* The libclang functions the Objective-C importer calls (clang-c/Index.h, Debian's
   libclang-dev), loaded by the import helper when it first reads Objective-C rather than
   linked (ChoreoLibraries' SharedLibrary): a table of pointers typed from the header, bound by
   name from libclang-14.so.1. */
#define CCLANG_FUNCTIONS(X) \
    X(clang_createIndex) X(clang_disposeIndex) X(clang_parseTranslationUnit2) \
    X(clang_disposeTranslationUnit) X(clang_getTranslationUnitCursor) X(clang_visitChildren) \
    X(clang_getCursorKind) X(clang_getCursorSpelling) X(clang_getCString) X(clang_disposeString) \
    X(clang_getCursorLocation) X(clang_getSpellingLocation) X(clang_getCursorExtent) \
    X(clang_getRangeStart) X(clang_getRangeEnd) X(clang_tokenize) X(clang_disposeTokens) \
    X(clang_getTokenSpelling) X(clang_getTokenKind) X(clang_getTokenExtent) X(clang_getNumDiagnostics) \
    X(clang_getDiagnostic) X(clang_getDiagnosticSeverity) X(clang_getDiagnosticLocation) \
    X(clang_getDiagnosticSpelling) X(clang_disposeDiagnostic) X(clang_Location_isFromMainFile) \
    X(clang_getCursorType) X(clang_getTypeSpelling) X(clang_getCursorReferenced) X(clang_Cursor_isNull) \
    X(clang_getCursorSemanticParent) X(clang_getFile) X(clang_getFileName) X(clang_getDiagnosticCategoryText) \
    X(clang_getFileLocation) X(clang_Cursor_Evaluate) X(clang_EvalResult_getKind) \
    X(clang_EvalResult_getAsDouble) X(clang_EvalResult_getAsLongLong) X(clang_EvalResult_getAsStr) \
    X(clang_EvalResult_dispose) X(clang_getInclusions)

CHOREO_LIBRARY(cclang, CCLANG_FUNCTIONS)

/* clang_visitChildren's visitor, collecting the direct children into a growable array. */
typedef struct cclang_children {
    CXCursor *_Nullable cursors;
    unsigned count;
    unsigned capacity;
} cclang_children;

static enum CXChildVisitResult cclang_collect(CXCursor cursor, CXCursor parent, CXClientData data) {
    (void)parent;
    cclang_children *children = (cclang_children *)data;
    if (children->count == children->capacity) {
        unsigned capacity = children->capacity ? children->capacity * 2 : 8;
        CXCursor *grown = (CXCursor *)realloc(children->cursors, capacity * sizeof(CXCursor));
        if (!grown) return CXChildVisit_Break;
        children->cursors = grown;
        children->capacity = capacity;
    }
    children->cursors[children->count++] = cursor;
    return CXChildVisit_Continue;
}

/* The direct children of `cursor`; free `cursors` with free(). */
static inline cclang_children cclang_children_of(const cclang_functions *_Nonnull clang, CXCursor cursor) {
    cclang_children children = {0, 0, 0};
    clang->clang_visitChildren(cursor, cclang_collect, &children);
    return children;
}

/* A file the translation unit read, and where it was included (a null location for the main
   file). */
typedef struct cclang_inclusion {
    CXFile _Nullable file;
    CXSourceLocation location;
    unsigned depth;
} cclang_inclusion;

typedef struct cclang_inclusions {
    cclang_inclusion *_Nullable items;
    unsigned count;
    unsigned capacity;
} cclang_inclusions;

static void cclang_collect_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data) {
    cclang_inclusions *list = (cclang_inclusions *)data;
    if (list->count == list->capacity) {
        unsigned capacity = list->capacity ? list->capacity * 2 : 16;
        cclang_inclusion *grown = (cclang_inclusion *)realloc(list->items, capacity * sizeof(cclang_inclusion));
        if (!grown) return;
        list->items = grown;
        list->capacity = capacity;
    }
    cclang_inclusion item = {file, depth > 0 ? stack[0] : (CXSourceLocation){{0, 0}, 0}, depth};
    list->items[list->count++] = item;
}

/* Every file the translation unit read (clang_getInclusions); free `items` with free(). */
static inline cclang_inclusions cclang_inclusions_of(const cclang_functions *_Nonnull clang, CXTranslationUnit tu) {
    cclang_inclusions list = {0, 0, 0};
    clang->clang_getInclusions(tu, cclang_collect_inclusion, &list);
    return list;
}
