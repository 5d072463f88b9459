/* `ticklab compare BASE.json NEW.json`: every cell present in both runs,
 * compared (stats/compare.c) with a verdict, so two runs can gate a change. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/size.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "cli/outputs.h"
#include "bench/analysis.h"
#include "io/json_build.h"
#include "io/results.h"
#include "io/run_compare.h"
#include "stats/compare.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab compare BASE.json NEW.json [--threshold PCT] [--seed N] [--json FILE|-]\n"
	"                       [--markdown FILE|-] [--csv FILE|-]\n"
	"\n"
	"Compares two saved runs (`ticklab run --json`) cell by cell: for every\n"
	"backend, flush and kernel in both, the shift NEW - BASE in ns (after\n"
	"filter_cost) with its 95 % interval, the shift in % of BASE's median,\n"
	"Mann-Whitney U and Kolmogorov-Smirnov p-values, and a verdict:\n"
	"same (the interval lies inside +-PCT % of BASE's median, default 1), different\n"
	"(it excludes 0), or unknown, with about how many more samples would decide.\n"
	"The shift is the difference of fenced means (Welch's interval) where ties\n"
	"are common (over 5 % of a side's values repeat: a lattice clock, whose\n"
	"Hodges-Lehmann estimate sticks to the lattice), else Hodges-Lehmann\n"
	"(Lehmann's interval); the 'by' column says which. Two runs of one clock on\n"
	"one node (same host facts and backend, rates within 1e-4) are compared in\n"
	"ticks with BASE's rate, so calibration cannot separate them; otherwise each\n"
	"in ns by its own rate. The table ends with each backend's units and rates.\n"
	"\n"
	"--json, --markdown (a table a report or a slide takes) and --csv write the\n"
	"same rows; - is standard output (then the table goes to stderr).\n"
	"\n"
	"Exit status: 0 nothing differs, 1 something differs (or a write failed),\n"
	"2 bad input or unreadable file.\n";

enum { OPT_THRESHOLD = 0x200, OPT_SEED_C, OPT_JSON_C, OPT_MD_C, OPT_CSV_C };

static const struct option longopts[] = {
	{"threshold", required_argument, NULL, OPT_THRESHOLD},
	{"seed", required_argument, NULL, OPT_SEED_C},
	{"json", required_argument, NULL, OPT_JSON_C},
	{"markdown", required_argument, NULL, OPT_MD_C},
	{"csv", required_argument, NULL, OPT_CSV_C},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct compare_opts {
	const char *base, *new_, *json, *markdown, *csv;
	double threshold_pct;
	uint64_t seed;
};

static int is_stdout(const char *path)
{
	return path && strcmp(path, "-") == 0;
}

static void compare_init(void *st)
{
	struct compare_opts *o = st;

	o->threshold_pct = TL_COMPARE_DEFAULT_THRESHOLD_PCT;
}

static int compare_option(void *st, int c, const char *arg, char *why, size_t whylen)
{
	struct compare_opts *o = st;
	char *end;

	switch (c) {
	case OPT_THRESHOLD:
		errno = 0;
		o->threshold_pct = strtod(arg, &end);
		if (errno || end == arg || *end || !(o->threshold_pct >= 0) ||
		    o->threshold_pct > 100) {
			snprintf(why, whylen, "--threshold '%s': expected a percentage from 0 "
					      "to 100 (e.g. 1 or 0.5)", arg);
			return -1;
		}
		return 0;
	case OPT_SEED_C:
		errno = 0;
		o->seed = strtoull(arg, &end, 10);
		if (errno || end == arg || *end || arg[0] == '-') {
			snprintf(why, whylen, "--seed '%s': expected a whole number >= 0", arg);
			return -1;
		}
		return 0;
	case OPT_JSON_C:
		o->json = arg;
		return 0;
	case OPT_MD_C:
		o->markdown = arg;
		return 0;
	case OPT_CSV_C:
		o->csv = arg;
		return 0;
	default:
		return CLI_NOT_MINE;
	}
}

static int compare_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct compare_opts *o = st;

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
	if (is_stdout(o->json) + is_stdout(o->markdown) + is_stdout(o->csv) > 1) {
		snprintf(why, whylen, "only one of --json, --markdown and --csv can be standard "
				      "output (-)");
		return -1;
	}
	{
		const char *paths[] = {o->json, o->markdown, o->csv};
		static const char *const opts[] = {"--json", "--markdown", "--csv"};

		if (cli_outputs_distinct(paths, opts, 3, why, whylen) < 0)
			return -1;
		for (size_t i = 0; i < 3; i++)
			if (opts_check_output(opts[i], paths[i], "a file path or -", why, whylen) < 0)
				return -1;
	}
	return 0;
}

static bool stdout_taken(const struct compare_opts *o)
{
	return is_stdout(o->json) || is_stdout(o->markdown) || is_stdout(o->csv);
}

struct md_ctx {
	const struct tl_run *base;
	const struct tl_run_compare *rc;
	const char *base_name, *new_name;
};

static int emit_md(FILE *f, void *ctx)
{
	const struct md_ctx *m = ctx;

	return tl_run_compare_markdown(f, m->base, m->rc, m->base_name, m->new_name);
}

static int emit_csv(FILE *f, void *ctx)
{
	const struct md_ctx *m = ctx;

	return tl_run_compare_csv(f, m->base, m->rc);
}

/* --json, --markdown and --csv; 0 or TL_EXIT_FAIL (said on stderr). */
static int write_outputs(const struct compare_opts *o, const struct tl_run *a,
			 const struct tl_run_compare *rc)
{
	struct md_ctx m = { a, rc, o->base, o->new_ };
	char why[WHY_LEN];
	int rc_out = TL_EXIT_OK;

	if (o->json) {
		json_t *doc = tl_json_object();

		tl_json_set(doc, "ticklab", json_pack("{s:s,s:s}", "version", PACKAGE_VERSION,
						      "command", "compare"));
		tl_json_set(doc, "base", json_string(o->base));
		tl_json_set(doc, "new", json_string(o->new_));
		tl_json_set(doc, "threshold_pct", json_real(o->threshold_pct));
		tl_json_set(doc, "seed", json_integer((json_int_t)o->seed));
		tl_json_set(doc, "level", json_real(TL_COMPARE_LEVEL));
		tl_json_set(doc, "cells", tl_run_compare_json(a, rc));
		if (tl_json_write(o->json, doc, why, sizeof why) < 0) {
			fprintf(stderr, "ticklab compare: %s\n", why);
			rc_out = TL_EXIT_FAIL;
		}
		json_decref(doc);
	}
	if (o->markdown && tl_write_atomic(o->markdown, emit_md, &m, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab compare: %s\n", why);
		rc_out = TL_EXIT_FAIL;
	}
	if (o->csv && tl_write_atomic(o->csv, emit_csv, &m, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab compare: %s\n", why);
		rc_out = TL_EXIT_FAIL;
	}
	return rc_out;
}

static int compare_exec(void *st)
{
	const struct compare_opts *o = st;
	struct tl_run a, b;
	struct tl_results_meta ma, mb;
	struct tl_run_compare rc_rows;
	char why[WHY_LEN];
	int rc;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&ma, 0, sizeof ma);
	memset(&mb, 0, sizeof mb);
	if (tl_run_load(o->base, &a, &ma, why, sizeof why) < 0)
		return opts_fail("compare", why);
	if (tl_run_load(o->new_, &b, &mb, why, sizeof why) < 0) {
		tl_run_unload(&a, &ma);
		return opts_fail("compare", why);
	}
	if (tl_runs_compare(&a, &b, o->threshold_pct, o->seed, tl_hosts_same_node(ma.host, mb.host),
			    &rc_rows) < 0) {
		fprintf(stderr, "ticklab compare: out of memory\n");
		rc = TL_EXIT_FAIL;
	} else if (rc_rows.nrows == 0) {
		snprintf(why, sizeof why, "%s and %s have no cell in common (a cell matches on "
					  "backend id, flush size and kernel)", o->base, o->new_);
		rc = opts_fail("compare", why);
	} else {
		/* A file on stdout takes it: the table goes to stderr then. */
		tl_run_compare_print(stdout_taken(o) ? stderr : stdout, &a, &rc_rows);
		fflush(stdout);
		rc = write_outputs(o, &a, &rc_rows);
		if (rc == TL_EXIT_OK)
			rc = rc_rows.differ > 0;
	}
	tl_run_compare_free(&rc_rows);
	tl_run_unload(&a, &ma);
	tl_run_unload(&b, &mb);
	return rc;
}

const struct cli_command cli_cmd_compare = {
	.name = "compare",
	.summary = "two saved runs cell by cell: shift, interval, p-values, verdict",
	.usage = usage_text,
	.longopts = longopts,
	.size = sizeof(struct compare_opts),
	.init = compare_init,
	.option = compare_option,
	.check = compare_check,
	.exec = compare_exec,
};
