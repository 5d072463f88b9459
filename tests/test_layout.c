/* Layout is a pure function of the terminal size: every rectangle of every
 * screen lies on the screen, nothing overlaps, nothing used is empty, and
 * the "too small" message fits 20x5. Also the key table's generated status
 * bar and the canvas glyph tiers. */
#include "config.h"

#include <string.h>

#include "tests/tap.h"
#include "tui/canvas.h"
#include "tui/keys.h"
#include "tui/layout.h"

static int usable(const struct tui_rect *r, const struct tui_rect *screen)
{
	return r->h > 0 && r->w > 0 && tui_rect_inside(r, screen);
}

/* Checks one size; returns the number of problems (reported once per size). */
static int check_size(int cols, int rows, size_t nseries)
{
	struct tui_layout l;
	struct tui_rect screen = {0, 0, rows, cols};
	int bad = 0;
	tui_layout_compute(cols, rows, nseries, &l);
	if (l.too_small)
		return !(cols < TUI_MIN_COLS || rows < TUI_MIN_ROWS);
	bad += !usable(&l.title, &screen) + !usable(&l.status, &screen) +
	       !usable(&l.prompt, &screen) + !usable(&l.body, &screen);
	bad += tui_rect_overlap(&l.title, &l.body) + tui_rect_overlap(&l.status, &l.body) +
	       tui_rect_overlap(&l.prompt, &l.body);
	for (int i = 0; i < 3; i++) {
		bad += !usable(&l.list[i], &l.body) || l.list[i].h < 4 || l.list[i].w < 20;
		for (int j = 0; j < i; j++)
			bad += tui_rect_overlap(&l.list[i], &l.list[j]);
	}
	/* Live: the columns, the progress line and the CDF tile the body. */
	bad += l.ncols < 1 || l.ncols > TUI_MAX_COLS || l.ncols > (nseries ? nseries : 1);
	bad += !usable(&l.progress, &l.body) + !usable(&l.cdf, &l.body) || l.cdf.h < 5;
	for (size_t i = 0; i < l.ncols; i++) {
		bad += !usable(&l.hist[i], &l.body) || l.hist[i].h < 4;
		bad += !usable(&l.summary[i], &l.body) || l.summary[i].h < TUI_SUMMARY_SHORT;
		bad += l.summary[i].w < TUI_COL_MIN_WIDTH - 1;
		bad += tui_rect_overlap(&l.hist[i], &l.summary[i]) +
		       tui_rect_overlap(&l.hist[i], &l.cdf) + tui_rect_overlap(&l.summary[i], &l.cdf) +
		       tui_rect_overlap(&l.hist[i], &l.progress);
		for (size_t j = 0; j < i; j++)
			bad += tui_rect_overlap(&l.hist[i], &l.hist[j]) +
			       tui_rect_overlap(&l.summary[i], &l.summary[j]);
	}
	/* Search: two plots above a table. */
	bad += !usable(&l.cv, &l.body) + !usable(&l.overlap, &l.body) + !usable(&l.table, &l.body);
	bad += tui_rect_overlap(&l.cv, &l.overlap) + tui_rect_overlap(&l.cv, &l.table) +
	       tui_rect_overlap(&l.overlap, &l.table);
	bad += l.table.h < 4 || l.cv.h < 5;
	if (bad)
		tap_diag("%dx%d with %zu series: %d problems", cols, rows, nseries, bad);
	return bad;
}

static void test_sizes(void)
{
	int bad = 0, sizes = 0;
	for (int cols = TUI_MIN_COLS; cols <= 320; cols += 7)
		for (int rows = TUI_MIN_ROWS; rows <= 120; rows += 5)
			for (size_t s = 0; s <= 10; s += 1) {
				bad += check_size(cols, rows, s);
				sizes++;
			}
	ok(bad == 0, "layouts from %dx%d to 320x120 are sound (%d checked)", TUI_MIN_COLS,
	   TUI_MIN_ROWS, sizes);
	ok(check_size(80, 24, 2) == 0, "80x24 with two backends works");
	ok(check_size(200, 50, 2) == 0, "200x50 with two backends works");
	ok(check_size(10000, 3000, 8) == 0, "a huge terminal works");

	struct tui_layout l;
	tui_layout_compute(80, 24, 2, &l);
	ok(!l.too_small, "80x24 is not too small");
	is_int(l.ncols, 2, "80x24 shows two backend columns side by side");
	tui_layout_compute(80, 24, 5, &l);
	is_int(l.ncols, 3, "80x24 fits three columns of five backends");
	tui_layout_compute(200, 50, 3, &l);
	ok(l.list[0].y == l.list[1].y && l.list[1].y == l.list[2].y,
	   "200x50: the three setup lists sit side by side");
	ok(l.summary[0].h == TUI_SUMMARY_LONG, "200x50: the summary has one value per line");
}

static void test_too_small(void)
{
	int bad = 0;
	for (int cols = 0; cols < TUI_MIN_COLS + 40; cols++)
		for (int rows = 0; rows < TUI_MIN_ROWS + 10; rows++) {
			struct tui_layout l;
			struct tui_rect screen = {0, 0, rows, cols};
			if (cols >= TUI_MIN_COLS && rows >= TUI_MIN_ROWS)
				continue;
			tui_layout_compute(cols, rows, 2, &l);
			bad += !l.too_small;
			bad += l.msg.w > 20 || l.msg.h > 5 || l.msg.w < 0 || l.msg.h < 0;
			bad += (l.msg.w > 0 && l.msg.h > 0) && !tui_rect_inside(&l.msg, &screen);
		}
	ok(bad == 0, "every size below %dx%d is too small and its message fits", TUI_MIN_COLS,
	   TUI_MIN_ROWS);
	struct tui_layout l;
	tui_layout_compute(20, 5, 1, &l);
	ok(l.msg.w == 20 && l.msg.h == 5 && l.msg.x == 0 && l.msg.y == 0,
	   "20x5: the message fills the terminal");
	tui_layout_compute(40, 12, 1, &l);
	ok(l.too_small && l.msg.x == 10 && l.msg.y == 3, "40x12: the message is centred");
}

static void test_keys(void)
{
	char buf[512];
	for (int s = 0; s < TUI_NSCREENS; s++) {
		tui_keys_status((enum tui_screen)s, false, 80, buf, sizeof buf);
		ok(strlen(buf) > 0 && strlen(buf) <= 80, "%s status bar fits 80 columns: '%s'",
		   tui_screen_name((enum tui_screen)s), buf);
		ok(strstr(buf, "? help") && strstr(buf, "q quit"),
		   "%s status bar keeps '? help' and 'q quit'", tui_screen_name((enum tui_screen)s));
	}
	tui_keys_status(TUI_SETUP, false, 20, buf, sizeof buf);
	ok(strcmp(buf, "? help  q quit") == 0, "a 20-column status bar keeps the way out: '%s'", buf);
	tui_keys_status(TUI_SETUP, false, 30, buf, sizeof buf);
	ok(strstr(buf, "Tab") == buf && strlen(buf) <= 30,
	   "the setup status bar starts with Tab when it has room: '%s'", buf);
	tui_keys_status(TUI_LIVE, true, 200, buf, sizeof buf);
	ok(!strstr(buf, "pause"), "a replay's Live bar offers no pause: '%s'", buf);
	is_int(tui_keys_lookup('q', TUI_LIVE), TUI_ACT_QUIT, "q quits on the live screen");
	is_int(tui_keys_lookup(' ', TUI_SETUP), TUI_ACT_SELECT, "Space selects on setup");
	is_int(tui_keys_lookup(' ', TUI_LIVE), TUI_ACT_PAUSE, "Space pauses on live");
	is_int(tui_keys_lookup('j', TUI_INFO), TUI_ACT_DOWN, "j moves down on info");
	is_int(tui_keys_lookup('x', TUI_SETUP), TUI_ACT_NONE, "x is unbound");

	char lines[64][96];
	size_t n = tui_keys_help(TUI_SETUP, lines, 64);
	int found = 0;
	for (size_t i = 0; i < n; i++)
		found += strstr(lines[i], "q F10") && strstr(lines[i], "quit");
	ok(n >= 10 && found == 1, "setup help lists q and its alias F10 on one line (%zu lines)",
	   n);
}

static void test_canvas(void)
{
	ok(tui_tier_choose("UTF-8", "xterm-256color") == TUI_TIER_UTF8, "UTF-8 locale: UTF-8 tier");
	ok(tui_tier_choose("ANSI_X3.4-1968", "vt100") == TUI_TIER_ASCII, "C locale: ASCII tier");
	ok(tui_tier_choose("UTF-8", "linux") == TUI_TIER_ASCII, "TERM=linux: ASCII tier");

	struct tui_canvas c;
	char buf[8];
	ok(tui_canvas_init(&c, 4, 2) == 0, "canvas 4x2");
	tui_canvas_dot(&c, 0, 7, 2); /* top-left dot of the top-left cell */
	int s = tui_canvas_cell(&c, TUI_TIER_UTF8, 0, 0, buf);
	ok(strcmp(buf, "\xe2\xa0\x81") == 0 && s == 2, "top-left dot is braille U+2801 of series 2");
	tui_canvas_dot(&c, 1, 0, 1); /* bottom-right dot of the bottom-left cell */
	s = tui_canvas_cell(&c, TUI_TIER_UTF8, 0, 1, buf);
	ok(strcmp(buf, "\xe2\xa2\x80") == 0 && s == 1, "bottom-right dot is braille U+2880");
	s = tui_canvas_cell(&c, TUI_TIER_ASCII, 0, 1, buf);
	ok(strcmp(buf, "o") == 0, "ASCII tier shows the series glyph");
	tui_canvas_clear(&c);
	tui_canvas_line(&c, 0, 0, 7, 7, 0);
	int lit = 0;
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 4; x++)
			lit += tui_canvas_cell(&c, TUI_TIER_UTF8, x, y, buf) >= 0;
	ok(lit == 4, "a diagonal line lights the diagonal cells (%d)", lit);
	tui_canvas_mark(&c, 3, 0, 4);
	tui_canvas_cell(&c, TUI_TIER_UTF8, 3, 0, buf);
	ok(strcmp(buf, tui_series_glyph(TUI_TIER_UTF8, 4)) == 0, "a marker wins over dots");
	tui_canvas_dot(&c, 100, 100, 0);
	ok(1, "dots outside the canvas are ignored");
	tui_canvas_free(&c);

	int distinct = 1;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < i; j++)
			distinct &= strcmp(tui_series_glyph(TUI_TIER_ASCII, i),
					   tui_series_glyph(TUI_TIER_ASCII, j)) != 0 &&
				    strcmp(tui_series_glyph(TUI_TIER_UTF8, i),
					   tui_series_glyph(TUI_TIER_UTF8, j)) != 0;
	ok(distinct, "eight series have eight distinct glyphs in both tiers");
	ok(strcmp(tui_bar_glyph(TUI_TIER_UTF8, 12, 0), "█") == 0 &&
		   strcmp(tui_bar_glyph(TUI_TIER_UTF8, 12, 1), "▄") == 0 &&
		   strcmp(tui_bar_glyph(TUI_TIER_UTF8, 12, 2), " ") == 0,
	   "a bar of 12 eighths: full, half, empty");
	ok(strcmp(tui_bar_glyph(TUI_TIER_ASCII, 12, 0), "#") == 0, "ASCII bars use #");
	tui_fmt_ns(23.44, buf, sizeof buf);
	ok(strcmp(buf, "23.4 ns") == 0, "23.44 ns formats as '%s'", buf);
}

int main(void)
{
	test_sizes();
	test_too_small();
	test_keys();
	test_canvas();
	return tap_done();
}
