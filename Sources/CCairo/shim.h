#include <cairo.h>
#include <pango/pangocairo.h>

/* PANGO_SCALE is a macro Swift imports, but g_object_unref takes a gpointer: a typed helper. */
static inline void ccairo_layout_free(PangoLayout *layout) { g_object_unref(layout); }
