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
#include "io/jitter.h"
#include "io/plot.h"
#include "io/results.h"
#include "io/setup_memory.h"
#include "stats/search.h"
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
	char detail[200];
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
	/* jitter cells, once all their samples are in (the bootstrap is too
	 * slow to redo every frame): the injected variation's verdict */
	struct tl_jitter jit;
	bool have_jit;
};

/* One search of (backend, flush): its live curves and its results. */
struct tui_search_row {
	size_t timer, flush;       /* indexes into the setup lists (for grouping) */
	char id[TL_ID_MAX];        /* copies: the lists may grow while a search runs */
	uint64_t bytes;
	/* its answers are app->search_cells[the row's index] (same order) */
	uint64_t *cv_x;            /* observed points (guarded by the search mutex) */
	double *cv_y;
	size_t ncv, capcv;
	uint64_t *ov_x;
	double *ov_y;
	size_t nov, capov;
};

struct tui_app {
	struct tui_opts opts;
	enum tui_screen screen, back;
	bool help;
	bool quit;
	int exit_status;
	int cols, rows;
	struct tui_layout lay;

	/* look */
	struct tui_theme theme;
	char theme_names[32][64];
	size_t ntheme_names, theme_idx;
	int colours;               /* 0 none, 8, 256 */
	enum tui_tier tier;
	char msg[TUI_MSG_MAX];     /* prompt-line message */
	bool msg_error;
	bool msg_fresh;            /* not yet followed by a key: shown whole, wrapped */
	/* the session's messages, oldest first (a ring of TUI_LOG_MAX) */
	char log[TUI_LOG_MAX][TUI_MSG_MAX];
	bool log_error[TUI_LOG_MAX];
	size_t nlog;               /* messages so far; the ring keeps the last TUI_LOG_MAX */
	bool show_log;             /* the message log overlay */

	/* setup */
	struct tui_list lists[3];
	int focus;
	enum tui_input input;
	char inbuf[160];
	size_t inlen;
	bool have_topo;
	struct tl_topology topo;
	struct tl_host host;
	bool have_host;
	/* the node's facts are measured on a worker, never in a draw */
	pthread_t info_thread;
	bool info_live;            /* the worker was started and not joined */
	atomic_bool info_done;     /* it has finished: info_result is whole */
	struct tl_host info_result;
	json_t *host_json;         /* replay: the file's host object */
	int info_top;

	/* run */
	struct tl_run run;
	bool have_run;             /* run is prepared or loaded */
	bool replay;               /* run came from a file (tl_run_unload) */
	bool interrupted;          /* the loaded file was a Ctrl-C session */
	struct tl_results_meta meta; /* replay: what the file said */
	char replay_path[512];
	enum tl_os_method os;
	uint64_t run_seed;
	pthread_t thread;
	bool thread_live;          /* joined when done is seen */
	atomic_bool thread_done;
	int thread_rc;
	char thread_why[512];
	double t_start, t_end;
	double paused_at, paused_s; /* when the pause began; seconds paused before it */
	double eta_active0;         /* sampling seconds when the first samples were seen, */
	size_t eta_done0;           /* and their count (0: none yet): the ETA's rate starts there */
	double eta_estimate_s;      /* the run's estimated seconds (bench/estimate.h), before any sample */
	struct tui_view *views;    /* one per cell */
	size_t cur_flush, cur_kernel, page;
	char (*kernels)[64];       /* distinct visible kernel labels */
	size_t nkernels;
	int ui_cpu;

	/* search */
	struct tui_search_row *rows_s;
	size_t nrows_s;
	pthread_mutex_t search_mu;
	atomic_bool search_stop;
	atomic_bool search_done;
	bool search_live;
	pthread_t search_thread;
	struct tl_search_plan search_plan; /* what the engine runs; .ref is the reference */
	/* the parameters the next search takes (o edits them); until edited,
	 * the defaults with N and the seed of the TUI's options */
	struct tl_search_plan search_params;
	bool search_params_set;
	struct tl_search_cell *search_cells; /* one per row (guarded by search_mu) */
	bool search_replay;        /* rows came from a file */
	size_t search_cur;         /* row whose curves are shown */

	/* memory ladder (ladder.c): its state, and whether Live shows it */
	struct tui_ladder_view *ladder;
	bool ladder_on;
	struct tui_fleet_view *fleet; /* fleet.c: NULL when no fleet is open */
	/* Live's shown series and their x-axis (series.c) */
	struct tui_series series;
	/* tui --baseline FILE: ghosts and verdicts (baseline.c), NULL without */
	struct tui_baseline *baseline;
	/* where a mouse click acts, as last drawn (0 wide: not shown) */
	int tab_x[TUI_NSCREENS + 1]; /* tab s spans [tab_x[s], tab_x[s + 1]) on the title row */
	int nav_y;                   /* the live progress row */
	int nav_x[5][2];             /* there: left, right, up, down arrows and the page indicator */

	/* the remembered setup (memory.c) */
	char memory_path[1024];     /* "" when there is nowhere to keep it */
	bool memory_loaded;         /* memory holds a valid file's setup */
	struct tl_setup_memory memory;
	size_t n_default;           /* N before the memory: R goes back to it */
	const char *theme_default;  /* likewise the theme (NULL: "default") */

	/* wakeups from worker threads (one byte per event, never blocking) */
	int wake[2];
	bool dirty;
	double last_frame;
};

/* term.c: the terminal, colours, signals and small drawing helpers. */
int tui_term_open(struct tui_app *app, char *why, size_t whylen);
void tui_done(void);
int tui_term_signal_fd(void);
/* Called as the main loop starts reading that fd; until then INT, TERM and
 * HUP restore the terminal and exit 128 + the signal at once. */
void tui_term_loop_started(void);
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
/* The one dim line a screen shows in its body before it has anything to draw. */
void tui_put_empty(const struct tui_app *app, const char *text);
void tui_wake(struct tui_app *app);
void tui_message(struct tui_app *app, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* setup.c */
void tui_setup_init(struct tui_app *app);
void tui_setup_free(struct tui_app *app);
void tui_setup_draw(struct tui_app *app);
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
void tui_live_poll(struct tui_app *app);
void tui_live_draw(struct tui_app *app);
void tui_live_action(struct tui_app *app, enum tui_action a);
bool tui_live_running(const struct tui_app *app);
/* The backends on one page of Live, and how many pages there are. */
size_t tui_live_pages(const struct tui_app *app);
void tui_live_stop(struct tui_app *app);
void tui_live_free(struct tui_app *app);
const struct tui_view *tui_live_view(struct tui_app *app, size_t cell);
/* Brings the views of cells up to date (throttled as the drawn ones are). */
void tui_live_refresh(struct tui_app *app, const size_t *cells, size_t n);
/* The visible cell of (timer, flush, kernel label), or SIZE_MAX. */
size_t tui_live_cell(const struct tui_app *app, size_t timer, size_t flush, const char *kernel);

/* export.c */
int tui_live_export(struct tui_app *app, bool csv, bool interrupted, char *path, size_t pathlen,
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
/* Worker threads (sampling, search) start with every signal blocked (they
 * belong to the event loop) and the original CPU mask, so they can pin
 * themselves; returns pthread_create's status. tui_worker_join waits for
 * one that ended or was told to stop, clears *live and gives the UI its
 * CPUs back. */
int tui_worker_start(pthread_t *thread, void *(*fn)(void *), void *arg);
void tui_worker_join(pthread_t thread, bool *live);

/* search_ui.c */
int tui_search_start(struct tui_app *app, char *why, size_t whylen);
/* o: edit the next search's parameters as name=value pairs */
void tui_search_params_edit(struct tui_app *app);
void tui_search_params_done(struct tui_app *app, const char *text);
void tui_search_draw(struct tui_app *app);
void tui_search_action(struct tui_app *app, enum tui_action a);
bool tui_search_running(const struct tui_app *app);
void tui_search_stop(struct tui_app *app);
void tui_search_free(struct tui_app *app);
/* A saved search (ticklab search --json or the search export) onto the
 * search screen: 0, 1 when path is not a search file, -1 with why. */
int tui_search_load(struct tui_app *app, const char *path, char *why, size_t whylen);
/* The search's JSON (the schema of ticklab search --json) to path. */
int tui_search_export(struct tui_app *app, const char *path, char *why, size_t whylen);

/* ladder.c: the memory ladder preset (Setup) and view (Live) */
void tui_ladder_preset(struct tui_app *app);
void tui_ladder_reset(struct tui_app *app);  /* a new run or replay */
void tui_ladder_toggle(struct tui_app *app);
void tui_ladder_poll(struct tui_app *app);   /* event loop: new samples -> ladders */
void tui_ladder_draw(struct tui_app *app);
void tui_ladder_free(struct tui_app *app);

/* fleet.c: fingerprints judged once by io/fleet.c as `ticklab fleet`
 * judges them; the screen only reads the verdicts. load: 0, or -1 with why
 * as `ticklab fleet` says it (naming the file). */
int tui_fleet_load(struct tui_app *app, char *const *paths, size_t n, char *why, size_t whylen);
void tui_fleet_draw(struct tui_app *app);
void tui_fleet_action(struct tui_app *app, enum tui_action a);
void tui_fleet_free(struct tui_app *app);

/* info.c */
void tui_info_draw(struct tui_app *app);
void tui_info_action(struct tui_app *app, enum tui_action a);
void tui_info_ensure(struct tui_app *app);
/* Takes the measuring worker's facts once it is done (the event loop). */
void tui_info_poll(struct tui_app *app);
/* Waits for the worker, if one runs (before the app is freed). */
void tui_info_free(struct tui_app *app);

#endif
