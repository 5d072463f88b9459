#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "io/screen_shot.h"
#include "io/theme_contrast.h"
#include "tui/app.h"
#include "tui/curses.h"
#include "tui/snapshot.h"

/* A cell's colour as the terminal shows it: the pair's palette index, or
 * for the terminal's own colour the theme's, else black on white (paper). */
static int shown_rgb(const struct tui_app *app, short idx, bool fg)
{
	if (app->colours && idx >= 0)
		return tui_palette_rgb(app->colours, idx);
	int own = app->theme.rgb[fg ? TUI_ROLE_MAIN_FG : TUI_ROLE_MAIN_BG];
	if (app->colours && own >= 0)
		return own;
	return fg ? 0x000000 : 0xffffff;
}

static void read_cell(const struct tui_app *app, int y, int x, struct tl_screen_cell *out)
{
	cchar_t cc;
	wchar_t wch[CCHARW_MAX + 1] = {0};
	attr_t attrs = 0;
	short pair = 0, fg = -1, bg = -1;
	memset(out, 0, sizeof *out);
	if (mvwin_wch(curscr, y, x, &cc) == ERR || getcchar(&cc, wch, &attrs, &pair, NULL) == ERR) {
		strcpy(out->ch, " ");
	} else {
		mbstate_t st;
		memset(&st, 0, sizeof st);
		size_t n = wcrtomb(out->ch, wch[0] ? wch[0] : L' ', &st);
		if (n == (size_t)-1 || n >= sizeof out->ch)
			strcpy(out->ch, "?");
		else
			out->ch[n] = '\0';
	}
	if (app->colours && pair > 0)
		pair_content(pair, &fg, &bg);
	out->fg = shown_rgb(app, fg, true);
	out->bg = shown_rgb(app, bg, false);
	if (attrs & A_REVERSE) {
		int t = out->fg;
		out->fg = out->bg;
		out->bg = t;
	}
	out->bold = (attrs & A_BOLD) != 0;
	out->dim = (attrs & A_DIM) != 0;
}

void tui_snapshot(struct tui_app *app)
{
	int rows, cols;
	getmaxyx(curscr, rows, cols);
	struct tl_screen_cell *cells = calloc((size_t)rows * (size_t)cols, sizeof *cells);
	if (!cells) {
		tui_message(app, true, "screen not written: out of memory");
		return;
	}
	for (int y = 0; y < rows; y++)
		for (int x = 0; x < cols; x++)
			read_cell(app, y, x, cells + (size_t)y * (size_t)cols + x);
	char txt[1024], svg[1024], why[1024];
	tui_export_name(txt, sizeof txt, "screen", "txt");
	snprintf(svg, sizeof svg, "%.*s.svg", (int)(strlen(txt) - 4), txt);
	if (tl_screen_text(txt, cells, rows, cols, why, sizeof why) < 0)
		tui_message(app, true, "screen not written: %s", why);
	else if (tl_screen_svg(svg, cells, rows, cols, why, sizeof why) < 0)
		tui_message(app, true, "screen written as text to %s; no SVG: %s", txt, why);
	else
		tui_message(app, false, "screen written to %s and .svg", txt);
	free(cells);
}
