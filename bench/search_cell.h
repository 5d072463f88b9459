/* The one search engine under `ticklab search` and the TUI's search screen:
 * a plan (parameters, backends, flushes, reference, repeats) runs every
 * backend x flush cell R times, interleaved in a seeded order so a clock
 * that drifts during the session hits every backend alike; each repeat
 * measures its own t_e,std, ns per ADD and resolution, then t_min and
 * t_diff (stats/search.h). fast runs in two passes over that order: setup
 * and t_min of every repeat, then every repeat's t_diff, each cell's from
 * one A0 (the median of where its repeats would start), so t_diff's
 * repeats scatter as t_diff does, not as their t_min do (paper, or
 * own_a0: one pass, each from its own). The repeats are then summarised per metric
 * (median, interval, "unstable" and why) and every backend is compared
 * with the reference under the same flush, as a ratio or, where one side
 * found nothing below its bound, as a bound on the ratio.
 *
 * Both faces build the plan they run with tl_search_plan_build, from the
 * same parameters and selection, so they run the same search;
 * io/search_json.h writes and reads it. */
#ifndef TL_BENCH_SEARCH_CELL_H
#define TL_BENCH_SEARCH_CELL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"
#include "stats/search.h"

/* The budget is the whole search's wall time, from its first measurement
 * to its last (opening the timers included). Every repeat of every cell
 * gets an equal share of what is left when it starts, so time a cheap one
 * leaves goes to those after it; in its share the repeat's setup comes
 * first, t_min may spend TL_SEARCH_TMIN_SHARE of the rest and t_diff what
 * is then left (in two passes the first pass keeps that part back, and
 * the second splits what the budget then leaves equally among the
 * t_diff). Fast lowers its measurements per evaluation to fit and
 * ends a metric that would pass its share; past the budget by
 * TL_SEARCH_BUDGET_MARGIN the measurements stop, and the repeats that
 * remain only say so. paper runs the published algorithms to their end
 * (hours at large flushes): the budget is fast's. Without a budget: this
 * much a cell. */
#define TL_SEARCH_BUDGET_S 30.0
#define TL_SEARCH_TMIN_SHARE 0.6
/* share of the budget, and seconds, the search may run past it: the
 * evaluation running when the budget ends finishes its chunk (about
 * 0.2 s of measurements) and filtering */
#define TL_SEARCH_BUDGET_MARGIN 0.05
#define TL_SEARCH_BUDGET_MARGIN_S 1.0
#define TL_SEARCH_REPEATS 3u
/* K range and points of the ns-per-ADD fit */
#define TL_SEARCH_FIT_KMAX 20000
#define TL_SEARCH_FIT_POINTS 5

struct tl_search_plan {
	struct tl_search_params sp; /* method, eps, alpha, n, p, q, steps, bound, filter, seed */
	double budget_s;            /* the whole search's seconds; 0: TL_SEARCH_BUDGET_S a cell */
	unsigned repeats;
	bool want_tdiff;
	/* fast: t_diff of each repeat from its own t_min, right after it (the
	 * one pass before; kept to compare against). Otherwise fast runs every
	 * repeat's t_min first, then every t_diff from one A0 per cell */
	bool own_a0;
	int cpu;                    /* -1: tl_cpu_default() */
	char **backends;            /* owned copies */
	size_t nbackends;
	char **flush_names;         /* owned copies */
	uint64_t *flush;
	size_t nflush;
	size_t ref;                 /* index into backends */
};

/* The points one search evaluated, in order: t_min's (K, CV) or t_diff's
 * (delta, overlap), as the engine's point hook saw them. Owned by their
 * repeat, freed with the cells. */
struct tl_search_points {
	double (*xy)[2];
	size_t n, cap;
};

/* Appends (x, y). */
void tl_search_points_add(struct tl_search_points *pts, double x, double y);
void tl_search_points_free(struct tl_search_points *pts);

/* One repeat of one cell. */
struct tl_search_rep {
	bool ran, done_tmin, done_tdiff;
	double overhead_ns, ns_per_add, fit_r2, resolution_ns, flush_s;
	size_t fast_n, setup_measurements;
	struct tl_search_result tmin, tdiff;
	struct tl_search_points points[2]; /* by enum tl_search_kind */
	char why[TL_WHY_MAX];       /* a setup failure */
};

/* What one metric over the repeats may claim, decided by
 * tl_search_stat_status alone and printed by every face (table, JSON,
 * Markdown, TUI, plot) with tl_search_stat_text. */
enum tl_search_status {
	TL_STATUS_NOT_RUN,   /* not searched (yet) */
	TL_STATUS_INTERVAL,  /* every planned repeat found it and they agree: a 95 % interval */
	TL_STATUS_PARTIAL,   /* found in k of n: the median of k, no interval */
	TL_STATUS_UNSTABLE,  /* all found it, but they disagree: their span, no interval */
	TL_STATUS_SINGLE,    /* one repeat planned: its answer, no interval */
	TL_STATUS_BOUND,     /* none found below the bound */
	TL_STATUS_NONE,      /* none found and no bound (stopped) */
};

/* One metric over the repeats. */
struct tl_search_stat {
	size_t ran, found;          /* repeats that searched it, that found it */
	size_t planned;             /* repeats the plan asked for */
	/* fewer repeats ran than planned while the cell is not finished:
	 * every value is provisional and no interval is final */
	bool provisional;
	enum tl_search_status status;
	double span_lo, span_hi;    /* smallest and largest answer found (ADDs) */
	/* t_min: the lowest CV each repeat saw and where (median over the
	 * repeats; NaN unknown): the answer where none is found at eps */
	double cv_floor, cv_floor_adds;
	/* t_min: that floor in two parts (medians; NaN unknown): within
	 * 100-reading chunks (the timer) and between them (the node's drift) */
	double cv_within, cv_drift;
	/* t_min on a steady clock, where each repeat's within-chunk CV curve
	 * reaches eps (median of steady_found repeats; NaN none), and the
	 * evaluated points around those crossings (lo 0: none failed below,
	 * the value then K CV / eps from the nearest passing point) */
	size_t steady_found;
	double steady_adds, steady_lo, steady_hi;
	double adds, ns;            /* median of the repeats that found it; NaN when none */
	double lo, hi, lo_ns, hi_ns; /* its interval (see the man page) */
	double bound_adds, bound_ns; /* none found: nothing below this (smallest bound) */
	size_t measurements;        /* every repeat's, added */
	double seconds;
	bool unstable;
	char why[512];              /* why unstable */
};

/* t_min at a relaxed eps for one side of a ratio, read off each repeat's
 * CV curve (tl_search_cv_crossing): no new measurements. */
struct tl_search_relaxed_side {
	size_t ran, found;          /* repeats with a curve, whose curve reaches eps */
	double adds, ns;            /* median crossing; NaN when none */
	/* the evaluated points around the crossings over the found repeats
	 * (a bracket, not a 95 % interval); lo 0: no failing point below */
	double lo, hi, lo_ns, hi_ns;
};

/* Where one side of a ratio has no t_min at eps: the smallest eps both
 * sides' CV floors reach (rounded up to a half percent) and t_min there,
 * so a noisy node still gets a number, labelled with its eps. */
struct tl_search_relaxed {
	double eps;                 /* NaN: not needed or not possible */
	struct tl_search_relaxed_side self, ref;
	double ratio, lo, hi;       /* reference / this; lo, hi from the brackets (hi inf: open) */
};

/* reference / this. rel '=' a value with an interval, '>' at least value
 * (the reference found nothing below its bound), '<' at most value, 0 none. */
struct tl_search_ratio {
	char rel;
	double value, lo, hi;       /* lo, hi: NaN unless interval */
	bool interval;              /* '=': both sides have a 95 % interval */
	double bound_ns;            /* '>' / '<': the bound it rests on */
	char why[160];              /* rel 0: why there is no ratio */
	char basis[200];            /* what a ratio without interval rests on */
	struct tl_search_relaxed relaxed; /* t_min only: rel != '=' */
};

enum tl_search_state { TL_CELL_WAITING, TL_CELL_RUNNING, TL_CELL_DONE, TL_CELL_FAILED };

struct tl_search_cell {
	size_t b, f;                /* plan indexes */
	enum tl_search_state state;
	int phase;                  /* while running: 0 setup, 1 t_min, 2 t_diff */
	/* repeats finished (t_diff too, when planned), and those whose setup
	 * and t_min are (t_min runs for every repeat before any t_diff) */
	size_t reps_done, tmin_done;
	unsigned run_rep;           /* while running: the repeat (from 0) */
	struct tl_search_rep *rep;  /* plan->repeats of them */
	unsigned nrep;              /* how many rep holds */
	struct tl_search_stat tmin, tdiff;
	struct tl_search_ratio ratio_tmin, ratio_tdiff;
	/* medians over the repeats that measured them */
	double overhead_ns, ns_per_add, fit_r2, resolution_ns, flush_s;
	size_t fast_n, setup_measurements;
	char why[TL_WHY_MAX];       /* the first repeat's failure */
	/* while running: when its repeat started (seconds into the search)
	 * and the share of the budget it was given; seconds its finished
	 * repeats took, setup included (what the ETA reads), and of it what
	 * their setups and t_min took */
	double run_started, run_share, spent, spent_tmin;
	double flush_cost_s;        /* one flush, timed as the search starts (the ETA's) */
};

/* What a face wants to hear while the engine runs (every member may be NULL). */
struct tl_search_hooks {
	void *ctx;
	/* every evaluated point (stats/search.h) */
	void (*point)(void *ctx, size_t cell, enum tl_search_kind kind, uint64_t x, double y);
	/* around every write into cells, so a drawing thread reads whole values */
	void (*lock)(void *ctx);
	void (*unlock)(void *ctx);
	void (*changed)(void *ctx, size_t cell);
	atomic_bool *stop;
};

void tl_search_plan_default(struct tl_search_plan *p);
/* The plan a face runs: params' parameters (sp, budget, repeats,
 * want_tdiff, cpu; its lists are not read) over the selection in the
 * order given, the reference named (NULL: tl_search_default_reference),
 * the CPU (-1: tl_cpu_default()) and the budget (0: TL_SEARCH_BUDGET_S a
 * cell) resolved. out may be params. 0, or -1 with why (out unchanged)
 * when the reference is not one of the backends. */
int tl_search_plan_build(struct tl_search_plan *out, const struct tl_search_plan *params,
			 const char *const *backends, size_t nb, const char *const *flush_names,
			 const uint64_t *flush, size_t nf, const char *reference, char *why,
			 size_t whylen);
/* Copies the lists into p (replacing any). */
void tl_search_plan_set(struct tl_search_plan *p, const char *const *backends, size_t nb,
		       const char *const *flush_names, const uint64_t *flush, size_t nf);
void tl_search_plan_free(struct tl_search_plan *p);
/* Whether tl_search_run runs two passes (every repeat's t_min, then
 * every t_diff from one A0 a cell): fast with t_diff planned and not
 * own_a0. paper keeps Algorithm 2 right after Algorithm 1 in each repeat,
 * from that repeat's own t_min, as the paper runs them. */
bool tl_search_plan_two_passes(const struct tl_search_plan *p);
/* The budget the plan runs with: budget_s, or TL_SEARCH_BUDGET_S a cell. */
double tl_search_plan_budget(const struct tl_search_plan *p);
/* The paper's reference: papi-real-nsec, else another papi-*, else a
 * clock-gettime*, else the first backend. */
size_t tl_search_default_reference(const char *const *backends, size_t n);
/* Cell index of backend b under flush f (flush-major, as they are listed). */
size_t tl_search_cell_index(const struct tl_search_plan *p, size_t b, size_t f);

/* nbackends x nflush cells, each with room for p->repeats repeats (never
 * NULL). */
struct tl_search_cell *tl_search_cells_new(const struct tl_search_plan *p);
void tl_search_cells_free(struct tl_search_cell *cells, size_t ncells);
/* Points of kind (0 t_min, 1 t_diff) over every repeat of ncells cells:
 * none in a file written before they were kept. */
size_t tl_search_points_total(const struct tl_search_cell *cells, size_t ncells,
			      enum tl_search_kind kind);


/* Runs every repeat of every cell on the calling thread (pin it first).
 * Returns 0 done, 1 stopped (cells keep what was found), -1 when some cell
 * failed (its why says how; the others ran). Summarises at the end. */
int tl_search_run(const struct tl_search_plan *p, struct tl_search_cell *cells,
		  const struct tl_search_hooks *h);

/* The ETA a face shows while a search runs: the repeats the plan has left,
 * each costing its measurements times what one costs. A cell's finished
 * repeats say both; a cell not yet run takes the measurements the others'
 * repeats took, at its own flush's cost (timed for every flush as the
 * search starts) plus what a measurement costs beside the flush there.
 * Each repeat at most the share of the budget it would get (fast); the
 * running one less the time it has had. A new estimate replaces the one
 * shown a little at a time, so it counts down instead of jumping. */
struct tl_search_eta {
	double shown;   /* seconds left as last shown (NaN: none yet) */
	double at;      /* elapsed seconds when it was */
};

void tl_search_eta_init(struct tl_search_eta *e);
/* Seconds left at elapsed seconds since the search started (NaN until a
 * repeat has measured); call with the cells locked. */
double tl_search_eta_update(struct tl_search_eta *e, const struct tl_search_plan *p,
			    const struct tl_search_cell *cells, double elapsed);

/* The seeded order repeat r visits the cells in (a permutation of 0..n-1). */
void tl_search_order(uint64_t seed, unsigned r, size_t *order, size_t n);

/* Medians, intervals, unstable flags and ratios from the repeats. Also
 * after changing p->ref. */
void tl_search_summarise(const struct tl_search_plan *p, struct tl_search_cell *cells);
void tl_search_ratios(const struct tl_search_plan *p, struct tl_search_cell *cells);

/* The name for a plan with r repeats (what the JSON's interval_method says). */
const char *tl_search_interval_method(unsigned r);

/* "CV floor 1.2 % at 1000 ADDs (median of 3 repeats; within chunks 0.4 %,
 * drift 1.1 %)"; empty when unknown. */
void tl_search_cv_floor_text(char *buf, size_t len, const struct tl_search_stat *s);

/* Where the paper's t_min (total CV) and the steady-clock one (within-chunk
 * CV) differ: "t_min on a steady clock: 750 ADDs (within-chunk CV; ...),
 * the paper's (total CV): ...; the level drifts 1.1 % between chunks,
 * more than the timer's own 0.4 %: the node, not the timer, limits
 * precision". Empty when they agree or either is unknown. */
void tl_search_steady_text(char *buf, size_t len, const struct tl_search_stat *s);

/* The status of a summarised metric (the one place that decides it). */
enum tl_search_status tl_search_stat_status(const struct tl_search_stat *s);
/* "interval95", "found_k_of_n", "unstable", "single", "bound", "none",
 * "not_run": the JSON's status. */
const char *tl_search_status_name(enum tl_search_status st);
/* What a face prints where the interval goes: "747-815", "found in 1 of 3",
 * "unstable: 700..900", "1 repeat, no interval", "> 25", "none"; while
 * provisional, "so far ..." with the repeats that ran. */
void tl_search_stat_text(char *buf, size_t len, const struct tl_search_stat *s);
/* The same for a narrow column: "747-815", "1 of 3 found", "unstable",
 * "> 25", "so far 1/3". */
void tl_search_stat_brief(char *buf, size_t len, const struct tl_search_stat *s);

/* "2600 ADDs (curve bracket 1000-3000, 3 of 3 repeats)", "<= 3000 ADDs
 * (...)", "not reached in 3 repeats": one side of a relaxed t_min. */
void tl_search_relaxed_side_text(char *buf, size_t len, const struct tl_search_relaxed_side *s);
/* "t_min at eps = 2.5 %: 4.3x more precise (bracket 1.2-9x; 600 vs 2600
 * ADDs)"; empty when r->eps is NaN. times: "x" or "\u00d7". */
void tl_search_relaxed_text(char *buf, size_t len, const struct tl_search_relaxed *r,
			    const char *times);

/* "7.1x more precise (5.2-9.0x)", ">= 12x more precise (reference: none below
 * 1e8 ADDs)", or the why of a missing ratio. times: "x" or "\u00d7". */
void tl_search_ratio_describe(char *buf, size_t len, const struct tl_search_ratio *r,
			      const char *what, const char *times);
/* The ratio for a column: "2.0", "4.5 (no interval)", ">=16 (ref > 4.58e+04 ns)", "-". */
void tl_search_ratio_short(char *buf, size_t len, const struct tl_search_ratio *r);

#endif
