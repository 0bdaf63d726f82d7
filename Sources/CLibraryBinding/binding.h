/* What each shim of a library loaded when first used (ChoreoLibraries' SharedLibrary) builds
   from its list of functions, X(name) for each:
     typedef struct { LIST(CHOREO_FUNCTION_FIELD) } table;   a pointer per function, typed from
                                                            the library's own header;
     LIST(CHOREO_BIND_FUNCTION)                              in its bind function, which fills
                                                            the table from a dlopen handle and
                                                            returns the name of the first
                                                            function missing (NULL: all bound). */
#ifndef CHOREO_LIBRARY_BINDING_H
#define CHOREO_LIBRARY_BINDING_H
#include <dlfcn.h>

#define CHOREO_FUNCTION_FIELD(name) __typeof__(name) *_Nonnull name;
#define CHOREO_BIND_FUNCTION(name) \
    if (!(*(void **)&functions->name = dlsym(library, #name))) return #name;

#endif
