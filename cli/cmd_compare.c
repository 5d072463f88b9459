/* `ticklab compare BASE.json NEW.json`: every cell present in both runs,
 * compared (stats/compare.c) with a verdict, so two runs can gate a change. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/size.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "io/analysis.h"
#include "io/results.h"
#include "stats/compare.h"
#include "stats/stats.h"

#define WHY_LEN 1024
#define DEFAULT_THRESHOLD_PCT 1.0

static const char usage_text[] =
	"usage: ticklab compare BASE.json NEW.json [--threshold PCT] [--seed N] [--json FILE|-]\n"
	"\n"
	"Compares two saved runs (`ticklab run --json`) cell by cell: for every\n"
	"backend, flush and kernel in both, the Hodges-Lehmann shift NEW - BASE in ns\n"
	"(after filter_cost) with its 95 % bootstrap interval, the shift in % of\n"
	"BASE's median, Mann-Whitney U and Kolmogorov-Smirnov p-values, and a verdict:\n"
	"same (the interval lies inside +-PCT % of BASE's median, default 1), different\n"
	"(it excludes 0), or unknown, with about how many more samples would decide.\n"
	"\n"
	"Exit status: 0 nothing differs, 1 something differs (or a write failed),\n"
	"2 bad input or unreadable file.\n";

enum { OPT_THRESHOLD = 0x200, OPT_SEED_C, OPT_JSON_C };

static const struct option longopts[] = {
	{"threshold", required_argument, NULL, OPT_THRESHOLD},
	{"seed", required_argument, NULL, OPT_SEED_C},
	{"json", required_argument, NULL, OPT_JSON_C},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct compare_opts {
	const char *base, *new_, *json;
	double threshold_pct;
	uint64_t seed;
};

static int parse_args(int argc, char **argv, struct compare_opts *o, char *why, size_t whylen)
{
	int c;
	char *end;

	memset(o, 0, sizeof *o);
	o->threshold_pct = DEFAULT_THRESHOLD_PCT;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case OPT_THRESHOLD:
			errno = 0;
			o->threshold_pct = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->threshold_pct >= 0) ||
			    o->threshold_pct > 100) {
				snprintf(why, whylen, "--threshold '%s': expected a percentage from 0 "
						      "to 100 (e.g. 1 or 0.5)", optarg);
				return -1;
			}
			break;
		case OPT_SEED_C:
			errno = 0;
			o->seed = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-') {
				snprintf(why, whylen, "--seed '%s': expected a whole number >= 0", optarg);
				return -1;
			}
			break;
		case OPT_JSON_C:
			o->json = optarg;
			break;
		default:
			opts_usage_error(c, argv, longopts, why, whylen);
			return -1;
		}
	}
	if (argc - optind != 2) {
		snprintf(why, whylen, "expected two run files, BASE.json and NEW.json, got %d "
				      "(usage: ticklab compare BASE.json NEW.json)", argc - optind);
		return -1;
	}
	o->base = argv[optind];
	o->new_ = argv[optind + 1];
	if (strcmp(o->base, "-") == 0 && strcmp(o->new_, "-") == 0) {
		snprintf(why, whylen, "only one of BASE and NEW can be standard input (-)");
		return -1;
	}
	return 0;
}

/* A cell's samples after filter_cost: each run measured its own t_e,std,
 * and the question is whether the kernel's time moved, not the timer's. */
static double *cost_filtered(const struct tl_run *run, size_t i, size_t *n)
{
	const struct tl_cell *c = &run->cells[i];
	size_t done = tl_cell_done(run, i);
	double *x = malloc((done ? done : 1) * sizeof *x);

	if (!x)
		return NULL;
	memcpy(x, c->ns, done * sizeof *x);
	stats_filter_cost(x, done, isfinite(c->overhead_ns) ? c->overhead_ns : 0);
	*n = done;
	return x;
}

static long find_match(const struct tl_run *b, const struct tl_run *a, size_t i)
{
	const struct tl_cell *c = &a->cells[i];

	for (size_t j = 0; j < b->ncells; j++) {
		const struct tl_cell *d = &b->cells[j];

		if (!d->hidden && strcmp(b->timers[d->timer].id, a->timers[c->timer].id) == 0 &&
		    b->flush_bytes[d->flush] == a->flush_bytes[c->flush] &&
		    strcmp(d->kernel.label, c->kernel.label) == 0)
			return (long)j;
	}
	return -1;
}

static json_t *row_json(const struct tl_run *run, size_t i, const struct tl_comparison *cmp,
			double base_median, double rel)
{
	const struct tl_cell *c = &run->cells[i];
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "backend", json_string(run->timers[c->timer].id));
	json_object_set_new(o, "flush_bytes", json_integer((json_int_t)run->flush_bytes[c->flush]));
	json_object_set_new(o, "kernel", json_string(c->kernel.label));
	json_object_set_new(o, "n_base", json_integer((json_int_t)cmp->na));
	json_object_set_new(o, "n_new", json_integer((json_int_t)cmp->nb));
	json_object_set_new(o, "median_base_ns", tl_json_real(base_median));
	json_object_set_new(o, "shift_ns", tl_json_real(cmp->hl));
	json_object_set_new(o, "median_diff_ns", tl_json_real(cmp->median_diff));
	json_object_set_new(o, "ci_lo_ns", tl_json_real(cmp->lo));
	json_object_set_new(o, "ci_hi_ns", tl_json_real(cmp->hi));
	json_object_set_new(o, "shift_pct", tl_json_real(rel));
	json_object_set_new(o, "mwu_p", tl_json_real(cmp->mwu_p));
	json_object_set_new(o, "ks_p", tl_json_real(cmp->ks_p));
	json_object_set_new(o, "verdict", json_string(stats_verdict_name(cmp->verdict)));
	json_object_set_new(o, "need_more", tl_json_real(cmp->need_more));
	return o;
}

static int compare_runs(const struct compare_opts *o, const struct tl_run *a,
			const struct tl_run *b, json_t *rows, FILE *out)
{
	size_t matched = 0, differ = 0;

	fprintf(out, "NEW - BASE in ns after filter_cost: Hodges-Lehmann shift [95 %% bootstrap], "
		     "same = interval inside +-%g %% of BASE's median\n", o->threshold_pct);
	fprintf(out, "%-24s %-8s %-22s %12s %-22s %8s %9s %9s  %s\n", "backend", "flush", "kernel",
		"shift", "interval", "shift%", "MWU p", "KS p", "verdict");
	for (size_t i = 0; i < a->ncells; i++) {
		long j;
		size_t na, nb;
		double *xa, *xb;
		struct tl_comparison cmp;

		if (a->cells[i].hidden || (j = find_match(b, a, i)) < 0)
			continue;
		xa = cost_filtered(a, i, &na);
		xb = cost_filtered(b, (size_t)j, &nb);
		if (!xa || !xb || na == 0 || nb == 0) {
			free(xa);
			free(xb);
			continue;
		}
		double med = stats_median(xa, na);
		double thr = o->threshold_pct / 100 * fabs(med);
		int rc = stats_compare(xa, na, xb, nb, thr, tl_seed_derive(o->seed, matched), &cmp);

		free(xa);
		free(xb);
		if (rc != 0)
			return -1;
		matched++;
		differ += cmp.verdict == TL_VERDICT_DIFFERENT;
		double rel = med != 0 ? 100 * cmp.hl / fabs(med) : NAN;
		char flush[32], iv[64], verdict[64];

		tl_size_format(a->flush_bytes[a->cells[i].flush], flush, sizeof flush);
		snprintf(iv, sizeof iv, "[%.3g, %.3g]", cmp.lo, cmp.hi);
		if (cmp.verdict == TL_VERDICT_UNKNOWN && isfinite(cmp.need_more))
			snprintf(verdict, sizeof verdict, "unknown: need ~%.0f more samples",
				 cmp.need_more);
		else
			snprintf(verdict, sizeof verdict, "%s", stats_verdict_name(cmp.verdict));
		fprintf(out, "%-24s %-8s %-22s %12.3g %-22s %7.2f%% %9.2g %9.2g  %s\n",
			a->timers[a->cells[i].timer].id, flush, a->cells[i].kernel.label, cmp.hl, iv,
			rel, cmp.mwu_p, cmp.ks_p, verdict);
		if (rows && json_array_append_new(rows, row_json(a, i, &cmp, med, rel)) != 0)
			return -1;
	}
	if (matched == 0)
		return -2;
	return differ > 0;
}

int cli_compare_main(int argc, char **argv)
{
	struct compare_opts o;
	struct tl_run a, b;
	struct tl_results_meta ma, mb;
	char why[WHY_LEN];
	json_t *rows = NULL, *doc = NULL;
	int rc = parse_args(argc, argv, &o, why, sizeof why);

	if (rc > 0)
		return TL_EXIT_OK;
	if (rc < 0)
		return opts_fail("compare", why);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&ma, 0, sizeof ma);
	memset(&mb, 0, sizeof mb);
	if (tl_run_load(o.base, &a, &ma, why, sizeof why) < 0)
		return opts_fail("compare", why);
	if (tl_run_load(o.new_, &b, &mb, why, sizeof why) < 0) {
		tl_run_unload(&a, &ma);
		return opts_fail("compare", why);
	}
	if (o.json)
		rows = json_array();
	/* With --json - the table goes to stderr, so stdout stays one JSON document. */
	FILE *out = o.json && strcmp(o.json, "-") == 0 ? stderr : stdout;

	rc = compare_runs(&o, &a, &b, rows, out);
	if (rc == -2) {
		snprintf(why, sizeof why, "%s and %s have no cell in common (a cell matches on "
					  "backend id, flush size and kernel)", o.base, o.new_);
		rc = opts_fail("compare", why);
	} else if (rc < 0) {
		fprintf(stderr, "ticklab compare: out of memory\n");
		rc = TL_EXIT_FAIL;
	} else if (o.json) {
		doc = json_pack("{s:{s:s,s:s},s:s,s:s,s:f,s:I,s:f,s:O}", "ticklab", "version",
				PACKAGE_VERSION, "command", "compare", "base", o.base, "new", o.new_,
				"threshold_pct", o.threshold_pct, "seed", (json_int_t)o.seed,
				"level", TL_COMPARE_LEVEL, "cells", rows);
		if (!doc || tl_json_write(o.json, doc, why, sizeof why) < 0) {
			fprintf(stderr, "ticklab compare: %s\n", doc ? why : "out of memory");
			rc = TL_EXIT_FAIL;
		}
	}
	json_decref(doc);
	json_decref(rows);
	tl_run_unload(&a, &ma);
	tl_run_unload(&b, &mb);
	return rc;
}
