/* A saved run as Live's baseline (ticklab tui --baseline FILE): its CDFs
 * drawn as ghosts beside the live series, and each cell's verdict against
 * it from io/run_compare.c, the machinery of ticklab compare and run
 * --baseline. The comparison runs in a child process once the run is
 * whole (it allocates through base/xalloc, so running out of memory ends
 * the child, not the lab, and SIGKILL ends it at once): the UI reads its
 * rows as they come, never computes them in a draw, and a new run or
 * quit simply ends the child. Private to tui/. */
#ifndef TL_TUI_BASELINE_H
#define TL_TUI_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

struct tui_app;

/* Loads path (0, or -1 with why: bad input) and analyses its cells for the
 * ghosts. */
int tui_baseline_load(struct tui_app *app, const char *path, char *why, size_t whylen);
void tui_baseline_free(struct tui_app *app);
/* A new run or replay: its cells are matched with the baseline's. */
void tui_baseline_reset(struct tui_app *app);
/* The event loop: starts the comparison once the run is whole, takes its rows. */
void tui_baseline_poll(struct tui_app *app);

/* The ghost of live cell `cell`: its baseline's kept samples, sorted (false
 * when it has none). */
bool tui_baseline_ghost(const struct tui_app *app, size_t cell, const double **sorted, size_t *n,
			double *min, double *p99);
/* The verdict line of live cell `cell` in at most w columns; false when no
 * baseline is loaded. *bad: the cell differs from its baseline. */
bool tui_baseline_line(const struct tui_app *app, size_t cell, int w, char *buf, size_t len,
		       bool *bad, bool *dim);
/* For the export: the comparison of the whole run with the baseline, as
 * run --baseline computes it (tl_runs_compare with the run's seed and the
 * default band), and the baseline run; false without a baseline (or out
 * of memory). *out is then the caller's to tl_run_compare_free. */
struct tl_run;
struct tl_run_compare;
bool tui_baseline_compare(const struct tui_app *app, struct tl_run_compare *out,
			  const struct tl_run **base);
/* The baseline's file name, or NULL. */
const char *tui_baseline_path(const struct tui_app *app);

#endif
