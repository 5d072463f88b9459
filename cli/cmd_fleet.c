/* `ticklab fleet`: fingerprints of many nodes judged together
 * (io/fleet.h); the exit status says whether a node stands out, so the
 * command is also a health check. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/opts.h"
#include "cli/outputs.h"
#include "io/fleet.h"
#include "io/term_safe.h"
#include "io/results.h"

#define WHY_LEN 2048

static const char usage_text[] =
	"usage: ticklab fleet FILE.json... | DIR [--json FILE|-] [--markdown FILE|-]\n"
	"                     [--csv FILE|-] [--quiet] [--strict] [--partial OUT.json]\n"
	"\n"
	"Reads the fingerprints of many nodes (`ticklab fingerprint --json`; a DIR\n"
	"gives all its *.json files), groups the nodes by CPU model and TSC rate (nodes\n"
	"are never compared across groups) and scores every figure of every node\n"
	"against the rest of its group with a robust z-score (median and MAD, the MAD\n"
	"floored at what twins call the same; with fewer than 4 others, the distance\n"
	"beyond their whole range). Each node's add:2000 samples are tested\n"
	"against the pooled histogram of the others (Kolmogorov-Smirnov, Mann-Whitney,\n"
	"Hodges-Lehmann shift), each node weighing in the pool at most the median\n"
	"node's sample count; the pool is built once per group, so the time grows\n"
	"linearly with the nodes. A node stands out when a figure's |z| exceeds 5 in\n"
	"the direction that is bad (t_min and t_diff are shown, never flagged), or when\n"
	"its samples are told apart (KS D > 0.25, p < 0.001) and their median lies\n"
	"further from the other nodes' median (one value a node) than the largest of\n"
	"2 %, the node's own drift, its own CV and 5 robust sd of the other nodes'\n"
	"medians: the shift must exceed what the nodes move by on their own. A\n"
	"difference told apart but within that is printed as a note (\"3.5 % slower\n"
	"..., within its own 4.9 % drift: not flagged\"). The reasons are printed in\n"
	"words, and the rule under the table. A group needs 3 nodes.\n"
	"\n"
	"A file that cannot be read or is not a fingerprint is named on standard\n"
	"error and skipped; the rest is judged. Old fingerprints (raw samples) and\n"
	"small ones (histograms) mix freely. Over a terminal, a line on standard\n"
	"error counts the files read and the nodes judged.\n"
	"\n"
	"      --json FILE      the table, scores and reasons as JSON (- for stdout)\n"
	"      --markdown FILE  the table as Markdown (- for stdout)\n"
	"      --csv FILE       one row per node: group, model, every figure, flag\n"
	"                       and reasons, as CSV (- for stdout)\n"
	"  -q, --quiet          no table; flagged nodes only, as `node | reason` lines\n"
	"      --strict         a file that cannot be read, or a part that skipped\n"
	"                       one, is an error (status 2)\n"
	"      --partial OUT    judge nothing: write what the fleet needs of these\n"
	"                       files (each node's figures and histogram) to OUT, for\n"
	"                       a later `ticklab fleet OUT...` that merges the parts\n"
	"                       (the answer equals that of one fleet over all files)\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: 0 no node stands out, 1 a node is flagged (or a write failed),\n"
	"2 bad input: no fingerprint read, fingerprints or parts of different ticklab\n"
	"versions, a node seen twice (the message names both files and their parts);\n"
	"with --strict, a file that is not a fingerprint or a part that skipped one.\n";

enum { OPT_STRICT = OPT_FIRST_FREE, OPT_PARTIAL };

static const struct option longopts[] = {
	{"json", required_argument, NULL, OPT_JSON},
	{"markdown", required_argument, NULL, OPT_MARKDOWN},
	{"csv", required_argument, NULL, OPT_CSV},
	{"quiet", no_argument, NULL, 'q'},
	{"strict", no_argument, NULL, OPT_STRICT},
	{"partial", required_argument, NULL, OPT_PARTIAL},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct fleet_opts {
	const char *json, *markdown, *csv, *partial;
	bool quiet, strict;
	char **paths;
	size_t npaths;
};

static bool is_stdout(const char *path)
{
	return path && strcmp(path, "-") == 0;
}

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
	case OPT_CSV:
		o->csv = arg;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	case OPT_STRICT:
		o->strict = true;
		return 0;
	case OPT_PARTIAL:
		o->partial = arg;
		return 0;
	default:
		return CLI_NOT_MINE;
	}
}

/* An output naming one of the fingerprints read would replace a node's
 * only record with the fleet's judgement of it. */
static int outputs_not_inputs(const struct fleet_opts *o, char *why, size_t whylen)
{
	const char *outs[] = {o->json, o->markdown, o->csv, o->partial};
	static const char *const names[] = {"--json", "--markdown", "--csv", "--partial"};

	for (size_t i = 0; i < o->npaths; i++)
		for (size_t k = 0; k < sizeof outs / sizeof *outs; k++) {
			const char *paths[] = {o->paths[i], outs[k]};
			const char *opts[] = {"an input file", names[k]};

			if (cli_outputs_distinct(paths, opts, 2, why, whylen) < 0)
				return -1;
		}
	return 0;
}

static int fleet_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct fleet_opts *o = st;

	if (optind >= argc) {
		snprintf(why, whylen, "which fingerprints? (usage: ticklab fleet FILE.json... | DIR)");
		return -1;
	}
	if (is_stdout(o->json) + is_stdout(o->markdown) + is_stdout(o->csv) > 1) {
		snprintf(why, whylen, "only one of --json, --markdown and --csv can be standard "
				      "output (-)");
		return -1;
	}
	{
		const char *paths[] = {o->json, o->markdown, o->csv, o->partial};
		static const char *const opts[] = {"--json", "--markdown", "--csv", "--partial"};

		/* caught before reading thousands of files, not after */
		if (cli_outputs_distinct(paths, opts, 4, why, whylen) < 0)
			return -1;
		for (size_t i = 0; i < 4; i++)
			if (opts_check_output(opts[i], paths[i], "a file path or -", why, whylen) < 0)
				return -1;
	}
	if (o->partial && (o->json || o->markdown || o->csv || o->quiet)) {
		snprintf(why, whylen, "--partial judges nothing: it takes no --json, --markdown, --csv "
				      "or --quiet (accepted: --partial OUT.json FILES..., then fleet OUT...)");
		return -1;
	}
	o->paths = argv + optind;
	o->npaths = (size_t)(argc - optind);
	return outputs_not_inputs(o, why, whylen);
}

static int emit_markdown(FILE *f, void *ctx)
{
	tl_fleet_markdown_print(f, ctx);
	return ferror(f) ? -1 : 0;
}

static int emit_csv(FILE *f, void *ctx)
{
	return tl_fleet_csv_print(f, ctx) < 0 || ferror(f) ? -1 : 0;
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
	if (o->csv && tl_write_atomic(o->csv, emit_csv, (void *)fl, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab fleet: %s\n", why);
		rc = TL_EXIT_FAIL;
	}
	return rc;
}

/* The line over a terminal: rewritten at most ten times a second. */
struct progress_line {
	struct timespec last;
	bool shown;
};

static void progress_show(void *ctx, const char *what, size_t done, size_t total)
{
	struct progress_line *p = ctx;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (done < total && p->shown &&
	    (double)(now.tv_sec - p->last.tv_sec) + 1e-9 * (double)(now.tv_nsec - p->last.tv_nsec) <
		    0.1)
		return;
	p->last = now;
	p->shown = true;
	fprintf(stderr, "\rticklab fleet: %s %zu of %zu %s\033[K", what, done, total,
		strcmp(what, "read") == 0 ? "files" : "nodes");
	fflush(stderr);
}

static void progress_clear(struct progress_line *p)
{
	if (p->shown)
		fprintf(stderr, "\r\033[K");
	p->shown = false;
}

static int write_partial(const char *path, const struct tl_fleet *fl)
{
	char why[WHY_LEN];
	json_t *doc = tl_fleet_partial_to_json(fl);
	int rc = tl_json_write(path, doc, why, sizeof why);

	json_decref(doc);
	if (rc < 0) {
		fprintf(stderr, "ticklab fleet: %s\n", why);
		return TL_EXIT_FAIL;
	}
	return TL_EXIT_OK;
}

static int fleet_exec(void *st)
{
	const struct fleet_opts *o = st;
	struct tl_fleet fl;
	struct progress_line line = {.shown = false};
	struct tl_fleet_progress prog = {progress_show, &line};
	const struct tl_fleet_progress *pp = isatty(STDERR_FILENO) ? &prog : NULL;
	char why[WHY_LEN];
	bool taken;
	int rc;

	rc = tl_fleet_load(o->paths, o->npaths, o->strict, pp, &fl, why, sizeof why);
	progress_clear(&line);
	for (size_t i = 0; i < fl.nbad; i++) {
		/* a file's name or a message quoting it may hold escapes */
		fputs("ticklab fleet: skipped ", stderr);
		tl_term_fputs(fl.bad[i].why, stderr);
		fputc('\n', stderr);
	}
	if (rc < 0) {
		tl_fleet_free(&fl);
		return opts_fail("fleet", why);
	}
	if (o->partial) {
		rc = write_partial(o->partial, &fl);
		tl_fleet_free(&fl);
		return rc;
	}
	tl_fleet_judge(&fl, pp);
	progress_clear(&line);
	taken = is_stdout(o->json) || is_stdout(o->markdown) || is_stdout(o->csv);
	if (o->quiet) {
		for (size_t i = 0; i < fl.n; i++)
			if (fl.nodes[i].flagged)
				tl_fleet_reason_line(taken ? stderr : stdout, &fl.nodes[i], " | ");
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
