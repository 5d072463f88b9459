#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "base/xalloc.h"
#include "io/theme_contrast.h"
#include "tui/app.h"
#include "tui/wrap.h"
#define TUI_TERMINFO
#include "tui/curses.h"

/* The terminal lifecycle lives here and only here: one newterm, one
 * idempotent tui_done, signals through a self-pipe. */
static SCREEN *screen;
static volatile sig_atomic_t term_active;
static struct termios saved_tio;
static bool have_tio;
static int sig_pipe[2] = {-1, -1};
/* Restore sequence for crash handlers, prepared while it is safe to. */
static char restore_seq[256];
static size_t restore_len;

static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT};
/* Crashes, and the signals whose default is to end the process that the
 * lab has no use for (kill -USR1, an alarm(1) left by a wrapper, a CPU
 * limit): each puts the terminal back first, then ends the process as the
 * signal would have, so none leaves it raw on the alternate screen. */
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
				    SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
				    SIGSYS, SIGTRAP, SIGIO};

static atomic_bool quit_flag;

const atomic_bool *tui_term_quit_flag(void)
{
	return &quit_flag;
}

bool tui_term_quitting(void)
{
	return atomic_load(&quit_flag);
}

/* Set once the main loop reads the self-pipe: before, nothing reads it. */
static volatile sig_atomic_t loop_running;

/* Only async-signal-safe calls: put the terminal back. */
static void restore_terminal(void)
{
	if (term_active) {
		if (restore_len && write(STDOUT_FILENO, restore_seq, restore_len) < 0) {
			/* nothing more can be done */
		}
		if (have_tio)
			tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	}
}

/* tl_fail's hook: out of memory, endwin could itself allocate, so the
 * prepared sequence is written instead. */
static void restore_on_fail(void *arg)
{
	(void)arg;
	restore_terminal();
	term_active = 0;
}

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;

	if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT)
		atomic_store(&quit_flag, true);
	/* Before the loop (loading a theme or a replay) nothing is measured
	 * yet and nothing would read the pipe: INT, TERM and HUP end it now. */
	if (!loop_running && (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT)) {
		restore_terminal();
		_exit(128 + sig);
	}
	if (sig_pipe[1] >= 0 && write(sig_pipe[1], &b, 1) < 0) {
		/* a full pipe already holds a wake-up */
	}
	errno = saved;
}

void tui_term_loop_started(void)
{
	loop_running = 1;
}

void tui_term_forget(void)
{
	term_active = 0;
}

/* Put the terminal back, then die as asked. */
static void on_crash(int sig)
{
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void handle(int sig, void (*fn)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

int tui_term_signal_fd(void)
{
	return sig_pipe[0];
}

static void append_cap(const char *name)
{
	const char *s = tigetstr((char *)name);
	if (!s || s == (char *)-1)
		return;
	size_t n = strlen(s);
	if (restore_len + n < sizeof restore_seq) {
		memcpy(restore_seq + restore_len, s, n);
		restore_len += n;
	}
}

int tui_term_open(struct tui_app *app, char *why, size_t whylen)
{
	const char *term = getenv("TERM");
	int err = 0;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(why, whylen, "standard input or output is not a terminal");
		return -1;
	}
	if (!term || !*term || strcmp(term, "dumb") == 0) {
		snprintf(why, whylen, "TERM=%s cannot address the cursor", term ? term : "");
		return -1;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(why, whylen, "TERM=%s is not in the terminfo database", term);
		return -1;
	}
	const char *cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		del_curterm(cur_term);
		snprintf(why, whylen, "TERM=%s cannot address the cursor", term);
		return -1;
	}
	del_curterm(cur_term);

	if (pipe(sig_pipe) < 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(sig_pipe[i], F_SETFL, fcntl(sig_pipe[i], F_GETFL) | O_NONBLOCK);
		fcntl(sig_pipe[i], F_SETFD, FD_CLOEXEC);
	}
	have_tio = tcgetattr(STDIN_FILENO, &saved_tio) == 0;
	/* Our handlers go in first: ncurses then leaves these signals to us. */
	for (size_t i = 0; i < sizeof quit_signals / sizeof quit_signals[0]; i++)
		handle(quit_signals[i], on_signal);
	for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
		handle(crash_signals[i], on_crash);

	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		/* The plain-text fallback runs next: signals act as usual again. */
		for (size_t i = 0; i < sizeof quit_signals / sizeof quit_signals[0]; i++)
			handle(quit_signals[i], SIG_DFL);
		for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
			handle(crash_signals[i], SIG_DFL);
		snprintf(why, whylen, "TERM=%s: the terminal could not be set up", term);
		return -1;
	}
	term_active = 1;
	restore_len = 0;
	append_cap("sgr0");
	append_cap("cnorm");
	append_cap("rmcup");
	atexit(tui_done);
	tl_fail_hook_add(restore_on_fail, NULL);

	cbreak(); /* not raw: Ctrl-C and Ctrl-Z still reach us as signals */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	mousemask(app->opts.mouse ? ALL_MOUSE_EVENTS : 0, NULL);
	tui_term_apply_theme(app);
	getmaxyx(stdscr, app->rows, app->cols);
	return 0;
}

void tui_done(void)
{
	if (!term_active)
		return;
	term_active = 0;
	tl_fail_hook_remove(restore_on_fail, NULL);
	endwin();
	if (screen) {
		delscreen(screen);
		screen = NULL;
	}
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	fflush(stdout);
}

void tui_term_suspend(void)
{
	def_prog_mode();
	endwin();
	handle(SIGTSTP, SIG_DFL);
	raise(SIGTSTP); /* stops here until SIGCONT */
	handle(SIGTSTP, on_signal);
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
}

void tui_term_resize(struct tui_app *app)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resize_term(ws.ws_row, ws.ws_col);
	getmaxyx(stdscr, app->rows, app->cols);
	clearok(curscr, TRUE);
}

/* Colour pairs: one per role (role colour on the main background), then
 * the two that carry their own background. */
#define PAIR_SELECTED (TUI_NROLES + 1)
#define PAIR_STATUS (TUI_NROLES + 2)

void tui_term_apply_theme(struct tui_app *app)
{
	const char *nc = getenv("NO_COLOR");
	app->colours = 0;
	if ((nc && *nc) || !has_colors())
		return;
	start_color();
	use_default_colors();
	app->colours = COLORS >= 256 ? 256 : COLORS >= 8 ? 8 : 0;
	if (!app->colours)
		return;
	/* A colour the terminal cannot show readably is swapped for the nearest
	 * that reads (WCAG 4.5:1 for text), as tests/test_theme_contrast checks. */
	int idx[TUI_NROLES];
	tui_theme_reduce(&app->theme, app->colours, 0x000000, idx);
	int bg = idx[TUI_ROLE_MAIN_BG];
	for (int r = 0; r < TUI_NROLES; r++)
		init_pair((short)(r + 1), (short)idx[r], (short)bg);
	init_pair(PAIR_SELECTED, (short)idx[TUI_ROLE_SELECTED_FG], (short)idx[TUI_ROLE_SELECTED_BG]);
	init_pair(PAIR_STATUS, (short)idx[TUI_ROLE_STATUS_FG], (short)idx[TUI_ROLE_STATUS_BG]);
	bkgdset((chtype)COLOR_PAIR(TUI_ROLE_MAIN_FG + 1));
	clearok(curscr, TRUE);
}

int tui_attr(const struct tui_app *app, enum tui_role role)
{
	/* Attributes carry the meaning in mono; colour only adds to it. */
	int extra = 0;
	if (role == TUI_ROLE_TITLE || role == TUI_ROLE_HI || role == TUI_ROLE_WARN ||
	    role == TUI_ROLE_ERROR)
		extra = A_BOLD;
	/* Eight colours have one grey at most: dim tells inactive text apart. */
	if (role == TUI_ROLE_INACTIVE && app->colours < 256)
		extra = A_DIM;
	if (!app->colours || app->theme.rgb[role] < 0)
		return extra;
	return (int)COLOR_PAIR(role + 1) | extra;
}

int tui_attr_selected(const struct tui_app *app)
{
	if (!app->colours || app->theme.rgb[TUI_ROLE_SELECTED_BG] < 0)
		return A_REVERSE;
	return (int)COLOR_PAIR(PAIR_SELECTED);
}

int tui_attr_status(const struct tui_app *app)
{
	if (!app->colours || app->theme.rgb[TUI_ROLE_STATUS_BG] < 0)
		return A_REVERSE;
	return (int)COLOR_PAIR(PAIR_STATUS);
}

int tui_attr_series(const struct tui_app *app, int s)
{
	return tui_attr(app, (enum tui_role)(TUI_ROLE_SERIES + s));
}

int tui_put(int y, int x, int w, int attr, const char *text)
{
	wchar_t wbuf[1024];
	if (w <= 0 || y < 0 || x < 0)
		return 0;
	size_t n = mbstowcs(wbuf, text, sizeof wbuf / sizeof wbuf[0] - 1);
	if (n == (size_t)-1) {
		/* not valid in this locale: show the bytes we can */
		n = 0;
		for (const char *p = text; *p && n < sizeof wbuf / sizeof wbuf[0] - 1; p++)
			wbuf[n++] = (unsigned char)*p < 128 ? (wchar_t)*p : L'?';
	}
	wbuf[n] = 0;
	if ((int)n > w)
		n = (size_t)w;
	attrset(attr);
	mvaddnwstr(y, x, wbuf, (int)n);
	attrset(A_NORMAL);
	return (int)n;
}

int tui_putf(int y, int x, int w, int attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return tui_put(y, x, w, attr, buf);
}

int tui_put_wrapped(int y, int x, int w, int ymax, int indent, int attr, const char *text)
{
	char rows[16][TUI_WRAP_LINE];
	/* every row gets the continuation rows' width, so all of them fit */
	size_t n = tui_wrap(text, w - indent > 8 ? w - indent : w, rows, 16);

	for (size_t i = 0; i < n && i < 16 && y < ymax; i++, y++)
		tui_put(y, x + (i ? indent : 0), w - (i ? indent : 0), attr, rows[i]);
	return y;
}

void tui_fill(int y, int x, int w, int attr)
{
	if (w <= 0)
		return;
	attrset(attr);
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

void tui_put_cdf_yaxis(const struct tui_app *app, const struct tui_rect *box, int ylab)
{
	int dim = tui_attr(app, TUI_ROLE_INACTIVE), h = box->h - 2;

	tui_put(box->y + 1, box->x, ylab, dim, "1.0");
	tui_put(box->y + 1 + h / 2, box->x, ylab, dim, "0.5");
	tui_put(box->y + h, box->x, ylab, dim, "0");
}

void tui_put_ns_xaxis(const struct tui_app *app, const struct tui_rect *box, int off, double lo,
		      double hi)
{
	int dim = tui_attr(app, TUI_ROLE_INACTIVE), y = box->y + box->h - 1, w = box->w - off;
	char a[24], b[24], m[24];

	tui_fmt_ns(lo, a, sizeof a);
	tui_fmt_ns((lo + hi) / 2, m, sizeof m);
	tui_fmt_ns(hi, b, sizeof b);
	tui_put(y, box->x + off, w, dim, a);
	tui_put(y, box->x + off + w / 2 - (int)strlen(m) / 2, (int)strlen(m), dim, m);
	tui_put(y, box->x + box->w - (int)strlen(b), (int)strlen(b), dim, b);
}

void tui_put_canvas(const struct tui_app *app, int y, int x, const struct tui_canvas *cv)
{
	char g[8];
	for (int cy = 0; cy < cv->h; cy++)
		for (int cx = 0; cx < cv->w; cx++) {
			int s = tui_canvas_cell(cv, app->tier, cx, cy, g);
			if (strcmp(g, " "))
				tui_put(y + cy, x + cx, 1,
					s >= TUI_GHOST_SERIES
						? tui_attr_series(app, s - TUI_GHOST_SERIES) | (int)A_DIM
					: s >= 0 ? tui_attr_series(app, s)
						 : tui_attr(app, TUI_ROLE_INACTIVE),
					g);
		}
}

void tui_put_empty(const struct tui_app *app, const char *text)
{
	tui_put(app->lay.body.y + 1, 2, app->cols - 2, tui_attr(app, TUI_ROLE_INACTIVE), text);
}

void tui_wake(struct tui_app *app)
{
	unsigned char b = 1;
	if (app->shell.wake[1] >= 0 && write(app->shell.wake[1], &b, 1) < 0) {
		/* full: the UI has a wake-up pending already */
	}
}

void tui_message(struct tui_app *app, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(app->msg.text, sizeof app->msg.text, fmt, ap);
	va_end(ap);
	app->msg.error = error;
	app->msg.fresh = true;
	memcpy(app->msg.log[app->msg.n % TUI_LOG_MAX], app->msg.text, sizeof app->msg.text);
	app->msg.log_error[app->msg.n % TUI_LOG_MAX] = error;
	app->msg.n++;
	app->dirty = true;
}
