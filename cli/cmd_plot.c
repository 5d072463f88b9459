/* `ticklab plot FILE.json -o FIG.svg|.png|.pdf`: a saved run or search as a
 * figure for slides (io/plot.h draws it). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "bench/kernel.h"
#include "bench/size.h"
#include "base/suggest.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "base/xalloc.h"
#include "io/host_json.h"
#include "io/ladder.h"
#include "io/file_kind.h"
#include "io/plot.h"
#include "io/term_safe.h"
#include "io/results.h"
#include "io/search_json.h"
#include "io/theme.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab plot FILE.json -o FIG.svg|FIG.png|FIG.pdf [--kind KIND]\n"
	"                    [-b|--backend LIST] [-f|--flush LIST] [-k|--kernel LIST]\n"
	"                    [--clip Q|none] [--log-x] [--axis shared|own] [--size WxH]\n"
	"                    [--theme NAME] [--themes-dir DIR] [--title TEXT]\n"
	"                    [--os-filter iforest|iqr|none|cause]\n"
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
	"                   Titles keep only what tells the cells apart; what every\n"
	"                   cell shares is said once under the title.\n"
	"                   ladder  ns per load of the load cells against buffer size\n"
	"                   (log axes), the levels a chase measured shaded and the\n"
	"                   sizes CPUID/hwloc reports dashed\n"
	"                   noise  per cell, the samples the OS filter removed with\n"
	"                   and without a measured cause, and those with a cause\n"
	"                   it kept (runs that recorded cells[].noise)\n"
	"kinds of a search: search (default) t_min and t_diff per backend and flush,\n"
	"                   the median of the repeats with its interval\n"
	"                   cv  every t_min point evaluated: CV against K, with eps\n"
	"                   overlap  every t_diff point: overlap against delta, with\n"
	"                   alpha (files from before points were kept have neither)\n"
	"-b, -f, -k LIST    draw only these backends, flush sizes and kernels, written\n"
	"                   as for `run` (hist and cdf; a value the file lacks is\n"
	"                   refused, naming what it has)\n"
	"--clip Q           hist and cdf: the x axis shows each cell from p(1-Q) to\n"
	"                   p(Q) (0.995 or 99.5, default 99.5; none: min..max); the\n"
	"                   share of samples outside is printed on the figure and on\n"
	"                   stderr. cv says on the figure where its axis cuts (8 x eps)\n"
	"--log-x            hist and cdf: a log x axis (samples <= 0 in a marked edge bin)\n"
	"--size WxH         pixels (PNG) or points (SVG, PDF), each 200..8000\n"
	"                   (default 800x600); the text grows with it (1920x1080 for a\n"
	"                   projector: 28.8 px text)\n"
	"--theme NAME       colours from a theme (default light: a white page)\n"
	"\n"
	"Exit status: 0 done, 1 the figure could not be written, 2 bad input or\n"
	"unreadable file.\n";

enum { OPT_KIND = OPT_FIRST_FREE, OPT_AXIS, OPT_SIZE, OPT_THEME, OPT_THEMES_DIR, OPT_TITLE,
       OPT_CLIP, OPT_LOG_X };

static const struct option longopts[] = {
	{"output", required_argument, NULL, 'o'},
	{"kind", required_argument, NULL, OPT_KIND},
	{"axis", required_argument, NULL, OPT_AXIS},
	{"size", required_argument, NULL, OPT_SIZE},
	{"theme", required_argument, NULL, OPT_THEME},
	{"themes-dir", required_argument, NULL, OPT_THEMES_DIR},
	{"title", required_argument, NULL, OPT_TITLE},
	{"os-filter", required_argument, NULL, OPT_OS_FILTER},
	{"backend", required_argument, NULL, 'b'},
	{"flush", required_argument, NULL, 'f'},
	{"kernel", required_argument, NULL, 'k'},
	{"clip", required_argument, NULL, OPT_CLIP},
	{"log-x", no_argument, NULL, OPT_LOG_X},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct plot_args {
	const char *file, *out, *kind, *theme, *themes_dir, *title;
	const char *backends, *flushes, *kernels; /* the cells to draw; NULL: all */
	bool own_axis, log_x, clip_given;
	double clip;
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

/* --clip Q: the quantile each series' axis ends at (p99.5 as 99.5 or
 * 0.995), or none for min..max. */
static int parse_clip(const char *text, double *q, char *why, size_t whylen)
{
	char *end;
	double v = strtod(text, &end);

	if (strcmp(text, "none") == 0) {
		*q = 1;
		return 0;
	}
	if (text[0] == 'p' || text[0] == 'P')
		v = strtod(text + 1, &end) / 100;
	else if (v > 1)
		v /= 100;
	if (end != text && !*end && isfinite(v) && v >= 0.5 && v <= 1) {
		*q = v;
		return 0;
	}
	snprintf(why, whylen, "--clip '%s': accepted: a quantile from 0.5 to 1 (0.995), a "
			      "percentile from 50 to 100 (99.5 or p99.5), or none (min..max)", text);
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
	case 'b': a->backends = arg; return 0;
	case 'f': a->flushes = arg; return 0;
	case 'k': a->kernels = arg; return 0;
	case OPT_LOG_X: a->log_x = true; return 0;
	case OPT_CLIP: a->clip_given = true; return parse_clip(arg, &a->clip, why, whylen);
	case OPT_AXIS:
		if (strcmp(arg, "shared") == 0 || strcmp(arg, "own") == 0) {
			a->own_axis = strcmp(arg, "own") == 0;
			return 0;
		}
		snprintf(why, whylen, "--axis '%s': accepted: shared (one x axis for every "
				      "histogram) or own (each its own)", arg);
		tl_suggest_append(why, whylen, arg, "shared, own");
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
	a->clip = TL_PLOT_DEFAULT_CLIP;
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
	if (opts_check_output("-o", a->out, "FIG.svg, FIG.png or FIG.pdf", why, whylen) < 0)
		return -1;
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
	if (!search && strcmp(kind, "noise") == 0) {
		*k = TL_PLOT_NOISE;
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
	const char *kinds = search ? "search, cv, overlap" : "hist, cdf, ladder, noise";

	snprintf(why, whylen, "--kind '%s' for a %s file: accepted: %s", kind,
		 search ? "search" : "run", kinds);
	tl_suggest_append(why, whylen, kind, kinds);
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

/* "a, b, c": the distinct values got(run, i) of the visible cells. */
static void have_list(const struct tl_run *run, const char *(*got)(const struct tl_run *, size_t),
		      char *buf, size_t len)
{
	size_t l = 0;

	buf[0] = 0;
	for (size_t c = 0; c < run->ncells && l < len; c++) {
		char v[TL_ID_MAX + 64];
		bool seen = false;

		if (run->cells[c].hidden)
			continue;
		snprintf(v, sizeof v, "%s", got(run, c)); /* got may reuse its buffer */
		for (size_t d = 0; d < c && !seen; d++)
			seen = !run->cells[d].hidden && strcmp(got(run, d), v) == 0;
		if (!seen)
			l += (size_t)snprintf(buf + l, len - l, "%s%s", l ? ", " : "", v);
	}
}

static const char *cell_backend(const struct tl_run *run, size_t c)
{
	return run->timers[run->cells[c].timer].id;
}

static const char *cell_kernel(const struct tl_run *run, size_t c)
{
	return run->cells[c].kernel.label;
}

static const char *cell_flush(const struct tl_run *run, size_t c)
{
	static char buf[32];

	tl_run_flush_label(run, run->cells[c].flush, buf, sizeof buf);
	return buf;
}

/* want[c]: does cell c hold one of the --OPT items (split as run splits
 * them, compared by eq)? -1 with why naming an item the file lacks and what
 * it has. */
static int pick(const struct tl_run *run, const char *opt, char **items, size_t n,
		bool (*eq)(const struct tl_run *, size_t, const char *), const char *name,
		const char *(*got)(const struct tl_run *, size_t), bool *want, char *why,
		size_t whylen)
{
	for (size_t i = 0; i < n; i++) {
		bool any = false;

		for (size_t c = 0; c < run->ncells; c++)
			if (!run->cells[c].hidden && eq(run, c, items[i]))
				any = want[c] = true;
		if (!any) {
			char have[512];

			have_list(run, got, have, sizeof have);
			snprintf(why, whylen, "%s '%s': %s has no such cell; accepted (what it has): %s",
				 opt, items[i], name, have);
			tl_suggest_append(why, whylen, items[i], have);
			return -1;
		}
	}
	return 0;
}

static bool eq_backend(const struct tl_run *run, size_t c, const char *v)
{
	return strcmp(cell_backend(run, c), v) == 0;
}

static bool eq_kernel(const struct tl_run *run, size_t c, const char *v)
{
	return strcmp(cell_kernel(run, c), v) == 0;
}

/* a size as run takes it (64KiB, 65536, 64K); NxLk is compared as text,
 * as the file's host may not be this one */
static bool eq_flush(const struct tl_run *run, size_t c, const char *v)
{
	char why[256];
	uint64_t bytes;

	if (tl_size_parse(v, NULL, &bytes, why, sizeof why) == 0)
		return run->flush_bytes[run->cells[c].flush] == bytes;
	return strcmp(cell_flush(run, c), v) == 0;
}

/* One option's cells: want[] from its list (NULL: every cell). */
static int pick_option(const struct tl_run *run, const char *opt, const char *text,
		       bool (*eq)(const struct tl_run *, size_t, const char *),
		       const char *(*got)(const struct tl_run *, size_t), const char *name,
		       bool *want, char *why, size_t whylen)
{
	char **items = NULL;
	size_t n = 0;
	int rc;

	if (!text) {
		for (size_t c = 0; c < run->ncells; c++)
			want[c] = true;
		return 0;
	}
	if (eq == eq_kernel) {
		/* kernels as run reads them, so "add:0500" is add:500 */
		struct tl_kernel *ks = NULL;

		if (tl_kernel_parse_list_topo(text, NULL, &ks, &n, why, whylen) < 0)
			return -1;
		items = tl_xcalloc(n, sizeof *items);
		for (size_t i = 0; i < n; i++)
			items[i] = tl_xstrdup(ks[i].label);
		free(ks);
	} else if (opts_split_list(text, opt, &items, &n, why, whylen) < 0) {
		return -1;
	}
	rc = pick(run, opt, items, n, eq, name, got, want, why, whylen);
	opts_free_list(items, n);
	return rc;
}

/* Hides the cells --backend, --flush and --kernel leave out. */
static int select_cells(struct tl_run *run, const struct plot_args *a, const char *name,
			char *why, size_t whylen)
{
	size_t n = run->ncells;
	bool *wb = tl_xcalloc(n, sizeof *wb), *wf = tl_xcalloc(n, sizeof *wf);
	bool *wk = tl_xcalloc(n, sizeof *wk);
	int rc = -1;

	if (pick_option(run, "--backend", a->backends, eq_backend, cell_backend, name, wb, why,
			whylen) == 0 &&
	    pick_option(run, "--flush", a->flushes, eq_flush, cell_flush, name, wf, why,
			whylen) == 0 &&
	    pick_option(run, "--kernel", a->kernels, eq_kernel, cell_kernel, name, wk, why,
			whylen) == 0) {
		rc = 0;
		for (size_t c = 0; c < n; c++)
			run->cells[c].hidden |= !(wb[c] && wf[c] && wk[c]);
	}
	free(wb);
	free(wf);
	free(wk);
	return rc;
}

static int plot_run(const json_t *doc, struct tl_bulk *bulk, const char *name,
		    const struct plot_args *a, const struct tl_plot_opts *o)
{
	struct tl_run run;
	struct tl_results_meta meta;
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	memset(&run, 0, sizeof run);
	memset(&meta, 0, sizeof meta);
	if (tl_run_from_json_bulk(doc, bulk, name, &run, &meta, why, sizeof why) < 0)
		return opts_fail("plot", why);
	if (select_cells(&run, a, name, why, sizeof why) < 0) {
		tl_run_unload(&run, &meta);
		return opts_fail("plot", why);
	}
	bool any = false;

	for (size_t c = 0; c < run.ncells; c++)
		any |= !run.cells[c].hidden;
	if (!any) {
		snprintf(why, sizeof why, "--backend, --flush and --kernel together leave no cell of "
					  "%s to draw (each matched some: pick values that share "
					  "a cell)", name);
		tl_run_unload(&run, &meta);
		return opts_fail("plot", why);
	}
	if (o->kind == TL_PLOT_LADDER && !tl_run_has_load_cells(&run)) {
		snprintf(why, sizeof why, "--kind ladder: %s has no load cells: a ladder is a run of "
					  "load:SIZE kernels (e.g. -k load:4KiB..2xL3)", name);
		tl_run_unload(&run, &meta);
		return opts_fail("plot", why);
	}
	enum tl_os_method m = a->os >= 0 ? (enum tl_os_method)a->os : meta.os;
	struct tl_plot_mark marks[16];
	size_t nmarks = o->kind == TL_PLOT_LADDER ? tl_host_json_marks(meta.host, marks, 16) : 0;

	int drawn = o->kind == TL_PLOT_LADDER
			    ? tl_plot_ladder(&run, m, meta.seed, marks, nmarks, o, a->out, why, sizeof why)
		    : o->kind == TL_PLOT_NOISE
			    ? tl_plot_noise(&run, m, meta.seed, o, a->out, why, sizeof why)
			    : tl_plot_run(&run, m, meta.seed, o, a->out, why, sizeof why);

	if (drawn < 0) {
		fprintf(stderr, "ticklab plot: %s\n", why);
		rc = TL_EXIT_FAIL;
	}
	tl_run_unload(&run, &meta);
	return rc;
}

static void default_title(const struct plot_args *a, const char *name, char *buf, size_t len)
{
	const char *base = strrchr(name, '/');
	const char *what = a->own_axis ? "Histograms of each cell's time in ns, each on its own axis"
				       : "Histograms of each cell's time in ns";

	/* what is shown first, in words; the file it came from after */
	if (a->kind && strcmp(a->kind, "cdf") == 0)
		what = "Each cell's time in ns as a CDF";
	if (a->kind && strcmp(a->kind, "ladder") == 0)
		what = "Memory ladder: ns per load against buffer size";
	if (a->kind && strcmp(a->kind, "noise") == 0)
		what = "What the OS filter removed, and whether a cause was measured";
	snprintf(buf, len, "%s%s (%s)", what, a->log_x ? ", log x" : "", base ? base + 1 : name);
}

/* The options that shape a run's hist and cdf, refused with the other kinds. */
static int only_hist_cdf(const struct plot_args *a, enum tl_plot_kind k, char *why,
			 size_t whylen)
{
	const char *opt = a->backends ? "--backend" : a->flushes ? "--flush"
			: a->kernels ? "--kernel" : a->clip_given ? "--clip"
			: a->log_x ? "--log-x" : NULL;

	if (!opt || k == TL_PLOT_HIST || k == TL_PLOT_CDF)
		return 0;
	snprintf(why, whylen, "%s shapes a run's hist and cdf figures; accepted with --kind hist "
			      "or cdf (the other kinds draw every cell on their own axes)", opt);
	return -1;
}

static int plot_exec(void *st)
{
	const struct plot_args *a = st;
	struct tl_plot_opts o;
	char why[WHY_LEN], title[512], safe_title[512], note[256] = "";
	const char *name;
	json_t *doc;
	struct tl_bulk *bulk;
	enum tl_file_kind kind;
	bool search;
	int rc;

	memset(&o, 0, sizeof o);
	o.own_axis = a->own_axis;
	o.clip = a->clip;
	o.log_x = a->log_x;
	o.note = note;
	o.notelen = sizeof note;
	o.width = a->width;
	o.height = a->height;
	if (tui_theme_load_named(a->themes_dir, a->theme, &o.theme, why, sizeof why) < 0)
		return opts_fail("plot", why);
	doc = tl_file_load(a->file, &kind, &bulk, why, sizeof why);
	if (!doc)
		return opts_fail("plot", why);
	name = strcmp(a->file, "-") == 0 ? "standard input" : a->file;
	if (kind == TL_FILE_FINGERPRINT) {
		snprintf(why, sizeof why, "%.400s is a fingerprint, and plot draws runs and searches "
					  "(accepted: what `ticklab run --json` or `ticklab search "
					  "--json` writes); a fingerprint is read by `ticklab report "
					  "FILE` and, beside other nodes', `ticklab fleet FILE...`",
			 name);
		json_decref(doc);
		tl_bulk_free(bulk);
		return opts_fail("plot", why);
	}
	search = kind == TL_FILE_SEARCH;
	if (pick_kind(a, search, &o.kind, why, sizeof why) < 0 ||
	    only_hist_cdf(a, o.kind, why, sizeof why) < 0) {
		json_decref(doc);
		tl_bulk_free(bulk);
		return opts_fail("plot", why);
	}
	if (search)
		snprintf(title, sizeof title, "%s (%s)",
			 o.kind == TL_PLOT_CV	     ? "t_min's search: CV against K"
			 : o.kind == TL_PLOT_OVERLAP ? "t_diff's search: overlap against delta"
						     : "Precision (t_min) and sensitivity (t_diff) per timer",
			 strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
	else
		default_title(a, name, title, sizeof title);
	/* The file's name (or --title) drawn as text: escaped like any string
	 * ticklab shows, so a control character cannot reach a viewer. */
	tl_term_safe(a->title ? a->title : title, safe_title, sizeof safe_title);
	o.title = safe_title;
	rc = search ? plot_search(doc, name, &o, a->out) : plot_run(doc, bulk, name, a, &o);
	json_decref(doc);
	tl_bulk_free(bulk);
	/* what the axes leave out, also on the figure: said where a script sees it */
	if (rc == TL_EXIT_OK && note[0])
		fprintf(stderr, "note: %s: %s\n", a->out, note);
	return rc;
}

const struct cli_command cli_cmd_plot = {
	.name = "plot",
	.summary = "a saved run or search as a figure (SVG, PNG, PDF)",
	.usage = usage_text,
	.shortopts = "o:b:f:k:",
	.longopts = longopts,
	.size = sizeof(struct plot_args),
	.init = plot_init,
	.option = plot_option,
	.check = plot_check,
	.exec = plot_exec,
};
