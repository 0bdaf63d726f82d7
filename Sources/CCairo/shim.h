#include "../CLibraryBinding/binding.h"
#include <cairo.h>
#include <pango/pangocairo.h>

/* The Cairo, Pango and GObject functions choreo calls, loaded with the first picture rather
   than linked (ChoreoLibraries' SharedLibrary): a table of pointers typed from the headers,
   bound by name from libpangocairo, which brings libpango, libcairo and libgobject with it. */
#define CCAIRO_FUNCTIONS(X) \
    X(cairo_append_path) X(cairo_arc) X(cairo_clip) X(cairo_close_path) X(cairo_copy_path) \
    X(cairo_create) X(cairo_curve_to) X(cairo_destroy) X(cairo_fill) X(cairo_fill_extents) \
    X(cairo_fill_preserve) X(cairo_get_group_target) X(cairo_get_matrix) X(cairo_identity_matrix) \
    X(cairo_image_surface_create) X(cairo_image_surface_create_from_png_stream) \
    X(cairo_image_surface_get_data) X(cairo_image_surface_get_height) \
    X(cairo_image_surface_get_stride) X(cairo_image_surface_get_width) X(cairo_line_to) \
    X(cairo_mask) X(cairo_mask_surface) X(cairo_move_to) X(cairo_new_path) X(cairo_new_sub_path) \
    X(cairo_paint) X(cairo_paint_with_alpha) X(cairo_path_destroy) X(cairo_pattern_destroy) \
    X(cairo_pop_group) X(cairo_pop_group_to_source) X(cairo_push_group) \
    X(cairo_rectangle) X(cairo_restore) X(cairo_save) X(cairo_set_fill_rule) X(cairo_set_line_cap) \
    X(cairo_set_line_join) X(cairo_set_line_width) X(cairo_set_matrix) X(cairo_set_operator) \
    X(cairo_set_source_rgba) X(cairo_set_source_surface) X(cairo_set_tolerance) X(cairo_stroke) \
    X(cairo_surface_destroy) X(cairo_surface_flush) X(cairo_surface_mark_dirty) X(cairo_surface_status) \
    X(cairo_surface_write_to_png_stream) X(pango_cairo_create_layout) X(pango_cairo_layout_path) X(pango_cairo_show_layout) \
    X(pango_font_description_free) X(pango_font_description_from_string) \
    X(pango_font_description_set_absolute_size) X(pango_layout_set_alignment) \
    X(pango_layout_set_font_description) X(pango_layout_set_justify) X(pango_layout_set_text) \
    X(pango_layout_set_width) X(pango_layout_get_unknown_glyphs_count) X(pango_layout_get_iter) \
    X(pango_layout_iter_free) X(pango_layout_iter_get_line_readonly) X(pango_layout_iter_get_line_extents) \
    X(pango_layout_iter_get_baseline) X(pango_layout_iter_next_line) X(pango_layout_index_to_pos) \
    X(g_object_unref)

/* ccairo_functions and ccairo_bind (binding.h). */
CHOREO_LIBRARY(ccairo, CCAIRO_FUNCTIONS)
