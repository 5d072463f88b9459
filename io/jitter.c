#include "config.h"

#include "io/jitter.h"
#include "io/run_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "io/json_build.h"
#include "io/results.h"

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
	j->null_split = c->kernel.d == 0;
	mark = tl_xmalloc(done * sizeof *mark);
	plain = tl_xmalloc(done * sizeof *plain);
	inj = tl_xmalloc(done * sizeof *inj);
	if (j->null_split) {
		/* With D = 0 nothing differs between the two sets, so the
		 * samples carry no mark; the plan's own rule with D = 1 picks a
		 * seeded set of the same share, independent of the samples as
		 * the runner's choice is: the null control. */
		struct tl_kernel k = c->kernel;

		k.d = 1;
		tl_kernel_plan(&k, cseed, mark, done);
	} else {
		memcpy(mark, c->adds, done * sizeof *mark);
	}
	for (size_t i = 0; i < done; i++) {
		if (mark[i] == c->kernel.k)
			plain[np++] = c->ns[i];
		else
			inj[ni++] = c->ns[i];
	}
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
	stats_compare(plain, np, inj, ni, 0, cseed, &j->cmp);
	j->ok = true;
	j->detected = j->cmp.mwu_p < TL_JITTER_ALPHA;
	if (j->null_split)
		snprintf(j->note, sizeof j->note,
			 "D = 0%s: a seeded split of the same share stands for the injected samples",
			 c->kernel.d_ns > 0 ? " ADDs (D in ns rounded to none)" : "");
	else if (isfinite(c->d_ns_per_add))
		snprintf(j->note, sizeof j->note,
			 "ns per ADD from 15 timings of 1e6 ADDs before sampling");
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

json_t *tl_jitter_to_json(const struct tl_jitter *j, uint64_t d)
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
	tl_json_set(o, "note", json_string(j->note));
	return o;
}

void tl_jitter_print(FILE *f, const struct tl_run *run, size_t cell, const struct tl_jitter *j)
{
	const struct tl_cell *c = &run->cells[cell];
	char flush[32];

	tl_size_format(run->flush_bytes[c->flush], flush, sizeof flush);
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
		   "injected); Mann-Whitney p = %.2g: %s at alpha = %.2f\n",
		(unsigned long long)c->kernel.d, j->true_shift_ns, sh, lo, hi,
		j->cmp.method == TL_SHIFT_MEAN ? "difference of means: ties common" : "Hodges-Lehmann",
		j->cmp.na, j->cmp.nb, j->cmp.mwu_p, j->detected ? "detected" : "not detected",
		TL_JITTER_ALPHA);
	fprintf(f, "  (%s)\n", j->note);
	if (c->kernel.d_ns > 0)
		fprintf(f, "  (D given as %g ns: %llu ADDs at %.4g ns per ADD, which this timer "
			   "measured before sampling)\n", c->kernel.d_ns,
			(unsigned long long)c->kernel.d, c->d_ns_per_add);
}
