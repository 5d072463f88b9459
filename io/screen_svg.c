#include "config.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <stdio.h>
#include <string.h>

#include "io/screen_shot.h"

static void set_rgb(cairo_t *cr, int rgb)
{
	cairo_set_source_rgb(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
			     (rgb & 0xff) / 255.0);
}

int tl_screen_svg(const char *path, const struct tl_screen_cell *cells, int rows, int cols,
		  char *why, size_t whylen)
{
	/* A monospace cell is about 0.6 of its height wide. */
	const double ch = TL_SCREEN_PX, cw = 0.6 * TL_SCREEN_PX, size = 0.8 * TL_SCREEN_PX;
	cairo_surface_t *s = cairo_svg_surface_create(path, cols * cw, rows * ch);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		snprintf(why, whylen, "%s: %s", path, cairo_status_to_string(cairo_surface_status(s)));
		cairo_surface_destroy(s);
		return -1;
	}
	cairo_t *cr = cairo_create(s);
	cairo_set_font_size(cr, size);
	for (int y = 0; y < rows; y++)
		for (int x = 0; x < cols; x++) {
			const struct tl_screen_cell *c = cells + (size_t)y * (size_t)cols + x;
			set_rgb(cr, c->bg);
			cairo_rectangle(cr, x * cw, y * ch, cw + 0.5, ch + 0.5);
			cairo_fill(cr);
		}
	for (int y = 0; y < rows; y++)
		for (int x = 0; x < cols; x++) {
			const struct tl_screen_cell *c = cells + (size_t)y * (size_t)cols + x;
			if (!c->ch[0] || strcmp(c->ch, " ") == 0)
				continue;
			cairo_select_font_face(cr, "monospace", CAIRO_FONT_SLANT_NORMAL,
					       c->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
			set_rgb(cr, c->fg);
			if (c->dim)
				cairo_push_group(cr);
			cairo_move_to(cr, x * cw, y * ch + 0.78 * ch);
			cairo_show_text(cr, c->ch);
			if (c->dim) {
				cairo_pop_group_to_source(cr);
				cairo_paint_with_alpha(cr, 0.6);
			}
		}
	cairo_destroy(cr);
	cairo_surface_finish(s);
	cairo_status_t st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	if (st != CAIRO_STATUS_SUCCESS) {
		snprintf(why, whylen, "%s: %s", path, cairo_status_to_string(st));
		return -1;
	}
	return 0;
}
