/* CHOREO_LIBRARY(prefix, LIST) makes, for a library loaded when first used (ChoreoLibraries'
   SharedLibrary) and the list of the functions choreo calls (LIST(X) is X(name) for each):
     prefix_functions, a table of pointers, each typed from the library's own header;
     prefix_bind(functions, library), which fills the table from a dlopen handle and returns
     the name of the first function missing, or NULL when all are bound. */
#ifndef CHOREO_LIBRARY_BINDING_H
#define CHOREO_LIBRARY_BINDING_H
#include <dlfcn.h>

#define CHOREO_FUNCTION_FIELD(name) __typeof__(name) *_Nonnull name;
#define CHOREO_BIND_FUNCTION(name) \
    if (!(*(void **)&functions->name = dlsym(library, #name))) return #name;
#define CHOREO_LIBRARY(prefix, LIST) \
    typedef struct prefix##_functions { LIST(CHOREO_FUNCTION_FIELD) } prefix##_functions; \
    static inline const char *prefix##_bind(prefix##_functions *functions, void *library) { \
        LIST(CHOREO_BIND_FUNCTION) \
        return 0; \
    }

#endif
