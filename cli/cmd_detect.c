/* `ticklab detect`: per backend and flush, the smallest injected variation
 * a jitter:K,D,0.5 cell of n samples shows (bench/detect.c), in ADDs and
 * ns: the model-free cousin of t_diff (`ticklab search`). */
#include "config.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/detect.h"
#include "bench/runner.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "cli/selection.h"
#include "cli/stop.h"
#include "io/atomic.h"
#include "io/detect_json.h"
#include "io/json_build.h"
#include "io/results.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab detect --backend LIST [--flush LIST] [-n N] [--k K] [--alpha A]\n"
	"                      [--max-d D] [--cpu C] [--seed S] [--json FILE|-]\n"
	"\n"
	"For each backend x flush, the smallest D (extra ADDs, and ns at the timer's\n"
	"measured ns per ADD) that a jitter:K,D,0.5 cell of N samples shows: the\n"
	"injected samples shifted up with Mann-Whitney p < A, as `ticklab run` would\n"
	"say \"detected\". D doubles from 1 until detected, then is bisected to 1/16;\n"
	"a D counts when two of (at most) three draws detect it, so the answer is\n"
	"about where the test's power passes 1/2. Each draw also measures an A/A\n"
	"control (D = 0) and a P-swapped one, N samples each, interleaved with its\n"
	"own; a draw whose controls fail counts as a miss, and the table says how\n"
	"often that happened. The model-free cousin of t_diff (`ticklab search`).\n"
	"\n"
	CLI_SELECTION_USAGE_BACKEND_FLUSH
	"  -n, --samples N      samples per jitter cell, half injected (default 10000)\n"
	"      --k K            plain ADDs of the cell (default 500)\n"
	"      --alpha A        the test's level (default 0.05)\n"
	"      --max-d D        give up above D ADDs, 1.." TL_JITTER_MAX_D_TEXT " (default " TL_JITTER_MAX_D_TEXT ")\n"
	"  -c, --cpu C          CPU to measure on (default: the last allowed CPU)\n"
	"  -s, --seed S         seed of the jitter plans (default 1)\n"
	"      --json FILE      results as JSON (- for stdout; the table then goes to stderr)\n"
	"\n"
	"Exit status: 0 done, 1 measurement or write failure, 2 bad input, 128 + the\n"
	"signal when stopped by INT (130), TERM (143) or HUP (129).\n";

enum { OPT_K = OPT_FIRST_FREE, OPT_ALPHA_D, OPT_MAX_D };

static const struct option longopts[] = {
	CLI_SELECTION_LONGOPTS_NO_KERNEL,
	{"samples", required_argument, NULL, 'n'},
	{"k", required_argument, NULL, OPT_K},
	{"alpha", required_argument, NULL, OPT_ALPHA_D},
	{"max-d", required_argument, NULL, OPT_MAX_D},
	{"cpu", required_argument, NULL, 'c'},
	{"seed", required_argument, NULL, 's'},
	{"json", required_argument, NULL, OPT_JSON},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct detect_opts {
	struct cli_selection sel;
	const char *json;
	int cpu;
	struct tl_detect_params p;
};

static atomic_bool stop_flag;

static void detect_init(void *st)
{
	struct detect_opts *o = st;

	o->sel.flush_text = "0";
	o->cpu = -1;
	tl_detect_defaults(&o->p);
}

static int detect_option(void *st, int c, const char *arg, char *why, size_t whylen)
{
	struct detect_opts *o = st;
	size_t v;

	switch (c) {
	case 'n':
		if (opts_parse_count(arg, "-n", &o->p.n, why, whylen) < 0)
			return -1;
		if (o->p.n < 2) {
			snprintf(why, whylen, "-n '%s': need at least 2 samples (one plain, one injected)",
				 arg);
			return -1;
		}
		return 0;
	case OPT_K:
		return opts_parse_u64(arg, "--k", &o->p.k, why, whylen) < 0 || o->p.k > TL_KERNEL_MAX_K
			       ? (snprintf(why, whylen, "--k '%s': expected a whole number 0.."
						      TL_KERNEL_MAX_K_TEXT, arg), -1)
			       : 0;
	case OPT_ALPHA_D:
		return opts_parse_double(arg, "--alpha", 1e-12, 0.5, &o->p.alpha, why, whylen);
	case OPT_MAX_D:
		if (opts_parse_count(arg, "--max-d", &v, why, whylen) < 0)
			return -1;
		if (v < 1 || v > TL_JITTER_OVERLAP_ADDS) {
			snprintf(why, whylen,
				 "--max-d '%s': expected 1.." TL_JITTER_MAX_D_TEXT
				 " (the jitter kernel delivers the whole of D up to "
				 TL_JITTER_MAX_D_TEXT " ADDs; past it, only part)",
				 arg);
			return -1;
		}
		o->p.max_d = v;
		return 0;
	case 'c':
		return opts_parse_cpu(arg, &o->cpu, why, whylen);
	case 's':
		return opts_parse_u64(arg, "--seed", &o->p.seed, why, whylen);
	case OPT_JSON:
		o->json = arg;
		return 0;
	default:
		return cli_selection_option(&o->sel, c, arg);
	}
}

static int detect_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct detect_opts *o = st;

	(void)argc;
	(void)argv;
	if (!o->sel.backend_text) {
		snprintf(why, whylen, "which timers? give --backend LIST (see `ticklab info`)");
		return -1;
	}
	if (opts_check_output("--json", o->json, "a file path or -", why, whylen) < 0 ||
	    cli_selection_parse(&o->sel, o->cpu, why, whylen) < 0)
		return -1;
	return 0;
}

static void detect_release(void *st)
{
	struct detect_opts *o = st;

	cli_selection_free(&o->sel);
}

/* One cell: open, measure, print a row, append its JSON. 0 or TL_EXIT_FAIL. */
static int detect_cell(const struct detect_opts *o, size_t b, size_t fi, FILE *out, json_t *rows)
{
	struct tl_timer t;
	struct tl_flush f;
	struct tl_detect_result r;
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	if (tl_timer_open(&t, o->sel.got.backends[b], why, sizeof why) < 0) {
		fprintf(stderr, "ticklab detect: backend %s: %s\n", o->sel.got.backends[b], why);
		return TL_EXIT_FAIL;
	}
	if (tl_flush_init(&f, o->sel.got.flush_bytes[fi], why, sizeof why) < 0) {
		fprintf(stderr, "ticklab detect: %s\n", why);
		tl_timer_close(&t);
		return TL_EXIT_FAIL;
	}
	if (tl_detect_run(&t, &f, &o->p, &stop_flag, &r) < 0) {
		fprintf(stderr, "ticklab detect: backend %s, flush %s: %s\n", o->sel.got.backends[b],
			o->sel.got.flush_names[fi], r.why);
		rc = TL_EXIT_FAIL;
	} else {
		tl_detect_row_print(out, o->sel.got.backends[b], o->sel.got.flush_names[fi], &r);
		if (rows)
			tl_json_append(rows, tl_detect_row_json(o->sel.got.backends[b], o->sel.got.flush_bytes[fi],
								o->sel.got.flush_names[fi], &r));
	}
	tl_flush_free(&f);
	tl_timer_close(&t);
	return rc;
}

static int detect_exec(void *st)
{
	const struct detect_opts *o = st;
	bool to_stderr = o->json && strcmp(o->json, "-") == 0;
	FILE *out = to_stderr ? stderr : stdout;
	json_t *rows = o->json ? tl_json_array() : NULL;
	int cpu = o->cpu < 0 ? tl_cpu_default() : o->cpu, rc = TL_EXIT_OK;
	char why[WHY_LEN];
	struct tl_out *json_out = NULL;

	if (tl_cpu_pin(cpu, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab detect: %s\n", why);
		json_decref(rows);
		return TL_EXIT_FAIL;
	}
	/* opened before the first draw: an unwritable path is said at once */
	if (o->json && !(json_out = tl_out_open(o->json, why, sizeof why))) {
		fprintf(stderr, "ticklab detect: %s\n", why);
		json_decref(rows);
		return TL_EXIT_FAIL;
	}
	cli_stop_watch(&stop_flag);
	tl_detect_head_print(out, &o->p);
	for (size_t fi = 0; fi < o->sel.got.nflush && !atomic_load(&stop_flag); fi++)
		for (size_t b = 0; b < o->sel.got.nbackends && !atomic_load(&stop_flag); b++)
			if (detect_cell(o, b, fi, out, rows) != TL_EXIT_OK)
				rc = TL_EXIT_FAIL;
	cli_stop_disarm();
	fflush(out);
	if (rows) {
		json_t *doc = tl_detect_to_json(&o->p, rows);

		if (tl_json_commit(json_out, doc, why, sizeof why) < 0) {
			fprintf(stderr, "ticklab detect: %s\n", why);
			rc = TL_EXIT_FAIL;
		}
		json_decref(doc);
	}
	if (atomic_load(&stop_flag))
		return cli_stop_status(TL_EXIT_INTERRUPTED);
	return rc;
}

const struct cli_command cli_cmd_detect = {
	.name = "detect",
	.summary = "the smallest injected variation each timer shows (t_diff's cousin)",
	.usage = usage_text,
	.shortopts = "b:f:n:c:s:",
	.longopts = longopts,
	.no_operand_hint = "lists are comma-separated: --backend a,b",
	.size = sizeof(struct detect_opts),
	.init = detect_init,
	.option = detect_option,
	.check = detect_check,
	.exec = detect_exec,
	.release = detect_release,
};
