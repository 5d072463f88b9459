#include "config.h"

#include "judge/jitter.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "bench/detect.h"

const char *tl_jitter_verdict(const struct tl_jitter *j)
{
	return j->unreliable ? "unreliable here" : j->detected ? "detected" : "not detected";
}

/* Buffers for one arm's samples in time order, with their time blocks. */
struct arm_bufs {
	double *plain, *inj;
	size_t *pblk, *iblk;
	size_t np, ni;
};

static size_t arm_count(const struct tl_cell *c, const uint64_t *mark, size_t done,
			enum tl_jitter_arm arm, size_t *np)
{
	size_t ni = 0;

	*np = 0;
	for (size_t i = 0; i < done; i++) {
		if (tl_jitter_code_arm(mark[i]) != arm)
			continue;
		if (tl_jitter_code_dep(mark[i], c->kernel.k))
			ni++;
		else
			(*np)++;
	}
	return ni;
}

/* Blocks for an arm of np plain and ni injected samples: enough samples on
 * the smaller side of each for its shift, at most TL_JITTER_BLOCKS. */
static size_t blocks_for(size_t np, size_t ni)
{
	size_t b = (np < ni ? np : ni) / TL_JITTER_BLOCK_SIDE;

	return b < TL_JITTER_BLOCKS ? b : TL_JITTER_BLOCKS;
}

/* The samples of one arm, split by the path they took, in time order;
 * sample i of done falls in block i * nb / done. */
static void split_arm(const struct tl_cell *c, const uint64_t *mark, size_t done,
		      enum tl_jitter_arm arm, size_t nb, struct arm_bufs *b)
{
	b->np = b->ni = 0;
	for (size_t i = 0; i < done; i++) {
		size_t blk = (size_t)((double)i * (double)nb / (double)done);

		if (tl_jitter_code_arm(mark[i]) != arm)
			continue;
		if (tl_jitter_code_dep(mark[i], c->kernel.k)) {
			b->iblk[b->ni] = blk;
			b->inj[b->ni++] = c->ns[i];
		} else {
			b->pblk[b->np] = blk;
			b->plain[b->np++] = c->ns[i];
		}
	}
}

/* Widens cmp's interval to the spread of its time blocks' shifts (the
 * level moves during a run, so the samples are not independent); returns
 * the blocks used, 0 when too few had both sides (interval kept). */
static size_t widen(const double *a, const size_t *ab, size_t na, const double *b,
		    const size_t *bb, size_t nb, double step, struct tl_comparison *cmp)
{
	struct tl_block_spread r;

	if (stats_shift_blocks(a, ab, na, b, bb, nb, cmp->method, step, &r))
		return 0;
	cmp->lo = fmin(cmp->lo, cmp->shift - r.half);
	cmp->hi = fmax(cmp->hi, cmp->shift + r.half);
	return r.blocks;
}

/* Plain against injected samples of one arm, the interval widened by its
 * blocks. false when a side is empty. */
static bool compare_arm(const struct tl_cell *c, const uint64_t *mark, size_t done,
			enum tl_jitter_arm arm, uint64_t seed, struct arm_bufs *b,
			struct tl_comparison *cmp, size_t *blocks)
{
	size_t np, ni = arm_count(c, mark, done, arm, &np);

	split_arm(c, mark, done, arm, blocks_for(np, ni), b);
	cmp->na = b->np;
	cmp->nb = b->ni;
	*blocks = 0;
	if (b->np == 0 || b->ni == 0 ||
	    stats_compare_step(b->plain, b->np, b->inj, b->ni, 0, seed, c->resolution_ns, cmp))
		return false;
	*blocks = widen(b->plain, b->pblk, b->np, b->inj, b->iblk, b->ni, c->resolution_ns, cmp);
	return true;
}

/* Every sample of one arm, whichever path it took, in time order. */
static size_t gather_arm(const struct tl_cell *c, const uint64_t *mark, size_t done,
			 enum tl_jitter_arm arm, size_t nb, double *v, size_t *blk)
{
	size_t n = 0;

	for (size_t i = 0; i < done; i++)
		if (tl_jitter_code_arm(mark[i]) == arm) {
			blk[n] = (size_t)((double)i * (double)nb / (double)done);
			v[n++] = c->ns[i];
		}
	return n;
}

/* An arm's injected samples (K + D ADDs on the chain) against every sample
 * of the A/A arm (K ADDs, D = 0, interleaved with them sample by sample):
 * the variation the cell injects, K against K + D. Not against the arm's
 * own plain samples: they run the D ADDs beside their chain and pay for
 * them (+1.17 ns [1.11, 1.23] at D = 200, K = 500 on the Intel Xeon KVM
 * guest), so their shift read 98 % of D and its interval missed D x the
 * add chain's slope in 7 runs of 8, and at D = 64 in 8 of 8; against the
 * A/A arm, in 1 of 8 and none. The interval is widened by the time
 * blocks as compare_arm's. false when a side is empty. */
static bool compare_injected(const struct tl_cell *c, const uint64_t *mark, size_t done,
			     enum tl_jitter_arm arm, uint64_t seed, struct arm_bufs *b,
			     struct arm_bufs *base, struct tl_comparison *cmp, size_t *blocks)
{
	size_t np, ni = arm_count(c, mark, done, arm, &np);
	size_t ap, ai = arm_count(c, mark, done, TL_JITTER_AA, &ap);
	size_t nb = blocks_for(ap + ai, ni), nbase;

	split_arm(c, mark, done, arm, nb, b);
	nbase = gather_arm(c, mark, done, TL_JITTER_AA, nb, base->plain, base->pblk);
	cmp->na = nbase;
	cmp->nb = b->ni;
	*blocks = 0;
	if (nbase == 0 || b->ni == 0 ||
	    stats_compare_step(base->plain, nbase, b->inj, b->ni, 0, seed, c->resolution_ns, cmp))
		return false;
	*blocks = widen(base->plain, base->pblk, nbase, b->inj, b->iblk, b->ni, c->resolution_ns,
			cmp);
	return true;
}

static void control(const struct tl_cell *c, const uint64_t *mark, size_t done,
		    enum tl_jitter_arm arm, uint64_t seed, struct arm_bufs *b,
		    struct tl_jitter_control *ctl)
{
	ctl->ok = compare_arm(c, mark, done, arm, seed, b, &ctl->cmp, &ctl->blocks);
}

/* The plain samples' own cost of the D ADDs run beside their chain: the
 * main arm's plain samples against the A/A arm's (D = 0), whose plain
 * samples run none. */
static void overlap(const struct tl_cell *c, const uint64_t *mark, size_t done, uint64_t seed,
		    struct arm_bufs *m, struct arm_bufs *aa, struct tl_jitter *j)
{
	size_t mp, ap, nb;
	struct tl_comparison o;

	(void)arm_count(c, mark, done, TL_JITTER_MAIN, &mp);
	(void)arm_count(c, mark, done, TL_JITTER_AA, &ap);
	nb = blocks_for(mp, ap);
	split_arm(c, mark, done, TL_JITTER_MAIN, nb, m);
	split_arm(c, mark, done, TL_JITTER_AA, nb, aa);
	if (m->np == 0 || aa->np == 0 ||
	    stats_compare_step(aa->plain, aa->np, m->plain, m->np, 0, seed, c->resolution_ns, &o))
		return;
	(void)widen(aa->plain, aa->pblk, aa->np, m->plain, m->pblk, m->np, c->resolution_ns, &o);
	j->overlap_ok = true;
	j->overlap = o.shift;
	j->overlap_lo = o.lo;
	j->overlap_hi = o.hi;
}

/* The medians of cell x's samples in nb time blocks (as split_arm). */
static void block_medians(const struct tl_cell *x, size_t done, size_t nb, double *med)
{
	for (size_t b = 0; b < nb; b++) {
		size_t lo = (size_t)ceil((double)b * (double)done / (double)nb);
		size_t hi = (size_t)ceil((double)(b + 1) * (double)done / (double)nb);

		med[b] = stats_median(x->ns + lo, hi - lo);
	}
}

/* The ns per ADD of the run's add chain beside the jitter cell (same timer
 * and flush): the slope between the medians of its add:K cells of the
 * least and the most K, measured in the same run and harness as the
 * shift. half: 95 % half-width from the blocks' slopes (NaN: too few
 * samples). false when there are not two such cells. */
static bool chain_slope(const struct tl_run *run, const struct tl_cell *jc, double *slope,
			double *half)
{
	const struct tl_cell *lo = NULL, *hi = NULL;
	size_t nlo, nhi, nb;

	for (size_t i = 0; i < run->ncells; i++) {
		const struct tl_cell *x = &run->cells[i];

		if (x->kernel.kind != TL_KERNEL_ADD || x->timer != jc->timer ||
		    x->flush != jc->flush || tl_cell_done(run, i) == 0)
			continue;
		if (!lo || x->kernel.k < lo->kernel.k)
			lo = x;
		if (!hi || x->kernel.k > hi->kernel.k)
			hi = x;
	}
	if (!lo || lo->kernel.k == hi->kernel.k)
		return false;
	nlo = tl_cell_done(run, (size_t)(lo - run->cells));
	nhi = tl_cell_done(run, (size_t)(hi - run->cells));
	double dk = (double)(hi->kernel.k - lo->kernel.k), mean, sd;

	*slope = (stats_median(hi->ns, nhi) - stats_median(lo->ns, nlo)) / dk;
	*half = NAN;
	nb = (nlo < nhi ? nlo : nhi) / TL_JITTER_BLOCK_SIDE;
	nb = nb < TL_JITTER_BLOCKS ? nb : TL_JITTER_BLOCKS;
	if (nb >= TL_BLOCKS_MIN) {
		double ml[TL_JITTER_BLOCKS], mh[TL_JITTER_BLOCKS];

		block_medians(lo, nlo, nb, ml);
		block_medians(hi, nhi, nb, mh);
		for (size_t b = 0; b < nb; b++)
			mh[b] = (mh[b] - ml[b]) / dk;
		(void)stats_mean_t_half(mh, nb, &mean, &sd, half);
		/* Medians on a lattice clock move in whole steps: blocks that
		 * agree say the slope is known to a step over the K between. */
		*half = fmax(*half, jc->resolution_ns / dk);
	}
	return true;
}

/* The truth before the cell's own chain is known (harness_truth may take
 * over): the run's add chain where it has one (interleaved, same timer,
 * same run), else the calibration before sampling, else the plain
 * samples. */
static void truth(const struct tl_run *run, const struct tl_cell *c, const double *plain,
		  size_t np, struct tl_jitter *j)
{
	j->ns_per_add_cal = c->d_ns_per_add;
	if (chain_slope(run, c, &j->ns_per_add_chain, &j->chain_half) && j->ns_per_add_chain > 0) {
		j->truth = TL_TRUTH_CHAIN;
		j->ns_per_add = j->ns_per_add_chain;
	} else if (isfinite(c->d_ns_per_add)) {
		/* D given in ns came with a calibration of 1e6 ADDs, which even
		 * a microsecond clock resolves; a median of K plain ADDs may not. */
		j->truth = TL_TRUTH_CALIBRATION;
		j->ns_per_add = c->d_ns_per_add;
	} else if (np > 0 && c->kernel.k > 0 && isfinite(c->overhead_ns)) {
		j->truth = TL_TRUTH_PLAIN;
		j->ns_per_add = (stats_median(plain, np) - c->overhead_ns) / (double)c->kernel.k;
	}
	if (j->truth != TL_TRUTH_NONE)
		j->true_shift_ns = (double)c->kernel.d * j->ns_per_add;
	if (j->truth == TL_TRUTH_CHAIN)
		j->truth_half = j->chain_half;
}

/* The D ADDs' cost on the chain inside this cell: its injected samples
 * against the A/A arm's dependent ones (D = 0, the same path, the same
 * switches), over D, with the interval widened as the shift's. A figure
 * kept beside the truth, never the truth: it is the shift's own samples
 * (compare_injected), so it would always agree with it. false when a side
 * is empty. */
static bool harness_chain(const struct tl_cell *c, const uint64_t *mark, size_t done,
			  uint64_t seed, struct arm_bufs *m, struct arm_bufs *aa, struct tl_jitter *j)
{
	size_t mp, ap, mi = arm_count(c, mark, done, TL_JITTER_MAIN, &mp);
	size_t ai = arm_count(c, mark, done, TL_JITTER_AA, &ap), nb = blocks_for(mi, ai);
	double d = (double)c->kernel.d;
	struct tl_comparison h;

	split_arm(c, mark, done, TL_JITTER_MAIN, nb, m);
	split_arm(c, mark, done, TL_JITTER_AA, nb, aa);
	if (c->kernel.d == 0 || m->ni == 0 || aa->ni == 0 ||
	    stats_compare_step(aa->inj, aa->ni, m->inj, m->ni, 0, seed, c->resolution_ns, &h))
		return false;
	(void)widen(aa->inj, aa->iblk, aa->ni, m->inj, m->iblk, m->ni, c->resolution_ns, &h);
	j->ns_per_add_harness = h.shift / d;
	j->harness_half = fmax(h.hi - h.shift, h.shift - h.lo) / d;
	return true;
}

/* The other figures kept beside a measured truth, and a note when one is
 * off by more than the two spreads together (the calibration's taken as
 * none). */
static void truth_note(struct tl_jitter *j)
{
	if (j->truth != TL_TRUTH_CHAIN)
		return;
	if (isfinite(j->ns_per_add_cal) && isfinite(j->truth_half) &&
	    fabs(j->ns_per_add_cal - j->ns_per_add) > j->truth_half)
		snprintf(j->truth_note, sizeof j->truth_note,
			 "the calibration before sampling (fastest of 15 timings of 1e6 ADDs) read "
			 "%.4f ns per ADD, %+.1f %% off the chain's %.4f +- %.2g",
			 j->ns_per_add_cal, 100 * (j->ns_per_add_cal / j->ns_per_add - 1),
			 j->ns_per_add, j->truth_half);
}

static const char *ns_fmt(double v)
{
	return fabs(v) < 10 ? "%.2f" : "%.1f";
}

/* Whether the interval meets the truth (widened by the chain's own
 * spread); a miss says what was measured of what was injected, and the
 * plain samples' part in it when they paid for the ADDs beside them. */
static void check_truth(const struct tl_cell *c, struct tl_jitter *j)
{
	double slack = isfinite(j->truth_half) ? (double)c->kernel.d * j->truth_half : 0;
	char sh[24], tr[24];

	if (!j->ok || !isfinite(j->true_shift_ns))
		return;
	j->checked = true;
	j->covers = j->cmp.lo <= j->true_shift_ns + slack && j->cmp.hi >= j->true_shift_ns - slack;
	if (j->covers)
		return;
	snprintf(sh, sizeof sh, ns_fmt(j->cmp.shift), j->cmp.shift);
	snprintf(tr, sizeof tr, ns_fmt(j->true_shift_ns), j->true_shift_ns);
	snprintf(j->miss, sizeof j->miss, "measured %s of %s ns injected", sh, tr);
}

static void judge(const struct tl_cell *c, struct tl_jitter *j)
{
	const struct tl_comparison *sw = j->swapped.ok ? &j->swapped.cmp : NULL;

	if (!j->controls)
		return;
	if (j->ok && j->aa.ok && !sw) {
		snprintf(j->reason, sizeof j->reason,
			 "the P-swapped control (P = %g) had no samples on one side",
			 1.0 - c->kernel.p);
		j->unreliable = true;
		j->fault = TL_JITTER_FAULT_SW_EMPTY;
	} else if (j->ok) {
		j->fault = (enum tl_jitter_fault)tl_jitter_unreliable(
			&j->cmp, j->aa.ok ? &j->aa.cmp : NULL, sw, 1.0 - c->kernel.p,
			TL_JITTER_ALPHA, j->reason, sizeof j->reason);
		j->unreliable = j->fault != TL_JITTER_FAULT_NONE;
	}
	if (j->unreliable)
		j->detected = false;
}

static void set_note(const struct tl_cell *c, struct tl_jitter *j)
{
	if (j->null_split)
		snprintf(j->note, sizeof j->note,
			 "D = 0%s: a seeded split of the same share stands for the injected samples",
			 c->kernel.d_ns > 0 ? " ADDs (D in ns rounded to none)" : "");
	else if (j->truth == TL_TRUTH_CHAIN)
		snprintf(j->note, sizeof j->note,
			 "ns per ADD = the slope of this run's add:K medians (same timer and flush), "
			 "%.4f +- %.2g", j->ns_per_add_chain, j->chain_half);
	else if (j->truth == TL_TRUTH_CALIBRATION)
		snprintf(j->note, sizeof j->note,
			 "ns per ADD from the fastest of 15 timings of 1e6 ADDs before sampling "
			 "(add:0 and add:K cells would measure it in the run)");
	else if (c->kernel.k == 0)
		snprintf(j->note, sizeof j->note, "K = 0: no plain ADDs to measure ns per ADD from");
	else
		snprintf(j->note, sizeof j->note,
			 "ns per ADD = (median of the plain samples - t_e,std) / K");
}

static void arm_bufs_alloc(struct arm_bufs *b, size_t n)
{
	b->plain = tl_xmalloc((n ? n : 1) * sizeof *b->plain);
	b->inj = tl_xmalloc((n ? n : 1) * sizeof *b->inj);
	b->pblk = tl_xmalloc((n ? n : 1) * sizeof *b->pblk);
	b->iblk = tl_xmalloc((n ? n : 1) * sizeof *b->iblk);
}

static void arm_bufs_free(struct arm_bufs *b)
{
	free(b->plain);
	free(b->inj);
	free(b->pblk);
	free(b->iblk);
}

void tl_jitter_analyse(const struct tl_run *run, size_t cell, uint64_t seed, struct tl_jitter *j)
{
	tl_jitter_analyse_seeded(run, cell, tl_cell_seed(run, cell, seed), j);
}

void tl_jitter_analyse_seeded(const struct tl_run *run, size_t cell, uint64_t cseed,
			      struct tl_jitter *j)
{
	const struct tl_cell *c = &run->cells[cell];
	size_t done = tl_cell_done(run, cell);
	uint64_t *mark;
	struct arm_bufs m, x, base;

	memset(j, 0, sizeof *j);
	j->ns_per_add = j->true_shift_ns = NAN;
	j->ns_per_add_chain = j->chain_half = j->ns_per_add_cal = NAN;
	j->ns_per_add_harness = j->harness_half = j->truth_half = NAN;
	j->overlap = j->overlap_lo = j->overlap_hi = NAN;
	if (c->kernel.kind != TL_KERNEL_JITTER) {
		snprintf(j->note, sizeof j->note, "not a jitter cell");
		return;
	}
	j->controls = tl_jitter_codes_tagged(c->adds, done);
	j->null_split = c->kernel.d == 0 && !j->controls;
	mark = tl_xmalloc((done ? done : 1) * sizeof *mark);
	arm_bufs_alloc(&m, done);
	arm_bufs_alloc(&x, done);
	arm_bufs_alloc(&base, done);
	if (j->null_split) {
		/* A file from before the arms: with D = 0 its samples carry no
		 * mark, so the plan's rule with D = 1 picks a seeded set of the
		 * same share (its main arm), independent of the samples. */
		struct tl_kernel k = c->kernel;

		k.d = 1;
		tl_kernel_plan_main_only(&k, cseed, mark, done);
	} else {
		memcpy(mark, c->adds, done * sizeof *mark);
	}
	/* No band of "same": the question is only whether the shift is seen. */
	j->ok = j->controls ? compare_injected(c, mark, done, TL_JITTER_MAIN, cseed, &m, &base,
					       &j->cmp, &j->blocks)
			    : compare_arm(c, mark, done, TL_JITTER_MAIN, cseed, &m, &j->cmp,
					  &j->blocks);
	j->n_plain = m.np;
	truth(run, c, m.plain, m.np, j);
	if (!j->ok) {
		j->cmp.na = m.np;
		j->cmp.nb = m.ni;
		snprintf(j->note, sizeof j->note, "%zu plain and %zu injected samples: nothing to compare",
			 m.np, m.ni);
		goto out;
	}
	j->detected = j->cmp.mwu_p < TL_JITTER_ALPHA;
	if (j->controls) {
		control(c, mark, done, TL_JITTER_AA, tl_seed_derive(cseed, 1), &x, &j->aa);
		j->aa.n_plain = x.np;
		j->swapped.ok = compare_injected(c, mark, done, TL_JITTER_SWAPPED,
						 tl_seed_derive(cseed, 2), &x, &base, &j->swapped.cmp,
						 &j->swapped.blocks);
		j->swapped.n_plain = x.np;
		judge(c, j);
		overlap(c, mark, done, tl_seed_derive(cseed, 3), &m, &x, j);
		(void)harness_chain(c, mark, done, tl_seed_derive(cseed, 4), &m, &x, j);
	}
	truth_note(j);
	check_truth(c, j);
	set_note(c, j);
out:
	free(mark);
	arm_bufs_free(&m);
	arm_bufs_free(&x);
	arm_bufs_free(&base);
}

unsigned tl_cell_caveats(const struct tl_cell *c, const struct tl_analysis *a)
{
	const struct tl_summary *s = &a->summary;
	unsigned k = 0;

	if (c->kernel.kind != TL_KERNEL_EMPTY && isfinite(c->overhead_ns) && s->p50 > 0 &&
	    c->overhead_ns > 2 * s->p50)
		k |= TL_CAVEAT_NOISY_OVERHEAD;
	if (tl_cell_shows_drift(c, a))
		k |= TL_CAVEAT_DRIFT;
	if (s->n && s->min < 0)
		k |= TL_CAVEAT_NEGATIVE;
	return k;
}
