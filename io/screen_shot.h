/* A terminal screen kept as it was, for a slide: the text of each row, and
 * an SVG that draws every cell in its colours. The TUI reads the screen;
 * writing the files is here, beside the other figures. */
#ifndef TL_IO_SCREEN_SHOT_H
#define TL_IO_SCREEN_SHOT_H

#include <stdbool.h>
#include <stddef.h>

struct tl_screen_cell {
	char ch[8];  /* one character, UTF-8 */
	int fg, bg;  /* 0xRRGGBB, reverse already applied */
	bool bold, dim;
};

/* Rows of text, trailing blanks cut. 0, or -1 with why. */
int tl_screen_text(const char *path, const struct tl_screen_cell *cells, int rows, int cols,
		   char *why, size_t whylen);

/* SVG, TL_SCREEN_PX px per row, monospace (cairo; without it -1 and why). */
#define TL_SCREEN_PX 20
int tl_screen_svg(const char *path, const struct tl_screen_cell *cells, int rows, int cols,
		  char *why, size_t whylen);

#endif
