/* The one place a cell's raw samples become the summary everyone shows:
 * `ticklab run`, `ticklab report` and the TUI all call tl_cell_analyse, so a
 * saved run re-analysed later prints exactly the numbers the live run did. */
#ifndef TL_BENCH_ANALYSIS_H
#define TL_BENCH_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/runner.h"
#include "stats/stats.h"

/* The seed of a cell's OS-noise filter. The key is the cell's ordinal
 * among the cells of its kind (visible cells in run order 0, 1, 2, ...;
 * hidden baselines likewise, offset by 2^32), not its raw index, so a saved
 * file, which lists visible cells and baselines apart, replays with the
 * same seeds. seed' = tl_seed_derive(seed, key + 1) (splitmix64). */
uint64_t tl_cell_seed(const struct tl_run *run, size_t cell, uint64_t seed);
/* tl_cell_seed of every cell (a new array of run->ncells, free()): the
 * ordinals counted once, where tl_cell_seed counts the cells before its own
 * on every call. */
uint64_t *tl_run_cell_seeds(const struct tl_run *run, uint64_t seed);

/* A run's cells grouped by timer, then flush, in run order within a group (a
 * counting sort): cell[start[g]] .. cell[start[g + 1] - 1] are the cells of
 * group g = tl_cell_group(run, timer, flush). Whatever goes per (timer,
 * flush) reads each cell once this way; a scan of every cell per pair is
 * quadratic in the backends. Free with tl_cell_groups_free. */
struct tl_cell_groups {
	size_t *start;
	size_t *cell;
};
void tl_cell_groups_init(const struct tl_run *run, struct tl_cell_groups *g);
void tl_cell_groups_free(struct tl_cell_groups *g);
static inline size_t tl_cell_group(const struct tl_run *run, size_t timer, size_t flush)
{
	return timer * run->nflush + flush;
}

/* filter_cost with the cell's overhead_ns, then filter_os (method m, seeded
 * by tl_cell_seed), then the summary, over the cell's first `done` samples.
 * A cell with no samples gets n = 0 and NaN statistics. Returns 0, or -1
 * when the statistics could not run (out of memory). */
int tl_cell_analyse(const struct tl_run *run, size_t cell, enum tl_os_method m, uint64_t seed,
		    struct tl_analysis *a);
/* tl_cell_analyse and tl_cell_analyse_kept with the cell's filter seed
 * given (tl_run_cell_seeds' entry for it): for a loop over every cell. */
int tl_cell_analyse_seeded(const struct tl_run *run, size_t cell, enum tl_os_method m,
			   uint64_t cseed, struct tl_analysis *a);
int tl_cell_analyse_kept_seeded(const struct tl_run *run, size_t cell, enum tl_os_method m,
				uint64_t cseed, struct tl_analysis *a, double *kept, size_t cap,
				size_t *nkept);

/* The samples tl_cell_analyse would look at now: the cell's done count
 * (read once), never more than its n. Size tl_cell_analyse_kept's buffer
 * with it. */
size_t tl_cell_done(const struct tl_run *run, size_t cell);

/* tl_cell_analyse that also hands out the values the filters kept, so a
 * plot shows exactly the samples behind the summary (tl_cell_analyse is
 * this with kept NULL: one code path). kept (cap values, or NULL) receives
 * the survivors after filter_cost, in sample order, NOT sorted; *nkept
 * (may be NULL) their count, which equals a->summary.n. At most the first
 * cap samples are analysed when kept is given: pass cap >= tl_cell_done
 * (on a snapshot, or a cell no longer growing) to get tl_cell_analyse's
 * numbers; a growing cell's samples past cap wait for the next call
 * rather than overflow the buffer. */
int tl_cell_analyse_kept(const struct tl_run *run, size_t cell, enum tl_os_method m,
			 uint64_t seed, struct tl_analysis *a, double *kept, size_t cap,
			 size_t *nkept);

/* tl_cell_analyse_kept without the drift (a->drift as for no samples):
 * the same summary, filter and kept samples, for a reader that needs no
 * drift (the fleet's figures of a raw fingerprint). */
int tl_cell_summarise_kept(const struct tl_run *run, size_t cell, enum tl_os_method m,
			   uint64_t seed, struct tl_analysis *a, double *kept, size_t cap,
			   size_t *nkept);

/* tl_cell_analyse over every cell (hidden baselines too): a new array of
 * run->ncells analyses (free()), or NULL when out of memory. */
struct tl_analysis *tl_run_analyse(const struct tl_run *run, enum tl_os_method m, uint64_t seed);

/* CV and drift are relative to the level, so they say nothing for an empty
 * cell, centred on 0 after filter_cost, nor (CV) for any cell whose mean is
 * within noise of 0: below the timer's resolution or 3 standard errors. The table and the TUI show them by
 * these rules (its spread is the sd). */
bool tl_cell_shows_cv(const struct tl_cell *c, const struct tl_analysis *a);
bool tl_cell_shows_drift(const struct tl_cell *c, const struct tl_analysis *a);

/* How the filter m (with seed) and the measured causes agree on a cell:
 * removed samples with and without a cause (a cause is any but
 * "unexplained"), kept samples with one, and the top cause among the
 * removed ("none" when most had none). */
struct tl_noise_agree {
	size_t removed, removed_with_cause, removed_without_cause, kept_with_cause;
	char top[TL_NOISE_NAME];
	size_t top_count;
	bool skipped;   /* the cell is over TL_NOISE_AGREE_MAX samples */
};
/* The agreement re-runs the filter with a copy of the survivors: over this
 * many samples it would break the run's 40 B per sample budget, so it is
 * not computed (and said so). */
#define TL_NOISE_AGREE_MAX ((size_t)1 << 20)
int tl_cell_noise_agree(const struct tl_run *run, size_t cell, enum tl_os_method m,
			uint64_t seed, struct tl_noise_agree *ag);
/* The same with the cell's seed given (tl_run_cell_seeds'). */
int tl_cell_noise_agree_seeded(const struct tl_run *run, size_t cell, enum tl_os_method m,
			       uint64_t cseed, struct tl_noise_agree *ag);

#endif
