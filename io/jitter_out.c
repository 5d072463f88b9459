#include "config.h"

#include "io/jitter_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/size.h"
#include "bench/analysis.h"
#include "io/json_build.h"
#include "io/results.h"
#include "io/run_compare.h"

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
	tl_json_set(o, "n_plain", json_integer((json_int_t)ctl->n_plain));
	tl_json_set(o, "n_injected", json_integer((json_int_t)ctl->cmp.nb));
	tl_json_set(o, "n_baseline", json_integer((json_int_t)ctl->cmp.na));
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
	static const char *const names[] = { NULL, "chain", "calibration", "plain median" };

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
	tl_json_set(o, "n_plain", json_integer((json_int_t)j->n_plain));
	tl_json_set(o, "n_injected", json_integer((json_int_t)j->cmp.nb));
	tl_json_set(o, "baseline", json_string(j->controls ? "aa" : "plain"));
	tl_json_set(o, "n_baseline", json_integer((json_int_t)j->cmp.na));
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
	fprintf(f, "+%llu ADDs = %.2f ns; shift %s ns [%s, %s] (%s; %zu %s vs %zu "
		   "injected); Mann-Whitney p = %.2g: %s",
		(unsigned long long)c->kernel.d, j->true_shift_ns, sh, lo, hi, how,
		j->cmp.na, j->controls ? "at D = 0 (the A/A arm)" : "plain", j->cmp.nb,
		j->cmp.mwu_p, tl_jitter_verdict(j));
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
	if (j->overlap_ok && j->overlap_lo > 0)
		fprintf(f, "  (this arm's plain samples paid %+.2f ns [%.2f, %.2f] for the %llu ADDs "
			   "run beside their chain: why the shift is taken against the A/A arm)\n",
			j->overlap, j->overlap_lo, j->overlap_hi, (unsigned long long)c->kernel.d);
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
