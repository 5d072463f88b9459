/* `ticklab fingerprint`: the fixed battery of bench/fingerprint.h on this
 * node, one JSON named by the node (for `ticklab fleet`) and its table. */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/fingerprint.h"
#include "bench/runner.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "cli/stop.h"
#include "io/fingerprint.h"
#include "io/results.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab fingerprint [--quick | --budget SEC] [--json PATH] [--cpu C]\n"
	"                           [--seed S] [--quiet] [--raw]\n"
	"       ticklab fingerprint --compact OLD.json --json PATH\n"
	"\n"
	"Characterises this node with one fixed battery, the same on every node, so\n"
	"`ticklab fleet` can set the nodes side by side: the node's facts and spoilers,\n"
	"the clock-drift probe, the default barrier timer, papi-real-nsec and\n"
	"clock-gettime over empty and add:2000 at flush 0 and 4xL2, ns per ADD, CV, the\n"
	"share of samples removed as OS noise, a fast t_min/t_diff search with\n"
	"intervals, and the sampling thread's CPU share and preemptions.\n"
	"\n"
	"      --quick          about 5 seconds (the default battery takes about 30)\n"
	"      --budget SEC     about SEC seconds (1 to 3600)\n"
	"      --json PATH      the fingerprint as JSON, written atomically; PATH may\n"
	"                       hold %h (short hostname), %n (the Slurm node name,\n"
	"                       $SLURMD_NODENAME), %j ($SLURM_JOB_ID) and %% (a\n"
	"                       literal %), as in\n"
	"                       srun ... ticklab fingerprint --json DIR/%h.json\n"
	"                       It holds the figures and the exact histogram of the\n"
	"                       add:2000 samples the fleet tests (on a lattice timer,\n"
	"                       its steps; past 512 distinct values, log-linear\n"
	"                       buckets within 0.2 %), tens of KB\n"
	"      --raw            every raw sample of the run in the JSON too (~1.3 MB)\n"
	"      --compact OLD    measure nothing: re-write the fingerprint OLD.json (one\n"
	"                       with raw samples) in the small form, to --json PATH\n"
	"  -c, --cpu C          CPU to measure on (default: the last allowed CPU)\n"
	"  -s, --seed S         seed of the cell order and filters (default 1)\n"
	"  -q, --quiet          no table\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: 0 done, 1 measurement or write failure, 2 bad input,\n"
	"128 + the signal when stopped by INT (130), TERM (143) or HUP (129).\n";

enum { OPT_QUICK = OPT_FIRST_FREE, OPT_BUDGET, OPT_RAW, OPT_COMPACT };

static const struct option longopts[] = {
	{"quick", no_argument, NULL, OPT_QUICK},
	{"budget", required_argument, NULL, OPT_BUDGET},
	{"json", required_argument, NULL, OPT_JSON},
	{"raw", no_argument, NULL, OPT_RAW},
	{"compact", required_argument, NULL, OPT_COMPACT},
	{"cpu", required_argument, NULL, 'c'},
	{"seed", required_argument, NULL, 's'},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct fp_opts {
	struct tl_fp_node node; /* read first: --json's %h, %n and %j */
	struct tl_fp_config cfg;
	bool quick, budget_given, quiet, raw;
	const char *compact; /* a fingerprint to re-write small, or NULL */
	char json[4096]; /* expanded; "" none */
};

static atomic_bool stop_flag;

static void fp_init(void *st)
{
	struct fp_opts *o = st;

	tl_fp_node_read(&o->node);
	o->cfg.budget_s = TL_FP_BUDGET_S;
	o->cfg.cpu = -1;
	o->cfg.seed = 1;
}

static int fp_option(void *st, int c, const char *arg, char *why, size_t whylen)
{
	struct fp_opts *o = st;

	switch (c) {
	case OPT_QUICK:
		o->quick = true;
		o->cfg.budget_s = TL_FP_QUICK_S;
		return 0;
	case OPT_BUDGET:
		o->budget_given = true;
		return opts_parse_double(arg, "--budget", 1, 3600, &o->cfg.budget_s, why, whylen);
	case OPT_JSON:
		if (tl_fp_expand_path(arg, &o->node, o->json, sizeof o->json, why, whylen) < 0)
			return -1;
		return opts_check_output("--json", o->json,
					 "a file path, which may hold %h, %n, %j, or -", why, whylen);
	case 'c':
		return opts_parse_cpu(arg, &o->cfg.cpu, why, whylen);
	case 's':
		return opts_parse_u64(arg, "--seed", &o->cfg.seed, why, whylen);
	case 'q':
		o->quiet = true;
		return 0;
	case OPT_RAW:
		o->raw = true;
		return 0;
	case OPT_COMPACT:
		o->compact = arg;
		return 0;
	default:
		return CLI_NOT_MINE;
	}
}

static int fp_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct fp_opts *o = st;

	if (o->quick && o->budget_given) {
		snprintf(why, whylen, "--quick and --budget both set the time (accepted: one of them)");
		return -1;
	}
	if (o->compact && (!o->json[0] || o->raw || o->quick || o->budget_given)) {
		snprintf(why, whylen, "--compact OLD.json measures nothing and needs --json PATH "
				      "(accepted: --compact OLD.json --json PATH [--quiet])");
		return -1;
	}
	return opts_no_operand(argc, argv, "accepted: --quick, --budget SEC, --json PATH, --cpu C",
			       why, whylen);
}

/* The table comes from the document just built, through the reader
 * `report` and `fleet` use, so all three print the same figures. */
static int show_and_write(const struct fp_opts *o, const json_t *doc, struct tl_out *out)
{
	struct tl_fp_figures f;
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	if (tl_fp_figures_from_json(doc, "this fingerprint", &f, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab fingerprint: %s\n", why);
		tl_out_abort(out);
		return TL_EXIT_FAIL;
	}
	if (!o->quiet)
		tl_fp_table_print(strcmp(o->json, "-") == 0 ? stderr : stdout, &f);
	tl_fp_figures_free(&f);
	fflush(stdout);
	if (out && tl_json_commit(out, doc, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab fingerprint: %s\n", why);
		rc = TL_EXIT_FAIL;
	}
	return rc;
}

/* --compact: an old (raw) fingerprint re-written small, nothing measured. */
static int fp_compact(const struct fp_opts *o)
{
	char why[WHY_LEN];
	json_t *doc = tl_json_load(o->compact, why, sizeof why), *small;
	struct tl_out *out;
	int rc;

	if (!doc)
		return opts_fail("fingerprint", why);
	small = tl_fp_compact(doc, o->compact, why, sizeof why);
	json_decref(doc);
	if (!small)
		return opts_fail("fingerprint", why);
	if (!(out = tl_out_open(o->json, why, sizeof why))) {
		fprintf(stderr, "ticklab fingerprint: %s\n", why);
		json_decref(small);
		return TL_EXIT_FAIL;
	}
	rc = show_and_write(o, small, out);
	json_decref(small);
	return rc;
}

static int fp_exec(void *st)
{
	const struct fp_opts *o = st;
	struct tl_out *out = NULL;
	struct tl_fp fp;
	char why[WHY_LEN];
	json_t *doc;
	int rc;

	if (o->compact)
		return fp_compact(o);
	if (o->json[0] && !(out = tl_out_open(o->json, why, sizeof why))) {
		fprintf(stderr, "ticklab fingerprint: %s\n", why);
		return TL_EXIT_FAIL;
	}
	cli_stop_watch(&stop_flag);
	rc = tl_fp_measure(&o->cfg, &fp, &stop_flag, why, sizeof why);
	cli_stop_disarm();
	if (rc != 0) {
		/* an interrupted battery is not a fingerprint: no file */
		fprintf(stderr, "ticklab fingerprint: %s\n",
			rc < 0 ? why : "interrupted: no fingerprint written");
		tl_out_abort(out);
		tl_fp_free(&fp);
		return rc < 0 ? TL_EXIT_FAIL : cli_stop_status(TL_EXIT_INTERRUPTED);
	}
	doc = tl_fp_to_json(&fp, &o->node);
	tl_fp_free(&fp);
	if (doc && !o->raw) {
		json_t *small = tl_fp_compact(doc, "this fingerprint", why, sizeof why);

		json_decref(doc);
		if (!small) {
			fprintf(stderr, "ticklab fingerprint: %s\n", why);
			tl_out_abort(out);
			return TL_EXIT_FAIL;
		}
		doc = small;
	}
	if (!doc) {
		fprintf(stderr, "ticklab fingerprint: out of memory analysing the run's samples\n");
		tl_out_abort(out);
		return TL_EXIT_FAIL;
	}
	rc = show_and_write(o, doc, out);
	json_decref(doc);
	return rc;
}

const struct cli_command cli_cmd_fingerprint = {
	.name = "fingerprint",
	.summary = "this node's fixed battery, one JSON per node (for fleet)",
	.usage = usage_text,
	.shortopts = "c:s:q",
	.longopts = longopts,
	.size = sizeof(struct fp_opts),
	.init = fp_init,
	.option = fp_option,
	.check = fp_check,
	.exec = fp_exec,
};
