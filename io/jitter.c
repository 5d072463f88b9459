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

/* The samples of one arm, split by the path they took. */
static void split_arm(const struct tl_cell *c, const uint64_t *mark, size_t done,
		      enum tl_jitter_arm arm, double *plain, size_t *np, double *inj, size_t *ni)
{
	*np = *ni = 0;
	for (size_t i = 0; i < done; i++) {
		if (tl_jitter_code_arm(mark[i]) != arm)
			continue;
		if (tl_jitter_code_dep(mark[i], c->kernel.k))
			inj[(*ni)++] = c->ns[i];
		else
			plain[(*np)++] = c->ns[i];
	}
}

static void control(const struct tl_cell *c, const uint64_t *mark, size_t done,
		    enum tl_jitter_arm arm, uint64_t seed, double *plain, double *inj,
		    struct tl_jitter_control *ctl)
{
	size_t np, ni;

	split_arm(c, mark, done, arm, plain, &np, inj, &ni);
	ctl->cmp.na = np;
	ctl->cmp.nb = ni;
	ctl->ok = np > 0 && ni > 0 &&
		  stats_compare_step(plain, np, inj, ni, 0, seed, c->resolution_ns, &ctl->cmp) == 0;
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
	} else if (j->ok) {
		j->unreliable = tl_jitter_unreliable(&j->cmp, j->aa.ok ? &j->aa.cmp : NULL, sw,
						     1.0 - c->kernel.p, TL_JITTER_ALPHA, j->reason,
						     sizeof j->reason) != 0;
	}
	if (j->unreliable)
		j->detected = false;
}

void tl_jitter_analyse(const struct tl_run *run, size_t cell, uint64_t seed, struct tl_jitter *j)
{
	const struct tl_cell *c = &run->cells[cell];
	size_t done = tl_cell_done(run, cell), np = 0, ni = 0;
	uint64_t *mark;
	double *plain, *inj;
	uint64_t cseed = tl_cell_seed(run, cell, seed);

	memset(j, 0, sizeof *j);
	j->ns_per_add = j->true_shift_ns = NAN;
	if (c->kernel.kind != TL_KERNEL_JITTER) {
		snprintf(j->note, sizeof j->note, "not a jitter cell");
		return;
	}
	j->controls = tl_jitter_codes_tagged(c->adds, done);
	j->null_split = c->kernel.d == 0 && !j->controls;
	mark = tl_xmalloc(done * sizeof *mark);
	plain = tl_xmalloc(done * sizeof *plain);
	inj = tl_xmalloc(done * sizeof *inj);
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
	split_arm(c, mark, done, TL_JITTER_MAIN, plain, &np, inj, &ni);
	/* D given in ns came with a calibration of 1e6 ADDs, which even a
	 * microsecond clock resolves; a median of K plain ADDs may not. */
	if (isfinite(c->d_ns_per_add)) {
		j->ns_per_add = c->d_ns_per_add;
		j->true_shift_ns = (double)c->kernel.d * j->ns_per_add;
	} else if (np > 0 && c->kernel.k > 0 && isfinite(c->overhead_ns)) {
		j->ns_per_add = (stats_median(plain, np) - c->overhead_ns) / (double)c->kernel.k;
		j->true_shift_ns = (double)c->kernel.d * j->ns_per_add;
	}
	if (np == 0 || ni == 0) {
		j->cmp.na = np;
		j->cmp.nb = ni;
		snprintf(j->note, sizeof j->note, "%zu plain and %zu injected samples: nothing to compare",
			 np, ni);
		goto out;
	}
	/* No band of "same": the question is only whether the shift is seen;
	 * both sides hold samples, so it cannot refuse. */
	stats_compare_step(plain, np, inj, ni, 0, cseed, c->resolution_ns, &j->cmp);
	j->ok = true;
	j->detected = j->cmp.mwu_p < TL_JITTER_ALPHA;
	if (j->controls) {
		control(c, mark, done, TL_JITTER_AA, tl_seed_derive(cseed, 1), plain, inj, &j->aa);
		control(c, mark, done, TL_JITTER_SWAPPED, tl_seed_derive(cseed, 2), plain, inj,
			&j->swapped);
		judge(c, j);
	}
	if (j->null_split)
		snprintf(j->note, sizeof j->note,
			 "D = 0%s: a seeded split of the same share stands for the injected samples",
			 c->kernel.d_ns > 0 ? " ADDs (D in ns rounded to none)" : "");
	else if (isfinite(c->d_ns_per_add))
		snprintf(j->note, sizeof j->note,
			 "ns per ADD from the fastest of 15 timings of 1e6 ADDs before sampling");
	else if (c->kernel.k == 0)
		snprintf(j->note, sizeof j->note, "K = 0: no plain ADDs to measure ns per ADD from");
	else
		snprintf(j->note, sizeof j->note,
			 "ns per ADD = (median of the plain samples - t_e,std) / K");
out:
	free(mark);
	free(plain);
	free(inj);
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
	return o;
}

json_t *tl_jitter_to_json(const struct tl_jitter *j, uint64_t d, double p)
{
	json_t *o = tl_json_object();

	tl_json_set(o, "d", json_integer((json_int_t)d));
	tl_json_set(o, "ns_per_add", tl_json_real(j->ns_per_add));
	tl_json_set(o, "true_shift_ns", tl_json_real(j->true_shift_ns));
	tl_json_set(o, "n_plain", json_integer((json_int_t)j->cmp.na));
	tl_json_set(o, "n_injected", json_integer((json_int_t)j->cmp.nb));
	tl_json_set(o, "shift_ns", tl_json_real(j->ok ? j->cmp.shift : NAN));
	tl_json_set(o, "shift_method", j->ok ? json_string(stats_shift_method_name(j->cmp.method))
					     : json_null());
	tl_json_set(o, "median_diff_ns", tl_json_real(j->ok ? j->cmp.median_diff : NAN));
	tl_json_set(o, "ci_lo_ns", tl_json_real(j->ok ? j->cmp.lo : NAN));
	tl_json_set(o, "ci_hi_ns", tl_json_real(j->ok ? j->cmp.hi : NAN));
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
	char sh[32], lo[32], hi[32];

	tl_shift_text(j->cmp.shift, sh, sizeof sh);
	tl_shift_text(j->cmp.lo, lo, sizeof lo);
	tl_shift_text(j->cmp.hi, hi, sizeof hi);
	fprintf(f, "+%llu ADDs = %.2f ns; shift %s ns [%s, %s] (%s, 95 %%, %zu plain vs %zu "
		   "injected); Mann-Whitney p = %.2g: %s",
		(unsigned long long)c->kernel.d, j->true_shift_ns, sh, lo, hi,
		j->cmp.method == TL_SHIFT_MEAN ? "difference of means: ties common" : "Hodges-Lehmann",
		j->cmp.na, j->cmp.nb, j->cmp.mwu_p, tl_jitter_verdict(j));
	if (j->unreliable)
		fprintf(f, ": %s\n", j->reason);
	else
		fprintf(f, " at alpha = %.2f\n", TL_JITTER_ALPHA);
	if (j->controls) {
		char ash[32], alo[32], ahi[32], ssh[32], slo[32], shi[32];

		tl_shift_text(j->aa.cmp.shift, ash, sizeof ash);
		tl_shift_text(j->aa.cmp.lo, alo, sizeof alo);
		tl_shift_text(j->aa.cmp.hi, ahi, sizeof ahi);
		tl_shift_text(j->swapped.cmp.shift, ssh, sizeof ssh);
		tl_shift_text(j->swapped.cmp.lo, slo, sizeof slo);
		tl_shift_text(j->swapped.cmp.hi, shi, sizeof shi);
		fprintf(f, "  controls: A/A (D = 0, P = %g) %s ns [%s, %s], p = %.2g; "
			   "P-swapped (P = %g) %s ns [%s, %s], p = %.2g\n",
			c->kernel.p, ash, alo, ahi, j->aa.cmp.mwu_p, 1.0 - c->kernel.p, ssh, slo, shi,
			j->swapped.cmp.mwu_p);
	} else {
		fprintf(f, "  controls: none (a file saved before the A/A and P-swapped arms)\n");
	}
	fprintf(f, "  (%s)\n", j->note);
	if (c->kernel.d > TL_JITTER_OVERLAP_ADDS && !run->timers[c->timer].backend->simulated)
		fprintf(f, "  (D > %d ADDs: a plain sample's ADDs beyond %d no longer all overlap "
			   "its K chain, so the shift can fall short of D)\n", TL_JITTER_OVERLAP_ADDS,
			TL_JITTER_OVERLAP_ADDS);
	if (c->kernel.d_ns > 0)
		fprintf(f, "  (D given as %g ns: %llu ADDs at %.4g ns per ADD, which this timer "
			   "measured before sampling)\n", c->kernel.d_ns,
			(unsigned long long)c->kernel.d, c->d_ns_per_add);
}
