/* The outputs run and report share (cli/outputs.h): the --json, --csv and
 * --markdown options, opening them before the work and committing them
 * after it through io/'s atomic writer. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/command.h"
#include "cli/opts.h"
#include "cli/outputs.h"
#include "io/atomic.h"
#include "io/markdown.h"
#include "io/results.h"
#include "io/run_compare.h"

#define WHY_LEN 1024

int cli_outputs_option(struct cli_outputs *o, int c, const char *arg, char *why, size_t whylen)
{
	switch (c) {
	case OPT_OS_FILTER:
		o->os = opts_parse_os_filter(arg, why, whylen);
		return o->os < 0 ? -1 : 0;
	case OPT_JSON:
		o->json = arg;
		return 0;
	case OPT_CSV:
		o->csv = arg;
		return 0;
	case OPT_MARKDOWN:
		o->markdown = arg;
		return 0;
	default:
		return CLI_NOT_MINE;
	}
}

static int is_stdout(const char *path)
{
	return path && strcmp(path, "-") == 0;
}

/* The file path names, as far as it can be told before it exists: its
 * symlinks followed (a link to another output, even a dangling one, is
 * that output), then the real path of its directory and its own name. */
static char *canonical(const char *given)
{
	char *path = tl_out_target(given);
	const char *slash;

	if (!path)
		return strdup(given);
	slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
	char *real = dir ? realpath(dir, NULL) : NULL;
	const char *base = slash ? slash + 1 : path;
	char *out = NULL;

	if (real && asprintf(&out, "%s/%s", real, base) < 0)
		out = NULL;
	free(dir);
	free(real);
	if (!out)
		return path;
	free(path);
	return out;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ca, *cb;
	bool same;

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ca = canonical(a);
	cb = canonical(b);
	same = ca && cb && strcmp(ca, cb) == 0;
	free(ca);
	free(cb);
	return same;
}

int cli_outputs_distinct(const char *const *paths, const char *const *opts, size_t n, char *why,
			 size_t whylen)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; paths[i] && !is_stdout(paths[i]) && j < i; j++)
			if (paths[j] && !is_stdout(paths[j]) && same_file(paths[i], paths[j])) {
				snprintf(why, whylen, "%s and %s both name '%s': one would overwrite "
						      "the other (accepted: a different file for each)",
					 opts[j], opts[i], paths[i]);
				return -1;
			}
	return 0;
}

int cli_outputs_check(const struct cli_outputs *o, char *why, size_t whylen)
{
	char *summary = o->csv && !is_stdout(o->csv) ? tl_summary_csv_path(o->csv) : NULL;
	const char *paths[] = {o->json, o->csv, o->markdown, summary};
	static const char *const opts[] = {"--json", "--csv", "--markdown",
					   "--csv's summary file"};
	int rc;

	if (is_stdout(o->json) + is_stdout(o->csv) + is_stdout(o->markdown) > 1) {
		snprintf(why, whylen, "only one of --json, --csv and --markdown can be standard "
				      "output (-)");
		free(summary);
		return -1;
	}
	rc = cli_outputs_distinct(paths, opts, 4, why, whylen);
	for (size_t i = 0; i < 4 && rc == 0; i++)
		rc = opts_check_output(opts[i], paths[i], "a file path or -", why, whylen);
	free(summary);
	return rc;
}

FILE *cli_table_stream(const struct cli_outputs *o)
{
	bool taken = is_stdout(o->json) || is_stdout(o->csv) || is_stdout(o->markdown);

	return taken ? stderr : stdout;
}

int cli_outputs_open(const char *cmd, const struct cli_outputs *o, struct cli_open_outputs *h)
{
	char why[WHY_LEN];

	char *summary = o->csv ? tl_summary_csv_path(o->csv) : NULL;

	memset(h, 0, sizeof *h);
	if ((o->json && !(h->json = tl_out_open(o->json, why, sizeof why))) ||
	    (o->csv && !(h->csv = tl_out_open(o->csv, why, sizeof why))) ||
	    (summary && !(h->csv_summary = tl_out_open(summary, why, sizeof why))) ||
	    (o->markdown && !(h->markdown = tl_out_open(o->markdown, why, sizeof why)))) {
		fprintf(stderr, "ticklab %s: %s\n", cmd, why);
		free(summary);
		cli_outputs_abort(h);
		return TL_EXIT_FAIL;
	}
	free(summary);
	return TL_EXIT_OK;
}

void cli_outputs_abort(struct cli_open_outputs *h)
{
	tl_out_abort(h->json);
	tl_out_abort(h->csv);
	tl_out_abort(h->csv_summary);
	tl_out_abort(h->markdown);
	memset(h, 0, sizeof *h);
}

struct summary_ctx {
	const struct tl_run *run;
	const struct tl_analysis *an;
	enum tl_os_method m;
	uint64_t seed;
	const struct cli_baseline *bl;
};

static int emit_summary_csv(FILE *f, void *ctx)
{
	const struct summary_ctx *s = ctx;

	return tl_run_summary_csv(f, s->run, s->an, s->seed);
}

static int emit_markdown(FILE *f, void *ctx)
{
	const struct summary_ctx *s = ctx;

	return tl_run_markdown(f, s->run, s->an, s->m, s->seed, s->bl ? s->bl->cmp : NULL,
			       s->bl ? s->bl->base : NULL);
}

/* Commits one opened output (taking it from *slot); says a failure. */
static int commit_one(const char *cmd, struct tl_out **slot, int (*emit)(FILE *, void *),
		      void *ctx)
{
	struct tl_out *out = *slot;
	char why[WHY_LEN];

	*slot = NULL;
	if (!out)
		return TL_EXIT_OK;
	if (tl_out_commit(out, emit, ctx, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab %s: %s\n", cmd, why);
		return TL_EXIT_FAIL;
	}
	return TL_EXIT_OK;
}

int cli_outputs_write(const char *cmd, const struct cli_outputs *o, struct cli_open_outputs *h,
		      const struct tl_run *run, const struct tl_analysis *an, enum tl_os_method m,
		      uint64_t seed, bool stopped, json_t *host, const struct cli_baseline *bl)
{
	struct summary_ctx sc = { run, an, m, seed, bl };
	struct cli_open_outputs now;
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	if (!h) {
		if (cli_outputs_open(cmd, o, &now) != TL_EXIT_OK) {
			json_decref(host);
			return TL_EXIT_FAIL;
		}
		h = &now;
	}
	if (!h->json) {
		json_decref(host);
	} else {
		struct tl_run_json_baseline rb = { bl ? bl->path : NULL, bl ? bl->base : NULL,
						   bl ? bl->cmp : NULL };
		struct tl_out *jo = h->json;

		h->json = NULL;
		if (tl_run_json_commit(jo, run, an, m, seed, stopped, host, bl ? &rb : NULL, why,
				       sizeof why) < 0) {
			fprintf(stderr, "ticklab %s: %s\n", cmd, why);
			rc = TL_EXIT_FAIL;
		}
	}
	if (h->csv) {
		struct tl_out *co = h->csv;

		h->csv = NULL;
		if (tl_run_commit_csv(co, run, why, sizeof why) < 0) {
			fprintf(stderr, "ticklab %s: %s\n", cmd, why);
			rc = TL_EXIT_FAIL;
		}
	}
	if (commit_one(cmd, &h->csv_summary, emit_summary_csv, &sc) != TL_EXIT_OK)
		rc = TL_EXIT_FAIL;
	if (commit_one(cmd, &h->markdown, emit_markdown, &sc) != TL_EXIT_OK)
		rc = TL_EXIT_FAIL;
	return rc;
}
