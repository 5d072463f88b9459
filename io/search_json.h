/* A search as JSON and as a table: one schema for `ticklab search --json`
 * and the TUI's export, read back by `ticklab report` and `tui --replay`.
 *
 *   {"ticklab": {"version", "command": "search"}, "host": {...},
 *    "params": {method, eps, alpha, n, p, q, tmin_step, tdiff_step, max_adds,
 *               os_filter, seed, budget_seconds, repeats, tdiff},
 *    "reference", "interval_method", "interrupted",
 *    "results": [ {backend, flush_bytes, flush, overhead, ns_per_add,
 *                  ns_per_add_r2, resolution_ns, flush_seconds,
 *                  n_per_evaluation, setup_measurements, state, (error),
 *                  "tmin": metric, "tdiff": metric,
 *                  ratio_tmin, ratio_tmin_relation ("=", ">=", "<=", null),
 *                  ratio_tmin_lo, ratio_tmin_hi, (ratio_tmin_why), the same
 *                  for tdiff,
 *                  "repeats": [ {overhead, ns_per_add, ns_per_add_r2,
 *                                resolution_ns, flush_seconds,
 *                                n_per_evaluation, setup_measurements,
 *                                (error)} | null ] } ] }
 *   metric: {adds, ns (medians of the repeats that found one; null when
 *            none), method, measurements, seconds (all repeats), converged
 *            (most repeats found one), found, ran, lo, hi, lo_ns, hi_ns,
 *            interval_method, unstable, unstable_why, bound_adds, bound_ns,
 *            note, "repeats": [ one search's result | null ] }
 *   one search's result: its answer, and "points": [[x, y], ...] every
 *            point it evaluated in order (t_min: K, CV; t_diff: delta,
 *            overlap), absent in files from before they were kept
 * Each object's keys and their kinds are described once, in
 * io/search_keys.c: the writer sets and the loader checks and reads them
 * through that description (a t_min_relaxed side's adds is a real, the
 * ADDs where the CV curve crosses eps; a metric's adds a whole count).
 * The keys above keep their meaning across versions; new ones are added. The repeats
 * are enough to summarise again, so a reader recomputes medians, intervals
 * and ratios with the same code the search used. */
#ifndef TL_IO_SEARCH_JSON_H
#define TL_IO_SEARCH_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "bench/search_cell.h"

/* host is stolen (may be NULL). Never NULL. */
json_t *tl_search_to_json(const struct tl_search_plan *p, const struct tl_search_cell *cells,
			  json_t *host, bool interrupted);

/* Is doc a search file ("ticklab": {"command": "search"})? */
bool tl_search_json_is(const json_t *doc);

/* Reads doc into a plan (tl_search_plan_free) and its cells
 * (tl_search_cells_free, nbackends x nflush of them), summarised.
 * -1 with why = "NAME: where: what is wrong". */
int tl_search_from_json(const json_t *doc, const char *name, struct tl_search_plan *p,
			struct tl_search_cell **cells, bool *interrupted, char *why, size_t whylen);

/* The reasons behind a cell's numbers, one sentence per call of fn, as the
 * table prints them under its rows ("backend @ flush: " before each) and
 * the TUI's search screen beside the selected row: its setup failure,
 * each distinct note of each metric with its repeat, what is unstable and
 * why, and where t_min has no interval at eps, the CV floor it reached. */
typedef void (*tl_search_reason_fn)(void *ctx, const struct tl_search_cell *c, const char *text);
void tl_search_cell_notes(const struct tl_search_plan *p, const struct tl_search_cell *c,
			  tl_search_reason_fn fn, void *ctx);
/* Cell i against the reference in the paper's words ("7.1x more precise
 * ...; 3.2x more sensitive ... (reference R)"), then, where one side has
 * no t_min at eps, the eps both reach; nothing for the reference itself.
 * times: "x" or "\u00d7". */
void tl_search_cell_ratio_notes(const struct tl_search_plan *p, const struct tl_search_cell *cells,
				size_t i, const char *times, tl_search_reason_fn fn, void *ctx);

/* The table `ticklab search` prints, and `report` prints again. */
void tl_search_table_print(FILE *out, const struct tl_search_plan *p,
			   const struct tl_search_cell *cells);

#endif
