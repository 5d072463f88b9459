/* `ticklab plot FILE.json -o FIG.svg|.png|.pdf`: a saved run or search as a
 * figure for slides (io/plot.h draws it). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "cli/opts.h"
#include "io/host_json.h"
#include "io/plot.h"
#include "io/term_safe.h"
#include "io/results.h"
#include "io/search_json.h"
#include "io/theme.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab plot FILE.json -o FIG.svg|FIG.png|FIG.pdf [--kind KIND]\n"
	"                    [--axis shared|own] [--size WxH] [--theme NAME]\n"
	"                    [--themes-dir DIR] [--title TEXT] [--os-filter iforest|iqr|none|cause]\n"
	"\n"
	"Draws a saved run (`ticklab run --json`) or search (`ticklab search --json`)\n"
	"with cairo; the format follows -o's ending. Series take the theme's series\n"
	"colours and each its own dash pattern and marker, so the figure reads in\n"
	"greyscale.\n"
	"\n"
	"kinds of a run:    hist (default) a histogram per cell, of the samples kept\n"
	"                   after filter_cost and the OS filter, on one shared x axis\n"
	"                   (--axis shared, default) or each on its own (--axis own)\n"
	"                   cdf  every cell's CDF overlaid\n"
	"                   ladder  ns per load of the load cells against buffer size\n"
	"                   (log axes), the levels a chase measured shaded and the\n"
	"                   sizes CPUID/hwloc reports dashed\n"
	"kinds of a search: search (default) t_min and t_diff per backend and flush,\n"
	"                   the median of the repeats with its interval\n"
	"                   cv  every t_min point evaluated: CV against K, with eps\n"
	"                   overlap  every t_diff point: overlap against delta, with\n"
	"                   alpha (files from before points were kept have neither)\n"
	"--size WxH         pixels (PNG) or points (SVG, PDF), each 200..8000\n"
	"                   (default 800x600)\n"
	"--theme NAME       colours from a theme (default light: a white page)\n"
	"\n"
	"Exit status: 0 done, 1 the figure could not be written, 2 bad input or\n"
	"unreadable file.\n";

enum { OPT_KIND = OPT_FIRST_FREE, OPT_AXIS, OPT_SIZE, OPT_THEME, OPT_THEMES_DIR, OPT_TITLE };

static const struct option longopts[] = {
	{"output", required_argument, NULL, 'o'},
	{"kind", required_argument, NULL, OPT_KIND},
	{"axis", required_argument, NULL, OPT_AXIS},
	{"size", required_argument, NULL, OPT_SIZE},
	{"theme", required_argument, NULL, OPT_THEME},
	{"themes-dir", required_argument, NULL, OPT_THEMES_DIR},
	{"title", required_argument, NULL, OPT_TITLE},
	{"os-filter", required_argument, NULL, OPT_OS_FILTER},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct plot_args {
	const char *file, *out, *kind, *theme, *themes_dir, *title;
	bool own_axis;
	int width, height, os; /* os -1: the file's */
};

static int parse_size(const char *text, int *w, int *h, char *why, size_t whylen)
{
	char *end;
	long a = strtol(text, &end, 10), b = 0;

	if (end != text && (*end == 'x' || *end == 'X')) {
		const char *rest = end + 1;

		b = strtol(rest, &end, 10);
		if (end != rest && !*end && a >= TL_PLOT_MIN_SIDE && a <= TL_PLOT_MAX_SIDE &&
		    b >= TL_PLOT_MIN_SIDE && b <= TL_PLOT_MAX_SIDE && rest[0] != '+' &&
		    text[0] != '+') {
			*w = (int)a;
			*h = (int)b;
			return 0;
		}
	}
	snprintf(why, whylen, "--size '%s': expected WIDTHxHEIGHT, each a whole number from %d to "
			      "%d (e.g. 800x600)", text, TL_PLOT_MIN_SIDE, TL_PLOT_MAX_SIDE);
	return -1;
}

static int plot_option(void *st, int c, const char *arg, char *why, size_t whylen)
{
	struct plot_args *a = st;

	switch (c) {
	case 'o': a->out = arg; return 0;
	case OPT_KIND: a->kind = arg; return 0;
	case OPT_THEME: a->theme = arg; return 0;
	case OPT_THEMES_DIR: a->themes_dir = arg; return 0;
	case OPT_TITLE: a->title = arg; return 0;
	case OPT_SIZE: return parse_size(arg, &a->width, &a->height, why, whylen);
	case OPT_AXIS:
		if (strcmp(arg, "shared") == 0 || strcmp(arg, "own") == 0) {
			a->own_axis = strcmp(arg, "own") == 0;
			return 0;
		}
		snprintf(why, whylen, "--axis '%s': accepted: shared (one x axis for every "
				      "histogram) or own (each its own)", arg);
		return -1;
	case OPT_OS_FILTER:
		a->os = opts_parse_os_filter(arg, why, whylen);
		return a->os < 0 ? -1 : 0;
	default:
		return CLI_NOT_MINE;
	}
}

static void plot_init(void *st)
{
	struct plot_args *a = st;

	a->os = -1;
	a->width = TL_PLOT_DEFAULT_W;
	a->height = TL_PLOT_DEFAULT_H;
	a->theme = "light";
}

static int plot_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct plot_args *a = st;
	enum tl_plot_format f;

	if (optind >= argc) {
		snprintf(why, whylen, "which file? (usage: ticklab plot FILE.json -o FIG.svg|.png|.pdf)");
		return -1;
	}
	a->file = argv[optind++];
	if (opts_no_operand(argc, argv, "one FILE.json at a time", why, whylen) < 0)
		return -1;
	if (!a->out) {
		snprintf(why, whylen, "where to? -o FIG.svg, FIG.png or FIG.pdf is required");
		return -1;
	}
	return tl_plot_format_of(a->out, &f, why, whylen);
}

/* --kind against what the file holds; -1 with why naming the accepted kinds. */
static int pick_kind(const struct plot_args *a, bool search, enum tl_plot_kind *k, char *why,
		     size_t whylen)
{
	const char *kind = a->kind ? a->kind : search ? "search" : "hist";

	if (search && strcmp(kind, "search") == 0) {
		*k = TL_PLOT_SEARCH;
		return 0;
	}
	if (!search && strcmp(kind, "ladder") == 0) {
		*k = TL_PLOT_LADDER;
		return 0;
	}
	if (!search && (strcmp(kind, "hist") == 0 || strcmp(kind, "cdf") == 0)) {
		*k = strcmp(kind, "hist") == 0 ? TL_PLOT_HIST : TL_PLOT_CDF;
		return 0;
	}
	if (search && (strcmp(kind, "cv") == 0 || strcmp(kind, "overlap") == 0)) {
		*k = strcmp(kind, "cv") == 0 ? TL_PLOT_CV : TL_PLOT_OVERLAP;
		return 0;
	}
	snprintf(why, whylen, "--kind '%s' for a %s file: accepted: %s", kind,
		 search ? "search" : "run", search ? "search, cv, overlap" : "hist, cdf, ladder");
	return -1;
}

static int plot_search(const json_t *doc, const char *name, const struct tl_plot_opts *o,
		       const char *out)
{
	struct tl_search_plan plan;
	struct tl_search_cell *cells;
	bool interrupted;
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	if (tl_search_from_json(doc, name, &plan, &cells, &interrupted, why, sizeof why) < 0) {
		tl_search_plan_free(&plan);
		return opts_fail("plot", why);
	}
	bool ov = o->kind == TL_PLOT_OVERLAP;
	if (o->kind != TL_PLOT_SEARCH &&
	    !tl_search_points_total(cells, plan.nbackends * plan.nflush,
				    ov ? TL_SEARCH_TDIFF : TL_SEARCH_TMIN)) {
		snprintf(why, sizeof why, "--kind %s: %s keeps no evaluated %s points, so it has no %s "
					  "curve (written before ticklab kept them, or %s); accepted: "
					  "search",
			 ov ? "overlap" : "cv", name, ov ? "t_diff" : "t_min",
			 ov ? "overlap-vs-delta" : "CV-vs-t",
			 ov ? "t_diff was not searched" : "nothing was searched");
		tl_search_cells_free(cells, plan.nbackends * plan.nflush);
		tl_search_plan_free(&plan);
		return opts_fail("plot", why);
	}
	if (tl_plot_search(&plan, cells, o, out, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab plot: %s\n", why);
		rc = TL_EXIT_FAIL;
	}
	tl_search_cells_free(cells, plan.nbackends * plan.nflush);
	tl_search_plan_free(&plan);
	return rc;
}

static int plot_run(const json_t *doc, const char *name, const struct plot_args *a,
		    const struct tl_plot_opts *o)
{
	struct tl_run run;
	struct tl_results_meta meta;
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	memset(&run, 0, sizeof run);
	memset(&meta, 0, sizeof meta);
	if (tl_run_from_json(doc, name, &run, &meta, why, sizeof why) < 0)
		return opts_fail("plot", why);
	enum tl_os_method m = a->os >= 0 ? (enum tl_os_method)a->os : meta.os;
	struct tl_plot_mark marks[16];
	size_t nmarks = o->kind == TL_PLOT_LADDER ? tl_host_json_marks(meta.host, marks, 16) : 0;

	if (o->kind == TL_PLOT_LADDER
		    ? tl_plot_ladder(&run, m, meta.seed, marks, nmarks, o, a->out, why, sizeof why) < 0
		    : tl_plot_run(&run, m, meta.seed, o, a->out, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab plot: %s\n", why);
		rc = TL_EXIT_FAIL;
	}
	tl_run_unload(&run, &meta);
	return rc;
}

static void default_title(const struct plot_args *a, const char *name, char *buf, size_t len)
{
	const char *base = strrchr(name, '/');
	const char *what = a->own_axis ? "histograms, each on its own axis" : "histograms";

	if (a->kind && strcmp(a->kind, "cdf") == 0)
		what = "CDFs";
	if (a->kind && strcmp(a->kind, "ladder") == 0)
		what = "memory ladder, ns per load by buffer size";
	snprintf(buf, len, "%s: %s", base ? base + 1 : name, what);
}

static int plot_exec(void *st)
{
	const struct plot_args *a = st;
	struct tl_plot_opts o;
	char why[WHY_LEN], title[512], safe_title[512];
	const char *name;
	json_t *doc;
	bool search;
	int rc;

	memset(&o, 0, sizeof o);
	o.own_axis = a->own_axis;
	o.width = a->width;
	o.height = a->height;
	if (tui_theme_load_named(a->themes_dir, a->theme, &o.theme, why, sizeof why) < 0)
		return opts_fail("plot", why);
	doc = tl_json_load(a->file, why, sizeof why);
	if (!doc)
		return opts_fail("plot", why);
	name = strcmp(a->file, "-") == 0 ? "standard input" : a->file;
	search = tl_search_json_is(doc);
	if (pick_kind(a, search, &o.kind, why, sizeof why) < 0) {
		json_decref(doc);
		return opts_fail("plot", why);
	}
	if (search)
		snprintf(title, sizeof title, "%s: %s", strrchr(name, '/') ? strrchr(name, '/') + 1 : name,
			 o.kind == TL_PLOT_CV	     ? "CV against K (t_min's search)"
			 : o.kind == TL_PLOT_OVERLAP ? "overlap against delta (t_diff's search)"
						     : "t_min and t_diff");
	else
		default_title(a, name, title, sizeof title);
	/* The file's name (or --title) drawn as text: escaped like any string
	 * ticklab shows, so a control character cannot reach a viewer. */
	tl_term_safe(a->title ? a->title : title, safe_title, sizeof safe_title);
	o.title = safe_title;
	rc = search ? plot_search(doc, name, &o, a->out) : plot_run(doc, name, a, &o);
	json_decref(doc);
	return rc;
}

const struct cli_command cli_cmd_plot = {
	.name = "plot",
	.summary = "a saved run or search as a figure (SVG, PNG, PDF)",
	.usage = usage_text,
	.shortopts = "o:",
	.longopts = longopts,
	.size = sizeof(struct plot_args),
	.init = plot_init,
	.option = plot_option,
	.check = plot_check,
	.exec = plot_exec,
};
