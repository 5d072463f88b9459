/* What the export keys write: a run's JSON or CSV, a search's JSON, and
 * beside a JSON the figures `ticklab plot` would draw of it, under names
 * that say what and when, in the working directory or, when that cannot be
 * written, in $TMPDIR. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "bench/analysis.h"
#include "bench/levels.h"
#include "io/host_json.h"
#include "io/plot.h"
#include "io/run_compare.h"
#include "io/results.h"
#include "io/theme.h"
#include "tui/app.h"

void tui_export_name(char *buf, size_t len, const char *kind, const char *ext)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	char cwd[PATH_MAX];
	const char *dir = getcwd(cwd, sizeof cwd) && access(cwd, W_OK) == 0 ? cwd : NULL;
	if (!dir) {
		dir = getenv("TMPDIR");
		if (!dir || !*dir)
			dir = "/tmp";
	}
	snprintf(buf, len, "%s/ticklab-%s-%s-%d.%s", dir, kind, stamp, (int)getpid(), ext);
}

int tui_export_json(const char *path, json_t *doc, char *why, size_t whylen)
{
	int rc = tl_json_write(path, doc, why, whylen);
	json_decref(doc);
	return rc;
}

/* The run file `run --json` writes, through its writer (io/run_json.h):
 * streamed, so an export costs no memory per sample beyond the analysis
 * of one cell, and with the baseline's verdicts when there is one. */
static int export_run_json(struct tui_app *app, const char *path, bool interrupted, char *why,
			   size_t whylen)
{
	struct tl_run_compare cmp;
	struct tl_run_json_baseline bl = { tui_baseline_path(app), NULL, &cmp };
	struct tl_analysis *an;
	struct tl_out *o;
	json_t *host;
	bool have_bl;
	int rc;

	if (!(o = tl_out_open(path, why, whylen)))
		return -1;
	if (app->res.replay && app->node.host_json)
		host = json_deep_copy(app->node.host_json);
	else {
		tui_info_ensure(app);
		if (app->res.levels) /* what sized the run's NxLk: the file says so */
			app->node.host.levels = *app->res.levels;
		host = tl_host_to_json(&app->node.host);
	}
	an = tl_run_analyse_until(&app->res.run, app->res.os, app->res.seed, tui_term_quit_flag());
	if (!an) { /* a signal: it saves the samples instead */
		json_decref(host);
		tl_out_abort(o);
		snprintf(why, whylen, tui_term_quitting() ? "interrupted" : "out of memory");
		return -1;
	}
	have_bl = tui_baseline_compare(app, &cmp, &bl.base);
	rc = tl_run_json_commit_until(o, &app->res.run, an, app->res.os, app->res.seed, interrupted,
				      host, have_bl ? &bl : NULL, tui_term_quit_flag(), why, whylen);
	if (have_bl)
		tl_run_compare_free(&cmp);
	free(an);
	return rc;
}

int tui_live_export(struct tui_app *app, bool csv, bool interrupted, char *path, size_t pathlen,
		    char *why, size_t whylen)
{
	if (!app->res.have) {
		snprintf(why, whylen, "nothing to export: run something first (Enter on Setup)");
		return -1;
	}
	if (TUI_LIVE(app)->sampling.live) {
		snprintf(why, whylen, "the run is still sampling: export when it ends (Ctrl-C saves a "
				      "session now)");
		return -1;
	}
	tui_export_name(path, pathlen, interrupted ? "session" : "run", csv ? "csv" : "json");
	if (csv)
		return tl_run_write_csv_until(path, &app->res.run, tui_term_quit_flag(), why, whylen);
	return export_run_json(app, path, interrupted || app->res.interrupted, why, whylen);
}

int tui_live_save_session(struct tui_app *app, bool interrupted, char *path, size_t pathlen,
			  char *why, size_t whylen)
{
	struct tl_out *o;
	struct tl_host h;
	json_t *host;

	tui_export_name(path, pathlen, "session", "json");
	if (!(o = tl_out_open(path, why, whylen)))
		return -1;
	if (app->res.replay && app->node.host_json)
		host = json_deep_copy(app->node.host_json);
	else if (app->node.have_host)
		host = tl_host_to_json(&app->node.host);
	else { /* not the Info screen's job: it may be seconds from done */
		tl_host_read(NULL, app->res.run.cpu, &h);
		host = tl_host_to_json(&h);
	}
	return tl_run_commit_raw(o, &app->res.run, app->res.os, app->res.seed, interrupted, host, why,
				 whylen);
}

void tui_export_figures(struct tui_app *app, const char *json, const struct tui_figure *figs,
			size_t n, tui_figure_fn draw)
{
	char base[1024], path[1100], why[512], said[1400] = "";
	struct tl_plot_opts o;

	if (!tl_plot_available()) {
		tui_message(app, false, "exported to %s (no figure: built without cairo)", json);
		return;
	}
	/* The light theme, as on a slide or a page; the built-in one when no
	 * theme file can be read. */
	memset(&o, 0, sizeof o);
	o.width = TL_PLOT_DEFAULT_W;
	o.height = TL_PLOT_DEFAULT_H;
	o.title = json;
	o.stop = tui_term_quit_flag();
	if (tui_theme_load_named(app->opts.themes_dir, "light", &o.theme, why, sizeof why) < 0)
		tui_theme_builtin(&o.theme);
	size_t len = strlen(json);
	if (len > 5 && strcmp(json + len - 5, ".json") == 0)
		len -= 5;
	snprintf(base, sizeof base, "%.*s", (int)len, json);
	for (size_t i = 0; i < n && !tui_term_quitting(); i++) {
		o.kind = figs[i].kind;
		snprintf(path, sizeof path, "%s%s", base, figs[i].suffix);
		int rc = draw(app, &o, path, why, sizeof why);
		if (rc > 0)
			continue; /* nothing of this kind to draw */
		size_t nsaid = strlen(said);
		snprintf(said + nsaid, sizeof said - nsaid, "%s%s", nsaid ? ", " : "",
			 rc < 0 ? why : path);
	}
	tui_message(app, false, "exported to %s; figures: %s", json, said);
}

/* The ladder's marks from the host the exported file records. */
static size_t ladder_marks(struct tui_app *app, struct tl_plot_mark *marks, size_t max)
{
	json_t *host;
	size_t n;

	if (app->res.replay && app->node.host_json)
		return tl_host_json_marks(app->node.host_json, marks, max);
	host = tl_host_to_json(&app->node.host);
	n = tl_host_json_marks(host, marks, max);
	json_decref(host);
	return n;
}

static int write_run_figure(struct tui_app *app, const struct tl_plot_opts *o, const char *path,
		    char *why, size_t whylen)
{
	struct tl_plot_mark marks[16];
	size_t n;

	if (o->kind != TL_PLOT_LADDER)
		return tl_plot_run(&app->res.run, app->res.os, app->res.seed, o, path, why, whylen);
	n = ladder_marks(app, marks, 16);
	return tl_plot_ladder(&app->res.run, app->res.os, app->res.seed, marks, n, o, path, why, whylen);
}

static bool has_loads(const struct tl_run *run)
{
	for (size_t i = 0; i < run->ncells; i++)
		if (!run->cells[i].hidden && run->cells[i].kernel.kind == TL_KERNEL_LOAD)
			return true;
	return false;
}

void tui_live_export_figures(struct tui_app *app, const char *json)
{
	/* What `ticklab plot` draws of a run: the histograms, and the CDFs of
	 * the Live screen's lower pane overlaid; of a ladder run, the ladder
	 * (a histogram per load size says nothing a lecture can read). */
	static const struct tui_figure figs[] = {{TL_PLOT_HIST, ".svg"}, {TL_PLOT_CDF, "-cdf.svg"}};
	static const struct tui_figure ladder[] = {{TL_PLOT_LADDER, "-ladder.svg"}};

	if (has_loads(&app->res.run))
		tui_export_figures(app, json, ladder, 1, write_run_figure);
	else
		tui_export_figures(app, json, figs, sizeof figs / sizeof figs[0], write_run_figure);
}
