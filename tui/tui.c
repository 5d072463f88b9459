#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "base/xalloc.h"
#include "tui/app.h"
#include "tui/curses.h"
#include "tui/glossary.h"
#include "tui/snapshot.h"
#include "tui/term_bg.h"
#include "tui/tui.h"
#include "tui/wrap.h"

#define FRAME_S (1.0 / 30) /* redraws are capped at about 30 a second */
#define WHY_LEN 1024


/* The theme the user asked for; a bad file leaves the built-in one and a
 * message naming file, line and problem. */
/* why gets the theme's failure ("" when it loaded), said once Setup is
 * built: the lists' setup would otherwise replace the message. */
static void theme_init(struct tui_app *app, char *why, size_t whylen)
{
	const char *name = app->opts.theme ? app->opts.theme : "default";
	/* Unasked, the theme follows the terminal: the dark default paints its
	 * own background and reads anywhere, but a light terminal gets the
	 * light theme, which matches it. A remembered default or light was
	 * that rule's pick last time (or a pick between the two): the
	 * terminal of now decides again. */
	bool remembered = app->opts.theme && !app->mem.theme_default;
	if (!app->opts.theme ||
	    (remembered && (strcmp(name, "default") == 0 || strcmp(name, "light") == 0))) {
		int light = tui_term_background(200);
		if (light >= 0)
			name = light ? "light" : "default";
	}
	why[0] = '\0';
	app->themes.n = tui_theme_list(app->opts.themes_dir, app->themes.names, 32);
	tui_theme_load_named(app->opts.themes_dir, name, &app->theme, why, whylen);
	for (size_t i = 0; i < app->themes.n; i++)
		if (strcmp(app->themes.names[i], app->theme.name) == 0)
			app->themes.idx = i;
}

static void theme_next(struct tui_app *app)
{
	char why[WHY_LEN];
	if (!app->themes.n) {
		tui_message(app, true, "no themes found; the built-in theme stays");
		return;
	}
	app->themes.idx = (app->themes.idx + 1) % app->themes.n;
	const char *name = app->themes.names[app->themes.idx];
	if (tui_theme_load_named(app->opts.themes_dir, name, &app->theme, why, sizeof why) < 0)
		tui_message(app, true, "theme: %s; using the built-in theme", why);
	else
		tui_message(app, false, "theme %s (%s)", app->theme.name,
			    app->theme.path[0] ? app->theme.path : "built in");
	tui_term_apply_theme(app);
}

static size_t nseries(const struct tui_app *app)
{
	const struct tui_screen_ops *ops = tui_screen_get(app->screen);

	if (ops->nseries)
		return ops->nseries(app);
	return app->res.have ? app->res.run.ntimers : 0;
}

static void draw_title(const struct tui_app *app, struct tui_hits *hits)
{
	const struct tui_rect *r = &app->lay.title;
	int a = tui_attr_status(app);
	tui_fill(r->y, r->x, r->w, a);
	int x = tui_put(r->y, r->x, r->w, a | A_BOLD, " ticklab ");
	for (int s = 0; s < TUI_NSCREENS; s++) {
		const struct tui_screen_ops *ops = tui_screen_get((enum tui_screen)s);
		int sa = s == (int)app->screen ? tui_attr_selected(app) | (int)A_BOLD : a;
		hits->tab_x[s] = x;
		if (ops->tab_needs_content && ops->absent && ops->absent(app))
			continue;
		x += tui_putf(r->y, x, r->x + r->w - x, sa, " %s ", tui_screen_name((enum tui_screen)s));
	}
	hits->tab_x[TUI_NSCREENS] = x;
	const struct tui_screen_ops *ops = tui_screen_get(app->screen);
	char right[3][900], rest[700], mode[160] = "";
	if (app->res.replay)
		snprintf(rest, sizeof rest, "replay %s  theme %s ", app->res.path, app->theme.name);
	else
		snprintf(rest, sizeof rest, "N=%zu  theme %s ", app->opts.n, app->theme.name);
	/* the screen's own words first (Live's axis mode): the rest only where it fits */
	if (ops->title)
		ops->title(app, mode, sizeof mode);
	snprintf(right[0], sizeof right[0], "%s%s%s", mode, mode[0] ? "  " : "", rest);
	snprintf(right[1], sizeof right[1], "%s%s", mode, mode[0] ? " " : "");
	snprintf(right[2], sizeof right[2], "%s", rest);
	for (int i = 0; i < 3; i++) {
		int rw = (int)strlen(right[i]);
		if (rw && x + rw + 1 < r->x + r->w) {
			tui_put(r->y, r->x + r->w - rw, rw, a, right[i]);
			break;
		}
	}
}

/* The message on the prompt line. A new one too long for the line takes
 * as many lines above it as it needs (up to half the body; the rest is in
 * the log) until the next key; after that its first line stays, ending in a
 * pointer to the log, so no word is ever lost. */
static void draw_message(const struct tui_app *app)
{
	const struct tui_rect *r = &app->lay.prompt;
	char lines[32][TUI_WRAP_LINE];
	int a = tui_attr(app, app->msg.error ? TUI_ROLE_ERROR : TUI_ROLE_MAIN_FG);
	int room = app->lay.body.h / 2 + 1;
	size_t n = tui_wrap(app->msg.text, r->w, lines, 32);

	if (room > 32)
		room = 32;
	if (n <= 1) {
		tui_put(r->y, r->x, r->w, a, app->msg.text);
		return;
	}
	if (!app->msg.fresh || room < 2) {
		n = tui_wrap(app->msg.text, r->w - 12, lines, 1);
		tui_putf(r->y, r->x, r->w, a, "%s ... (L: log)", lines[0]);
		return;
	}
	if ((int)n > room) {
		n = tui_wrap(app->msg.text, r->w, lines, (size_t)room);
		n = (size_t)room;
		snprintf(lines[n - 1] + (strlen(lines[n - 1]) > (size_t)r->w - 12 ? (size_t)r->w - 12
										  : strlen(lines[n - 1])),
			 12, " ... (L)");
	}
	for (size_t i = 0; i < n; i++) {
		int y = r->y - (int)(n - 1 - i);

		tui_fill(y, r->x, r->w, A_NORMAL);
		tui_put(y, r->x, r->w, a, lines[i]);
	}
}

/* The message log: the session's messages, newest at the bottom, wrapped
 * to the box; the newest that fit are shown. */
static void draw_log(const struct tui_app *app)
{
	const size_t max = TUI_LOG_MAX * 4;
	char (*lines)[TUI_WRAP_LINE] = tl_xcalloc(max, sizeof *lines);
	bool err[TUI_LOG_MAX * 4];
	int w = app->cols - 4, h = app->rows - 4, y0 = 2, x0 = 2;
	size_t first = app->msg.n > TUI_LOG_MAX ? app->msg.n - TUI_LOG_MAX : 0, n = 0;

	for (size_t m = first; m < app->msg.n; m++) {
		size_t k = tui_wrap(app->msg.log[m % TUI_LOG_MAX], w - 4, lines + n, max - n);

		for (size_t i = 0; i < k && n < max; i++)
			err[n++] = app->msg.log_error[m % TUI_LOG_MAX];
	}
	for (int y = 0; y < h; y++)
		tui_fill(y0 + y, x0, w, A_NORMAL);
	tui_putf(y0, x0 + 1, w - 2, tui_attr(app, TUI_ROLE_TITLE) | A_BOLD,
		 " Messages (%zu this session%s) ", app->msg.n,
		 app->msg.n > TUI_LOG_MAX ? ", the last 64 kept" : "");
	size_t rows = (size_t)(h - 3), start = n > rows ? n - rows : 0;
	for (size_t i = start; i < n; i++)
		tui_put(y0 + 1 + (int)(i - start), x0 + 2, w - 4,
			tui_attr(app, err[i] ? TUI_ROLE_ERROR : TUI_ROLE_MAIN_FG), lines[i]);
	if (!n)
		tui_put(y0 + 1, x0 + 2, w - 4, tui_attr(app, TUI_ROLE_INACTIVE), "no messages yet");
	tui_put(y0 + h - 1, x0 + 1, w - 2, tui_attr(app, TUI_ROLE_INACTIVE),
		" any key closes the log");
	free(lines);
}

static void draw_prompt(const struct tui_app *app)
{
	const struct tui_rect *r = &app->lay.prompt;
	if (app->line.mode != TUI_INPUT_NONE) {
		static const char *const what[] = {"", "filter /", "add: ", "N = ",
						   "a run is going: stop it and quit? (y/n) ",
						   "search: "};
		const char *hint = "";
		if (app->line.mode == TUI_INPUT_CUSTOM)
			hint = app->focus == 1 ? "(0, 48KiB, 27.5MiB, 4xL2) "
			       : app->focus == 2 ? "(empty, add:K, add:0:20000:2000, jitter:K,D,P) "
						 : "(backend id, sim:sd=5) ";
		int x = tui_putf(r->y, r->x, r->w, tui_attr(app, TUI_ROLE_HI), "%s%s", what[app->line.mode],
				 hint);
		x += tui_put(r->y, x, r->w - x, tui_attr(app, TUI_ROLE_MAIN_FG), app->line.buf);
		if (app->line.mode != TUI_INPUT_CONFIRM_QUIT)
			tui_put(r->y, x, 1, A_REVERSE, " ");
		return;
	}
	draw_message(app);
}

static void draw_status(const struct tui_app *app)
{
	const struct tui_rect *r = &app->lay.status;
	char buf[512];
	tui_keys_status(app->screen, app->res.replay, r->w - 1, buf, sizeof buf);
	tui_fill(r->y, r->x, r->w, tui_attr_status(app));
	tui_putf(r->y, r->x, r->w, tui_attr_status(app), " %s", buf);
}

#define HELP_ROWS 160
#define HELP_W 62

static int help_width(const struct tui_app *app)
{
	return HELP_W > app->cols - 2 ? app->cols - 2 : HELP_W;
}

/* The overlay's rows: the screen's keys, then what its numbers, words and
 * marks mean (tui/glossary.def). */
static size_t help_lines(const struct tui_app *app, char lines[][96])
{
	size_t n = tui_keys_help(app->screen, lines, HELP_ROWS);

	if (n + 1 < HELP_ROWS)
		snprintf(lines[n++], 96, "  What this screen's numbers and marks mean (Down):");
	return n + tui_glossary_help(app->screen, help_width(app) - 2, lines + n, HELP_ROWS - n);
}

/* Rows of text the overlay shows at once: the frame and the last row (what
 * closes it) take the rest. The overlay may cover the title and status
 * rows: at 80x24 every key of Setup then still fits. */
static int help_rows(const struct tui_app *app, size_t n)
{
	int h = (int)n + 4 > app->rows ? app->rows : (int)n + 4;

	return h - 4;
}

/* Down, j, Space and PgDn scroll the help, Up, k and PgUp back; any other
 * key closes it. */
static bool help_scroll(struct tui_app *app, int ch, bool fkey)
{
	char lines[HELP_ROWS][96];
	int n = (int)help_lines(app, lines), rows = help_rows(app, (size_t)n), top = app->shell.help_top;

	if (fkey ? ch == KEY_DOWN : ch == 'j')
		top++;
	else if (fkey ? ch == KEY_NPAGE : ch == ' ')
		top += rows;
	else if (fkey ? ch == KEY_UP : ch == 'k')
		top--;
	else if (fkey && ch == KEY_PPAGE)
		top -= rows;
	else
		return false;
	top = top > n - rows ? n - rows : top;
	app->shell.help_top = top < 0 ? 0 : top;
	app->dirty = true;
	return true;
}

static void draw_help(const struct tui_app *app)
{
	char lines[HELP_ROWS][96];
	size_t n = help_lines(app, lines);
	int w = help_width(app), rows = help_rows(app, n), h = rows + 4;
	int top = app->shell.help_top, below = (int)n - top - rows;
	int y0 = (app->rows - h) / 2, x0 = (app->cols - w) / 2;
	int a = tui_attr(app, TUI_ROLE_MAIN_FG);
	for (int y = 0; y < h; y++)
		tui_fill(y0 + y, x0, w, A_NORMAL);
	/* Box lines as text, not the alternate character set: over SSH some
	 * terminals show ACS as letters (qxlmj). */
	bool u = app->tier == TUI_TIER_UTF8;
	int d = tui_attr(app, TUI_ROLE_DIV);
	for (int x = 1; x < w - 1; x++) {
		tui_put(y0, x0 + x, 1, d, u ? "─" : "-");
		tui_put(y0 + h - 1, x0 + x, 1, d, u ? "─" : "-");
	}
	for (int y = 1; y < h - 1; y++) {
		tui_put(y0 + y, x0, 1, d, u ? "│" : "|");
		tui_put(y0 + y, x0 + w - 1, 1, d, u ? "│" : "|");
	}
	tui_put(y0, x0, 1, d, u ? "┌" : "+");
	tui_put(y0, x0 + w - 1, 1, d, u ? "┐" : "+");
	tui_put(y0 + h - 1, x0, 1, d, u ? "└" : "+");
	tui_put(y0 + h - 1, x0 + w - 1, 1, d, u ? "┘" : "+");
	tui_putf(y0, x0 + 2, w - 4, tui_attr(app, TUI_ROLE_TITLE) | A_BOLD,
		 " Help: %s screen keys and terms ", tui_screen_name(app->screen));
	for (int i = 0; i < rows && top + i < (int)n; i++)
		tui_put(y0 + 1 + i, x0 + 1, w - 2, a, lines[top + i]);
	if (below > 0)
		tui_putf(y0 + h - 2, x0 + 1, w - 2, tui_attr(app, TUI_ROLE_TITLE),
			 "  %s %d more: Down/Space; any other key closes", u ? "▼" : "v", below);
	else
		tui_put(y0 + h - 2, x0 + 1, w - 2, tui_attr(app, TUI_ROLE_INACTIVE),
			top ? "  Up: back; any other key closes this help"
			    : "  any key closes this help");
}

static void draw_too_small(const struct tui_app *app)
{
	const struct tui_rect *m = &app->lay.msg;
	char l2[32];
	snprintf(l2, sizeof l2, "%dx%d, need %dx%d", app->cols, app->rows, TUI_MIN_COLS,
		 TUI_MIN_ROWS);
	const char *lines[] = {"Terminal too small", l2, "enlarge it, or", "q to quit"};
	for (int i = 0; i < 4 && i < m->h; i++)
		tui_put(m->y + i, m->x, m->w, i == 0 ? (int)A_BOLD : (int)A_NORMAL, lines[i]);
}

/* The whole frame from the state poll left: only reads it (the click map
 * aside). */
static void draw(const struct tui_app *app, struct tui_hits *hits)
{
	erase();
	if (app->lay.too_small) {
		draw_too_small(app);
	} else {
		draw_title(app, hits);
		tui_screen_get(app->screen)->draw(app, hits);
		draw_prompt(app);
		draw_status(app);
		if (app->shell.help)
			draw_help(app);
		else if (app->msg.show)
			draw_log(app);
	}
}

/* A frame out, when the sampling CPU allows it. */
static void frame(struct tui_app *app)
{
	draw(app, &app->shell.hits);
	wnoutrefresh(stdscr);
	if (!tui_live_may_draw(app)) {
		/* dirty stays set; try again half a frame later, not at once */
		app->shell.last_frame = tl_monotonic_s() - FRAME_S / 2;
		return;
	}
	doupdate();
	app->dirty = false;
	app->shell.last_frame = tl_monotonic_s();
}

static void go(struct tui_app *app, enum tui_screen s)
{
	const struct tui_screen_ops *ops = tui_screen_get(s);

	if (s != app->screen)
		app->back = app->screen;
	app->screen = s;
	if (ops->enter)
		ops->enter(app);
}

/* Esc: where the screen says (Info where it was opened from, ...), else Setup. */
static enum tui_screen back_of(const struct tui_app *app)
{
	const struct tui_screen_ops *ops = tui_screen_get(app->screen);

	return ops->back ? ops->back(app) : TUI_SETUP;
}

/* e and E where the screen has no export of its own: the run's. */
static void export_run(struct tui_app *app, bool csv)
{
	char why[WHY_LEN], path[1024];

	if (tui_live_export(app, csv, false, path, sizeof path, why, sizeof why) < 0)
		tui_message(app, true, "export failed: %s", why);
	else if (!csv && !tui_term_quitting()) /* figures can wait */
		tui_live_export_figures(app, path);
	else
		tui_message(app, false, "exported to %s", path);
}

/* A number or F-key: straight to a screen, when it has something to show. */
static void go_direct(struct tui_app *app, enum tui_screen s)
{
	const struct tui_screen_ops *ops = tui_screen_get(s);
	const char *why = ops->absent ? ops->absent(app) : NULL;

	if (why)
		tui_message(app, true, "%s", why);
	else
		go(app, s);
}

static void action(struct tui_app *app, enum tui_action a)
{
	char why[WHY_LEN];
	int started;
	if (a >= TUI_ACT_GO && a <= TUI_ACT_GO_END) {
		go_direct(app, (enum tui_screen)(a - TUI_ACT_GO));
		app->dirty = true;
		return;
	}
	switch (a) {
	case TUI_ACT_QUIT:
		if (tui_live_running(app) || tui_search_running(app)) {
			app->line.mode = TUI_INPUT_CONFIRM_QUIT;
			app->line.buf[0] = '\0';
			app->line.len = 0;
		} else
			app->shell.quit = true;
		break;
	case TUI_ACT_HELP:
		app->shell.help = !app->shell.help;
		app->shell.help_top = 0;
		break;
	case TUI_ACT_LOG:
		app->msg.show = true;
		break;
	case TUI_ACT_THEME:
		theme_next(app);
		break;
	case TUI_ACT_SNAPSHOT:
		tui_snapshot(app);
		break;
	case TUI_ACT_INFO:
		go(app, TUI_INFO);
		break;
	case TUI_ACT_BACK:
		go(app, back_of(app));
		break;
	case TUI_ACT_RUN:
		if (app->res.replay)
			tui_message(app, true, "replay: nothing is measured here; ticklab tui measures");
		else if (tui_live_running(app) || tui_search_running(app))
			tui_message(app, true, "busy: wait for the current run or search, or press q");
		else if ((started = tui_live_start(app, why, sizeof why)) == -2)
			tui_message(app, true, "%s", why);
		else if (started < 0)
			tui_message(app, true, "cannot run: %s", why);
		else {
			go(app, TUI_LIVE);
			if (tui_memory_save(app, why, sizeof why) < 0)
				tui_message(app, true, "the setup is not remembered: %s", why);
		}
		break;
	case TUI_ACT_PARAMS:
		tui_search_params_edit(app);
		break;
	case TUI_ACT_RESET: /* R on Setup: the remembered setup is the shell's (memory.c) */
		if (tui_busy())
			tui_message(app, true, "busy: reset when the run or search has ended");
		else
			tui_memory_reset(app);
		break;
	case TUI_ACT_SEARCH:
		if (app->res.replay)
			tui_message(app, true, "replay: a search measures; run ticklab tui to search");
		else if (tui_search_running(app))
			go(app, TUI_SEARCH);
		else if (tui_search_start(app, why, sizeof why) < 0)
			tui_message(app, true, "cannot search: %s", why);
		else {
			tui_message(app, false, "searching t_min then t_diff (fast method)...");
			go(app, TUI_SEARCH);
		}
		break;
	case TUI_ACT_EXPORT:
	case TUI_ACT_EXPORT_CSV: {
		const struct tui_screen_ops *ops = tui_screen_get(app->screen);

		(ops->export ? ops->export : export_run)(app, a == TUI_ACT_EXPORT_CSV);
		break;
	}
	default: {
		const struct tui_screen_ops *ops = tui_screen_get(app->screen);

		if (ops->action)
			ops->action(app, a);
		break;
	}
	}
	app->dirty = true;
}

static void input_key(struct tui_app *app, wint_t ch, bool fkey)
{
	if (app->line.mode == TUI_INPUT_CONFIRM_QUIT) {
		app->line.mode = TUI_INPUT_NONE;
		if (!fkey && (ch == 'y' || ch == 'Y'))
			app->shell.quit = true;
		else
			tui_message(app, false, "still running");
		return;
	}
	if (!fkey && (ch == '\n' || ch == '\r'))
		tui_setup_input_done(app, true);
	else if ((fkey && ch == KEY_ENTER))
		tui_setup_input_done(app, true);
	else if (!fkey && ch == 27)
		tui_setup_input_done(app, false);
	else if (!fkey && ch == 21) { /* Ctrl-U clears the line, as in a shell */
		app->line.len = 0;
		app->line.buf[0] = '\0';
	}
	else if ((fkey && ch == KEY_BACKSPACE) || (!fkey && (ch == 127 || ch == 8))) {
		while (app->line.len && (app->line.buf[app->line.len - 1] & 0xc0) == 0x80)
			app->line.len--;
		if (app->line.len)
			app->line.len--;
		app->line.buf[app->line.len] = '\0';
	} else if (!fkey && ch >= 32) {
		char mb[8];
		mbstate_t st;
		memset(&st, 0, sizeof st);
		size_t n = wcrtomb(mb, (wchar_t)ch, &st);
		if (n != (size_t)-1 && app->line.len + n < sizeof app->line.buf - 1) {
			memcpy(app->line.buf + app->line.len, mb, n);
			app->line.len += n;
			app->line.buf[app->line.len] = '\0';
		}
	}
	if (app->line.mode == TUI_INPUT_FILTER)
		tui_setup_filter_typed(app);
	app->dirty = true;
}

/* A click on a screen's tab: the action of the key it stands for. */
static bool mouse_tabs(struct tui_app *app, const MEVENT *ev)
{
	if (ev->y == app->lay.title.y)
		for (int s = 0; s < TUI_NSCREENS; s++)
			if (ev->x >= app->shell.hits.tab_x[s] && ev->x < app->shell.hits.tab_x[s + 1]) {
				action(app, (enum tui_action)(TUI_ACT_GO + s));
				return true;
			}
	return false;
}

/* Only with --mouse: clicks switch screens on the tabs, and act where the
 * screen says (rows on Setup, Live's arrows); the wheel moves. */
static void mouse(struct tui_app *app, const MEVENT *ev)
{
	const struct tui_screen_ops *ops = tui_screen_get(app->screen);
	bool b1 = ev->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED |
				BUTTON1_TRIPLE_CLICKED);

	if (app->shell.help || app->line.mode != TUI_INPUT_NONE || app->lay.too_small)
		return;
	if (b1 && mouse_tabs(app, ev))
		return;
	if (b1 && ops->click && ops->click(app, ev->y, ev->x, ev->bstate & BUTTON1_CLICKED)) {
		app->dirty = true;
		return;
	}
	if (ev->bstate & BUTTON4_PRESSED)
		action(app, TUI_ACT_UP);
	else if (ev->bstate & BUTTON5_PRESSED)
		action(app, TUI_ACT_DOWN);
}

static void keys(struct tui_app *app)
{
	wint_t ch;
	int rc;
	while ((rc = get_wch(&ch)) != ERR) {
		bool fkey = rc == KEY_CODE_YES;
		if (fkey && ch == KEY_RESIZE) {
			tui_term_resize(app);
			app->dirty = true;
			continue;
		}
		if (fkey && ch == KEY_MOUSE) {
			MEVENT ev;
			if (getmouse(&ev) == OK)
				mouse(app, &ev);
			continue;
		}
		if (app->line.mode != TUI_INPUT_NONE) {
			input_key(app, ch, fkey);
			continue;
		}
		if (app->shell.help && help_scroll(app, (int)ch, fkey))
			continue;
		if (app->shell.help || app->msg.show) {
			app->shell.help = app->msg.show = false;
			app->dirty = true;
			continue;
		}
		/* a key read after a message: it has been seen, back to one line */
		if (app->msg.fresh) {
			app->msg.fresh = false;
			app->dirty = true;
		}
		/* "too small" shows nothing to act on: only quit (q, F10) and
		 * resize (above) do anything, so no key changes a hidden screen */
		if (app->lay.too_small && !(fkey ? ch == KEY_F(10) : ch == 'q'))
			continue;
		if (!fkey && ch >= KEY_MIN)
			continue; /* a character whose code a function key also uses */
		int key = (int)ch;
		enum tui_action a = tui_keys_lookup(key, app->screen);
		if (a != TUI_ACT_NONE)
			action(app, a);
	}
}

/* Ctrl-C, SIGTERM, SIGHUP, SIGQUIT (Ctrl-\\: its default core dump would
 * leave the terminal raw): keep what was measured, then leave. */
static void interrupted(struct tui_app *app, int sig, char *saved, size_t len)
{
	char why[160];
	bool was_running = tui_live_running(app);

	if (app->shell.quit)
		return; /* a hang-up is both SIGHUP and POLLHUP: one save */
	tui_search_stop(app);
	tui_live_stop(app);
	saved[0] = '\0';
	/* A run measured here (finished or not) is kept, raw: its analysis
	 * is seconds that whoever hung up is not waiting for. */
	if (app->res.have && !app->res.replay &&
	    tui_live_save_session(app, was_running || app->res.interrupted, saved, len, why,
				  sizeof why) < 0)
		snprintf(saved, len, "(not saved: %s)", why);
	app->shell.quit = true;
	app->shell.exit_status = 128 + sig;
}

static void signals(struct tui_app *app, char *saved, size_t len)
{
	unsigned char b[64];
	ssize_t n;
	while ((n = read(tui_term_signal_fd(), b, sizeof b)) > 0)
		for (ssize_t i = 0; i < n; i++) {
			int sig = b[i];
			if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT)
				interrupted(app, sig, saved, len);
			else if (sig == SIGWINCH)
				tui_term_resize(app);
			else if (sig == SIGTSTP)
				tui_term_suspend();
			else if (sig == SIGCONT) {
				/* stopped from outside (SIGSTOP): a shell may have reset the modes */
				reset_prog_mode();
				clearok(curscr, TRUE);
			}
			app->dirty = true;
		}
}

static int loop(struct tui_app *app, char *saved, size_t len)
{
	tui_term_loop_started();
	while (!app->shell.quit) {
		/* the frame's layout first: the shown screen's poll computes for it */
		tui_layout_compute(app->cols, app->rows, nseries(app), &app->lay);
		for (int s = 0; s < TUI_NSCREENS; s++) {
			const struct tui_screen_ops *ops = tui_screen_get((enum tui_screen)s);

			if (ops->poll)
				ops->poll(app, s == (int)app->screen && !app->lay.too_small);
		}
		double now = tl_monotonic_s();
		if (app->dirty && now - app->shell.last_frame >= FRAME_S)
			frame(app);
		int timeout = 250;
		if (app->dirty)
			timeout = (int)((app->shell.last_frame + FRAME_S - tl_monotonic_s()) * 1000) + 1;
		else if (tui_live_running(app))
			timeout = 100; /* progress and ETA move on their own */
		if (timeout < 1)
			timeout = 1;
		struct pollfd fds[3] = {{STDIN_FILENO, POLLIN, 0},
					{app->shell.wake[0], POLLIN, 0},
					{tui_term_signal_fd(), POLLIN, 0}};
		int rc = poll(fds, 3, timeout);
		if (rc < 0 && errno != EINTR)
			return -1;
		if (rc <= 0) {
			if (tui_live_running(app))
				app->dirty = true;
			continue;
		}
		if (fds[2].revents & POLLIN)
			signals(app, saved, len);
		if (fds[1].revents & POLLIN) {
			unsigned char b[256];
			while (read(app->shell.wake[0], b, sizeof b) > 0)
				;
			app->dirty = true;
		}
		if (fds[0].revents & (POLLHUP | POLLERR)) {
			interrupted(app, SIGHUP, saved, len);
			break;
		}
		if (fds[0].revents & POLLIN)
			keys(app);
	}
	return 0;
}

/* Last screen first: workers that read Setup's lists end before them. */
static void app_free(struct tui_app *app)
{
	for (int s = TUI_NSCREENS - 1; s >= 0; s--) {
		const struct tui_screen_ops *ops = tui_screen_get((enum tui_screen)s);

		if (ops->free)
			ops->free(app);
	}
	for (int i = 0; i < 2; i++)
		if (app->shell.wake[i] >= 0)
			close(app->shell.wake[i]);
}

/* The UTF-8 tier needs every glyph it draws to be one column wide here
 * (East Asian locales make some of them two); otherwise ASCII is safer. */
static enum tui_tier tier_check(enum tui_tier t)
{
	static const wchar_t glyphs[] = L"●○◆■▲✚◇□█▁░◀▶▼─│┌┐└┘✗✓×\x2801\x28ff";
	if (t != TUI_TIER_UTF8)
		return t;
	for (size_t i = 0; glyphs[i]; i++)
		if (wcwidth(glyphs[i]) != 1)
			return TUI_TIER_ASCII;
	return t;
}

int tui_run(const struct tui_opts *opts, char *why, size_t whylen)
{
	static struct tui_app app_storage;
	struct tui_app *app = &app_storage;
	char saved[1200] = "";
	int rc;

	app->opts = *opts;
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C"); /* numbers in files and on screen use '.' */
	app->tier = tier_check(tui_tier_choose(nl_langinfo(CODESET), getenv("TERM")));
	/* Fixed before anything pins this thread: the default follows the mask. */
	tui_affinity_save();
	if (app->opts.cpu < 0)
		app->opts.cpu = tl_cpu_default();
	app->shell.wake[0] = app->shell.wake[1] = -1;

	/* a saved search opens on the search screen, anything else as a run */
	int loaded = app->opts.replay ? tui_search_load(app, app->opts.replay, why, whylen) : 1;
	if (loaded < 0 ||
	    (loaded > 0 && app->opts.replay && tui_live_load(app, app->opts.replay, why, whylen) < 0)) {
		app_free(app);
		return TUI_LOAD_FAILED;
	}
	if (opts->nfleet && tui_fleet_load(app, opts->fleet, opts->nfleet, why, whylen) < 0) {
		app_free(app);
		return TUI_LOAD_FAILED;
	}
	if (app->opts.baseline && tui_baseline_load(app, app->opts.baseline, why, whylen) < 0) {
		app_free(app);
		return TUI_LOAD_FAILED;
	}
	if (tui_term_open(app, why, whylen) < 0) {
		app_free(app);
		return TUI_NO_TERMINAL;
	}
	if (pipe(app->shell.wake) == 0)
		for (int i = 0; i < 2; i++) {
			fcntl(app->shell.wake[i], F_SETFL, fcntl(app->shell.wake[i], F_GETFL) | O_NONBLOCK);
			fcntl(app->shell.wake[i], F_SETFD, FD_CLOEXEC);
		}
	char theme_why[WHY_LEN];
	tui_memory_load(app);
	theme_init(app, theme_why, sizeof theme_why);
	tui_term_apply_theme(app);
	for (int s = 0; s < TUI_NSCREENS; s++) {
		const struct tui_screen_ops *ops = tui_screen_get((enum tui_screen)s);

		if (ops->init)
			ops->init(app);
	}
	tui_memory_apply(app);
	tui_memory_preselect(app);
	if (theme_why[0])
		tui_message(app, true, "%s; using the built-in theme", theme_why);
	/* the last screen that has what the command line opened shows first */
	const char *hello = "";
	bool opened = false;
	app->screen = TUI_SETUP;
	for (int s = 0; s < TUI_NSCREENS; s++) {
		const struct tui_screen_ops *ops = tui_screen_get((enum tui_screen)s);
		const char *h = ops->opens ? ops->opens(app) : NULL;

		if (h) {
			app->screen = (enum tui_screen)s;
			hello = h;
			opened = true;
		}
	}
	app->back = TUI_SETUP;
	if (hello[0] && !app->msg.text[0])
		tui_message(app, false, "%s", hello);
	else if (!app->msg.text[0])
		tui_message(app, false, app->res.replay ? "replay: %s (nothing is measured)"
						    : "Space selects, Enter runs, ? shows every key%s",
			    app->res.replay ? app->res.path : "");
	/* only on Setup: what the command line opened is shown, not run */
	if (app->opts.start && !opened)
		action(app, TUI_ACT_RUN); /* --start: Enter on Setup, with its checks */
	app->dirty = true;
	rc = loop(app, saved, sizeof saved);
	tui_done();
	char mwhy[WHY_LEN];
	if (tui_memory_save(app, mwhy, sizeof mwhy) < 0)
		fprintf(stderr, "ticklab: the setup is not remembered: %s\n", mwhy);
	if (saved[0])
		printf("ticklab: interrupted; session saved to %s\n", saved);
	int status = rc < 0 ? 1 : app->shell.exit_status;
	app_free(app);
	return status;
}
