/* What a theme looks like on a real terminal, and whether it reads there:
 * the WCAG 2 contrast of each foreground against the background it is drawn
 * on, the palette a 256- or 8-colour terminal shows, and the reduction the
 * TUI uses, which swaps a colour that would not read for the nearest one
 * that does. Pure: no curses, no terminal I/O. */
#ifndef TL_IO_THEME_CONTRAST_H
#define TL_IO_THEME_CONTRAST_H

#include "io/theme.h"

/* WCAG's bars: text needs 4.5:1, a line that carries no text 3:1. */
#define TUI_CONTRAST_TEXT 4.5
#define TUI_CONTRAST_LINE 3.0

/* A foreground role and the background role it is drawn on. */
struct tui_pair {
	enum tui_role fg, bg;
	double need; /* TUI_CONTRAST_TEXT or TUI_CONTRAST_LINE */
};

/* Every pair the screens draw: each text role on main_bg, the selected and
 * status bars on their own backgrounds, the divider as a line. */
size_t tui_theme_pairs(const struct tui_pair **pairs);

/* WCAG 2 contrast ratio of two 0xRRGGBB colours, 1 to 21. */
double tui_contrast(int rgb1, int rgb2);

/* The colour a terminal shows for palette index idx: xterm's values for the
 * 8 ANSI colours (colours 8) or its 256-colour cube and grey ramp. -1 for -1. */
int tui_palette_rgb(int colours, int idx);

/* The palette index of each role on a terminal of `colours` (256 or 8):
 * the nearest colour, and where that falls below the pair's bar against
 * its background the nearest colour that clears it. A role of the
 * terminal's own colour stays -1; when main_bg is the terminal's own, it
 * is taken as assumed_bg (0xRRGGBB) for the check. Returns how many roles
 * were swapped. */
int tui_theme_reduce(const struct tui_theme *t, int colours, int assumed_bg, int out[TUI_NROLES]);

/* The background a terminal declares: 1 light, 0 dark, -1 not said.
 * COLORFGBG is "fg;bg" (or "fg;x;bg") in ANSI numbers, rxvt's convention:
 * bg 7 or 9..15 light (8 is a dark grey). */
int tui_bg_from_colorfgbg(const char *v);
/* An OSC 11 reply, "\033]11;rgb:RRRR/GGGG/BBBB" ending in BEL or ST, as
 * 0xRRGGBB, or -1 when it is not one. */
int tui_bg_from_osc11(const char *reply, size_t len);
/* Light when black text would contrast more than white on it. */
int tui_rgb_is_light(int rgb);

#endif
