/* What the export keys write: a run's JSON or CSV (and the JSON of a
 * search, through tui_export_json), under a name that says what and when,
 * in the working directory or, when that cannot be written, in $TMPDIR. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io/analysis.h"
#include "io/host_json.h"
#include "io/results.h"
#include "tui/app.h"

static void export_name(char *buf, size_t len, const char *kind, const char *ext)
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
	if (!doc) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	int rc = tl_json_write(path, doc, why, whylen);
	json_decref(doc);
	return rc;
}

int tui_live_export(struct tui_app *app, bool csv, bool interrupted, char *path, size_t pathlen,
		    char *why, size_t whylen)
{
	if (!app->have_run) {
		snprintf(why, whylen, "nothing to export: run something first (Enter on Setup)");
		return -1;
	}
	if (app->thread_live) {
		snprintf(why, whylen, "the run is still sampling: export when it ends (Ctrl-C saves a "
				      "session now)");
		return -1;
	}
	export_name(path, pathlen, interrupted ? "session" : "run", csv ? "csv" : "json");
	if (csv)
		return tl_run_write_csv(path, &app->run, why, whylen);

	struct tl_analysis *an = calloc(app->run.ncells ? app->run.ncells : 1, sizeof *an);
	if (!an) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < app->run.ncells; i++)
		tl_cell_analyse(&app->run, i, app->os, app->run_seed, &an[i]);
	json_t *host = NULL;
	if (app->replay && app->host_json)
		host = json_deep_copy(app->host_json);
	else {
		tui_info_ensure(app);
		host = tl_host_to_json(&app->host);
	}
	json_t *doc = tl_run_to_json(&app->run, an, app->os, app->run_seed,
				     interrupted || app->interrupted, host);
	free(an);
	return tui_export_json(path, doc, why, whylen);
}
