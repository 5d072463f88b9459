/* `ticklab fleet`: fingerprints of many nodes judged together
 * (io/fleet.h); the exit status says whether a node stands out, so the
 * command is also a health check. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "cli/opts.h"
#include "io/fleet.h"
#include "io/results.h"

#define WHY_LEN 2048

static const char usage_text[] =
	"usage: ticklab fleet FILE.json... | DIR [--json FILE|-] [--markdown FILE|-]\n"
	"                     [--quiet]\n"
	"\n"
	"Reads the fingerprints of many nodes (`ticklab fingerprint --json`; a DIR\n"
	"gives all its *.json files), groups the nodes by CPU model and TSC rate (nodes\n"
	"are never compared across groups) and scores every figure of every node\n"
	"against the rest of its group with a robust z-score (median and MAD, the MAD\n"
	"floored at what twins call the same; with fewer than 4 others, the distance\n"
	"beyond their whole range). Each node's add:2000 samples are tested\n"
	"against the pooled samples of the others (Kolmogorov-Smirnov, Mann-Whitney,\n"
	"Hodges-Lehmann shift). A node stands out when a figure's |z| exceeds 5 in\n"
	"the direction that is bad (t_min and t_diff are shown, never flagged), or when\n"
	"its samples differ (KS D > 0.25, p < 0.001, shift > 2 %); the reasons are\n"
	"printed in words. A group needs 3 nodes.\n"
	"\n"
	"      --json FILE      the table, scores and reasons as JSON (- for stdout)\n"
	"      --markdown FILE  the table as Markdown (- for stdout)\n"
	"  -q, --quiet          no table; flagged nodes only, as `node | reason` lines\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: 0 no node stands out, 1 a node is flagged (or a write failed),\n"
	"2 bad input: a file that is not a fingerprint, fingerprints of different\n"
	"ticklab versions, a node seen twice (the message names the file).\n";

static const struct option longopts[] = {
	{"json", required_argument, NULL, OPT_JSON},
	{"markdown", required_argument, NULL, OPT_MARKDOWN},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct fleet_opts {
	const char *json, *markdown;
	bool quiet;
	char **paths;
	size_t npaths;
};

static int fleet_option(void *st, int c, const char *arg, char *why, size_t whylen)
{
	struct fleet_opts *o = st;

	(void)why;
	(void)whylen;
	switch (c) {
	case OPT_JSON:
		o->json = arg;
		return 0;
	case OPT_MARKDOWN:
		o->markdown = arg;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	default:
		return CLI_NOT_MINE;
	}
}

static int fleet_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct fleet_opts *o = st;

	if (optind >= argc) {
		snprintf(why, whylen, "which fingerprints? (usage: ticklab fleet FILE.json... | DIR)");
		return -1;
	}
	if (o->json && o->markdown && strcmp(o->json, "-") == 0 && strcmp(o->markdown, "-") == 0) {
		snprintf(why, whylen, "--json - and --markdown - cannot both use standard output");
		return -1;
	}
	o->paths = argv + optind;
	o->npaths = (size_t)(argc - optind);
	return 0;
}

static int emit_markdown(FILE *f, void *ctx)
{
	tl_fleet_markdown_print(f, ctx);
	return ferror(f) ? -1 : 0;
}

static int write_outputs(const struct fleet_opts *o, const struct tl_fleet *fl)
{
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	if (o->json) {
		json_t *doc = tl_fleet_to_json(fl);

		if (tl_json_write(o->json, doc, why, sizeof why) < 0) {
			fprintf(stderr, "ticklab fleet: %s\n", why);
			rc = TL_EXIT_FAIL;
		}
		json_decref(doc);
	}
	if (o->markdown &&
	    tl_write_atomic(o->markdown, emit_markdown, (void *)fl, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab fleet: %s\n", why);
		rc = TL_EXIT_FAIL;
	}
	return rc;
}

static int fleet_exec(void *st)
{
	const struct fleet_opts *o = st;
	struct tl_fleet fl;
	char why[WHY_LEN];
	bool taken;
	int rc;

	if (tl_fleet_load(o->paths, o->npaths, &fl, why, sizeof why) < 0) {
		tl_fleet_free(&fl);
		return opts_fail("fleet", why);
	}
	if (tl_fleet_judge(&fl) < 0) {
		tl_fleet_free(&fl);
		fprintf(stderr, "ticklab fleet: out of memory\n");
		return TL_EXIT_FAIL;
	}
	taken = (o->json && strcmp(o->json, "-") == 0) || (o->markdown && strcmp(o->markdown, "-") == 0);
	if (o->quiet) {
		for (size_t i = 0; i < fl.n; i++)
			if (fl.nodes[i].flagged)
				fprintf(taken ? stderr : stdout, "%s | %s\n", fl.nodes[i].fig.node.name,
					fl.nodes[i].reason);
	} else {
		tl_fleet_table_print(taken ? stderr : stdout, &fl);
	}
	fflush(stdout);
	rc = write_outputs(o, &fl);
	if (rc == TL_EXIT_OK && fl.nflagged)
		rc = TL_EXIT_FAIL;
	tl_fleet_free(&fl);
	return rc;
}

const struct cli_command cli_cmd_fleet = {
	.name = "fleet",
	.summary = "fingerprints of many nodes side by side; the odd node flagged",
	.usage = usage_text,
	.shortopts = "q",
	.longopts = longopts,
	.size = sizeof(struct fleet_opts),
	.option = fleet_option,
	.check = fleet_check,
	.exec = fleet_exec,
};
