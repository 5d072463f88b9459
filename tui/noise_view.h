/* What the Live screen marks in a cell's histogram: the samples the noise
 * tracker gave a cause (bench/noise.h), by cause, at the value the
 * histogram shows them (after t_e,std, as the kept samples). Computed when
 * a view is brought up to date (tui_noise_view_update); the drawing only
 * reads it. The causes are a finished run's: the tracker names the
 * window-level ones (tick, irq) only when the run closes, and a running
 * run's flags are the sampling thread's to write. A simulated timer's
 * samples are drawn, not measured: nothing interrupted them, so none is
 * marked. */
#ifndef TL_TUI_NOISE_VIEW_H
#define TL_TUI_NOISE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/noise.h"
#include "bench/runner.h"
#include "stats/stats.h"

#define TUI_NOISE_TOP 3 /* causes named one by one; the rest are "other" */

struct tui_noise_view {
	bool ready;                 /* the cell's causes are known (see above) */
	size_t total;               /* samples with a cause */
	size_t ncause;              /* shown slots: up to TUI_NOISE_TOP, then "other" */
	char name[TUI_NOISE_TOP + 1][TL_NOISE_NAME];
	size_t count[TUI_NOISE_TOP + 1];
	/* the caused samples' values (ns, less t_e,std), ascending, with the
	 * slot of each one's cause */
	double *value;
	uint8_t *slot;
	size_t n, cap;
};

/* From cell of run (a finished or loaded one; a snapshot of a running run
 * has no causes and leaves nv not ready). */
void tui_noise_view_update(struct tui_noise_view *nv, const struct tl_run *run, size_t cell);
void tui_noise_view_free(struct tui_noise_view *nv);

/* Caused samples with a value in [lo, hi), and the slot most of them have. */
size_t tui_noise_view_in(const struct tui_noise_view *nv, double lo, double hi, int *slot);

/* The caused samples past h's right edge: the ones the stacked column at
 * the edge stands for (0: no column). */
size_t tui_noise_view_past(const struct tui_noise_view *nv, const struct tl_histogram *h);

/* "causes: preempted 12, tick 40, irq:27:nvme0q1 3, other 2"; "" when
 * not ready, "causes: none measured" when it is and none has a cause. */
void tui_noise_view_line(const struct tui_noise_view *nv, char *buf, size_t len);



/* Drawing (reads nv only). The top of each bar of h drawn in r (rows tall,
 * peak the tallest bin) as its caused samples are, in their commonest
 * cause's colour; a bin whose caused samples the filters removed gets one
 * eighth at the bottom. */
struct tui_app;
struct tui_rect;
void tui_noise_view_draw_marks(const struct tui_app *app, const struct tui_rect *r, int rows,
			       double peak, const struct tl_histogram *h,
			       const struct tui_noise_view *nv);
/* The causes line at (y, x), in the colours of the marks; returns the rows
 * used (0 or 1). */
int tui_noise_view_draw_line(const struct tui_app *app, int y, int x, int w,
			     const struct tui_noise_view *nv);
#endif
