#include "config.h"

#include "bench/detect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/kernel.h"
#include "bench/runner.h"
#include "stats/compare.h"
#include <stdint.h>

void tl_detect_defaults(struct tl_detect_params *p)
{
	p->k = TL_DETECT_K;
	p->n = TL_DEFAULT_N;
	p->alpha = TL_DETECT_ALPHA;
	p->max_d = TL_DETECT_MAX_D;
	p->seed = 1;
}

int tl_jitter_shift_unsized(const struct tl_comparison *main, double alpha, char *why,
			    size_t whylen)
{
	if (!(main->mwu_p < alpha) || main->lo > 0)
		return 0;
	snprintf(why, whylen,
		 "Mann-Whitney p = %.2g sees the kinds differ, but the shift %.2f ns [%.2f, %.2f] "
		 "is not above 0: not sized", main->mwu_p, main->shift, main->lo, main->hi);
	return 1;
}

const char *tl_jitter_fault_short(enum tl_jitter_fault f)
{
	static const char *const words[] = {
		"", "not sized: the interval meets 0", "the A/A control has no samples",
		"the A/A control shows a shift", "the P-swapped control has no samples",
		"the P-swapped control disagrees",
	};

	return words[f];
}

int tl_jitter_unreliable(const struct tl_comparison *main, const struct tl_comparison *aa,
			 const struct tl_comparison *sw, double swapped_p, double alpha, char *why,
			 size_t whylen)
{
	if (tl_jitter_shift_unsized(main, alpha, why, whylen))
		return TL_JITTER_FAULT_UNSIZED;
	if (!aa || aa->na == 0 || aa->nb == 0) {
		snprintf(why, whylen, "the A/A control (D = 0) had no samples on one side");
		return TL_JITTER_FAULT_AA_EMPTY;
	}
	/* The rank test alone is not enough: it takes the samples as
	 * independent, and a VM's level moves during a run, so with thousands
	 * of samples it found an A/A "shift" of 0.01-0.06 ns in 3 runs of 8 on
	 * the Intel Xeon KVM guest. The interval, widened to the spread of the
	 * time blocks, must exclude 0 as well, as the cell's own shift must. */
	if (aa->mwu_p < alpha && (aa->lo > 0 || aa->hi < 0)) {
		snprintf(why, whylen,
			 "the A/A control (D = 0, the split alone) shows a shift of %.2f ns "
			 "[%.2f, %.2f] (Mann-Whitney p = %.2g)", aa->shift, aa->lo, aa->hi,
			 aa->mwu_p);
		return TL_JITTER_FAULT_AA_SHIFT;
	}
	if (!sw)
		return TL_JITTER_FAULT_NONE;
	if (sw->na == 0 || sw->nb == 0) {
		snprintf(why, whylen, "the P-swapped control (P = %g) had no samples on one side",
			 swapped_p);
		return TL_JITTER_FAULT_SW_EMPTY;
	}
	if (main->hi < sw->lo || sw->hi < main->lo) {
		snprintf(why, whylen,
			 "the P-swapped control (P = %g) shifts %.2f ns [%.2f, %.2f], outside "
			 "the main %.2f ns [%.2f, %.2f]", swapped_p, sw->hl, sw->lo, sw->hi,
			 main->hl, main->lo, main->hi);
		return TL_JITTER_FAULT_SW_APART;
	}
	return TL_JITTER_FAULT_NONE;
}

struct buffers {
	uint64_t *adds;
	double *raw, *plain, *inj;
};

/* One arm of a draw into c: its sizes, MWU U and p and its shift (a mean on
 * a lattice clock, else Hodges-Lehmann), and with full the interval too
 * (stats_compare). -1 when a side is empty. */
static int arm_test(const struct tl_timer *t, const struct tl_detect_params *p,
		    const struct buffers *b, enum tl_jitter_arm arm, unsigned index, bool full,
		    struct tl_comparison *c)
{
	size_t np = 0, ni = 0;
	enum tl_shift_method method; /* a lattice clock reads the shift as a mean */

	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < TL_JITTER_ARMS * p->n; i++) {
		double ns = b->raw[i] * t->ns_per_unit;

		if (tl_jitter_code_arm(b->adds[i]) != arm)
			continue;
		if (tl_jitter_code_dep(b->adds[i], p->k))
			b->inj[ni++] = ns;
		else
			b->plain[np++] = ns;
	}
	c->na = np;
	c->nb = ni;
	c->lo = c->hi = NAN;
	/* A small n can draw every sample plain (or every one injected). */
	if (stats_mann_whitney(b->plain, np, b->inj, ni, &c->mwu_u, &c->mwu_p) != 0)
		return -1;
	if (full)
		return stats_compare(b->plain, np, b->inj, ni, 0,
				     tl_seed_derive(p->seed ^ 0x5a5aULL, index * 4 + arm), c);
	c->shift = stats_shift(b->plain, np, b->inj, ni, &method);
	c->method = method;
	return 0;
}

/* One jitter:K,D,0.5 draw with its two control arms interleaved (n samples
 * each): 1 when detected, 0 when not, 2 when detected but the controls
 * fail (unreliable: counted as not detected), -1 when an arm held no
 * plain or no injected sample. */
static int evaluate(struct tl_timer *t, const struct tl_flush *f, const struct tl_detect_params *p,
		    uint64_t d, unsigned index, struct buffers *b, struct tl_detect_result *r,
		    double *pval, double *shift)
{
	struct tl_kernel k = { .kind = TL_KERNEL_JITTER, .k = p->k, .d = d, .p = 0.5 };
	struct tl_comparison m, aa, sw;

	tl_kernel_plan(&k, tl_seed_derive(p->seed, index), b->adds, TL_JITTER_ARMS * p->n);
	tl_measure_jitter(t, f, &k, b->adds, TL_JITTER_ARMS * p->n, b->raw);
	if (arm_test(t, p, b, TL_JITTER_MAIN, index, false, &m) < 0 ||
	    arm_test(t, p, b, TL_JITTER_AA, index, false, &aa) < 0)
		return -1;
	*pval = m.mwu_p;
	*shift = m.shift;
	r->controls_run++;
	if (aa.mwu_p < p->alpha)
		r->aa_alarms++;
	/* U of the plain samples below its mean: they tend to be the smaller. */
	if (!(m.mwu_p < p->alpha && m.mwu_u < (double)m.na * (double)m.nb / 2))
		return 0;
	/* Detected: the interval check against the swapped arm needs both
	 * bootstraps, paid only here. */
	if (arm_test(t, p, b, TL_JITTER_MAIN, index, true, &m) < 0 ||
	    arm_test(t, p, b, TL_JITTER_SWAPPED, index, true, &sw) < 0)
		return -1;
	r->aa_p = aa.mwu_p;
	r->lo = m.lo;
	r->hi = m.hi;
	r->sw_shift = sw.shift;
	r->sw_lo = sw.lo;
	r->sw_hi = sw.hi;
	if (tl_jitter_unreliable(&m, &aa, &sw, 1.0 - k.p, p->alpha, r->control_why,
				 sizeof r->control_why)) {
		r->unreliable++;
		return 2;
	}
	return 1;
}

/* A D counts as detected when most of three draws detect it (the third
 * only when the first two disagree): a lone false alarm at alpha (one draw
 * in 40 upward) then stops the doubling in about 1 case of 500, not 1 of
 * 40, and the answer estimates where the power passes 1/2. A draw whose
 * controls fail counts as a miss. */
static int majority(struct tl_timer *t, const struct tl_flush *f, const struct tl_detect_params *p,
		    uint64_t d, struct tl_detect_result *r, struct buffers *b, double *pval,
		    double *shift)
{
	int hits = 0;

	for (int draw = 0; draw < 3 && hits < 2 && draw - hits < 2; draw++) {
		int h = evaluate(t, f, p, d, r->evaluations++, b, r, pval, shift);

		if (h < 0) {
			snprintf(r->why, sizeof r->why,
				 "a draw of %zu samples at D = %llu held only one kind (plain or injected)",
				 p->n, (unsigned long long)d);
			return -1;
		}
		hits += h == 1;
	}
	return hits >= 2;
}

static void say_found(struct tl_detect_result *r, uint64_t d, double p, double shift)
{
	r->found = true;
	r->d = d;
	r->d_ns = (double)d * r->ns_per_add;
	r->p = p;
	r->shift_ns = shift;
	r->found_aa_p = r->aa_p;
	r->found_lo = r->lo;
	r->found_hi = r->hi;
	r->found_sw_shift = r->sw_shift;
	r->found_sw_lo = r->sw_lo;
	r->found_sw_hi = r->sw_hi;
}

int tl_detect_run(struct tl_timer *t, const struct tl_flush *f, const struct tl_detect_params *p,
		  atomic_bool *stop, struct tl_detect_result *r)
{
	struct buffers b;
	uint64_t lo = 0, hi = 1; /* lo: a miss (0 = none yet), hi: next to try */
	double pv, sh;
	int rc = -1, hit;

	memset(r, 0, sizeof *r);
	r->d_ns = r->p = r->shift_ns = NAN;
	r->n_side = p->n / 2;
	/* n samples for the draw itself, as many for each control. */
	b.adds = p->n <= SIZE_MAX / (TL_JITTER_ARMS * sizeof *b.raw)
			 ? malloc(TL_JITTER_ARMS * p->n * sizeof *b.adds) : NULL;
	b.raw = b.adds ? malloc(TL_JITTER_ARMS * p->n * sizeof *b.raw) : NULL;
	b.plain = malloc(p->n * sizeof *b.plain);
	b.inj = malloc(p->n * sizeof *b.inj);
	/* n is the user's: too many is said, not a tl_fail. */
	if (!b.adds || !b.raw || !b.plain || !b.inj) {
		snprintf(r->why, sizeof r->why,
			 "out of memory for the buffers of 3 x %zu samples (-n)", p->n);
		goto out;
	}
	r->ns_per_add = tl_ns_per_add(t);
	/* Doubling: the first D detected bounds the answer from above. */
	for (;;) {
		if (stop && atomic_load(stop)) {
			snprintf(r->why, sizeof r->why, "stopped");
			rc = 0;
			goto out;
		}
		if ((hit = majority(t, f, p, hi, r, &b, &pv, &sh)) < 0)
			goto out;
		if (hit)
			break;
		lo = hi;
		if (hi >= p->max_d) {
			snprintf(r->why, sizeof r->why,
				 "not detected up to %llu ADDs%s", (unsigned long long)p->max_d,
				 p->max_d >= TL_JITTER_OVERLAP_ADDS
					 ? " (the most the jitter kernel delivers whole)"
					 : "");
			r->below = lo;
			rc = 0;
			goto out;
		}
		hi = hi * 2 > p->max_d ? p->max_d : hi * 2;
	}
	say_found(r, hi, pv, sh);
	/* Bisection between the last miss and the first hit, to 1/16 of D
	 * (finer than one draw's scatter there). */
	while (hi - lo > 1 && hi - lo > hi / 16 && !(stop && atomic_load(stop))) {
		uint64_t mid = lo + (hi - lo) / 2;

		if ((hit = majority(t, f, p, mid, r, &b, &pv, &sh)) < 0)
			goto out;
		if (hit) {
			hi = mid;
			say_found(r, mid, pv, sh);
		} else {
			lo = mid;
		}
	}
	r->below = lo;
	rc = 0;
out:
	free(b.adds);
	free(b.raw);
	free(b.plain);
	free(b.inj);
	return rc;
}
