#include "config.h"

#include "io/jitter.h"
#include "io/run_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "bench/detect.h"
#include "io/json_build.h"
#include "io/results.h"

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
 * switches), interleaved with the shift's own samples; over D, with the
 * interval widened as the shift's. false when a side is empty. */
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

/* The cell's own chain is the truth where it resolves ns per ADD finely
 * (TL_JITTER_HARNESS_REL): its samples are the shift's, taken at the same
 * moments. The run's add:K cells ran in other chunks, which a VM's moving
 * core clock can put 3 % apart from the jitter cell's (seen at D = 200 on
 * the Intel Xeon KVM guest: 0.3224 against 0.3334 ns per ADD); the
 * calibration before sampling reads the fastest of its timings, up to 6 %
 * off. */
static void harness_truth(const struct tl_cell *c, struct tl_jitter *j)
{
	if (!(j->ns_per_add_harness > 0) ||
	    !(j->harness_half <= TL_JITTER_HARNESS_REL * j->ns_per_add_harness))
		return;
	j->truth = TL_TRUTH_HARNESS;
	j->ns_per_add = j->ns_per_add_harness;
	j->truth_half = j->harness_half;
	j->true_shift_ns = (double)c->kernel.d * j->ns_per_add;
}

/* The other figures kept beside a measured truth, and a note when one is
 * off by more than the two spreads together (the calibration's taken as
 * none). */
static void truth_note(struct tl_jitter *j)
{
	const char *from = j->truth == TL_TRUTH_CHAIN ? "the chain's" : "this cell's chain's";
	size_t at = 0;

	if (j->truth != TL_TRUTH_CHAIN && j->truth != TL_TRUTH_HARNESS)
		return;
	if (j->truth == TL_TRUTH_HARNESS && isfinite(j->ns_per_add_chain) &&
	    isfinite(j->chain_half) &&
	    fabs(j->ns_per_add_chain - j->ns_per_add) > hypot(j->chain_half, j->truth_half))
		at += (size_t)snprintf(j->truth_note, sizeof j->truth_note,
				       "the run's add:K cells read %.4f ns per ADD, %+.1f %% off "
				       "this cell's %.4f +- %.2g: the core clock moved between their "
				       "chunks", j->ns_per_add_chain,
				       100 * (j->ns_per_add_chain / j->ns_per_add - 1), j->ns_per_add,
				       j->truth_half);
	if (at < sizeof j->truth_note && isfinite(j->ns_per_add_cal) && isfinite(j->truth_half) &&
	    fabs(j->ns_per_add_cal - j->ns_per_add) > j->truth_half)
		snprintf(j->truth_note + at, sizeof j->truth_note - at,
			 "%sthe calibration before sampling (fastest of 15 timings of 1e6 ADDs) read "
			 "%.4f ns per ADD, %+.1f %% off %s %.4f +- %.2g", at ? "; " : "",
			 j->ns_per_add_cal, 100 * (j->ns_per_add_cal / j->ns_per_add - 1), from,
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
	int n;

	if (!j->ok || !isfinite(j->true_shift_ns))
		return;
	j->checked = true;
	j->covers = j->cmp.lo <= j->true_shift_ns + slack && j->cmp.hi >= j->true_shift_ns - slack;
	if (j->covers)
		return;
	snprintf(sh, sizeof sh, ns_fmt(j->cmp.shift), j->cmp.shift);
	snprintf(tr, sizeof tr, ns_fmt(j->true_shift_ns), j->true_shift_ns);
	n = snprintf(j->miss, sizeof j->miss, "measured %s of %s ns injected", sh, tr);
	if (n > 0 && (size_t)n < sizeof j->miss && j->overlap_ok && c->kernel.d > 0 &&
	    j->overlap_lo > 0 && j->cmp.hi < j->true_shift_ns - slack)
		snprintf(j->miss + n, sizeof j->miss - (size_t)n,
			 ": the plain samples paid %+.2f ns [%.2f, %.2f] for the %llu ADDs run "
			 "beside their chain (against the A/A arm's plain ones)", j->overlap,
			 j->overlap_lo, j->overlap_hi, (unsigned long long)c->kernel.d);
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
	else if (j->truth == TL_TRUTH_HARNESS)
		snprintf(j->note, sizeof j->note,
			 "ns per ADD = (injected less the A/A arm's dependent samples) / D: D ADDs "
			 "on the chain in this cell, %.4f +- %.2g", j->ns_per_add_harness,
			 j->harness_half);
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
	const struct tl_cell *c = &run->cells[cell];
	size_t done = tl_cell_done(run, cell);
	uint64_t *mark;
	struct arm_bufs m, x;
	uint64_t cseed = tl_cell_seed(run, cell, seed);

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
	j->ok = compare_arm(c, mark, done, TL_JITTER_MAIN, cseed, &m, &j->cmp, &j->blocks);
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
		control(c, mark, done, TL_JITTER_SWAPPED, tl_seed_derive(cseed, 2), &x, &j->swapped);
		judge(c, j);
		overlap(c, mark, done, tl_seed_derive(cseed, 3), &m, &x, j);
		if (harness_chain(c, mark, done, tl_seed_derive(cseed, 4), &m, &x, j))
			harness_truth(c, j);
	}
	truth_note(j);
	check_truth(c, j);
	set_note(c, j);
out:
	free(mark);
	arm_bufs_free(&m);
	arm_bufs_free(&x);
}

/* A shift in one decimal ("-" when unknown, "0" under 0.05), signed when
 * sign: the sentence's numbers. */
static void shift1(double v, bool sign, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) < 0.05)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, sign ? "%+.1f" : "%.1f", v);
}

/* The first of forms[0..n) that fits width (0: the first), else the last. */
static void fit(char forms[][240], size_t n, int width, char *buf, size_t len)
{
	size_t i = 0;

	while (width > 0 && i + 1 < n && (int)strlen(forms[i]) > width)
		i++;
	snprintf(buf, len, "%s", forms[i]);
}

void tl_jitter_sentence(const struct tl_cell *c, const struct tl_jitter *j, int width, char *buf,
			size_t len)
{
	char f[3][240], d[32], sh[32], lo[32], hi[32], slo[32], shi[32];
	unsigned long long dd = (unsigned long long)c->kernel.d;
	bool miss = j->checked && !j->covers;

	if (!j->ok) {
		snprintf(buf, len, "%s", j->note);
		return;
	}
	shift1(j->true_shift_ns, false, d, sizeof d);
	shift1(j->cmp.shift, false, sh, sizeof sh);
	shift1(j->cmp.lo, false, lo, sizeof lo);
	shift1(j->cmp.hi, false, hi, sizeof hi);
	shift1(j->cmp.lo, true, slo, sizeof slo);
	shift1(j->cmp.hi, true, shi, sizeof shi);
	if (j->unreliable) {
		/* The controls overrule the cell: the CLI's reason, or its short form. */
		snprintf(f[0], sizeof f[0], "unreliable here: %.200s", j->reason);
		snprintf(f[1], sizeof f[1], "unreliable here: %s", tl_jitter_fault_short(j->fault));
		snprintf(f[2], sizeof f[2], "unreliable: %s", tl_jitter_fault_short(j->fault));
	} else if (j->detected && miss) {
		/* The interval misses the truth: said, as every face says it. */
		snprintf(f[0], sizeof f[0], "sees +%llu ADDs: measured %s of %s ns injected [%s, %s]",
			 dd, sh, d, lo, hi);
		snprintf(f[1], sizeof f[1], "sees: measured %s of %s ns [%s,%s]", sh, d, lo, hi);
		snprintf(f[2], sizeof f[2], "sees %s of %s ns", sh, d);
	} else if (j->detected) {
		snprintf(f[0], sizeof f[0], "sees +%llu ADDs = %s ns: %s ns [%s, %s]", dd, d, sh, lo,
			 hi);
		snprintf(f[1], sizeof f[1], "sees %s ns: %s [%s,%s]", d, sh, lo, hi);
		snprintf(f[2], sizeof f[2], "sees %s ns", d);
	} else if (miss) {
		snprintf(f[0], sizeof f[0], "cannot: measured %s of %s ns injected [%s, %s]", sh, d,
			 slo, shi);
		snprintf(f[1], sizeof f[1], "cannot: %s of %s ns [%s,%s]", sh, d, slo, shi);
		snprintf(f[2], sizeof f[2], "cannot: %s of %s ns", sh, d);
	} else {
		/* On a coarse lattice the interval can collapse to one step
		 * value: the step says how little that proves. */
		char step[48] = "";

		if (c->resolution_ns > j->cmp.hi - j->cmp.lo)
			snprintf(step, sizeof step, " on a %.0f ns step", c->resolution_ns);
		snprintf(f[0], sizeof f[0], "cannot: [%s, %s] ns%s (+%llu ADDs = %s ns)", slo, shi,
			 step, dd, d);
		snprintf(f[1], sizeof f[1], "cannot %s ns: [%s, %s]", d, slo, shi);
		snprintf(f[2], sizeof f[2], "cannot see %s ns", d);
	}
	fit(f, 3, width, buf, len);
}

void tl_jitter_control_text(const struct tl_cell *c, const struct tl_jitter *j,
			    enum tl_jitter_arm arm, int width, char *buf, size_t len)
{
	const struct tl_jitter_control *x = arm == TL_JITTER_AA ? &j->aa : &j->swapped;
	char f[3][240], name[48], sh[32], lo[32], hi[32];

	if (arm == TL_JITTER_AA)
		snprintf(name, sizeof name, "A/A (D = 0)");
	else
		snprintf(name, sizeof name, "P-swapped (P = %g)", 1.0 - c->kernel.p);
	if (!j->controls || !x->ok) {
		snprintf(f[0], sizeof f[0], "%s: %s", name,
			 j->controls ? "no samples on one side" : "none in this file");
		snprintf(f[1], sizeof f[1], "%s: -", arm == TL_JITTER_AA ? "A/A" : "P-swap");
		fit(f, 2, width, buf, len);
		return;
	}
	/* The A/A arm's shift is about 0: signed; the P-swapped one's about D. */
	shift1(x->cmp.shift, arm == TL_JITTER_AA, sh, sizeof sh);
	shift1(x->cmp.lo, arm == TL_JITTER_AA, lo, sizeof lo);
	shift1(x->cmp.hi, arm == TL_JITTER_AA, hi, sizeof hi);
	snprintf(f[0], sizeof f[0], "%s: %s ns [%s, %s], p = %.2g", name, sh, lo, hi,
		 x->cmp.mwu_p);
	snprintf(f[1], sizeof f[1], "%s %s [%s,%s] p %.2g", arm == TL_JITTER_AA ? "A/A" : "P-swap",
		 sh, lo, hi, x->cmp.mwu_p);
	snprintf(f[2], sizeof f[2], "%s %s p %.2g", arm == TL_JITTER_AA ? "A/A" : "P-sw", sh,
		 x->cmp.mwu_p);
	fit(f, 3, width, buf, len);
}

void tl_jitter_ci_method(const struct tl_jitter *j, char *buf, size_t len)
{
	const char *name = j->cmp.method == TL_SHIFT_MEAN ? "difference of means: ties common"
							  : "Hodges-Lehmann";
	const char *ci = j->cmp.method == TL_SHIFT_MEAN ? "Welch's" : "Lehmann's";

	if (j->blocks)
		snprintf(buf, len, "%s, 95 %%: %s interval widened to the spread of %zu time blocks",
			 name, ci, j->blocks);
	else
		snprintf(buf, len, "%s, 95 %%: %s interval (too few samples for time blocks)", name,
			 ci);
}

static json_t *control_to_json(const struct tl_jitter_control *ctl, double p, uint64_t d)
{
	json_t *o = tl_json_object();

	tl_json_set(o, "p", tl_json_real(p));
	tl_json_set(o, "d", json_integer((json_int_t)d));
	tl_json_set(o, "n_plain", json_integer((json_int_t)ctl->cmp.na));
	tl_json_set(o, "n_injected", json_integer((json_int_t)ctl->cmp.nb));
	tl_json_set(o, "shift_ns", tl_json_real(ctl->ok ? ctl->cmp.shift : NAN));
	tl_json_set(o, "ci_lo_ns", tl_json_real(ctl->ok ? ctl->cmp.lo : NAN));
	tl_json_set(o, "ci_hi_ns", tl_json_real(ctl->ok ? ctl->cmp.hi : NAN));
	tl_json_set(o, "mwu_p", tl_json_real(ctl->ok ? ctl->cmp.mwu_p : NAN));
	tl_json_set(o, "ci_blocks", json_integer((json_int_t)ctl->blocks));
	return o;
}

static json_t *str_or_null(bool set, const char *s)
{
	return set ? json_string(s) : json_null();
}

static const char *truth_name(enum tl_jitter_truth t)
{
	static const char *const names[] = { NULL, "chain", "harness", "calibration",
					     "plain median" };

	return names[t];
}

json_t *tl_jitter_to_json(const struct tl_jitter *j, uint64_t d, double p)
{
	json_t *o = tl_json_object();

	tl_json_set(o, "d", json_integer((json_int_t)d));
	tl_json_set(o, "ns_per_add", tl_json_real(j->ns_per_add));
	tl_json_set(o, "true_shift_ns", tl_json_real(j->true_shift_ns));
	tl_json_set(o, "truth", str_or_null(j->truth != TL_TRUTH_NONE, truth_name(j->truth)));
	tl_json_set(o, "ns_per_add_chain", tl_json_real(j->ns_per_add_chain));
	tl_json_set(o, "ns_per_add_chain_half", tl_json_real(j->chain_half));
	tl_json_set(o, "ns_per_add_harness", tl_json_real(j->ns_per_add_harness));
	tl_json_set(o, "ns_per_add_harness_half", tl_json_real(j->harness_half));
	tl_json_set(o, "ns_per_add_half", tl_json_real(j->truth_half));
	tl_json_set(o, "ns_per_add_calibrated", tl_json_real(j->ns_per_add_cal));
	tl_json_set(o, "truth_note", str_or_null(j->truth_note[0], j->truth_note));
	tl_json_set(o, "n_plain", json_integer((json_int_t)j->cmp.na));
	tl_json_set(o, "n_injected", json_integer((json_int_t)j->cmp.nb));
	tl_json_set(o, "shift_ns", tl_json_real(j->ok ? j->cmp.shift : NAN));
	tl_json_set(o, "shift_method", j->ok ? json_string(stats_shift_method_name(j->cmp.method))
					     : json_null());
	tl_json_set(o, "median_diff_ns", tl_json_real(j->ok ? j->cmp.median_diff : NAN));
	tl_json_set(o, "ci_lo_ns", tl_json_real(j->ok ? j->cmp.lo : NAN));
	tl_json_set(o, "ci_hi_ns", tl_json_real(j->ok ? j->cmp.hi : NAN));
	if (j->ok) {
		char how[200];

		tl_jitter_ci_method(j, how, sizeof how);
		tl_json_set(o, "ci_method", json_string(how));
	} else {
		tl_json_set(o, "ci_method", json_null());
	}
	tl_json_set(o, "ci_blocks", json_integer((json_int_t)j->blocks));
	tl_json_set(o, "covers_truth", j->checked ? json_boolean(j->covers) : json_null());
	tl_json_set(o, "truth_miss", str_or_null(j->checked && !j->covers, j->miss));
	tl_json_set(o, "plain_overlap_ns", tl_json_real(j->overlap_ok ? j->overlap : NAN));
	tl_json_set(o, "plain_overlap_lo_ns", tl_json_real(j->overlap_ok ? j->overlap_lo : NAN));
	tl_json_set(o, "plain_overlap_hi_ns", tl_json_real(j->overlap_ok ? j->overlap_hi : NAN));
	tl_json_set(o, "mwu_p", tl_json_real(j->ok ? j->cmp.mwu_p : NAN));
	tl_json_set(o, "ks_p", tl_json_real(j->ok ? j->cmp.ks_p : NAN));
	tl_json_set(o, "alpha", json_real(TL_JITTER_ALPHA));
	tl_json_set(o, "detected", json_boolean(j->detected));
	tl_json_set(o, "null_split", json_boolean(j->null_split));
	tl_json_set(o, "verdict", json_string(j->ok ? tl_jitter_verdict(j) : "not compared"));
	tl_json_set(o, "unreliable", j->unreliable ? json_string(j->reason) : json_null());
	if (j->controls) {
		json_t *ctl = tl_json_object();

		tl_json_set(ctl, "aa", control_to_json(&j->aa, p, 0));
		tl_json_set(ctl, "swapped", control_to_json(&j->swapped, 1.0 - p, d));
		tl_json_set(o, "controls", ctl);
	} else {
		tl_json_set(o, "controls", json_null());
	}
	tl_json_set(o, "note", json_string(j->note));
	return o;
}

void tl_jitter_print(FILE *f, const struct tl_run *run, size_t cell, const struct tl_jitter *j)
{
	const struct tl_cell *c = &run->cells[cell];
	char flush[32];

	tl_run_flush_label(run, c->flush, flush, sizeof flush);
	fprintf(f, "%s, flush %s, %s: ", run->timers[c->timer].id, flush, c->kernel.label);
	if (!j->ok) {
		fprintf(f, "%s\n", j->note);
		return;
	}
	char sh[32], lo[32], hi[32], how[200];

	tl_shift_text(j->cmp.shift, sh, sizeof sh);
	tl_shift_text(j->cmp.lo, lo, sizeof lo);
	tl_shift_text(j->cmp.hi, hi, sizeof hi);
	tl_jitter_ci_method(j, how, sizeof how);
	fprintf(f, "+%llu ADDs = %.2f ns; shift %s ns [%s, %s] (%s; %zu plain vs %zu "
		   "injected); Mann-Whitney p = %.2g: %s",
		(unsigned long long)c->kernel.d, j->true_shift_ns, sh, lo, hi, how,
		j->cmp.na, j->cmp.nb, j->cmp.mwu_p, tl_jitter_verdict(j));
	if (j->unreliable)
		fprintf(f, ": %s\n", j->reason);
	else
		fprintf(f, " at alpha = %.2f\n", TL_JITTER_ALPHA);
	if (j->checked && !j->covers)
		fprintf(f, "  %s\n", j->miss);
	char words[240];

	tl_jitter_sentence(c, j, 0, words, sizeof words);
	fprintf(f, "  in words: %s\n", words);
	if (j->controls) {
		char aa[240], sw[240];

		tl_jitter_control_text(c, j, TL_JITTER_AA, 0, aa, sizeof aa);
		tl_jitter_control_text(c, j, TL_JITTER_SWAPPED, 0, sw, sizeof sw);
		fprintf(f, "  controls: %s; %s\n", aa, sw);
	} else {
		fprintf(f, "  controls: none (a file saved before the A/A and P-swapped arms)\n");
	}
	fprintf(f, "  (%s)\n", j->note);
	if (j->truth_note[0])
		fprintf(f, "  (%s)\n", j->truth_note);
	/* Only a file saved before the parser refused such a D. */
	if (c->kernel.d > TL_JITTER_OVERLAP_ADDS && !run->timers[c->timer].backend->simulated)
		fprintf(f, "  (D > %d ADDs: a plain sample's ADDs beyond %d no longer all overlap "
			   "its K chain, so the shift can fall short of D)\n", TL_JITTER_OVERLAP_ADDS,
			TL_JITTER_OVERLAP_ADDS);
	if (c->kernel.d_ns > 0)
		fprintf(f, "  (D given as %g ns: %llu ADDs at %.4g ns per ADD, which this timer "
			   "measured before sampling)\n", c->kernel.d_ns,
			(unsigned long long)c->kernel.d, c->d_ns_per_add);
}
