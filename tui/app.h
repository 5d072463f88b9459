/* The TUI's shared state and the functions its files call in each other.
 * Private to tui/. */
#ifndef TL_TUI_APP_H
#define TL_TUI_APP_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/host.h"
#include "bench/kernel.h"
#include "bench/runner.h"
#include "bench/search_cell.h"
#include "bench/topology.h"
#include "io/jitter_out.h"
#include "io/plot.h"
#include "io/results.h"
#include "io/setup_memory.h"
#include "stats/search.h"
#include "tui/noise_view.h"
#include "stats/stats.h"
#include "tui/baseline.h"
#include "tui/canvas.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tui/series.h"
#include "tui/theme.h"
#include "tui/tui.h"

#define TUI_MSG_MAX 512
#define TUI_LOG_MAX 64

/* One row of a setup list. */
struct tui_item {
	char label[TL_ID_MAX];
	char detail[320];
	bool selected;
	bool available;
	uint64_t bytes;            /* flush list */
	struct tl_kernel kernel;   /* kernel list */
};

struct tui_list {
	const char *title;
	struct tui_item *items;
	size_t n, cap;
	size_t cursor;             /* index into items (always a visible one) */
	size_t top;                /* first visible row shown */
	void *re;                  /* pcre2_code of the filter, NULL: all */
	void *md;                  /* its match data */
	char pattern[128];
	char before[128];          /* the pattern when / was pressed (Esc restores it) */
	size_t cursor_before;      /* and the cursor */
	int row_cols;              /* columns of a drawn row (0: not drawn yet) */
	int label_cols;            /* the label's padded width in a row */
};

enum tui_input {
	TUI_INPUT_NONE,
	TUI_INPUT_FILTER,
	TUI_INPUT_CUSTOM,
	TUI_INPUT_N,
	TUI_INPUT_CONFIRM_QUIT,
	TUI_INPUT_SEARCH_PARAMS,
};

/* What the live screen shows of one cell: computed from a snapshot of the
 * run by io/ and stats/ functions, kept until the cell gets new samples. */
struct tui_view {
	size_t done;               /* samples analysed (SIZE_MAX: never) */
	double when;               /* tl_monotonic_s() of that analysis */
	double cost;               /* seconds it took */
	struct tl_analysis an;
	double overhead_ns;
	double *sorted;            /* the samples the filters kept, sorted, for the CDF */
	size_t nsorted;
	size_t capsorted;          /* sorted's room: reused while the cell grows */
	struct tl_histogram hist;
	bool have_hist;
	/* jitter cells, once all their samples are in (its several
	 * comparisons, each with KS's exact p, are too slow to redo every
	 * frame): the injected variation's verdict */
	struct tl_jitter jit;
	bool have_jit;
	struct tui_noise_view noise; /* the samples with a cause, for the marks */
	unsigned caveats;          /* tl_cell_caveats of the analysis */
};


/* One job off the UI thread: start runs fn(job) on a thread with every
 * signal blocked (samples: as a sampling worker, above); when fn returns,
 * done is set and the event loop woken through the wake pipe. fn reads
 * job->arg, writes its result where the job's owner reads it once
 * finished, and may poll stop to end early. The owner's poll calls
 * tui_job_finished, which joins the thread once it is done (true that
 * once): the result is then whole. */
struct tui_job {
	pthread_t thread;
	/* a forked job (tui_job_fork): fn runs in a child and writes its
	 * results to fd; the owner reads them from fd, and at its end of file
	 * calls tui_job_wait, which reaps the child and sets status (fn
	 * returned: 0) */
	pid_t pid;                 /* 0: a thread */
	int fd;                    /* the child's write end, the owner's read end */
	int status;
	bool live;                 /* started and not joined (UI thread only) */
	bool samples;
	atomic_bool done;
	atomic_bool stop;          /* cancel: fn ends at its next check */
	/* progress, done of total units of work: the owner sets the starting
	 * pair before start (start keeps it, so the first poll has it), fn
	 * reports as it goes (tui_job_progress_set); each word is atomic, so
	 * the owner's poll may read them at any time */
	atomic_size_t prog_done, prog_total;
	/* the hand-over (tui_job_lock, _publish, _take): what fn writes for
	 * the owner is guarded by mu, and gen counts what it published */
	pthread_mutex_t mu;
	bool mu_ready;
	unsigned long gen;
	/* a thread's answer, whole once finished: 0 or -1 with why */
	int rc;
	char why[512];
	struct tui_app *app;       /* for waking the loop only: fn writes through arg */
	void (*fn)(struct tui_job *job);
	void *arg;
};
/* Live's own state (live.c, with its parts ladder.c, series.c and
 * baseline.c): the sampling worker, the views of the cells and what the
 * keys chose. TUI_LIVE(app) reaches it, const with a const app. */
struct tui_live {
	struct tui_job sampling;   /* the run's worker (tui/worker.c) */
	double t_start, t_end;
	double paused_at, paused_s; /* when the pause began; seconds paused before it */
	double eta_active0;         /* sampling seconds when the first samples were seen, */
	size_t eta_done0;           /* and their count (0: none yet): the ETA's rate starts there */
	double eta_estimate_s;      /* the run's estimated seconds (bench/estimate.h), before any sample */
	struct tui_view *views;    /* one per cell */
	size_t cur_flush, cur_kernel, page;
	char (*kernels)[64];       /* distinct visible kernel labels */
	size_t nkernels;
	uint64_t long_asked;       /* the shape of the long run Enter was asked to start */
	/* memory ladder (ladder.c): its state, and whether Live shows it */
	struct tui_ladder_view *ladder;
	bool ladder_on;
	/* the shown series and their x-axis (series.c) */
	struct tui_series series;
	/* tui --baseline FILE: ghosts and verdicts (baseline.c), NULL without */
	struct tui_baseline *baseline;
};

/* Where a mouse click acts, as last drawn (0 wide: not shown). A draw
 * reads the app through a const pointer; this is the one thing it writes. */
struct tui_hits {
	int tab_x[TUI_NSCREENS + 1]; /* tab s spans [tab_x[s], tab_x[s + 1]) on the title row */
	int nav_y;                   /* the live progress row */
	int nav_x[5][2];             /* there: left, right, up, down arrows and the page indicator */
};

struct tui_app;

/* One screen: its entry in the table of tui/screens.def. Every operation
 * but draw may be NULL. The event loop calls poll on every screen at every
 * turn (shown: it is the one on screen, after the layout of this frame is
 * known): poll takes the workers' results and computes what draw shows.
 * draw only reads, through a const pointer, so the compiler holds the rule
 * "a draw reads state". */
struct tui_screen_ops {
	const char *name;
	/* why there is nothing to show yet (a message naming how to get it),
	 * NULL when there is; NULL op: always something */
	const char *(*absent)(const struct tui_app *app);
	bool tab_needs_content;    /* its tab shows only when absent says NULL */
	/* the lab opens on it (what the command line loaded is here): its
	 * first message, "" for the shell's; NULL: it does not */
	const char *(*opens)(const struct tui_app *app);
	void (*init)(struct tui_app *app);      /* once, when Setup's lists exist */
	void (*enter)(struct tui_app *app);     /* it becomes the shown screen */
	void (*poll)(struct tui_app *app, bool shown);
	void (*draw)(const struct tui_app *app, struct tui_hits *hits);
	void (*action)(struct tui_app *app, enum tui_action a);
	void (*free)(struct tui_app *app);
	/* the plot series the layout gives columns to; NULL: the run's timers */
	size_t (*nseries)(const struct tui_app *app);
	/* what it says first on the title row's right; NULL: nothing */
	void (*title)(const struct tui_app *app, char *buf, size_t len);
	/* where Esc goes from it; NULL: Setup */
	enum tui_screen (*back)(const struct tui_app *app);
	/* e and E on it; NULL: the run's export (JSON and figures, or CSV) */
	void (*export)(struct tui_app *app, bool csv);
	/* a button-1 event at (y, x) with --mouse (click: a whole click, not
	 * only a press); true when it acted. NULL: only the tabs act */
	bool (*click)(struct tui_app *app, int y, int x, bool click);
};

/* screen.c: the table, in enum tui_screen order */
const struct tui_screen_ops *tui_screen_get(enum tui_screen s);

/* The prompt line's message and the session's log (term.c's tui_message
 * writes both). */
struct tui_msgs {
	char text[TUI_MSG_MAX];    /* the prompt line's */
	bool error;
	bool fresh;                /* not yet followed by a key: shown whole, wrapped */
	/* the session's messages, oldest first (a ring of TUI_LOG_MAX) */
	char log[TUI_LOG_MAX][TUI_MSG_MAX];
	bool log_error[TUI_LOG_MAX];
	size_t n;                  /* messages so far; the ring keeps the last TUI_LOG_MAX */
	bool show;                 /* the message log overlay */
};

/* The prompt line while it takes typed text (a filter, an N, ...). */
struct tui_line {
	enum tui_input mode;
	char buf[160];
	size_t len;
};

/* The event loop's own (tui.c): overlays, the end, the frame clock. */
struct tui_shell {
	bool help;
	int help_top;              /* the help overlay's first row shown (it scrolls) */
	bool quit;
	int exit_status;
	double last_frame;
	/* wakeups from worker threads (one byte per event, never blocking) */
	int wake[2];
	/* where a mouse click acts, as last drawn: the one thing a draw writes */
	struct tui_hits hits;
};

/* The themes the t key cycles through. */
struct tui_themes {
	char names[32][64];
	size_t n, idx;
};

/* The node's facts, measured on Info's worker (info.c) or read from the
 * file shown, never in a draw. */
struct tui_node {
	bool have_topo;
	struct tl_topology topo;
	double ns_per_add;         /* measured at setup (0: not known): ADDs in ns */
	struct tl_host host;
	bool have_host;
	json_t *host_json;         /* replay: the file's host object */
	/* the levels were measured again (Info's M) levels_gen times; Setup
	 * re-sizes its cache multiples while sized_gen lags behind */
	unsigned levels_gen, sized_gen;
};

/* The run's results, every screen's to read: sampled live or loaded. */
struct tui_results {
	struct tl_run run;
	bool have;                 /* run is prepared or loaded */
	bool replay;               /* what is shown came from a file (tl_run_unload) */
	bool interrupted;          /* the loaded file was a Ctrl-C session */
	struct tl_results_meta meta; /* replay: what the file said */
	char path[512];            /* replay: the file */
	enum tl_os_method os;      /* the analysis the run's cells get */
	uint64_t seed;
	/* the node's levels the run's NxLk were sized by (NULL: none were
	 * measured); Info can measure again while the run is kept */
	const struct tl_levels *levels;
};

/* The remembered setup (memory.c). */
struct tui_remembered {
	char path[1024];           /* "" when there is nowhere to keep it */
	bool loaded;               /* saved holds a valid file's setup */
	struct tl_setup_memory saved;
	size_t n_default;          /* N before the memory: R goes back to it */
	const char *theme_default; /* likewise the theme (NULL: "default") */
};

/* What every screen shares; each screen's own state is its priv. */
struct tui_app {
	struct tui_opts opts;
	enum tui_screen screen, back;
	struct tui_shell shell;
	bool dirty;                /* a frame is due */

	/* the terminal and its look */
	int cols, rows;
	struct tui_layout lay;
	enum tui_tier tier;
	int colours;               /* 0 none, 8, 256 */
	struct tui_theme theme;
	struct tui_themes themes;
	struct tui_msgs msg;
	struct tui_line line;

	/* the selection (Setup's lists, read by Live and Search) */
	struct tui_list lists[3];
	int focus;

	struct tui_node node;
	struct tui_results res;
	struct tui_remembered mem;
	/* each screen's own state, made by its init or first use (NULL before,
	 * or without one) */
	void *priv[TUI_NSCREENS];
};

/* A cell's view on Live (NULL past the cells): the analyses Live's poll
 * keeps, read by its parts (the ladder, the series) and the draws. */
static inline const struct tui_live *tui_live_get(const struct tui_app *app)
{
	return app->priv[TUI_LIVE];
}
/* live.c: Live's state, made on first use */
struct tui_live *tui_live_mut(struct tui_app *app);
#define TUI_LIVE(app)                                                                        \
	_Generic((app), struct tui_app *: tui_live_mut, const struct tui_app *: tui_live_get)(app)

static inline const struct tui_view *tui_live_view(const struct tui_app *app, size_t cell)
{
	return cell < app->res.run.ncells ? &tui_live_get(app)->views[cell] : NULL;
}

/* term.c: the terminal, colours, signals and small drawing helpers. */
int tui_term_open(struct tui_app *app, char *why, size_t whylen);
void tui_done(void);
int tui_term_signal_fd(void);
/* Called as the main loop starts reading that fd; until then INT, TERM and
 * HUP restore the terminal and exit 128 + the signal at once. */
void tui_term_loop_started(void);
/* In a forked worker: the terminal is the parent's, so a signal that ends
 * the child must not write the restore sequence to it. */
void tui_term_forget(void);
/* Set by INT, TERM, HUP or QUIT the moment one arrives (the loop reads
 * the self-pipe only between steps): work the UI thread does at length
 * (laying out flush buffers, the estimate, an analysis, an export) looks
 * at it and gives up, so the signal is handled within a second. */
const atomic_bool *tui_term_quit_flag(void);
bool tui_term_quitting(void);
void tui_term_suspend(void);
void tui_term_resize(struct tui_app *app);
void tui_term_apply_theme(struct tui_app *app);
int tui_attr(const struct tui_app *app, enum tui_role role);
int tui_attr_selected(const struct tui_app *app);
int tui_attr_status(const struct tui_app *app);
/* The colour and attributes of plot series s (its glyph tells it apart in mono). */
int tui_attr_series(const struct tui_app *app, int s);
/* Draws UTF-8 text at (y, x), clipped to w columns, with attr. Returns columns used. */
int tui_put(int y, int x, int w, int attr, const char *text);
/* text over as many rows as it needs from y (below ymax), broken at spaces,
 * continuation rows indented; returns the row after the last one used */
int tui_put_wrapped(int y, int x, int w, int ymax, int indent, int attr, const char *text);
int tui_putf(int y, int x, int w, int attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void tui_fill(int y, int x, int w, int attr);
/* Blits a canvas with its top-left cell at (y, x): each series in its
 * colour, dots of no series (thresholds, grids) dim, empty cells untouched. */
void tui_put_canvas(const struct tui_app *app, int y, int x, const struct tui_canvas *cv);
/* A CDF plot's axes; box is the whole plot: its title row, the canvas's
 * box->h - 2 rows from the second, the axis row. The y axis: 1.0, 0.5 and
 * 0 in the ylab columns at its left; the x axis: lo, the middle and hi in
 * ns under the canvas, which starts at column box->x + off. */
void tui_put_cdf_yaxis(const struct tui_app *app, const struct tui_rect *box, int ylab);
void tui_put_ns_xaxis(const struct tui_app *app, const struct tui_rect *box, int off, double lo,
		      double hi);
/* The one dim line a screen shows in its body before it has anything to draw. */
void tui_put_empty(const struct tui_app *app, const char *text);
void tui_wake(struct tui_app *app);
void tui_message(struct tui_app *app, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* setup.c */
void tui_setup_init(struct tui_app *app);
void tui_setup_free(struct tui_app *app);
void tui_setup_draw(const struct tui_app *app, struct tui_hits *hits);
/* Fits the lists to the layout: their scroll and what the filter matches. */
void tui_setup_poll(struct tui_app *app, bool shown);
void tui_setup_action(struct tui_app *app, enum tui_action a);
void tui_setup_input_done(struct tui_app *app, bool accept);
/* The filter follows the typing: the list narrows with each key. */
void tui_setup_filter_typed(struct tui_app *app);
/* A mouse click at (y, x): focus the list and the row there; toggle selects it. */
void tui_setup_click(struct tui_app *app, int y, int x, bool toggle);
bool tui_list_visible(const struct tui_list *l, size_t i);
/* Adds the kernels of a spec to the kernel list: 0, or -1 with why. */
int tui_setup_add_kernels(struct tui_app *app, const char *text, bool selected, char *why,
			  size_t whylen);
/* The remembered setup onto the lists: unselect a whole list, then select
 * the row labelled text (added when missing and it parses or probes here;
 * false when it cannot be had on this node). */
void tui_setup_unselect_all(struct tui_app *app, int which);
bool tui_setup_pick(struct tui_app *app, int which, const char *text);

/* m on Setup: the memory ladder's load kernels, flush 0, one timer. */
void tui_ladder_preset(struct tui_app *app);

/* memory.c: the last setup, kept in $XDG_CONFIG_HOME/ticklab/setup.json.
 * load before the theme (it may name one), apply after the lists exist,
 * save when a run starts and when the TUI ends, reset on R. */
void tui_memory_load(struct tui_app *app);
void tui_memory_apply(struct tui_app *app);
/* The command line's --backend, --flush, --kernel over what was remembered:
 * each list given replaces that list's selection. */
void tui_memory_preselect(struct tui_app *app);
/* Returns 0, or -1 with why (the caller says it: a message, or stderr at the end). */
int tui_memory_save(struct tui_app *app, char *why, size_t whylen);
void tui_memory_reset(struct tui_app *app);

/* live.c */
int tui_live_start(struct tui_app *app, char *why, size_t whylen);
int tui_live_load(struct tui_app *app, const char *path, char *why, size_t whylen);
void tui_live_poll(struct tui_app *app, bool shown);
/* False while the sampling thread is inside a timed region (for up to a
 * short wait): no frame is drawn over a sample. */
bool tui_live_may_draw(const struct tui_app *app);
void tui_live_draw(const struct tui_app *app, struct tui_hits *hits);
void tui_live_action(struct tui_app *app, enum tui_action a);
bool tui_live_running(const struct tui_app *app);
/* The backends on one page of Live, and how many pages there are. */
size_t tui_live_pages(const struct tui_app *app);
void tui_live_stop(struct tui_app *app);
void tui_live_free(struct tui_app *app);
/* The visible cell of (timer, flush, kernel label), or SIZE_MAX. */
size_t tui_live_cell(const struct tui_app *app, size_t timer, size_t flush, const char *kernel);

/* export.c */
int tui_live_export(struct tui_app *app, bool csv, bool interrupted, char *path, size_t pathlen,
		    char *why, size_t whylen);
/* What a signal keeps of the run: its samples as they are, not analysed
 * (`ticklab report` analyses them), as a session file named as the
 * export's; the path in path. */
int tui_live_save_session(struct tui_app *app, bool interrupted, char *path, size_t pathlen,
			  char *why, size_t whylen);
/* Writes an export's document atomically and releases it. */
int tui_export_json(const char *path, json_t *doc, char *why, size_t whylen);
/* DIR/ticklab-KIND-YYYYmmdd-HHMMSS-PID.EXT, DIR the working directory when
 * it is writable, else $TMPDIR or /tmp. */
void tui_export_name(char *buf, size_t len, const char *kind, const char *ext);
/* Beside an exported JSON, its figures: each is drawn by draw into the
 * JSON's name with .json replaced by the figure's suffix, and one message
 * says where the JSON and every figure went (or why one could not be
 * drawn). draw returns 0, 1 when there is nothing of that kind to draw (the
 * figure is left out), -1 with why. */
struct tui_figure {
	enum tl_plot_kind kind;
	const char *suffix;
};
typedef int (*tui_figure_fn)(struct tui_app *app, const struct tl_plot_opts *o, const char *path,
			     char *why, size_t whylen);
void tui_export_figures(struct tui_app *app, const char *json, const struct tui_figure *figs,
			size_t n, tui_figure_fn draw);
/* e on Live: the run's histograms (.svg) and CDFs (-cdf.svg). */
void tui_live_export_figures(struct tui_app *app, const char *json);

/* worker.c: the UI thread's CPU while a worker samples: the process's original mask
 * is kept so workers (and the UI afterwards) get it back. */
void tui_affinity_save(void);
void tui_affinity_restore(void);
void tui_affinity_ui(struct tui_app *app, int sampling_cpu);
/* A worker samples (a run or a search): the node is not idle. */
bool tui_busy(void);

int tui_job_start(struct tui_job *job, struct tui_app *app, void (*fn)(struct tui_job *job),
		  void *arg, bool samples);
bool tui_job_finished(struct tui_job *job);
void tui_job_wait(struct tui_job *job);   /* waits, without asking it to stop */
void tui_job_cancel(struct tui_job *job); /* asks it to stop, then waits */
/* fn(job) in a forked child (-1 with errno when no pipe or child). */
int tui_job_fork(struct tui_job *job, struct tui_app *app, void (*fn)(struct tui_job *job), void *arg);
/* fn's progress report (worker side) and the owner's read of it. */
void tui_job_progress_set(struct tui_job *job, size_t done, size_t total);
void tui_job_progress(const struct tui_job *job, size_t *done, size_t *total);
/* The hand-over of a worker's results: fn writes them under the job's
 * lock, then publishes (lock held) and wakes the loop; the owner's poll
 * takes them: take(ctx) runs under the lock when something was published
 * since *seen (true then), and copies what the screen shows, so no draw
 * reads what a worker writes. Before any start the lock is a no-op: no
 * worker shares anything. */
void tui_job_lock(struct tui_job *job);
void tui_job_unlock(struct tui_job *job);
void tui_job_publish(struct tui_job *job);
void tui_job_wake(struct tui_job *job);
bool tui_job_take(struct tui_job *job, unsigned long *seen, void (*take)(void *ctx), void *ctx);
/* The job's lock goes (the owner's free, once the job has ended). */
void tui_job_release(struct tui_job *job);

/* search_ui.c */
int tui_search_start(struct tui_app *app, char *why, size_t whylen);
/* o: edit the next search's parameters as name=value pairs */
void tui_search_params_edit(struct tui_app *app);
void tui_search_params_done(struct tui_app *app, const char *text);
void tui_search_draw(const struct tui_app *app, struct tui_hits *hits);
/* Joins the search worker once it is done (the event loop). */
void tui_search_poll(struct tui_app *app, bool shown);
void tui_search_action(struct tui_app *app, enum tui_action a);
bool tui_search_running(const struct tui_app *app);
void tui_search_stop(struct tui_app *app);
void tui_search_free(struct tui_app *app);
/* A saved search (ticklab search --json or the search export) onto the
 * search screen: 0, 1 when path is not a search file, -1 with why. */
int tui_search_load(struct tui_app *app, const char *path, char *why, size_t whylen);
/* The search's JSON (the schema of ticklab search --json) to path. */
int tui_search_export(struct tui_app *app, const char *path, char *why, size_t whylen);

/* ladder.c: the memory ladder view on Live */
void tui_ladder_reset(struct tui_app *app);  /* a new run or replay */
void tui_ladder_toggle(struct tui_app *app);
/* The load cells the ladder shows (0 when it is not on screen): Live
 * brings their views up to date, then calls poll, which redoes the ladders. */
size_t tui_ladder_cells(const struct tui_app *app, size_t *cells, size_t max);
void tui_ladder_poll(struct tui_app *app);
void tui_ladder_draw(const struct tui_app *app);
void tui_ladder_free(struct tui_app *app);

/* fleet.c: fingerprints judged once by io/fleet.c as `ticklab fleet`
 * judges them; the screen only reads the verdicts. load: 0, or -1 with why
 * as `ticklab fleet` says it (naming the file). Everything else of the
 * screen is reached through its entry in the screen table. */
int tui_fleet_load(struct tui_app *app, char *const *paths, size_t n, char *why, size_t whylen);

/* info.c */
void tui_info_draw(const struct tui_app *app, struct tui_hits *hits);
void tui_info_action(struct tui_app *app, enum tui_action a);
void tui_info_ensure(struct tui_app *app);
/* Takes the measuring worker's facts once it is done; shown, starts it and
 * lays out the screen's lines (the event loop). */
void tui_info_poll(struct tui_app *app, bool shown);
/* Waits for the worker, if one runs (before the app is freed). */
void tui_info_free(struct tui_app *app);

#endif
