#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "cli/opts.h"
#include "cli/outputs.h"
#include "bench/analysis.h"
#include "judge/lesson.h"
#include "io/chains.h"
#include "io/detect_json.h"
#include "io/host_json.h"
#include "io/ladder.h"
#include "io/file_kind.h"
#include "io/fingerprint.h"
#include "io/results.h"
#include "io/search_json.h"
#include "io/search_markdown.h"
#include "io/table.h"
#include "stats/stats.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab report FILE.json [--os-filter iforest|iqr|none|cause] [--json FILE|-]\n"
	"                      [--csv FILE|-] [--markdown FILE|-]\n"
	"\n"
	"Re-analyses the raw samples a `ticklab run --json` saved (FILE - reads stdin)\n"
	"with the run's seed and prints the same table the live run printed. With\n"
	"--os-filter the samples are filtered another way; --json writes the\n"
	"re-analysed run (raw samples included), --csv its samples (and a summary\n"
	"beside them: x.csv gives x.summary.csv), --markdown the table as Markdown.\n"
	"A search file (`ticklab search --json`, the TUI's search export) prints the\n"
	"search table again, its medians, intervals and ratios recomputed from the\n"
	"repeats it holds; --json writes it again.\n"
	"A fingerprint (`ticklab fingerprint --json`) prints its table again, the\n"
	"figures recomputed from its raw samples and search repeats: the numbers\n"
	"`ticklab fleet` shows in that node's row.\n"
	"A detect file (`ticklab detect --json`) prints its table again; --json\n"
	"writes it again.\n"
	"\n"
	"Exit status: 0 done, 1 write failure, 2 bad input or unreadable file.\n";

static const struct option longopts[] = {
	{"os-filter", required_argument, NULL, OPT_OS_FILTER},
	{"json", required_argument, NULL, OPT_JSON},
	{"csv", required_argument, NULL, OPT_CSV},
	{"markdown", required_argument, NULL, OPT_MARKDOWN},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct report_opts {
	const char *file;
	struct cli_outputs out; /* out.os -1: the file's */
};

static void report_init(void *st)
{
	struct report_opts *o = st;

	o->out.os = -1;
}

static int report_option(void *st, int c, const char *arg, char *why, size_t whylen)
{
	struct report_opts *o = st;

	return cli_outputs_option(&o->out, c, arg, why, whylen);
}

static int report_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct report_opts *o = st;

	if (optind >= argc) {
		snprintf(why, whylen, "which file? (usage: ticklab report FILE.json; FILE - reads "
				      "standard input)");
		return -1;
	}
	o->file = argv[optind++];
	if (opts_no_operand(argc, argv, "one FILE.json at a time", why, whylen) < 0)
		return -1;
	return cli_outputs_check(&o->out, why, whylen);
}

/* A saved search: the table again, and the file again with --json. */
static int report_search(const json_t *doc, const char *name, const struct cli_outputs *out)
{
	struct tl_search_plan plan;
	struct tl_search_cell *cells;
	bool interrupted;
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	if (out->csv || out->os >= 0)
		return opts_fail("report", "--csv and --os-filter need a run file: a search file "
					   "holds answers, not samples");
	if (tl_search_from_json(doc, name, &plan, &cells, &interrupted, why, sizeof why) < 0) {
		tl_search_plan_free(&plan);
		return opts_fail("report", why);
	}
	tl_search_table_print(cli_table_stream(out), &plan, cells);
	if (out->markdown &&
	    tl_search_markdown_write(out->markdown, &plan, cells, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab report: %s\n", why);
		rc = TL_EXIT_FAIL;
	}
	if (interrupted)
		fprintf(stderr, "ticklab report: this search was interrupted: cells hold what was "
				"found before the stop\n");
	fflush(stdout);
	if (out->json) {
		json_t *again = tl_search_to_json(&plan, cells,
						  json_deep_copy(json_object_get(doc, "host")), interrupted);

		if (tl_json_write(out->json, again, why, sizeof why) < 0) {
			fprintf(stderr, "ticklab report: %s\n", why);
			rc = TL_EXIT_FAIL;
		}
		json_decref(again);
	}
	tl_search_cells_free(cells, plan.nbackends * plan.nflush);
	tl_search_plan_free(&plan);
	return rc;
}

/* A detect file: the table detect printed, and the file again with --json. */
static int report_detect(const json_t *doc, const char *name, const struct cli_outputs *out)
{
	struct tl_detect_file f;
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	if (out->csv || out->markdown || out->os >= 0)
		return opts_fail("report", "--csv, --markdown and --os-filter need a run file: a "
					   "detect file holds answers, not samples");
	if (tl_detect_from_json(doc, name, &f, why, sizeof why) < 0)
		return opts_fail("report", why);
	tl_detect_head_print(cli_table_stream(out), &f.p);
	for (size_t i = 0; i < f.n; i++)
		tl_detect_row_print(cli_table_stream(out), f.rows[i].backend, f.rows[i].flush,
				    &f.rows[i].r);
	fflush(stdout);
	if (out->json) {
		json_t *again = tl_detect_file_to_json(&f);

		if (tl_json_write(out->json, again, why, sizeof why) < 0) {
			fprintf(stderr, "ticklab report: %s\n", why);
			rc = TL_EXIT_FAIL;
		}
		json_decref(again);
	}
	tl_detect_file_free(&f);
	return rc;
}

/* A fingerprint: its figures through the one reader fleet uses too. */
static int report_fingerprint(const json_t *doc, const char *name, const struct cli_outputs *out)
{
	struct tl_fp_figures f;
	char why[WHY_LEN];

	if (out->csv || out->json || out->os >= 0)
		return opts_fail("report", "--json, --csv and --os-filter need a run file: a "
					   "fingerprint is re-read as it was measured");
	if (tl_fp_figures_from_json(doc, name, &f, why, sizeof why) < 0)
		return opts_fail("report", why);
	tl_fp_table_print(stdout, &f);
	tl_fp_figures_free(&f);
	return TL_EXIT_OK;
}

static int report_run(const json_t *doc, struct tl_bulk *bulk, const char *name,
		      const struct cli_outputs *out)
{
	struct tl_run run;
	struct tl_results_meta meta;
	struct tl_analysis *an;
	enum tl_os_method m;
	char why[WHY_LEN];
	int rc;

	memset(&run, 0, sizeof run);
	memset(&meta, 0, sizeof meta);
	if (tl_run_from_json_bulk(doc, bulk, name, &run, &meta, why, sizeof why) < 0)
		return opts_fail("report", why);
	m = out->os >= 0 ? (enum tl_os_method)out->os : meta.os;
	an = tl_run_analyse(&run, m, meta.seed);
	if (!an) {
		fprintf(stderr, "ticklab report: out of memory analysing the samples\n");
		tl_run_unload(&run, &meta);
		return TL_EXIT_FAIL;
	}
	tl_table_print(cli_table_stream(out), &run, an, m, meta.seed);
	tl_chains_print(cli_table_stream(out), &run, an);
	{
		struct tl_topology topo;
		struct tl_levels lv;
		bool have = tl_host_json_topology(meta.host, &topo);

		/* labelled as the run was: by the levels it measured, if any */
		tl_host_json_levels(meta.host, &lv);
		tl_ladder_print_levels(cli_table_stream(out), &run, an, have ? &topo : NULL, &lv);
	}
	{
		char lesson[512];

		tl_lesson_run(&run, an, meta.seed, "x", lesson, sizeof lesson);
		if (lesson[0])
			fprintf(cli_table_stream(out), "In short: %s\n", lesson);
	}
	if (meta.interrupted)
		fprintf(stderr, "ticklab report: this run was interrupted: cells hold the samples "
				"taken before the stop\n");
	fflush(stdout);
	rc = cli_outputs_write("report", out, NULL, &run, an, m, meta.seed, meta.interrupted,
			       meta.host ? json_incref(meta.host) : NULL, NULL);
	free(an);
	tl_run_unload(&run, &meta);
	return rc;
}

static int report_exec(void *st)
{
	const struct report_opts *o = st;
	char why[WHY_LEN];
	const char *name;
	json_t *doc;
	struct tl_bulk *bulk;
	enum tl_file_kind kind;
	int rc;

	/* A run's sample arrays are read into arrays, not a tree (io/run_bulk.c). */
	doc = tl_file_load(o->file, &kind, &bulk, why, sizeof why);
	if (!doc)
		return opts_fail("report", why);
	name = strcmp(o->file, "-") == 0 ? "standard input" : o->file;
	switch (kind) {
	case TL_FILE_FINGERPRINT:
		rc = report_fingerprint(doc, name, &o->out);
		break;
	case TL_FILE_SEARCH:
		rc = report_search(doc, name, &o->out);
		break;
	case TL_FILE_DETECT:
		rc = report_detect(doc, name, &o->out);
		break;
	case TL_FILE_RUN:
	default:
		rc = report_run(doc, bulk, name, &o->out);
		break;
	}
	json_decref(doc);
	tl_bulk_free(bulk);
	return rc;
}

const struct cli_command cli_cmd_report = {
	.name = "report",
	.summary = "re-analyse a saved run and print the same numbers",
	.usage = usage_text,
	.longopts = longopts,
	.size = sizeof(struct report_opts),
	.init = report_init,
	.option = report_option,
	.check = report_check,
	.exec = report_exec,
};
