/* Internals shared by the paper and fast searches (not for other modules). */
#ifndef TL_STATS_SEARCH_IMPL_H
#define TL_STATS_SEARCH_IMPL_H

#include "stats/search.h"

/* One search in progress: buffers, counters and the clock. */
struct tl_srch {
	const struct tl_search_params *p;
	const struct tl_search_io *io;
	struct tl_search_result *r;
	double *raw;   /* one evaluation's measurements */
	double *kept;  /* what survives filter_cost + filter_os */
	double *kept2; /* the second sample of a pair */
	double *raw2;  /* an interleaved pass's A1 readings */
	double *mix;   /* an interleaved pass's readings in time order (2 cap) */
	uint64_t *mix_adds;
	size_t cap;
	/* t_min: every evaluated (K, within-chunk CV), for the steady-clock
	 * t_min (tl_search_cv_crossing) */
	double (*within)[2];
	size_t nwithin, capwithin;
	enum tl_search_kind kind;
	double t0;
	double cv_floor; /* lowest CV seen (t_min), for "did not converge" */
	uint64_t cv_floor_adds;
	uint64_t hi_adds;  /* largest K sampled */
	uint64_t hi_delta; /* largest pair difference sampled */
	/* seconds one measurement costs besides its kernel (timer, flush,
	 * filtering), from the latest evaluation: the time limit's forecast */
	double fixed_s;
	/* the filter removed readings from the top of s->kept (cut[0]) or
	 * s->kept2 (cut[1]): their maxima are truncated, not normal */
	bool cut[2];
	/* fast t_diff: blocks a host burst disturbed are measured again
	 * (stats_disturbed_blocks); how many were, of how many looked at,
	 * and how many stayed disturbed */
	bool clean;
	size_t blocks_redone, blocks_seen, blocks_left;
};

/* What one evaluated point looks like after filter_cost and filter_os. */
struct tl_point {
	uint64_t adds;
	size_t n;          /* kept */
	double mean, sd, cv;
	double kurtosis;   /* non-excess (normal: 3) */
	double cv_within, cv_drift; /* stats_cv_split of the kept readings */
};

int srch_begin(struct tl_srch *s, const struct tl_search_params *p, const struct tl_search_io *io,
	       struct tl_search_result *r, size_t n);
void srch_end(struct tl_srch *s);
bool srch_stopped(const struct tl_srch *s);
/* The fast method's time limit is spent. */
bool srch_out_of_time(const struct tl_srch *s);
/* ... or would be by the end of `measurements` more at `adds` ADDs: a
 * limit checked only before an evaluation let a long last one overrun it
 * (72 s against 40 s on a PAPI t_diff). */
bool srch_out_of_time_for(const struct tl_srch *s, uint64_t adds, size_t measurements);
/* Measurements per set (at most cap) that `sets` sets at `adds` ADDs can
 * take within what is left of the time limit. */
size_t srch_affordable(const struct tl_srch *s, uint64_t adds, size_t sets);
/* n measurements of adds ADDs, filtered, into s->kept (or s->kept2 when
 * second); pt summarises them. Returns 0, or 1 when stopped. */
int srch_sample(struct tl_srch *s, uint64_t adds, size_t n, bool second, struct tl_point *pt);
/* bad[0..blocks), `hit` of them marked (stats_disturbed_blocks), show
 * the timer's own tail at this flush (over a quarter of the blocks,
 * marked apart rather than in a few long runs), not a burst that lands
 * in some sets and not others: the set is kept whole. */
bool srch_tail_own(const unsigned char *bad, size_t hit, size_t blocks);
/* One of Algorithm 2's pairs: A0 = a0 ADDs, A1 = a1 ADDs, n each; *overlap
 * gets the share of filtered A1 below max(filtered A0); the filtered sets
 * stay in s->kept (n0) and s->kept2 (n1). 0, or 1 stopped. */
int srch_pair(struct tl_srch *s, uint64_t a0, uint64_t a1, size_t n, double *overlap, size_t *n0,
	      size_t *n1);
/* The next link of a chain of pairs: the set in s->kept (n0 kept) is A0,
 * a1 ADDs (delta above it) are measured as A1; *overlap as srch_pair's.
 * A1 then moves into s->kept (with its cut flag) to be the next A0, and
 * *n0 = *n1. 0, or 1 stopped. */
int srch_chain(struct tl_srch *s, uint64_t a1, uint64_t delta, size_t n, size_t *n0, size_t *n1,
	       double *overlap);
/* srch_pair with A0 and A1 alternating in one pass and each block's level
 * taken out of both (stats_level_align): 2 n measurements. */
int srch_pair_mixed(struct tl_srch *s, uint64_t a0, uint64_t a1, size_t n, double *overlap,
		    size_t *n0, size_t *n1);
void srch_observe(struct tl_srch *s, enum tl_search_kind kind, uint64_t x, double y);
/* Writes adds, ns, stat, on_floor for a t_min or a t_diff. */
void srch_answer(struct tl_srch *s, enum tl_search_kind kind, uint64_t adds, double stat);

/* The resolution floors below which t_min and t_diff cannot be told from
 * the clock's step, in ns (0 unknown): a result under them is the clock's. */
double srch_tmin_floor_ns(const struct tl_search_params *p);
double srch_tdiff_floor_ns(const struct tl_search_params *p);

int search_paper_tmin(struct tl_srch *s);
int search_paper_tdiff(struct tl_srch *s, uint64_t tmin_adds);
int search_fast_tmin(struct tl_srch *s);
int search_fast_tdiff(struct tl_srch *s, uint64_t tmin_adds);

#endif
